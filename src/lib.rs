//! `pas`: the runtime a Rust CLI links to keep an agent contract.
//!
//! A tool is described once (by `#[derive(AgentTool)]` beside clap, or by a spec) as a
//! [`pas_spec::Registry`]; this crate parses argv against it, runs the handler, and renders the
//! handler's typed result through the tool's contract profile (`pas`, `compose` or `robot`).
//! Handlers never print and never know which contract they serve.
//!
//! ```no_run
//! use pas::{App, Args, Context, Error, Reply};
//!
//! fn get(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
//!     let id: i64 = args.require("id")?;
//!     Ok(Reply::object(&serde_json::json!({ "id": id })))
//! }
//!
//! fn list(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
//!     let count: i64 = args.get("count")?.unwrap_or(3);
//!     Ok(Reply::list((0..count).map(|id| Ok(serde_json::json!({ "id": id })))))
//! }
//!
//! # fn registry() -> pas::spec::Registry { unimplemented!() }
//! fn main() -> std::process::ExitCode {
//!     App::new(registry()).handler("item.get", get).handler("item.list", list).run()
//! }
//! ```
//!
//! # The `pas` profile
//!
//! - `--agent` anywhere before `--` (or `PAS_AGENT=1`) turns on machine mode.
//! - Success: one JSON object; NDJSON for lists, each line flushed as produced when a reader
//!   may be waiting (pipe, socket, terminal) and batched into a file; `--format=array` for one
//!   JSON array; Markdown as is; NDJSON events.
//! - Failure: `{"error","message","code","suggestion","details"}` on stderr, one line; the exit
//!   code from the registry (built-ins in [`codes`]). A list that fails half-way keeps the whole
//!   lines already written (never half a line), then reports the error.
//! - `--agent --help`: [`faces::agent_help`]. `--version`: `NAME VERSION (PAS Level N Compliant)`.
//! - A closed stdout ends the call quietly with exit 0; a panic is `INTERNAL_ERROR` (exit 1);
//!   SIGINT/SIGTERM end it with `INTERRUPTED` (130) / `TERMINATED` (143) after a whole line.
//! - Secret parameters are `[REDACTED]` in errors and in `--audit-log FILE` records.
//! - `--pas-spec` prints the registry back as a JSON spec.
//! - Configuration files: global flag values from TOML, read from `--config FILE`, else
//!   `$<TOOL>_CONFIG`, else `$XDG_CONFIG_HOME/<tool>/config.toml` (`~/.config/...`) when it
//!   exists. Keys are global flag names, values their registry types; precedence is flag >
//!   environment > file > default, and handlers cannot tell a file value from a flag. A named
//!   file that is missing, an unknown key, a wrong type or bad TOML is `CONFIG_INVALID` (exit 2;
//!   blocking in compose) with a hint naming the file and key. Secrets from the file are
//!   redacted like any other.
//! - `--validate-pas` (PAS 9.2) runs `pas-gen conform`'s checks on the tool's own binary at its
//!   claimed level and contract: the same report (NDJSON with `--agent`); exit 1 when not met.
//!
//! # The `compose` profile
//!
//! One envelope per call on stdout, machine output always on (see `profile/compose.rs`):
//! `{"ok":true,"data","meta":{"tool","elapsed","count"?,"total"?,"hasMore"?,"cursor"?}}` or
//! `{"ok":false,"error":{"code","message","hint"},"meta"}`; exit 0, 1, or 2 for `blocking`
//! codes; built-ins `tools [NAME]`, `health` ([`App::health_check`]), `config show` (each global
//! flag's value and source: default, file, environment or flag; and the `configFile`), `--toon`;
//! `--dry-run` ([`Context::dry_run`]) and an enforced `--force` on destructive commands. A paged
//! list returns [`Reply::page`] with a [`Page`].

pub use pas_spec as spec;

mod app;
mod args;
pub mod argv;
mod audit;
mod builtins;
mod call_meta;
mod clap_augment;
pub mod clap_face;
mod closed_stdout;
pub mod codes;
mod config_file;
mod const_check;
mod context;
pub mod deadline;
mod doc_commands;
mod error;
pub mod faces;
pub mod input;
mod items;
pub mod level;
pub mod mcp;
mod output;
pub mod output_limit;
mod panics;
mod parse_error;
pub mod process;
mod profile;
mod progress;
mod redact;
mod render;
mod reply;
pub mod resources;
mod robot;
mod route;
mod sessions;
mod signals;
pub mod store;
pub mod time;
pub mod tool;
mod undeclared;
mod validate;
pub mod xdg;

pub use app::{App, Handler};
pub use args::Args;
pub use builtins::guard::FORCE_REQUIRED;
pub use builtins::health::{Check, CheckStatus, HealthCheck};
pub use builtins::tools::UNKNOWN_TOOL;
pub use call_meta::TRACE_ENV;
pub use context::Context;
pub use error::Error;
pub use items::Items;
pub use progress::Progress;
pub use redact::REDACTED;
pub use reply::{Page, Reply};
pub use resources::{NoGlobals, ResourcePath, Resources};
pub use robot::{ProseStyle, Severity, Warning};
pub use sessions::Session;
pub use tool::{AgentTool, registry_of, run};

/// `#[derive(AgentTool)]`: see [`tool`] and the `pas-macros` crate for its `#[agent(...)]` keys.
pub use pas_macros::AgentTool;

/// `pas::include_spec!("spec.yaml")`: the spec-first tool, at compile time. The path is relative
/// to the crate's `Cargo.toml`; the spec is loaded and validated as `pas-gen check` does (every
/// error a compile error naming file:line:col), and expands to what `pas-gen generate` writes:
/// the clap types deriving [`AgentTool`], a `Handlers` trait with one typed method per command,
/// and `app(handlers) -> App`. Put it in a module of its own (`mod spec { pas::include_spec!(..); }`);
/// the crate needs `clap`, `serde`, `serde_json` and `schemars` as dependencies.
pub use pas_macros::include_spec;

/// What `#[derive(AgentTool)]` expands to refers to; not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::const_check::declares;
    pub use crate::tool::private::*;
}
