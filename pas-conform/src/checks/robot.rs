//! The robot contract (sections 3 and 11): every call prints the common envelope, errors are
//! `status: error` with a structured error, and exit codes are the spec's named codes.
//!
//! The envelope fields checked are those the pas robot profile writes (`schema_version`,
//! `command`, `duration_ms`, `status`, `warnings`, `data`); the session fields of section 3.1
//! (`session_id`, `generated_at`, `host_id`) belong to session-keeping tools and are not required.

use serde_json::Value;

use super::errors::is_upper_snake;
use super::{Verdict, json};
use crate::context::Ctx;
use crate::runner::Run;

/// The envelope a call printed on stdout, or why it is not one.
pub fn envelope(run: &Run) -> Result<Value, String> {
    let value = json(&run.out()).map_err(|e| format!("stdout is not one JSON value: {e}"))?;
    if !value["schema_version"].is_string() {
        return Err("no string `schema_version`".into());
    }
    let status = value["status"].as_str().unwrap_or("");
    if !matches!(status, "success" | "partial" | "error") {
        return Err("`status` is not success, partial or error".into());
    }
    if status != "error" {
        let complete = value["command"].is_string()
            && value["duration_ms"].is_u64()
            && value["warnings"].is_array()
            && value.get("data").is_some();
        if !complete {
            return Err("a success lacks command, duration_ms, warnings or data".into());
        }
    }
    Ok(value)
}

/// robot.envelope: each example prints the envelope.
pub fn envelope_check(ctx: &mut Ctx) -> Verdict {
    let runs: Vec<Run> = ctx.example_runs().into_iter().map(|(_, r)| r).collect();
    if runs.is_empty() {
        return Verdict::skip(ctx.why_no_example());
    }
    Verdict::every(&runs, envelope)
}

/// robot.error: an unknown flag gives `status: error` with code, message and recoverable.
pub fn error(ctx: &mut Ctx) -> Verdict {
    let run = super::errors::unknown_flag_run(ctx);
    let value = match envelope(&run) {
        Ok(value) => value,
        Err(why) => return Verdict::fail(why, &[&run]),
    };
    let error = &value["error"];
    let ok = value["status"] == "error"
        && error["code"].as_str().is_some_and(is_upper_snake)
        && error["message"].is_string()
        && error["recoverable"].is_boolean();
    if ok && run.code.is_some_and(|c| c != 0) {
        Verdict::pass(&[&run])
    } else {
        Verdict::fail(
            "not status:error with error{code,message,recoverable} and a non-zero exit",
            &[&run],
        )
    }
}

/// robot.exit_codes: every exit seen is 0 or a code the spec names, and an error's code has the
/// exit code the spec gives that name.
pub fn exit_codes(ctx: &mut Ctx) -> Verdict {
    let Some(registry) = ctx.registry.clone() else {
        return Verdict::skip("no spec: the named exit codes come from it");
    };
    let named = |code: i32| {
        registry
            .exit_codes
            .iter()
            .any(|c| i32::from(c.code) == code)
    };
    let mut judged = Vec::new();
    for run in ctx.history.clone() {
        let Some(code) = run.code else { continue };
        if run.argv.iter().any(|a| a == "--help" || a == "--version") {
            continue;
        }
        if code != 0 && !named(code) {
            return Verdict::fail(
                format!("exit {code} is not a named code of the spec"),
                &[&run],
            );
        }
        if let Ok(value) = json(&run.out())
            && let Some(name) = value["error"]["code"].as_str()
            && let Some(declared) = registry.exit_codes.iter().find(|c| c.name == name)
            && i32::from(declared.code) != code
        {
            return Verdict::fail(
                format!("{name} exited {code}, the spec says {}", declared.code),
                &[&run],
            );
        }
        judged.push(run);
    }
    Verdict::pass(&judged.iter().collect::<Vec<_>>())
}
