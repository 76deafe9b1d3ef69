//! Error constants the tool declares (PAS 3.3, 7.1): an agent looks a failure's `error` up in
//! the tool's ERROR CODES, so a handler that fails with a code the registry does not know (a
//! typo such as `CITY_NOTFOUND`) breaks the contract. A pas-built tool in a debug build reports
//! it itself (`INTERNAL_ERROR` with `details.undeclared`), which fails this check; any other
//! constant neither declared nor built in is noted, since runtimes add constants of their own.

use pas_spec::builtin_codes;
use serde_json::Value;

use super::Verdict;
use super::errors::stderr_error;
use crate::context::Ctx;
use crate::runner::Run;

/// errors.known: no failure names a constant the tool does not declare.
pub fn known(ctx: &mut Ctx) -> Verdict {
    let Some(registry) = ctx.registry.clone() else {
        return Verdict::skip("no spec: give --spec SPEC to know the declared errors");
    };
    let failures: Vec<Run> = ctx
        .history
        .iter()
        .filter(|r| r.argv.iter().any(|a| a == "--agent"))
        .filter(|r| !r.timed_out && r.code.is_some_and(|c| c != 0))
        .cloned()
        .collect();
    let mut unknown = Vec::new();
    for run in &failures {
        let Ok(error) = stderr_error(run) else {
            continue;
        };
        if let Some(code) = error.pointer("/details/undeclared").and_then(Value::as_str) {
            return Verdict::fail(
                format!("a handler failed with `{code}`, which the tool does not declare"),
                &[run],
            );
        }
        let code = error["error"].as_str().unwrap_or_default().to_owned();
        let known = builtin_codes::builtin(&code).is_some()
            || registry.exit_codes.iter().any(|c| c.name == code);
        if !known && !unknown.contains(&code) {
            unknown.push(code);
        }
    }
    let verdict = Verdict::pass(&failures.iter().collect::<Vec<_>>());
    if unknown.is_empty() {
        verdict
    } else {
        verdict.note(format!(
            "constants neither declared nor built in (the runtime's own?): {}",
            unknown.join(", ")
        ))
    }
}
