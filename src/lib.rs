//! `pas`: the runtime a Rust CLI links to keep an agent contract.
//!
//! It depends on `pas-spec`, `pas-macros` and (feature `validate-pas`) `pas-conform`, and must
//! never depend on `pas-gen` or `pas-emit`: every built CLI links it, so it carries no tooling.
//! Its own folders follow one call and import only downwards (ARCHITECTURE.md at the repository
//! root; `tests/layers.rs` holds both).
//!
//! A tool is described once (by `#[derive(AgentTool)]` beside clap, or by a spec) as a
//! [`pas_spec::Registry`]; this crate parses argv against it, runs the handler, and renders the
//! handler's typed result through the tool's contract profile (`pas`, `compose` or `robot`).
//! Handlers never print and never know which contract they serve.
//!
//! # Getting started
//!
//! ```sh
//! cargo add pas-kit schemars serde_json
//! cargo add clap serde --features clap/derive,serde/derive
//! ```
//!
//! The package is `pas-kit`, the library `pas` (`use pas::...`). Three ways in follow, each a
//! whole program: a CLI described by clap's derive plus `#[derive(AgentTool)]`, one described by
//! a spec, and a level 3 data tool whose data are paths. A real `main` ends with
//! [`App::run`], which reads the process's argv and returns its `ExitCode`; the examples run
//! one call each through [`App::run_from`] instead, which takes the argv and returns the code,
//! and the comments show what the call prints.
//!
//! ## 1. A derive-built CLI: `#[derive(AgentTool)]` beside clap
//!
//! clap keeps describing the arguments; `#[agent(...)]` adds what clap has no word for: the PAS
//! level, the exit codes a failure can end with, examples, and the type of the output (any
//! `schemars::JsonSchema` type). The handler gets the parsed `Cli` and returns a [`Reply`] or an
//! [`Error`]; it never prints. The derive's keys are listed in the `pas-macros` crate.
//!
//! ```
//! use std::process::ExitCode;
//!
//! use clap::Parser;
//! use pas::{AgentTool, App, Context, Error, Reply};
//!
//! /// Greet someone by name.
//! #[derive(Parser, AgentTool)]
//! #[command(name = "greet", version = "1.0.0")]
//! #[agent(
//!     level = 2,
//!     exit_code(100, NAME_EMPTY, "The name is empty"),
//!     example("greet --agent --name Ada", "Greet Ada, as one JSON object"),
//!     command(name = "greet", output = Greeting, errors(NAME_EMPTY)),
//! )]
//! struct Cli {
//!     /// Who to greet.
//!     #[arg(long, default_value = "world")]
//!     name: String,
//! }
//!
//! /// What `greet` answers.
//! #[derive(serde::Serialize, schemars::JsonSchema)]
//! struct Greeting {
//!     /// The whole sentence.
//!     greeting: String,
//! }
//!
//! fn greet(cli: Cli, _ctx: &Context) -> Result<Reply, Error> {
//!     if cli.name.trim().is_empty() {
//!         return Err(Error::new("NAME_EMPTY", "the name is empty")
//!             .with_suggestion("greet --agent --name Ada"));
//!     }
//!     let greeting = format!("hello {}", cli.name);
//!     // The JSON for agents, and the line people see without --agent.
//!     Ok(Reply::object_with_text(&Greeting { greeting: greeting.clone() }, greeting))
//! }
//!
//! fn main() {
//!     let app = App::from_tool::<Cli, _>(greet);
//!     // Your binary: `fn main() -> ExitCode { App::from_tool::<Cli, _>(greet).run() }`.
//!     let code = app.run_from(["greet", "--agent", "--name", "Ada"]);
//!     // stdout: {"greeting":"hello Ada"}
//!     assert_eq!(code, ExitCode::SUCCESS);
//! }
//! ```
//!
//! A failure is one JSON line on stderr and the exit code the tool declared:
//!
//! ```
//! # use std::process::ExitCode;
//! # use clap::Parser;
//! # use pas::{AgentTool, App, Context, Error, Reply};
//! # /// Greet someone by name.
//! # #[derive(Parser, AgentTool)]
//! # #[command(name = "greet", version = "1.0.0")]
//! # #[agent(level = 2, exit_code(100, NAME_EMPTY, "The name is empty"),
//! #     example("greet --agent --name Ada", "Greet Ada"), command(name = "greet", errors(NAME_EMPTY)))]
//! # struct Cli {
//! #     /// Who to greet.
//! #     #[arg(long, default_value = "world")]
//! #     name: String,
//! # }
//! # fn greet(cli: Cli, _ctx: &Context) -> Result<Reply, Error> {
//! #     if cli.name.trim().is_empty() {
//! #         return Err(Error::new("NAME_EMPTY", "the name is empty")
//! #             .with_suggestion("greet --agent --name Ada"));
//! #     }
//! #     Ok(Reply::object(&serde_json::json!({ "greeting": format!("hello {}", cli.name) })))
//! # }
//! let code = App::from_tool::<Cli, _>(greet).run_from(["greet", "--agent", "--name", ""]);
//! // stderr: {"error":"NAME_EMPTY","message":"the name is empty","code":100,
//! //          "suggestion":"greet --agent --name Ada"}
//! assert_eq!(code, ExitCode::from(100));
//! ```
//!
//! With nothing more, the binary answers `greet --agent --help` (the contract an agent reads),
//! `greet --agent --version` (`greet 1.0.0 (PAS Level 2 Compliant)`; a person's `--version` is clap's `greet 1.0.0`), `greet docs` (the `.llm` file
//! and the Agent Skills `SKILL.md` with `--skill`) and `greet --pas-spec` (the registry as a
//! spec); the tooling faces `greet completions bash`, `greet man`, `greet --validate-pas` (the
//! conformance checks on itself) and `greet mcp` (an MCP server over stdio) come with the cargo
//! features of those names (`full` for all). A unit test keeps the description sound:
//! `pas_spec::validate::validate(&pas::registry_of::<Cli>())`, with `pas-spec` as a
//! dev-dependency, returns every problem `pas-gen check` would report.
//!
//! ## 2. A spec-driven CLI
//!
//! The tool is described in a YAML or JSON spec (the format: `specs/README.md` of the
//! repository; `pas-gen check SPEC` reports every problem in one, and so does
//! `pas_spec::check_source` in a test). Loaded at run time (`pas::spec::load`, the `load`
//! feature where pas-kit makes it optional), the registry builds the parser, and handlers are
//! registered by the command's dotted name; [`Args`] reads each parameter by its snake_case
//! name:
//!
//! ```
//! use std::process::ExitCode;
//!
//! use pas::spec::{Format, Source};
//! use pas::{App, Args, Context, Error, Reply};
//!
//! const SPEC: &str = r#"
//! specVersion: 1
//! name: weather
//! version: 1.0.0
//! summary: Current conditions in a city.
//! level: 2
//! exitCodes:
//!   - code: 100
//!     name: CITY_NOT_FOUND
//!     meaning: No city has this name
//! examples:
//!   - command: weather --agent current Paris
//!     description: The conditions in Paris, as one JSON object
//! commands:
//!   - name: current
//!     description: The conditions now in one city.
//!     parameters:
//!       - name: city
//!         kind: positional
//!         required: true
//!         description: The city's name.
//!     output: object
//!     outputSchema:
//!       type: object
//!       properties:
//!         city: {type: string}
//!         celsius: {type: integer}
//!     errors: [CITY_NOT_FOUND]
//! "#;
//!
//! fn current(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
//!     let city: String = args.require("city")?;
//!     match city.as_str() {
//!         "Paris" => Ok(Reply::object(&serde_json::json!({ "city": city, "celsius": 18 }))),
//!         _ => Err(Error::new("CITY_NOT_FOUND", format!("no city is named {city}"))),
//!     }
//! }
//!
//! fn main() {
//!     // A spec that does not parse is a diagnostic with file:line:col and a hint.
//!     let source = Source::new("weather.yaml", SPEC, Format::Yaml);
//!     let registry = pas::spec::load::parse(&source).unwrap_or_else(|d| panic!("{d:?}"));
//!     let app = App::new(registry).handler("current", current);
//!     assert!(app.missing_handlers().is_empty());
//!     let code = app.run_from(["weather", "--agent", "current", "Paris"]);
//!     // stdout: {"city":"Paris","celsius":18}
//!     assert_eq!(code, ExitCode::SUCCESS);
//! }
//! ```
//!
//! [`include_spec!`] reads the spec at compile time instead: every mistake in it is a compile
//! error, and it generates typed clap structs, one output type per command, and a `Handlers`
//! trait with one method per command (what `pas-gen generate SPEC` writes as a file). With the
//! spec of the PAS standard's word counter at `specs/word-counter.yaml` beside `Cargo.toml`:
//!
//! ```
//! use std::process::ExitCode;
//!
//! use pas::{Context, Error, Items};
//!
//! mod spec {
//!     pas::include_spec!("specs/word-counter.yaml");
//! }
//!
//! struct WordCounter;
//!
//! impl spec::Handlers for WordCounter {
//!     fn count(&self, args: spec::Cli, _ctx: &Context) -> Result<Items<spec::CountItem>, Error> {
//!         // `files` is a `Vec<PathBuf>`: the spec gives it `format: path`.
//!         let counts = args.files.into_iter().map(|file| {
//!             let text = std::fs::read_to_string(&file).map_err(|err| {
//!                 Error::new("FILE_NOT_FOUND", format!("cannot read {}: {err}", file.display()))
//!             })?;
//!             let words = text.split_whitespace().count() as i64;
//!             let file = file.to_string_lossy().into_owned();
//!             Ok(spec::CountItem { file, file_bytes: None, words })
//!         });
//!         Ok(Items::new(counts))
//!     }
//! }
//!
//! fn main() {
//!     let file = std::env::temp_dir().join(format!("pas-doc-{}.txt", std::process::id()));
//!     std::fs::write(&file, "one two three").unwrap();
//!     let code = spec::app(WordCounter).run_from(["word-counter", "--agent", file.to_str().unwrap()]);
//!     // stdout: {"file":"/tmp/pas-doc-….txt","words":3}
//!     std::fs::remove_file(&file).unwrap();
//!     assert_eq!(code, ExitCode::SUCCESS);
//! }
//! ```
//!
//! ## 3. A level 3 data tool: resources with `ls`, `cat` and `stat`
//!
//! At PAS level 3 a tool's data are paths, read with the verbs PAS fixes. Declare the path
//! templates and the verbs each offers (`resource(...)`); the runtime adds the `ls`, `cat` and
//! `stat` commands, checks and matches the path, and calls your [`Resources`] implementation,
//! which returns typed answers ([`resources::Entry`], [`resources::Stat`], any JSON for `cat`).
//! A tool keeps commands of its own beside the verbs.
//!
//! ```
//! use std::process::ExitCode;
//!
//! use clap::Parser;
//! use pas::resources::{Entry, Stat};
//! use pas::{AgentTool, App, Context, Error, Items, NoGlobals, Reply, ResourcePath, Resources};
//!
//! /// The planets of the solar system, as paths.
//! #[derive(Parser, AgentTool)]
//! #[command(name = "planets", version = "1.0.0")]
//! #[agent(
//!     level = 3,
//!     exit_code(100, NOT_FOUND, "No planet at this path"),
//!     resource("/planets", ls, stat, "Every planet."),
//!     resource("/planets/{name}", cat, stat, "One planet: its facts as JSON."),
//!     example("planets --agent ls /planets", "Every planet, one JSON line each"),
//! )]
//! enum Cli {
//!     /// The number of planets.
//!     #[agent(output = Count)]
//!     Count,
//! }
//!
//! /// What `count` answers.
//! #[derive(serde::Serialize, schemars::JsonSchema)]
//! struct Count {
//!     /// How many planets there are.
//!     planets: usize,
//! }
//!
//! const PLANETS: [(&str, u32); 4] = [("mercury", 0), ("venus", 0), ("earth", 1), ("mars", 2)];
//!
//! struct Planets;
//!
//! impl Planets {
//!     /// The planet `/planets/{name}` names, or NOT_FOUND.
//!     fn find(path: &ResourcePath) -> Result<serde_json::Value, Error> {
//!         let name = path.param("name").unwrap_or_default();
//!         let (name, moons) = PLANETS.iter().find(|(n, _)| *n == name).ok_or_else(|| {
//!             Error::new("NOT_FOUND", format!("no planet at {path}"))
//!                 .with_suggestion("planets --agent ls /planets")
//!         })?;
//!         Ok(serde_json::json!({ "name": name, "moons": moons }))
//!     }
//! }
//!
//! impl Resources for Planets {
//!     type Globals = NoGlobals;
//!
//!     fn ls(&self, _: &NoGlobals, path: &ResourcePath, _: &Context) -> Result<Items<Entry>, Error> {
//!         let entries: Vec<Entry> =
//!             PLANETS.iter().map(|(name, _)| Entry::file(path.child(name)).with_name(*name)).collect();
//!         Ok(Items::ok(entries))
//!     }
//!
//!     fn cat(&self, _: &NoGlobals, path: &ResourcePath, _: &Context) -> Result<serde_json::Value, Error> {
//!         Planets::find(path)
//!     }
//!
//!     fn stat(&self, _: &NoGlobals, path: &ResourcePath, _: &Context) -> Result<Stat, Error> {
//!         if path.template() == Some("/planets") {
//!             return Ok(Stat::dir(path.as_str()));
//!         }
//!         let size = Planets::find(path)?.to_string().len() as u64;
//!         Ok(Stat::file(path.as_str(), size))
//!     }
//! }
//!
//! fn main() {
//!     let app = App::from_tool::<Cli, _>(|cli, _ctx| match cli {
//!         Cli::Count => Ok(Reply::object(&Count { planets: PLANETS.len() })),
//!     })
//!     .resources(Planets);
//!     assert!(app.missing_handlers().is_empty());
//!     let code = app.run_from(["planets", "--agent", "ls", "/planets"]);
//!     // stdout, one JSON line per planet:
//!     // {"path":"/planets/mercury","type":"file","name":"mercury"} ...
//!     assert_eq!(code, ExitCode::SUCCESS);
//! }
//! ```
//!
//! `planets --agent cat /planets/mars` prints `{"name":"mars","moons":2}`, `stat` its size, and
//! `cat /planets/pluto` fails with `NOT_FOUND` (exit 100). Level 4 adds the state verbs (`cp`,
//! `rm`, `sync`, `feedback`): see [`resources`] and the `notes` example of the repository.
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
//! - `--agent --help`: [`faces::agent_help`]. `--agent --version`: `NAME VERSION (PAS Level N Compliant)`; a person's `--version`, `-h` and bare call are clap's (`-h` with one agent line).
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
//! # Cargo features
//!
//! Lean by default: a default build links the model, the parser and the faces every tool prints
//! (help, `--agent --help`, `docs`, `docs --skill`, `tools`, `--pas-spec`), and none of the
//! tooling. Each optional face is a feature; built without it, the face answers with the
//! structured error [`FEATURE_NOT_BUILT`] (exit 1) naming the feature (`mcp`: `MCP_NOT_BUILT`).
//!
//! - `validate-pas`: `--validate-pas` (the conformance engine).
//! - `completions`: `TOOL completions SHELL`. `man`: `TOOL man [COMMAND...]`.
//! - `mcp`: `TOOL mcp`, an MCP server on stdio.
//! - `load`: `pas::spec::load`, reading a YAML/JSON spec at run time for [`App::new`].
//! - `full`: all of them.
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
#![deny(missing_docs)]

