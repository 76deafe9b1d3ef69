//! `--validate-pas` (PAS 9.2): the tool checks itself with the same engine and report as
//! `pas-gen conform`. The engine runs programs as black boxes, so the tool re-executes its own
//! binary (`current_exe`) rather than calling its handlers: what is judged is what agents see.
//! Built without the `validate-pas` feature, the flag is answered with `FEATURE_NOT_BUILT`.

use pas_spec::Registry;

#[cfg(feature = "validate-pas")]
use crate::end::call_state::Stop;
use crate::end::call_state::{Outcome, Shared};
#[cfg(feature = "validate-pas")]
use crate::error::Error;

/// `--validate-pas` in a tool built without the `validate-pas` feature.
#[cfg(not(feature = "validate-pas"))]
pub(crate) fn run(registry: &Registry, _: &Shared, _: bool) -> Outcome {
    Outcome::Failed(crate::builtins::features::not_built(
        registry,
        crate::parse::argv::VALIDATE_FLAG,
        "validate-pas",
    ))
}

/// Runs the checks of the tool's contract up to its claimed level on its own binary; writes the
/// report (a table, or NDJSON in agent mode) and fails with `GENERAL_ERROR` when not met.
#[cfg(feature = "validate-pas")]
pub(crate) fn run(registry: &Registry, shared: &Shared, agent: bool) -> Outcome {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe.to_string_lossy().into_owned(),
        Err(err) => {
            return Outcome::Failed(Error::general(format!(
                "cannot find the tool's own binary: {err}"
            )));
        }
    };
    let target = pas_conform::Target::resolve(vec![exe], Some(registry.clone()), None, None);
    let report = pas_conform::conform(&target);
    let text = if agent {
        report.to_ndjson()
    } else {
        report.to_text()
    };
    let written = shared.lock().sinks.stdout.write(text.as_bytes());
    if let Err(err) = written {
        return Stop::from(err).into();
    }
    if report.ok() {
        Outcome::Success
    } else {
        Outcome::Failed(
            Error::general(format!(
                "{} meets level {} of the level {} it claims",
                report.tool,
                report.level_met(),
                report.claimed
            ))
            .with_suggestion(format!(
                "the failed checks above list the calls that show each problem; \
                 `pas-gen conform -- {}` runs the same checks",
                registry.name
            )),
        )
    }
}
