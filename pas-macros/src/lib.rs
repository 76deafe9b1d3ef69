//! Procedural macros of pas. Use them through the runtime crate (`pas-kit`, library `pas`):
//! `use pas::AgentTool;`.
//!
//! It depends on `pas-spec` (the spellings a spec accepts) and `pas-emit` (the one emitter) and
//! must never depend on the runtime: a proc macro that linked `pas-kit` would build the runtime
//! twice and could not be used by it (ARCHITECTURE.md at the repository root).
//!
//! # `#[derive(AgentTool)]`
//!
//! Beside clap's `Parser`, `Args` and `Subcommand` derives, on a struct (one command) or an enum
//! (a group of commands, one per variant). `#[agent(...)]` carries what clap has no notion of;
//! everything clap knows stays clap's:
//!
//! - the tool's name, version and summary: `#[command(name, version)]` and the doc comment;
//! - commands and their argv words: clap's subcommands (variants, `#[command(name = ...)]`,
//!   aliases);
//! - parameters: clap's `Command`, read at run time (long, short, positional, variadic, required,
//!   default, env, possible values, help); a secret is `#[arg(env = "TOKEN", hide_env_values =
//!   true)]`, or `#[agent(secret)]` on the field for a secret given only as a flag;
//!   `#[agent(format = "path")]` (or `"resource-path"`, `"id"`) is the spec's `format`, what a
//!   string value is; and `#[agent(hardening = false)]` (or `hardening`) is the spec's
//!   `agentHardening` (the three field keys). A one-line doc comment keeps its final period in the registry (clap's `about`
//!   drops it). Each parameter's JSON type comes from its field's `schemars::JsonSchema` (or from
//!   clap's value parser for a type without one).
//!
//! The macro emits registry-building data only; `pas::registry_of::<Cli>()` pairs it with
//! `Cli::command()`, and `pas::run::<Cli, _>(handler)` runs the tool.
//!
//! ```
//! use clap::Parser;
//! use pas::AgentTool;
//!
//! /// Count the words in files.
//! #[derive(Parser, AgentTool)]
//! #[command(name = "word-counter", version = "1.0.0")]
//! #[agent(
//!     level = 2,
//!     exit_code(100, FILE_NOT_FOUND, "File not found"),
//!     exit_code(101, FILE_NOT_READABLE, "File not readable"),
//!     example("word-counter --agent file.txt", "Count words in one file"),
//!     anti_pattern("word-counter *.txt > out.txt", "Use --agent for machine-readable output"),
//!     command(name = "count", kind = "list", output = FileCount, errors(FILE_NOT_FOUND, FILE_NOT_READABLE)),
//! )]
//! struct Cli {
//!     /// The files to count.
//!     #[arg(required = true)]
//!     files: Vec<std::path::PathBuf>,
//! }
//!
//! /// The word count of one file.
//! #[derive(serde::Serialize, schemars::JsonSchema)]
//! struct FileCount {
//!     /// The file as named on the command line.
//!     file: String,
//!     /// Number of whitespace-separated words.
//!     words: u64,
//! }
//!
//! /// A group of commands: each variant is one.
//! #[derive(clap::Parser, AgentTool)]
//! #[command(name = "todo", version = "0.1.0")]
//! #[agent(level = 2, exit_code(100, NOT_FOUND, "No such task"))]
//! enum Todo {
//!     /// Create a task.
//!     #[agent(name = "task.create", effect = "write", output = Task)]
//!     Create {
//!         /// The task's title.
//!         #[arg(long)]
//!         title: String,
//!     },
//!     /// Delete a task.
//!     #[agent(name = "task.delete", effect = "destructive", kind = "none", errors(NOT_FOUND))]
//!     Delete {
//!         /// The task's id.
//!         id: u64,
//!     },
//! }
//!
//! /// One task.
//! #[derive(serde::Serialize, schemars::JsonSchema)]
//! struct Task {
//!     /// Its id.
//!     id: u64,
//!     /// Its title.
//!     title: String,
//! }
//!
//! // What the derive and clap describe together: the registry every face is made from.
//! let registry = pas::registry_of::<Cli>();
//! assert_eq!(registry.name, "word-counter");
//! assert_eq!(registry.exit_codes[0].name, "FILE_NOT_FOUND");
//! assert_eq!(registry.commands[0].parameters[0].name, "files");
//! assert!(registry.commands[0].output_schema.is_some());
//!
//! let registry = pas::registry_of::<Todo>();
//! let names: Vec<&str> = registry.commands.iter().map(|c| c.name.as_str()).collect();
//! assert_eq!(names, ["task.create", "task.delete"]);
//! // The derive-built registry passes the same validator as a spec.
//! let diagnostics = pas_spec::validate::validate(&registry);
//! assert!(diagnostics.iter().all(|d| !d.is_error()), "{diagnostics:?}");
//! ```
//!
//! ## Tool keys: on the root type (struct or enum)
//!
//! | key | example | registry field |
//! |---|---|---|
//! | `level` | `level = 2` | `level` (3 and 4 need `resource(...)` keys offering their verbs) |
//! | `profile` | `profile = "pas"` | `profile`: `"pas"`, `"compose"`, `"robot"` |
//! | `schema_version` | `schema_version = "1.0.0"` | `schemaVersion` (robot) |
//! | `changelog` | `changelog = "[{\"version\": \"1.0.0\", \"changes\": [\"...\"]}]"` (the spec's list as JSON) | `changelog` |
//! | `mask_high_entropy` | `mask_high_entropy` | `maskHighEntropy` (JWTs, keys, long base64 runs masked in output; `--unmask` returns them) |
//! | `declared` | `declared = "{\"auth\": {\"env\": [\"TOKEN\"]}, \"requirements\": [...]}"` (the spec's JSON; `"globalFlags": {"NAME": {...}}` for a global flag's constraints) | `auth`, `requirements`, global flags' `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `requires`, `conflicts` |
//! | `exit_code` | `exit_code(100, FILE_NOT_FOUND, "File not found")`, then optionally `blocking` or `success`, and a string: the invocation that triggers it | one of `exitCodes`; repeatable |
//! | `example` | `example("tool --agent a.txt", "Count one file")` (description optional) | one of `examples`; repeatable |
//! | `anti_pattern` | `anti_pattern("tool *.txt > out", "Use --agent")` | one of `antiPatterns`; repeatable |
//! | `command` | `command(name = "count", ...)` | a struct's own command (the keys below) |
//! | `resource` | `resource("/notes/{id}", cat, stat, rm, "One note")`: a path template, its verbs (`ls`, `cat`, `stat`, `cp`, `rm`, `sync`, `feedback`), then optionally a description | one of `resources`; repeatable. The runtime adds a command per verb and routes it to `App::resources` |
//!
//! ## Command keys: on each enum variant, or inside a struct's `command(...)`
//!
//! | key | example | registry field |
//! |---|---|---|
//! | `name` | `name = "task.create"` | `name` (dotted kebab-case; default: the argv words joined by `.`) |
//! | `category` | `category = "task"` | `category` |
//! | `declared` | `declared = "{\"auth\": true, \"needs\": [\"git\"], \"parameters\": {\"title\": {\"maxLength\": 80}}}"` (the spec's JSON; a parameter by its name) | `auth`, `scopes`, `needs`, `sideEffects`, `untrusted`, and each named parameter's `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `requires`, `conflicts` |
//! | `description` | `description = "..."` | `description`; only in a struct's `command(...)`, whose doc comment is the tool's (a variant's description is its doc comment) |
//! | `effect` | `effect = "write"` | `effect`: `"read"`, `"write"`, `"destructive"` |
//! | `idempotent` | `idempotent`, `idempotent = false` | `idempotent` |
//! | `rate_limit` | `rate_limit = "60/minute"` | `rateLimit` |
//! | `kind` | `kind = "list"` | `output`: `"object"` (default), `"list"`, `"document"`, `"events"`, `"none"`, `"job"` (an async job: the call answers a job descriptor, `TOOL job status ID` the result) |
//! | `poll_interval_ms` | `poll_interval_ms = 500` | `job.pollIntervalMs` (a `kind = "job"` command; default 1000) |
//! | `job_timeout_ms` | `job_timeout_ms = 60000` | `job.timeoutMs` (a `kind = "job"` command; default 3600000) |
//! | `output` | `output = Task` | `outputSchema` (of one item for lists), from `schemars`; required for `kind = "list"`, where `output = serde_json::Value` says items of any shape (no `outputSchema`, as a spec's list without one) |
//! | `input` | `input = NewTask` | `inputSchema`, from `schemars` |
//! | `output_schema` | `output_schema = "{\"type\":\"object\"}"` | `outputSchema`, exactly this JSON (what spec-first code writes); instead of `output` |
//! | `input_schema` | `input_schema = "{...}"` | `inputSchema`, exactly this JSON; instead of `input` |
//! | `errors` | `errors(NOT_FOUND, CONFLICT)` | `errors` |
//! | `example` | `example("todo --agent task create x", "...")` | one of `examples`; repeatable |
//! | `anti_pattern` | `anti_pattern("...", "...")` | one of `antiPatterns`; repeatable |
//! | `stdin` | `stdin = "required"` | `stdin`: `"none"`, `"optional"`, `"required"` |
//! | `dry_run` | `dry_run` | `dryRun` (the command's own `--dry-run` flag is then not listed as a parameter) |
//! | `deprecated` | `deprecated`, `deprecated(replacement = "task.remove", since = "0.3.0", message = "...")` | `deprecated` |
//! | `stability` | `stability = "beta"` (`stable`, `beta`, `experimental`) | `stability` |
//! | `paging` | `paging(limit = "limit", cursor = "cursor")` | `paging` |
//! | `timeout` | `timeout = 30`, `timeout = 2.5` | `timeout` (seconds; replaces the runtime's default, `PAS_TIMEOUT` may only lower it) |
//! | `max_output_bytes` | `max_output_bytes = 65536` | `maxOutputBytes` (the output bound in machine mode, lossless: the rest goes to a file; `--max-output` may only lower it) |
//! | `lock` | `lock = "deploy"` | `lock` (the runtime takes this lock for every call: one at a time, `LOCK_HELD` for the others) |
//! | `max_input_bytes` | `max_input_bytes = 65536` | `maxInputBytes` (stdin; replaces the runtime's input limit, `PAS_INPUT_LIMIT` may only lower it) |
//!
//! Where keys are read:
//!
//! - Tool keys only from the root type (the one given to `pas::registry_of`); on a nested
//!   `Subcommand` enum they are not read.
//! - A `#[command(subcommand)]` field or variant and a `#[command(flatten)]` variant must name a
//!   type that derives `AgentTool` too. A struct with a `#[command(subcommand)]` field is not a
//!   command: its args are the tool's global flags (at the root), its commands the enum's.
//! - A variant's keys are on the variant; a payload struct (`Create(CreateArgs)`) gives its
//!   fields' types (when it derives `AgentTool`), not command keys.
//! - Fields take no `#[agent]` keys.
//! - `output` and `input` name types deriving `schemars::JsonSchema` (schemars 1). A field type
//!   without `JsonSchema` is fine: its JSON type then comes from clap's value parser.
//!
//! Every mistake in these attributes is a compile error at its span, all of them at once: an
//! unknown key (with the closest key, or where the key belongs), a value of the wrong kind, an
//! unknown spelling, a name that is not dotted kebab-case, an exit code out of range, a list
//! without an item type, a key given twice. A command's `errors(...)` naming a code the root type
//! does not declare is one too, wherever the command is (a subcommand enum far from the root
//! included): each derive checks its commands' codes in a `const` the root evaluates, so the error
//! points at the code. Rules that need the whole built tool (examples parsed against clap, for
//! one) are the run-time validator's: `TOOL --validate-pas`, or `pas_spec::validate` in a test.
#![deny(missing_docs)]

mod ast;
mod attr;
mod ctxt;
mod errors_check;
mod expand;
mod limits;
mod spec;
mod valid;

use proc_macro::TokenStream;

/// Derives `pas::AgentTool`: see the crate documentation for the `#[agent(...)]` keys.
#[proc_macro_derive(AgentTool, attributes(agent))]
pub fn derive_agent_tool(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input).into()
}

/// `include_spec!("path/to/spec.yaml")`: the spec-first tool at compile time. See
/// `pas::include_spec` for what it expands to.
#[proc_macro]
pub fn include_spec(input: TokenStream) -> TokenStream {
    spec::include_spec(input.into()).into()
}
