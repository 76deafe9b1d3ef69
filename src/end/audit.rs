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
//! ([`before_output`](crate::end::call_state::before_output), beside the call's state it takes
//! the log from, which holds an [`Audit`]), so a record that cannot be written is the call's one
//! outcome (an error envelope, its exit code, the same error on stderr), never a success
//! envelope followed by a failure. The error carries the handler's result in `details.result`,
//! so the caller knows the command ran (and what it changed) and does not run it again.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use crate::error::Error;
use crate::guards::redact::Redactor;

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