mod built;
mod builtins;
pub mod codes;
mod derive;
mod effect;
pub(crate) mod end;
mod error;
pub mod faces;
pub(crate) mod guards;
pub(crate) mod handler;
#[cfg(feature = "import")]
pub mod import;
pub(crate) mod parse;
mod profile;
mod render;
mod reply;
pub mod resources;
pub mod retry;
pub(crate) mod route;
pub(crate) mod run;
pub(crate) mod services;
mod stable;
pub(crate) mod stdio;
pub mod time;
pub(crate) mod transport;
mod warning;
pub mod xdg;

pub use pas_spec as spec;

// The public modules, at the paths they have always had; each lives in the folder of the call
// it belongs to (ARCHITECTURE.md).
pub use crate::guards::{deadline, defaults, input, output_limit};
pub use crate::parse::{argv, clap_face, level};
pub use crate::services::children::process;
pub use crate::services::{lock, net, store};
pub use crate::stdio::stdout_capture;
pub use crate::transport::mcp;

pub use crate::builtins::features::FEATURE_NOT_BUILT;
pub use crate::derive::{AgentTool, registry_of};
pub use crate::guards::redact::REDACTED;
pub use crate::handler::args::Args;
pub use crate::handler::context::Context;
pub use crate::handler::progress::Progress;
pub use crate::parse::robot_flags::ProseStyle;
pub use crate::profile::call_meta::TRACE_ENV;
pub use crate::reply::items::Items;
pub use crate::run::app::{App, Handler};
pub use crate::run::from_tool::run;
pub use crate::run::guard::FORCE_REQUIRED;
pub use crate::services::sessions::Session;
pub use crate::warning::{Severity, Warning};
pub use builtins::health::{Check, CheckStatus, HealthCheck};
pub use builtins::tools::UNKNOWN_TOOL;
pub use effect::Change;
pub use error::Error;
pub use reply::{Page, Reply};
pub use resources::{NoGlobals, ResourcePath, Resources};

