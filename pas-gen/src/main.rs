//! pas-gen: check, document and scaffold pas specs.
//!
//! pas-gen is itself a pas tool: its registry is its own spec (`pas-gen.yaml`), and the `pas`
//! runtime gives it the PAS contract (`--agent` anywhere, NDJSON on stdout, JSON errors on
//! stderr, semantic exit codes, `--agent --help`), exactly as it does for the CLIs it checks.

mod check;
mod commands;
mod render;

use std::process::ExitCode;

/// pas-gen's own spec, checked by its tests like any example spec.
const SPEC: &str = include_str!("../pas-gen.yaml");

fn main() -> ExitCode {
    let source = pas_spec::Source::new("pas-gen.yaml", SPEC, pas_spec::Format::Yaml);
    let registry = pas_spec::load::parse(&source).expect("pas-gen's own spec parses (tested)");
    pas::App::new(registry)
        .handler("check", commands::check)
        .handler("schema", commands::schema)
        .run()
}
