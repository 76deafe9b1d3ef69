//! pas-gen: check, document and scaffold pas specs.
//!
//! It depends on every other crate of the workspace (the runtime with every face, the emitter,
//! the conformance engine) and nothing may depend on it: it is the tooling, never linked by a
//! built CLI (ARCHITECTURE.md at the repository root).
//!
//! pas-gen is itself a pas tool: its registry is its own spec (`pas-gen.yaml`), and the `pas`
//! runtime gives it the PAS contract (`--agent` anywhere, NDJSON on stdout, JSON errors on
//! stderr, semantic exit codes, `--agent --help`), exactly as it does for the CLIs it checks.

mod changes;
mod check;
mod cmd_conform;
mod cmd_docs;
mod cmd_generate;
mod cmd_new;
mod cmd_plugin;
mod cmd_skill;
mod commands;
mod import;
mod render;
mod scaffold;

use std::process::ExitCode;

/// pas-gen's own spec, checked by its tests like any example spec.
const SPEC: &str = include_str!("../pas-gen.yaml");

fn main() -> ExitCode {
    let source = pas_spec::Source::new("pas-gen.yaml", SPEC, pas_spec::Format::Yaml);
    let registry = pas_spec::load::parse(&source).expect("pas-gen's own spec parses (tested)");
    pas::App::new(registry)
        .handler("check", commands::check)
        .handler("schema", commands::schema)
        .handler("agent-help", cmd_docs::agent_help)
        .handler("llm", cmd_docs::llm)
        .handler("catalog", cmd_docs::catalog)
        .handler("mcp", cmd_docs::mcp)
        .handler("skill", cmd_skill::skill)
        .handler("plugin", cmd_plugin::plugin)
        .handler("new", cmd_new::new)
        .handler("generate", cmd_generate::generate)
        .handler("conform", cmd_conform::run)
        .handler("import.openapi", import::openapi::command)
        .run_from(cmd_docs::route_help(std::env::args_os()))
}