/// `#[derive(AgentTool)]`: see [`tool`] and the `pas-macros` crate for its `#[agent(...)]` keys.
pub use pas_macros::AgentTool;

/// `pas::include_spec!("spec.yaml")`: the spec-first tool, at compile time. The path is relative
/// to the crate's `Cargo.toml`; the spec is loaded and validated as `pas-gen check` does (every
/// error a compile error naming file:line:col), and expands to what `pas-gen generate` writes:
/// the clap types deriving [`AgentTool`], a `Handlers` trait with one typed method per command,
/// and `app(handlers) -> App`. Put it in a module of its own (`mod spec { pas::include_spec!(..); }`);
/// the crate needs `clap`, `serde`, `serde_json` and `schemars` as dependencies.
pub use pas_macros::include_spec;

/// The README's "Use pas in your own CLI" example, compiled with the doctests (not run: its
/// `main` reads the process's argv). `tests/readme_own_cli.rs` checks that the README shows
/// this very file.
#[cfg(doctest)]
#[doc = concat!("```no_run\n", include_str!("../tests/readme/lines.rs"), "```")]
pub struct ReadmeOwnCli;

/// The README's "Spec first, read at compile time" block, compiled with the doctests (the
/// doctests' `Cargo.toml` is this crate's, so the spec path is the repository's
/// `specs/word-counter.yaml`); `tests/readme_own_cli.rs` checks that the README shows it.
#[cfg(doctest)]
#[doc = concat!("```\n", include_str!("../tests/readme/spec_first.rs"), "fn main() {}\n```")]
pub struct ReadmeSpecFirst;

