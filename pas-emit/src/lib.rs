//! `pas-emit`: the one Rust emitter of pas. A registry becomes exactly the code a person would
//! write with `#[derive(AgentTool)]`: clap types per command carrying `#[agent(...)]`, a
//! `Handlers` trait with one typed method per command, and `app`, which wires them.
//!
//! It depends on `pas-spec` only and must never depend on the runtime or the macros: both the
//! proc macro and `pas-gen` link it (ARCHITECTURE.md at the repository root).
//!
//! Both spec-first ways in go through it: `pas::include_spec!` expands [`emit`]'s tokens at
//! compile time, and `pas-gen new`/`generate` write [`emit_file`]'s formatted text. A derive-built
//! binary prints its registry back with `--pas-spec`; for a spec the emitter accepts that is the
//! spec's registry in [`canonical`] form.
//!
//! The pipeline is one step per file: `plan` decides the tree and the names,
//! `types`/`handlers` write tokens, `text` escapes spec text for Rust, `file` formats.
//!
//! ```
//! use pas_spec::{Format, Source};
//!
//! let spec = "\
//! specVersion: 1
//! name: todo
//! version: 0.1.0
//! summary: Track tasks.
//! level: 1
//! commands:
//!   - name: task.create
//!     description: Create a task.
//!     effect: write
//!     parameters:
//!       - name: title
//!         kind: positional
//!         required: true
//!         description: The task's title.
//!     output: object
//! ";
//! let registry = pas_spec::load::parse(&Source::new("todo.yaml", spec, Format::Yaml)).unwrap();
//!
//! // The module `include_spec!` expands to: clap types, the `Handlers` trait and `app`.
//! let code = pas_emit::emit(&registry).unwrap().to_string();
//! assert!(code.contains("trait Handlers"));
//!
//! // The one method a user writes for the command, as `pas-gen new` stubs it.
//! let methods = pas_emit::handler_signatures(&registry).unwrap();
//! assert_eq!(methods[0].command, "task.create");
//! println!("fn {}(&self, {}) -> Result<{}, Error>", methods[0].method, methods[0].params, methods[0].output);
//! ```
#![deny(missing_docs)]

mod agent;
mod canonical;
mod codes;
mod error;
#[cfg(feature = "format")]
mod file;
mod handlers;
mod items;
mod names;
mod params;
mod plan;
mod text;
mod types;

use pas_spec::Registry;
use proc_macro2::TokenStream;

pub use canonical::canonical;
pub use error::{EmitError, UNSUPPORTED_SPEC};
#[cfg(feature = "format")]
pub use file::{emit_file, header};
pub use text::is_bidi;

/// The mark of a file the emitter owns: `pas-gen generate` rewrites only files whose first line
/// holds it.
pub const GENERATED: &str = "@generated";

/// Whether `text` is a file the emitter wrote (its first line holds [`GENERATED`]).
pub fn is_generated(text: &str) -> bool {
    text.lines()
        .next()
        .is_some_and(|line| line.contains(GENERATED))
}

/// Whether the emitter can write `registry` at all: the same refusal [`emit`] and
/// [`handler_signatures`] give, before any file is written.
pub fn check(registry: &Registry) -> Result<(), EmitError> {
    plan::plan(registry).map(drop)
}

/// The items of the generated module for `registry`: types, the `Handlers` trait and `app`.
pub fn emit(registry: &Registry) -> Result<TokenStream, EmitError> {
    let plan = plan::plan(registry)?;
    let types = types::types(&plan)?;
    let handlers = handlers::handlers(&plan);
    Ok(quote::quote!(#types #handlers))
}

/// One method of the generated `Handlers` trait, as text for a user-owned file (a stub, or what
/// `pas-gen generate` says a changed spec now needs). Every part is a Rust identifier or type
/// the emitter made, never spec text, except `command` and `description`, which a template must
/// escape.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HandlerSignature {
    /// The command's dotted name.
    pub command: String,
    /// The command's description.
    pub description: String,
    /// The method's name (`task_create`, `r#type`).
    pub method: String,
    /// Its parameters after `&self`, with `pas` items unqualified
    /// (`globals: &Globals, args: TaskCreateArgs, ctx: &Context`).
    pub params: String,
    /// Its success type, unqualified (`Items<TaskListItem>`).
    pub output: String,
}

/// The generated `ErrorCode` enum's variants: (the exit code's name, its variant), in the
/// registry's order (`("CITY_NOT_FOUND", "CityNotFound")`).
pub fn error_code_variants(registry: &Registry) -> Vec<(String, String)> {
    registry
        .exit_codes
        .iter()
        .map(|code| code.name.clone())
        .zip(codes::variants(registry))
        .collect()
}

/// The `pas::Resources` methods a scaffold of `registry` stubs (none without resources).
pub fn resource_signatures(registry: &Registry) -> Vec<HandlerSignature> {
    handlers::resource_stubs(registry)
}

/// The methods a user implements for `registry`, in registry order.
pub fn handler_signatures(registry: &Registry) -> Result<Vec<HandlerSignature>, EmitError> {
    let plan = plan::plan(registry)?;
    Ok(plan
        .leaves
        .iter()
        .map(|leaf| handlers::signature(&plan, leaf))
        .collect())
}
