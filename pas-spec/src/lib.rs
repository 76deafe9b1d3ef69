//!
//! It is the bottom of the workspace: it depends on no other crate of pas and must never do so
//! (the runtime, the emitter, the macros and the tooling all read the registry from here; see
//! ARCHITECTURE.md at the repository root).
#![deny(missing_docs)]
//! `pas-spec`: the registry model of pas and everything that reads or writes it as text.
//!
//! ```
//! use pas_spec::{Format, Source, check_source};
//!
//! let yaml = "\
//! specVersion: 1
//! name: hello
//! version: 1.0.0
//! summary: Say hello.
//! level: 1
//! commands:
//!   - name: hello
//!     path: []
//!     description: Greet the world.
//!     output: object
//! ";
//! let (registry, diagnostics) = check_source(&Source::new("hello.yaml", yaml, Format::Yaml));
//! assert!(diagnostics.is_empty(), "{diagnostics:?}");
//! let registry = registry.expect("a valid spec gives its registry");
//! assert_eq!(registry.commands[0].name, "hello");
//!
//! // The text faces every built CLI prints, made from the registry alone.
//! let help = pas_spec::faces::agent_help::render_tool(&registry);
//! assert!(help.contains("hello"));
//! let spec_back = pas_spec::write::to_json(&registry);
//! assert!(spec_back.contains("\"specVersion\""));
//!
//! // A mistake is a diagnostic with a stable code, the file:line:col and a hint.
//! let misspelt = yaml.replace("summary:", "sumary:");
//! let (_, diagnostics) = check_source(&Source::new("hello.yaml", misspelt, Format::Yaml));
//! let first = &diagnostics[0];
//! assert!(first.is_error());
//! assert_eq!(first.location.as_ref().map(|l| l.line), Some(4));
//! println!("{}: {} {} ({:?})", first.location.as_ref().unwrap(), first.code, first.message, first.hint);
//! ```
//!
//! - [`model`]: the registry (a tool and its commands); also the spec format v1.
//! - [`load`]: reading a spec from YAML or JSON, with file:line:col on every error.
//! - [`source_map`]: JSON pointer to line and column, so later diagnostics can point into the file.
//! - [`validate`]: every semantic problem at once, each with a stable code and a hint.
//! - [`schema`]: the spec format's JSON Schema, generated from the model.
//! - [`write`](mod@write): the registry printed back as a YAML or JSON spec.
//! - [`verbs`]: the level 3 and 4 verb commands synthesized from `resources`.
//! - [`diagnostic_codes`]: every diagnostic code (`E0NN`, `W0NN`) with its summary.
//! - [`builtin_codes`]: the error constants and exit codes every built CLI has.
//! - [`runtime_codes`]: the runtime's other constants; no tool may declare any of them.
//! - [`faces`]: the text faces (agent help, `.llm`, MCP `tools/list`), shared with the runtime.
//!
//! Parse, validate and emit are separate steps: [`check_source`] runs the first two.
//!
//! Cargo features (all on by default; the runtime turns them off and keeps the model, the
//! faces and `write::to_json`): `load` (the loader, the source map, `write::to_yaml`),
//! `validate` (the validator, `naming`, and `check_source` with `load`), `template` (the `.llm` face
//! through a minijinja template).

pub mod argv_tree;
pub mod builtin_codes;
pub mod declare;
pub mod derive_declared;
pub mod diagnostic;
pub mod diagnostic_codes;
pub mod faces;
pub mod features;
pub mod hardening;
pub mod job;
mod json_order;
#[cfg(feature = "load")]
pub mod load;
pub mod model;
pub mod robot;
pub mod runtime_codes;
pub mod schema;
mod shell_line;
pub mod sorting;
#[cfg(feature = "load")]
pub mod source_map;
pub mod surface;
#[cfg(feature = "validate")]
pub mod validate;
pub mod verbs;
pub mod versioning;
pub mod write;

pub use diagnostic::{Diagnostic, Location, Severity};
pub use features::Features;
#[cfg(feature = "load")]
pub use load::{Format, Source};
pub use model::*;
#[cfg(feature = "load")]
pub use source_map::SourceMap;
/// Spelling rules and name mappings (kebab-case, UPPER_SNAKE_CASE, Rust identifiers) shared by the
/// validator, the derive and the emitter, so all three accept and map names the same way.
#[cfg(feature = "validate")]
pub use validate::casing as naming;
pub use versioning::{ChangelogEntry, Stability};

/// Parse and validate one source: the registry when it could be read, and every diagnostic
/// (loader errors, or the validator's errors and warnings) with its location resolved.
#[cfg(all(feature = "load", feature = "validate"))]
pub fn check_source(source: &Source) -> (Option<Registry>, Vec<Diagnostic>) {
    match load::parse_all(source) {
        Err((mut diagnostics, Some(meant))) => {
            // Every loader problem was a misspelt key: check what the author meant as well.
            let mut more = validate::validate(&meant);
            SourceMap::build(source).locate(&source.name, &mut more);
            diagnostics.extend(more);
            diagnostics.sort_by_key(|d| d.location.as_ref().map(|l| (l.line, l.column)));
            (None, diagnostics)
        }
        Err((diagnostics, None)) => (None, diagnostics),
        Ok(registry) => {
            let mut diagnostics = validate::validate(&registry);
            if !diagnostics.is_empty() {
                SourceMap::build(source).locate(&source.name, &mut diagnostics);
                // The validator orders by the model's field order; free-form JSON inside a schema
                // has no such order, so the file's own positions decide (stable: ties keep order).
                diagnostics.sort_by_key(|d| d.location.as_ref().map(|l| (l.line, l.column)));
            }
            (Some(registry), diagnostics)
        }
    }
}
