//! Outcomes follow effects on the command line (issue 28, item 1): a signal that lands after
//! the handler returned waits for its result to be written, and the call ends as it would; a
//! signal that lands while a write runs says that its outcome is unknown (or what the handler
//! said it changed), not that a retry is safe. No sleeps: the handler waits on a FIFO the test
//! opens, and the test reads stdout to know that the result is being written.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

const OUTCOMES: &str = env!("CARGO_BIN_EXE_pas-outcomes-demo");

fn fifo(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    assert!(
        Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap()
            .success()
    );
    path
}

/// Sends SIGTERM to the child this test spawned, by its pid.
fn terminate(child: &Child) {
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
}

/// The error report a stderr holds (its `{"error": CODE, ...}` line).
fn error_of(stderr: &str) -> Value {
    stderr
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|line| line.get("error").is_some())
        .unwrap_or_else(|| panic!("no error on stderr: {stderr}"))
}

/// `big` (a write whose result is larger than a pipe holds) with `extra` flags: SIGTERM once
/// stdout starts to fill, then the whole result is read.
fn terminate_while_the_result_is_written(extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let size = 1_000_000;
    let mut child = Command::new(OUTCOMES)
        .arg("--agent")
        .args(extra)
        .args(["big", "--dir"])
        .arg(dir.path())
        .args(["--name", "kept", "--size", &size.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    // The first byte: the handler returned and its result is being written (the pipe fills
    // and the writer waits for this reader).
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first).unwrap();
    terminate(&child);
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let mut written = first.to_vec();
    written.extend(rest);
    let result: Value = serde_json::from_slice(&written)
        .unwrap_or_else(|e| panic!("the whole result ({e}); stderr: {stderr}"));
    assert_eq!(result["name"], "kept");
    assert_eq!(result["data"].as_str().map(str::len), Some(size));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("TERMINATED"), "{stderr}");
    assert!(dir.path().join("kept").exists());
}

#[test]
fn sigterm_while_a_committed_result_is_written_reports_the_result() {
    // The signal handler ends calls itself here (the pas profile, nothing to audit).
    terminate_while_the_result_is_written(&[]);
}

#[test]
fn sigterm_while_a_committed_result_is_written_reports_it_when_a_watcher_ends_calls() {
    // An audit log puts the call on the watcher thread.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.ndjson");
    terminate_while_the_result_is_written(&["--audit-log", log.to_str().unwrap()]);
    let audit = std::fs::read_to_string(&log).unwrap();
    assert!(audit.contains("\"success\""), "{audit}");
}

/// `gate` (a write that creates its file, then waits on a FIFO) ended by SIGTERM while it
/// waits: the exit code and the error.
fn terminate_a_running_write(extra: &[&str]) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let gate = fifo(dir.path(), "gate");
    let made = tempfile::tempdir().unwrap();
    let child = Command::new(OUTCOMES)
        .arg("--agent")
        .args(["gate", "--dir"])
        .arg(made.path())
        .args(["--name", "made", "--gate"])
        .arg(&gate)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The handler wrote its file and waits on the gate.
    while !made.path().join("made").exists() {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    terminate(&child);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code().unwrap(), error_of(&stderr))
}

#[test]
fn sigterm_while_a_write_runs_says_its_outcome_is_unknown_and_how_to_check() {
    let (code, error) = terminate_a_running_write(&["--silent"]);
    assert_eq!(code, 143);
    assert_eq!(error["error"], "TERMINATED", "{error}");
    assert_eq!(error["retryable"], false, "{error}");
    assert_eq!(error["details"]["outcome"], "unknown", "{error}");
    let hint = error["suggestion"].as_str().unwrap_or_default();
    assert!(hint.contains("`outcomes list`"), "{error}");
}

#[test]
fn sigterm_after_a_write_reported_its_effect_names_the_effect() {
    let (code, error) = terminate_a_running_write(&[]);
    assert_eq!(code, 143);
    assert_eq!(error["retryable"], false, "{error}");
    // The effect was reported after the reports were rendered: what the signal handler writes
    // says only that the outcome is unknown, never that a retry is safe.
    assert!(
        error["details"]["outcome"] == "unknown" || error["details"]["outcome"] == "changed",
        "{error}"
    );
}

#[test]
fn sigterm_while_a_read_runs_stays_retryable() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "fifo");
    let mut child = Command::new(OUTCOMES)
        .args(["--agent", "cat", "--path"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader is waiting on the FIFO once a non-blocking writer can open it; the writer is
    // kept open so the handler stays blocked on its read.
    use std::os::unix::fs::OpenOptionsExt;
    let writer = loop {
        match std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(0o4000)
            .open(&path)
        {
            Ok(writer) => break writer,
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
        }
    };
    terminate(&child);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    drop(writer);
    assert_eq!(status.code(), Some(143));
    let error = error_of(&stderr);
    assert_eq!(error["error"], "TERMINATED", "{error}");
    assert_eq!(error["retryable"], true, "{error}");
    assert!(
        error
            .get("details")
            .is_none_or(|d| d.get("outcome").is_none()),
        "{error}"
    );
}
