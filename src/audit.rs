//! `--audit-log FILE`: one JSON line appended per invocation (PAS 8.3).
//!
//! The file is opened before the command runs, so a call that cannot be audited does not run.
//! The record is written with one `write` on a file opened for appending, so concurrent calls
//! of the tool that share a log do not interleave their lines.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use serde::Serialize;

/// An open audit log and what the record needs from the start of the call.
pub(crate) struct Audit {
    file: File,
    tool: String,
    argv: Vec<String>,
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
    /// Opens (creating) the log. `argv` must already be redacted.
    pub(crate) fn open(
        path: &Path,
        tool: &str,
        argv: Vec<String>,
        agent: bool,
    ) -> std::io::Result<Self> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Audit {
            file,
            tool: tool.to_owned(),
            argv,
            agent,
            time: crate::time::now(),
            started: Instant::now(),
        })
    }

    /// Appends the record. Failing to write it cannot change the call's result any more, so the
    /// error is dropped (the call already happened).
    pub(crate) fn record(
        mut self,
        command: Option<&str>,
        result: &str,
        error: Option<&str>,
        exit_code: u8,
    ) {
        let record = Record {
            time: &self.time,
            tool: &self.tool,
            command,
            argv: &self.argv,
            agent: self.agent,
            result,
            error,
            exit_code,
            duration_ms: u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        };
        if let Ok(mut line) = serde_json::to_vec(&record) {
            line.push(b'\n');
            let _ = self.file.write_all(&line);
        }
    }
}
