//! Partial results survive a signal whatever stdout is (failure modes 13 and 16): a stream
//! written to a regular file joins its lines into batches, and a signal that lands between two
//! hand-overs still leaves every whole line made so far in the file.

mod runtime_support;

use std::process::{Command, Stdio};
use std::time::Duration;

use runtime_support::demo;

/// A JWT given as the demo's secret `--token` (`DEMO_TOKEN`), which output never shows (PAS
/// 8.2), and what replaces it.
const JWT: &str = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzEyMyIsImlhdCI6MTcxMDAwMDAwMCwiZXhwIjoxNzEwMDAzNjAwfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const SUMMARY: &str = "[REDACTED]";

/// A slow list to a file, ended by `signal` after about 600 ms: returns the exit code, the
/// file's text and stderr.
fn signal_a_list_written_to_a_file(extra: &[&str], signal: &str) -> (i32, String, String) {
    signal_a_list(extra, signal, &[])
}

/// As [`signal_a_list_written_to_a_file`], the demo's environment with `envs` added.
fn signal_a_list(extra: &[&str], signal: &str, envs: &[(&str, &str)]) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("items.ndjson");
    let file = std::fs::File::create(&path).unwrap();
    let mut args = vec!["--agent"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["item", "list", "-n", "1000", "--delay-ms", "50"]);
    let child = demo(&args)
        .envs(envs.iter().copied())
        .stdout(Stdio::from(file))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // About 10 items made, far less than a batch: none handed over to the file yet.
    std::thread::sleep(Duration::from_millis(600));
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    (
        out.status.code().expect("exited with a code"),
        text,
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn assert_whole_items(text: &str) {
    assert!(text.ends_with('\n'), "{text:?}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() >= 3,
        "the items made before the signal: {text:?}"
    );
    for (n, line) in lines.iter().enumerate() {
        let item: serde_json::Value = serde_json::from_str(line).expect("whole JSON lines");
        assert_eq!(item["id"], n, "in order, none lost: {text:?}");
    }
}

#[test]
fn sigterm_keeps_the_lines_batched_for_a_file() {
    let (code, text, stderr) = signal_a_list_written_to_a_file(&[], "-TERM");
    assert_eq!(code, 143, "{stderr}");
    assert_whole_items(&text);
    assert!(stderr.contains("\"TERMINATED\""), "{stderr}");
}

#[test]
fn sigint_keeps_the_lines_batched_for_a_file_when_a_watcher_ends_the_call() {
    // An audit log puts the call on the watcher thread, which ends it through the profile.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.ndjson");
    let log = log.to_str().unwrap();
    let (code, text, stderr) = signal_a_list_written_to_a_file(&["--audit-log", log], "-INT");
    assert_eq!(code, 130, "{stderr}");
    assert_whole_items(&text);
}

/// The handler makes a few items, the last holding the call's secret, then blocks: the signal
/// writes every line made, that one scrubbed as the item-by-item loop scrubs it, and never the
/// secret itself.
fn assert_the_masked_line_is_kept(extra: &[&str], signal: &str, code: i32) {
    let envs = [
        ("DEMO_TOKEN_AT", "5"),
        ("DEMO_LIST_TOKEN", JWT),
        ("DEMO_TOKEN", JWT),
    ];
    let (got, text, stderr) = signal_a_list(extra, signal, &envs);
    assert_eq!(got, code, "{stderr}");
    assert_whole_items(&text);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "items 0 to 5, none lost: {text}");
    assert!(lines[5].contains(SUMMARY), "{text}");
    assert!(
        !text.contains("SflKxwRJ"),
        "the token never reaches stdout: {text}"
    );
}

#[test]
fn sigterm_writes_a_line_to_mask_masked_when_the_handler_blocks_after_it() {
    // The signal handler ends the call itself (no thread).
    assert_the_masked_line_is_kept(&[], "-TERM", 143);
}

#[test]
fn sigint_writes_a_line_to_mask_masked_when_a_watcher_ends_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.ndjson");
    assert_the_masked_line_is_kept(&["--audit-log", log.to_str().unwrap()], "-INT", 130);
}
