//! `triage`: find your idle processes, plan which to end, end them after confirmation, verify.
//!
//! A robot-contract tool built from `triage.yaml`: the runtime keeps the contract (one
//! envelope per call, named exit codes, sessions with resume, safety gates, `--yes`,
//! `--compact`, `--fields`, `capabilities`); these handlers only read /proc (with `procfs`)
//! and send signals. It is safe to run anywhere: it only ever considers processes of the
//! current user whose command line matches `--match`, never PID 1 nor itself.

mod apply;
mod digest;
mod plan;
mod procs;
mod verify;

use std::process::ExitCode;

use pas::App;
use pas::spec::{Format, Registry, Source, load};

/// The spec, embedded at compile time.
const SPEC: &str = include_str!("../triage.yaml");

fn registry() -> Registry {
    load::parse(&Source::new(
        "examples/triage/triage.yaml",
        SPEC,
        Format::Yaml,
    ))
    .expect("triage.yaml is checked by the tests")
}

fn app() -> App {
    App::new(registry())
        .handler("snapshot", plan::snapshot)
        .handler("plan", plan::plan)
        .handler("explain", plan::explain)
        .handler("apply", apply::apply)
        .handler("verify", verify::verify)
        .capability_probe("proc_fs", || {
            std::path::Path::new("/proc/self/stat").exists()
        })
        .capability_action("kill_own", || true)
        .capability_action("kill_others", || false)
}

fn main() -> ExitCode {
    app().run()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_command_but_the_deprecated_alias_has_a_handler() {
        // `status` runs its replacement, the `sessions` built-in.
        assert_eq!(super::app().missing_handlers(), ["status"]);
    }

    #[test]
    fn the_spec_is_clean() {
        let source = pas::spec::Source::new("triage.yaml", super::SPEC, pas::spec::Format::Yaml);
        let (registry, diagnostics) = pas::spec::check_source(&source);
        assert!(
            registry.is_some() && diagnostics.is_empty(),
            "{diagnostics:#?}"
        );
    }
}
