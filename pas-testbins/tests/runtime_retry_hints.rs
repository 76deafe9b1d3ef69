//! Failure mode 19, beyond `retryable` and `retry_after_ms`: every retryable error says how to
//! space retries (`retry_strategy`) and how many to try (`max_retries`), derived by the runtime
//! when the handler says nothing; a retrying caller numbers its attempts with `PAS_ATTEMPT`,
//! echoed as `meta.attempt` (compose, and the `PAS_META` line), with `meta.maxAttempts` on a
//! retryable compose error. Not retryable: none of them.

mod runtime_support;

use std::path::Path;
use std::process::Command;

use runtime_support::{error_json, limits_demo, stdout};
use serde_json::Value;

fn limits(args: &[&str]) -> Command {
    limits_demo(args)
}

#[test]
fn a_retryable_error_says_how_to_retry_and_how_often() {
    // A timeout (no delay known): exponential backoff, three retries.
    let out = limits(&["--agent", "slow", "--seconds", "30"])
        .env("PAS_TIMEOUT", "0.2")
        .output()
        .unwrap();
    let error = error_json(&out);
    assert_eq!(error["retryable"], true);
    assert_eq!(error["retry_strategy"], "exponential_backoff");
    assert_eq!(error["max_retries"], 3);
    // An argument error: nothing to retry.
    let out = limits(&["--agent", "ingest", "--input-file", "/nonexistent/in.json"])
        .output()
        .unwrap();
    let error = error_json(&out);
    assert_eq!(error["retryable"], false);
    assert_eq!(error.get("retry_strategy"), None);
    assert_eq!(error.get("max_retries"), None);
}

#[test]
fn compose_echoes_the_attempt_and_bounds_the_attempts() {
    let out = limits(&["slow", "--seconds", "30"])
        .env("LIMITS_DEMO_DERIVE", "1")
        .env("PAS_ATTEMPT", "2")
        .output()
        .unwrap();
    let envelope: Value = serde_json::from_str(stdout(&out).trim_end()).unwrap();
    assert_eq!(envelope["error"]["code"], "TIMEOUT", "{envelope}");
    assert_eq!(envelope["error"]["retryStrategy"], "exponential_backoff");
    assert_eq!(envelope["error"]["maxRetries"], 3);
    assert_eq!(envelope["meta"]["attempt"], 2);
    assert_eq!(envelope["meta"]["maxAttempts"], 4);
    // A success echoes the attempt too; no bound on attempts.
    let out = limits(&["items", "-n", "1"])
        .env("LIMITS_DEMO_DERIVE", "1")
        .env("PAS_ATTEMPT", "3")
        .output()
        .unwrap();
    let envelope: Value = serde_json::from_str(stdout(&out).trim_end()).unwrap();
    assert_eq!(envelope["meta"]["attempt"], 3, "{envelope}");
    assert_eq!(envelope["meta"].get("maxAttempts"), None);
}

#[test]
fn the_pas_meta_line_echoes_the_attempt() {
    let state = tempfile::tempdir().unwrap();
    let out = limits(&["--agent", "items", "-n", "1"])
        .env("PAS_META", "1")
        .env("PAS_ATTEMPT", "2")
        .env("XDG_STATE_HOME", Path::new(state.path()))
        .output()
        .unwrap();
    let line = String::from_utf8(out.stderr).unwrap();
    let meta: Value = serde_json::from_str(line.trim_end()).unwrap();
    assert_eq!(meta["meta"]["attempt"], 2, "{line}");
}
