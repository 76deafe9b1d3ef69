//! `--audit-log FILE`: one JSON line appended per invocation (PAS 8.3).
//!
//! The file is opened before the command runs, so a call that cannot be audited does not run.
//! The record is written with one `write` on a file opened for appending, so concurrent calls
//! of the tool that share a log do not interleave their lines.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

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
            time: rfc3339_now(),
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

/// Now as `YYYY-MM-DDTHH:MM:SSZ` (UTC), without a date crate.
fn rfc3339_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    rfc3339(secs)
}

fn rfc3339(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::rfc3339;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_770_112_800), "2026-02-03T10:00:00Z");
    }
}
