//! `--audit-log FILE`: one JSON line appended per invocation (PAS 8.3).
//!
//! The file is opened before the command runs, so a call that cannot be audited does not run.
//! The record is written with one `write` on a file opened for appending, so concurrent calls
//! of the tool that share a log do not interleave their lines. argv is redacted when the record
//! is written, not when the log is opened: by then the redactor also knows the secrets of the
//! configuration file and of clap's matches. A record that cannot be written (a full disk,
//! `/dev/full`) makes the call fail: an audited call must not succeed without its record.
//!
//! One outcome per call: a handler's success is recorded *before* its result reaches stdout
//! ([`before_output`]), so a record that cannot be written is the call's one outcome (an
//! error envelope, its exit code, the same error on stderr), never a success envelope followed
//! by a failure. The error carries the handler's result in `details.result`, so the caller
//! knows the command ran (and what it changed) and does not run it again.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use crate::end::call_state::{Shared, Stop};
use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::reply::{Body, Encoding, Reply};

/// An open audit log and what the record needs from the start of the call.
pub(crate) struct Audit {
    file: File,
    path: PathBuf,
    tool: String,
    argv: Vec<OsString>,
    agent: bool,
    time: String,
    started: Instant,
}

#[derive(Serialize)]
struct Record<'a> {
    time: &'a str,
    tool: &'a str,
    command: Option<&'a str>,
    argv: &'a [String],
    agent: bool,
    result: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    exit_code: u8,
    duration_ms: u64,
}

impl Audit {
    /// Opens (creating) the log. `argv` is redacted when the record is written.
    pub(crate) fn open(
        path: &Path,
        tool: &str,
        argv: Vec<OsString>,
        agent: bool,
    ) -> std::io::Result<Self> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Audit {
            file,
            path: path.to_owned(),
            tool: tool.to_owned(),
            argv,
            agent,
            time: crate::time::now(),
            started: Instant::now(),
        })
    }

    /// Appends the record, or answers the error the call must end with instead.
    pub(crate) fn record(
        mut self,
        redactor: &Redactor,
        command: Option<&str>,
        result: &str,
        error: Option<&str>,
        exit_code: u8,
    ) -> Result<(), Error> {
        let argv = redactor.argv(&self.argv);
        let record = Record {
            time: &self.time,
            tool: &self.tool,
            command,
            argv: &argv,
            agent: self.agent,
            result,
            error,
            exit_code,
            duration_ms: u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        };
        let mut line =
            serde_json::to_vec(&record).map_err(|err| Error::internal(err.to_string()))?;
        line.push(b'\n');
        self.file
            .write_all(&line)
            .and_then(|()| self.file.flush())
            .map_err(|err| {
                Error::general(format!(
                    "cannot write the audit record to {}: {err}",
                    self.path.display()
                ))
                .with_suggestion(
                    "give --audit-log a file on a writable disk with free space, then run the call again",
                )
                .with_details(serde_json::json!({ "auditLog": self.path.display().to_string() }))
            })
    }
}

/// Before a successful reply is written: records the success (when the call is audited). A
/// record that cannot be written ends the call with that error instead, its `details.result`
/// the reply the handler returned (read whole here: nothing of it was written), and not
/// retryable (the handler ran: running it again would repeat what it did).
pub(crate) fn before_output(shared: &Shared, reply: Reply) -> Result<Reply, Stop> {
    let recorded = {
        let mut output = shared.lock();
        let Some(audit) = output.audit.take() else {
            return Ok(reply);
        };
        let code = output.profile.success_exit();
        let command = output.command.clone();
        audit.record(&output.redactor, command.as_deref(), "success", None, code)
    };
    let Err(error) = recorded else {
        return Ok(reply);
    };
    let mut details = error.details().cloned().unwrap_or_default();
    details["result"] = result_of(reply);
    let message = format!(
        "the command ran and succeeded (its result is in details.result), but {}",
        error.message()
    );
    let late = Error::new(error.code().to_owned(), message)
        .with_suggestion(
            "the command already ran (details.result): do not run it again; give later calls an --audit-log file on a writable disk with free space",
        )
        .with_details(details)
        .with_retryable(false);
    Err(Stop::Failed(late))
}

/// A reply as one JSON value: an object as is, a stream as the array of its items (an item
/// that failed as its error), a document as its text, nothing as null.
fn result_of(reply: Reply) -> serde_json::Value {
    use serde_json::Value;
    match reply.body {
        Body::Object(object) => object
            .json
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or(Value::Null),
        Body::Stream(mut stream) => {
            let mut items = Vec::new();
            let mut buffer = Vec::new();
            while let Some(next) =
                (stream.next)(Encoding::Json, &mut crate::reply::ItemOut::new(&mut buffer))
            {
                items.push(match next {
                    Ok(()) => serde_json::from_slice(&buffer).unwrap_or(Value::Null),
                    Err(error) => {
                        serde_json::json!({ "error": error.code(), "message": error.message() })
                    }
                });
                buffer.clear();
            }
            Value::Array(items)
        }
        Body::Document(text) => Value::String(text),
        Body::Nothing => Value::Null,
    }
}
