//! Error constants the tool declares (PAS 3.3, 7.1): an agent looks a failure's `error` up in
//! the tool's ERROR CODES, so a handler that fails with a code the registry does not know (a
//! typo such as `CITY_NOTFOUND`) breaks the contract. A pas-built tool in a debug build reports
//! it itself (`INTERNAL_ERROR` with `details.undeclared`), which fails this check; any other
//! constant neither declared nor the runtime's own (pas-spec's `runtime_codes`, the list pas's
//! runtime defines its constants in) is noted, since other runtimes add constants of their own.

use pas_spec::{Registry, declare, runtime_codes};
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
        if !is_known(&registry, &code) && !unknown.contains(&code) {
            unknown.push(code);
        }
    }
    let verdict = Verdict::pass(&failures.iter().collect::<Vec<_>>());
    if unknown.is_empty() {
        verdict
    } else {
        verdict.note(format!(
            "constants neither declared nor pas's own (another runtime's?): {}",
            unknown.join(", ")
        ))
    }
}

/// Whether an agent can look `code` up: the tool declares it, or pas's runtime raises it itself
/// (a built-in, a constant of its own such as `FORCE_REQUIRED`, or one the tool's `auth` or
/// `requirements` let it raise).
fn is_known(registry: &Registry, code: &str) -> bool {
    runtime_codes::owned_by_runtime(code)
        || runtime_codes::HANDLER_CODES.contains(&code)
        || registry.exit_codes.iter().any(|c| c.name == code)
        || declare::declared_code_in(registry, code)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (issue 29): conform noted pas's own `FORCE_REQUIRED` as "neither declared nor
    /// built in".
    #[test]
    fn the_runtime_s_own_constants_are_known_and_a_stranger_is_not() {
        let registry: Registry = serde_json::from_value(serde_json::json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "s",
            "exitCodes": [{"code": 100, "name": "NOT_FOUND", "meaning": "m"}],
            "commands": [{"name": "rm", "description": "d", "effect": "destructive"}]
        }))
        .unwrap();
        for code in [
            "FORCE_REQUIRED",
            "TIMEOUT",
            "INVALID_VALUE",
            "FEATURE_NOT_BUILT",
            "NOT_IMPLEMENTED",
            "STORE_FILE_INVALID",
            "NOT_FOUND",
        ] {
            assert!(is_known(&registry, code), "{code}");
        }
        assert!(!is_known(&registry, "NOT_FUOND"));
        assert!(
            !is_known(&registry, "AUTH_REQUIRED"),
            "the tool declares no auth"
        );
    }
}
