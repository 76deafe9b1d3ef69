//! Declared errors, triggered (PAS 3.3, 7.1): each exit code whose spec gives a `trigger` is
//! caused on purpose, and the tool must fail with that code and name that constant. The other
//! error checks only see the failures the examples happen to cause; this one asks for each.

use pas_spec::ExitCode;
use serde_json::Value;

use super::{Verdict, compose, errors, robot};
use crate::context::Ctx;
use crate::plan;
use crate::runner::{Call, Run};
use crate::target::Contract;

/// What a stub handler of a scaffold answers: the trigger did not reach the code that fails.
const NOT_IMPLEMENTED: &str = "NOT_IMPLEMENTED";

/// errors.declared: every trigger fails with its exit code and names its constant.
pub fn declared(ctx: &mut Ctx) -> Verdict {
    let Some(registry) = ctx.registry.clone() else {
        return Verdict::skip("no spec: give --spec SPEC to know the declared errors");
    };
    let triggered: Vec<&ExitCode> = registry
        .exit_codes
        .iter()
        .filter(|c| c.trigger.is_some())
        .collect();
    if triggered.is_empty() {
        return Verdict::skip("no exit code of the spec has a `trigger`");
    }
    let (mut passed, mut skipped) = (Vec::new(), Vec::new());
    for exit in triggered {
        let line = exit.trigger.as_deref().unwrap_or_default();
        let args = match plan::argv(&registry, line) {
            Ok(args) => ctx.machine(&args),
            Err(why) => {
                skipped.push(format!("`{line}`: {why}"));
                continue;
            }
        };
        // Not cached and no files provided: the trigger runs in the scratch directory as written
        // (a missing file must stay missing).
        let run = ctx.run(&Call::new(&args));
        match judge(ctx.contract, exit, &run) {
            Ok(()) => passed.push(run),
            Err(Judged::Stub) => skipped.push(format!("`{line}`: {NOT_IMPLEMENTED} (a stub)")),
            Err(Judged::Wrong(why)) => {
                return Verdict::fail(format!("`{line}` (for {}): {why}", exit.name), &[&run]);
            }
        }
    }
    if passed.is_empty() {
        return Verdict::skip(format!(
            "no trigger reached its error: {}",
            skipped.join("; ")
        ));
    }
    let verdict = Verdict::pass(&passed.iter().collect::<Vec<_>>());
    if skipped.is_empty() {
        verdict
    } else {
        verdict.note(format!("not judged: {}", skipped.join("; ")))
    }
}

enum Judged {
    /// The call reached a stub, not the error: a skip, not a fail.
    Stub,
    /// The tool broke the rule.
    Wrong(String),
}

/// Whether `run` is the failure `exit` declares, under the contract's error channel.
fn judge(contract: Contract, exit: &ExitCode, run: &Run) -> Result<(), Judged> {
    let named = error_name(contract, run);
    if named.as_deref() == Ok(NOT_IMPLEMENTED) {
        return Err(Judged::Stub);
    }
    // compose exits 1, or 2 for a blocking code; its declared number is not the process status.
    let status = match contract {
        Contract::Compose => i32::from(exit.blocking) + 1,
        Contract::Pas | Contract::Robot => i32::from(exit.code),
    };
    if !run.exited(status) {
        let got = run.status();
        return Err(Judged::Wrong(format!(
            "ended with {got}, not exit {status}"
        )));
    }
    match named {
        Ok(name) if name == exit.name => Ok(()),
        Ok(name) => Err(Judged::Wrong(format!(
            "the error is {name}, not {}",
            exit.name
        ))),
        Err(why) => Err(Judged::Wrong(why)),
    }
}

/// The error constant a failed call reports: `error` on stderr (pas), the envelope's
/// `error.code` (compose), or a `status: error` envelope's `error.code` (robot).
pub(crate) fn error_name(contract: Contract, run: &Run) -> Result<String, String> {
    let value = match contract {
        Contract::Pas => errors::stderr_error(run)?,
        Contract::Compose => compose::envelope(run)?,
        Contract::Robot => {
            let value = robot::envelope(run)?;
            if value["status"] != "error" {
                return Err("the envelope's status is not error".into());
            }
            value
        }
    };
    let name = match contract {
        Contract::Pas => value.get("error"),
        Contract::Compose | Contract::Robot => value.get("error").and_then(|e| e.get("code")),
    };
    name.and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| "no error constant in the error".to_owned())
}
