//! `pas::lock` (CLI Agent Spec failure modes 15 and 58): two calls of a command that takes the
//! same lock never run at once; the second fails at once with a structured held-lock error
//! carrying `retry_after_ms` and the holder, in every profile, and the lock frees itself when
//! the holder ends.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures");

fn locker(spec: &str, lock: &std::path::Path, hold_ms: u64, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"));
    cmd.args(args)
        .env("PAS_SPEC_CLI_SPEC", format!("{FIXTURES}/{spec}"))
        .env("PAS_SPEC_CLI_REPLY", r#"{"applied":true}"#)
        .env("PAS_SPEC_CLI_LOCK", lock)
        .env("PAS_SPEC_CLI_HOLD_MS", hold_ms.to_string())
        .env_remove("PAS_SPEC_CLI_FAIL")
        .env_remove("PAS_SPEC_CLI_PRINT")
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Starts a call that holds the lock for a while, and waits until it does.
fn holder(spec: &str, lock: &std::path::Path, args: &[&str]) -> Child {
    let child = locker(spec, lock, 3000, args).spawn().unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(lock).map_or(true, |t| !t.contains("\"pid\""))
        && started.elapsed() < Duration::from_secs(5)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    child
}

fn assert_held_error(error: &Value, holder: &Child) {
    assert_eq!(error["retry_after_ms"], 300, "{error}");
    assert_eq!(error["retryable"], true, "{error}");
    assert_eq!(error["details"]["holder"]["pid"], holder.id(), "{error}");
    assert_eq!(error["details"]["holder"]["command"], "apply", "{error}");
}

fn end(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn pas_a_second_call_gets_lock_held_with_retry_after_and_the_holder() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("apply.lock");
    let first = holder("lock/pas.yaml", &lock, &["--agent", "apply"]);
    let started = Instant::now();
    let out = locker("lock/pas.yaml", &lock, 0, &["--agent", "apply"])
        .output()
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "refused at once"
    );
    assert_eq!(out.status.code(), Some(75));
    assert_eq!(out.stdout, b"");
    let error: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(error["error"], "LOCK_HELD", "{error}");
    assert_held_error(&error, &first);
    end(first);
    // The kernel released the lock with its holder, even killed: the next call runs.
    let out = locker("lock/pas.yaml", &lock, 0, &["--agent", "apply"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn compose_a_second_call_gets_lock_held_in_its_envelope() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("apply.lock");
    let first = holder("lock/compose.yaml", &lock, &["apply"]);
    let out = locker("lock/compose.yaml", &lock, 0, &["apply"])
        .output()
        .unwrap();
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["ok"], false, "{envelope}");
    assert_eq!(out.status.code(), Some(1), "compose's failure exit");
    assert_eq!(envelope["meta"]["exitCode"], 1, "{envelope}");
    let error = &envelope["error"];
    assert_eq!(error["code"], "LOCK_HELD", "{envelope}");
    assert_eq!(error["retryAfterMs"], 300, "{envelope}");
    assert_eq!(error["retryable"], true, "{envelope}");
    assert_eq!(error["details"]["holder"]["pid"], first.id(), "{envelope}");
    end(first);
}

#[test]
fn robot_a_second_call_gets_the_lock_role_code() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("plan.lock");
    let first = holder("valid/robot.yaml", &lock, &["plan"]);
    let out = locker("valid/robot.yaml", &lock, 0, &["plan"])
        .output()
        .unwrap();
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(14), "{envelope}");
    let error = &envelope["error"];
    assert_eq!(error["code"], "ERR_LOCK", "{envelope}");
    assert_eq!(error["recoverable"], true, "{envelope}");
    assert_eq!(error["retry_after_ms"], 300, "{envelope}");
    assert_eq!(error["details"]["holder"]["pid"], first.id(), "{envelope}");
    end(first);
}
