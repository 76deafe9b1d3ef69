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

use pas_spec::builtin_codes::{JOB_LOST, JOB_TIMED_OUT};
// A new task's `_meta` holds the job's descriptor under it: its `status_command` and
// `cancel_command`, for an agent that follows the job from a shell.
use pas_spec::faces::mcp::META_JOB;
use serde_json::{Value, json};

use super::result::{self, Collected, Items};
use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::services::jobs::store::{KEPT_MS, Manifest, Status};

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

/// The `tasks/get` result of a job as its manifest records it now. `error_result` makes the
/// `isError` result of a `tools/call` that failed with an error (its exit code and hint as a
/// call in the session would have them).
pub(crate) fn detailed(
    manifest: &Manifest,
    redactor: &Redactor,
    error_result: &dyn Fn(Error) -> Value,
) -> Value {
    let updated = manifest.ended_at.as_deref().unwrap_or(&manifest.started_at);
    let mut task = base(
        &json!(manifest.id),
        &json!(manifest.started_at),
        &json!(updated),
        &json!(manifest.poll_interval_ms),
    );
    // Which job this is, and its words on the command line; the server stamps the inlined
    // result with its tool's schema hash as it stamps a call's (it finds the tool by `command`).
    task["_meta"] = json!({ META_JOB: {
        "job_id": manifest.id,
        "command": manifest.command,
        "status_command": manifest.status_command,
        "cancel_command": manifest.cancel_command,
    }});
    let (status, message) = match manifest.status {
        Status::Queued => ("working", "queued".to_owned()),
        Status::Running => (
            "working",
            match manifest.progress_pct {
                Some(pct) => format!("running, {pct}% done"),
                None => "running".to_owned(),
            },
        ),
        Status::Succeeded => {
            let value = manifest.result.clone().unwrap_or(Value::Null);
            task["result"] = result::success(collected(value), redactor);
            ("completed", "succeeded".to_owned())
        }
        Status::Failed if error_code(manifest) == Some(JOB_LOST) => {
            let error = manifest.error.clone().unwrap_or(Value::Null);
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
        Status::Failed | Status::TimedOut => {
            let error = error_of(manifest);
            let message = error.message().to_owned();
            task["result"] = error_result(error);
            ("completed", message)
        }
        Status::Cancelled => ("cancelled", "cancelled".to_owned()),
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

fn error_code(manifest: &Manifest) -> Option<&str> {
    manifest.error.as_ref()?.get("code")?.as_str()
}

/// The error a failed or timed-out job recorded, as the runtime's error again.
fn error_of(manifest: &Manifest) -> Error {
    let stored = manifest.error.clone().unwrap_or(Value::Null);
    let code = stored["code"]
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| JOB_TIMED_OUT.to_owned());
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