// The derive's model at its public path: it lives in `src/derive/`, below every folder of the
// call, and `run` is the call itself, so the two meet here, in the facade.
pub mod tool {
    //! Code-first tools: `#[derive(AgentTool)]` beside clap's derives.
    //!
    //! The derive (crate `pas-macros`) emits an [`AgentTool`] impl that returns what the author
    //! wrote in `#[agent(...)]` and the JSON Schema of each field's type. [`registry_of`] pairs that
    //! with clap's own `Command` (introspection, as clap_mangen reads it: subcommands become argv
    //! paths, args become parameters) and builds the [`Registry`](pas_spec::Registry) every face is
    //! made from. [`App::from_tool`](crate::run::app::App::from_tool) and [`run`] run it with one typed
    //! handler.
    //!
    //! ```no_run
    //! use clap::Parser;
    //! use pas::{AgentTool, Context, Error, Reply};
    //!
    //! /// Greet someone.
    //! #[derive(Parser, AgentTool)]
    //! #[command(name = "greet", version = "1.0.0")]
    //! #[agent(level = 2, command(name = "greet"))]
    //! struct Cli {
    //!     /// Who to greet.
    //!     #[arg(long, default_value = "world")]
    //!     name: String,
    //! }
    //!
    //! fn greet(cli: Cli, _ctx: &Context) -> Result<Reply, Error> {
    //!     Ok(Reply::object(&serde_json::json!({ "greeting": format!("hello {}", cli.name) })))
    //! }
    //!
    //! fn main() -> std::process::ExitCode {
    //!     pas::run::<Cli, _>(greet)
    //! }
    //! ```
    //!
    //! A derive-built binary prints its registry as a JSON spec with `--pas-spec`, which
    //! `pas-gen check` accepts and reads back to the same registry.

    pub use crate::derive::*;
    pub use crate::run::from_tool::run;
}

/// What `#[derive(AgentTool)]` expands to refers to; not a stable API.
#[doc(hidden)]
pub mod __private {
    pub use crate::derive::const_check::declares;
    pub use crate::derive::private::*;
}
