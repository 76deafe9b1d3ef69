//! MCP Tasks (SEP-2663, the `io.modelcontextprotocol/tasks` extension) are pas jobs.
//!
//! A `tools/call` of a job command (`output: job`) from a client that takes tasks (it declared
//! the extension, for its session or in the call's `_meta`) starts the job detached exactly as
//! the command line does, and answers a `CreateTaskResult` whose `taskId` is the job id. A
//! client that takes no tasks, or a call with `wait: true`, runs the job to its end in the call,
//! as before. `tasks/get` reads the job's manifest and `tasks/cancel` is `job cancel`, so
//! `TOOL job status ID` and an MCP client follow one job and see one outcome, whichever side
//! started it (and after a client's own timeout too).
//!
//! The job's states map onto the task's:
//! - queued, running: `working`, with the job's progress in `statusMessage`;
//! - succeeded: `completed`, `result` the `tools/call` result the call would have had run in
//!   the call;
//! - failed with the handler's error, timed out: `completed`, `result` the call's `isError`
//!   result (SEP-2663 keeps `failed` for protocol errors);
//! - failed because its process vanished (`JOB_LOST`): `failed`, a JSON-RPC internal error;
//! - cancelled: `cancelled`.

use pas_spec::builtin_codes::{JOB_FAILED, JOB_LOST, JOB_TIMED_OUT};
// A new task's `_meta` holds the job's descriptor under it: its `status_command` and
// `cancel_command`, for an agent that follows the job from a shell.
use pas_spec::faces::mcp::META_JOB;
use serde_json::{Value, json};

use super::result::{self, Collected, Items};
use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::services::jobs::store::KEPT_MS;

/// JSON-RPC's internal-error code: the `error` of a task whose process vanished.
const INTERNAL_ERROR: i32 = -32603;

/// The `CreateTaskResult` of a job just started (its descriptor).
pub(crate) fn created(descriptor: &Value) -> Value {
    let mut task = base(
        &descriptor["job_id"],
        &descriptor["started_at"],
        &descriptor["started_at"],
        &descriptor["poll_interval_ms"],
    );
    task["resultType"] = json!("task");
    task["status"] = json!("working");
    task["statusMessage"] = json!(format!(
        "job {} started",
        descriptor["job_id"].as_str().unwrap_or("")
    ));
    task["_meta"] = json!({ META_JOB: descriptor });
    task
}

/// The `tasks/get` result of a job as its manifest records it now (`manifest`: the JSON of the
/// manifest's file). `error_result` makes the `isError` result of a `tools/call` that failed with
/// an error (its exit code and hint as a call in the session would have them).
pub(crate) fn detailed(
    manifest: &Value,
    redactor: &Redactor,
    error_result: &dyn Fn(Error) -> Value,
) -> Value {
    let text = |key: &str| manifest[key].as_str().unwrap_or_default().to_owned();
    let (id, started) = (text("id"), text("started_at"));
    let updated = manifest["ended_at"].as_str().unwrap_or(&started).to_owned();
    let mut task = base(
        &json!(id),
        &json!(started),
        &json!(updated),
        &manifest["poll_interval_ms"],
    );
    // Which job this is, and its words on the command line; the server stamps the inlined
    // result with its tool's schema hash as it stamps a call's (it finds the tool by `command`).
    task["_meta"] = json!({ META_JOB: {
        "job_id": id,
        "command": manifest["command"],
        "status_command": manifest["status_command"],
        "cancel_command": manifest["cancel_command"],
    }});
    let error = &manifest["error"];
    let (status, message) = match manifest["status"].as_str().unwrap_or_default() {
        "queued" => ("working", "queued".to_owned()),
        "running" => (
            "working",
            match manifest["progress_pct"].as_f64() {
                Some(pct) => format!("running, {pct}% done"),
                None => "running".to_owned(),
            },
        ),
        "succeeded" => {
            let value = manifest["result"].clone();
            task["result"] = result::success(collected(value), redactor);
            ("completed", "succeeded".to_owned())
        }
        "failed" if error["code"] == JOB_LOST => {
            task["error"] = json!({
                "code": INTERNAL_ERROR,
                "message": error["message"].as_str().unwrap_or("the job's process vanished"),
                "data": error,
            });
            (
                "failed",
                "its process ended without recording a result".to_owned(),
            )
        }
        "cancelled" => ("cancelled", "cancelled".to_owned()),
        // Failed with the handler's error, or past its time limit.
        status => {
            let fallback = match status {
                "timed_out" => JOB_TIMED_OUT,
                _ => JOB_FAILED,
            };
            let error = error_of(error, fallback);
            let message = error.message().to_owned();
            task["result"] = error_result(error);
            ("completed", message)
        }
    };
    task["status"] = json!(status);
    task["statusMessage"] = json!(message);
    task
}

/// The fields every task carries: its id, times, retention and polling pace.
fn base(id: &Value, created: &Value, updated: &Value, poll: &Value) -> Value {
    json!({
        "taskId": id,
        "createdAt": created,
        "lastUpdatedAt": updated,
        // A job's record is kept this long after its start once it ended (never while it runs).
        "ttlMs": KEPT_MS,
        "pollIntervalMs": poll,
    })
}

/// The stored result as the call collected it: a list's items were stored as one array.
fn collected(value: Value) -> Collected {
    match value {
        Value::Array(items) => Collected::Items(Items {
            items,
            page: None,
            truncated: false,
            rest: None,
            continuation: None,
            carried: None,
        }),
        Value::String(text) => Collected::Document(text),
        Value::Null => Collected::Nothing,
        value => Collected::Object(value),
    }
}

/// The error a failed or timed-out job recorded (`{code, message, suggestion?, details?}`), as
/// the runtime's error again (`fallback` its code when the record has none).
fn error_of(stored: &Value, fallback: &'static str) -> Error {
    let code = stored["code"]
        .as_str()
        .map_or(std::borrow::Cow::Borrowed(fallback), |code| {
            std::borrow::Cow::Owned(code.to_owned())
        });
    let message = stored["message"]
        .as_str()
        .unwrap_or("the job failed")
        .to_owned();
    let mut error = Error::new(code, message);
    if let Some(suggestion) = stored["suggestion"].as_str() {
        error = error.with_suggestion(suggestion);
    }
    if let Some(details) = stored.get("details") {
        error = error.with_details(details.clone());
    }
    error
}
