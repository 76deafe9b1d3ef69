//! Faults: a panic is a structured INTERNAL_ERROR, a closed pipe ends quietly, SIGINT/SIGTERM
//! end promptly with 130/143 and whole lines.

mod runtime_support;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use runtime_support::{code, demo, error_json, stdout};

#[test]
fn a_panic_is_an_internal_error_without_backtrace() {
    let out = demo(&["--agent", "crash"])
        .env("RUST_BACKTRACE", "full")
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        !text.contains("panicked") && !text.contains("backtrace"),
        "{text}"
    );
    let error = error_json(&out);
    assert_eq!(error["error"], "INTERNAL_ERROR");
    assert_eq!(error["code"], 1);
    assert_eq!(error["details"]["panic"], "the demo crashes on purpose");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = demo(&["--agent", "item", "list", "-n", "10000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.starts_with("{\"id\":0,"));
    drop(reader); // `| head -1`: the reader goes away.
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(stderr, "", "no panic text, no error");
    assert_eq!(status.code(), Some(0));
}

fn kill(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Starts a slow list, reads two lines, sends the signal, and returns everything.
fn interrupt_list(signal: &str) -> (i32, String, serde_json::Value) {
    let mut child = demo(&["--agent", "item", "list", "-n", "1000", "--delay-ms", "100"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    for _ in 0..2 {
        out.read_line(&mut seen).unwrap();
    }
    kill(&child, signal);
    out.read_to_string(&mut seen).unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    let code = status
        .code()
        .expect("exited with a code, not killed by the signal");
    assert_eq!(err.matches('\n').count(), 1, "{err}");
    (code, seen, serde_json::from_str(err.trim_end()).unwrap())
}

fn assert_whole_lines(stdout: &str) {
    assert!(stdout.ends_with('\n'), "{stdout:?}");
    for line in stdout.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("every line is whole JSON");
    }
}

#[test]
fn sigterm_ends_a_stream_with_143_and_whole_lines() {
    let (code, stdout, error) = interrupt_list("-TERM");
    assert_eq!(code, 143);
    assert_whole_lines(&stdout);
    assert!(stdout.lines().count() >= 2);
    assert_eq!(error["error"], "TERMINATED");
    assert_eq!(error["code"], 143);
}

#[test]
fn sigint_ends_a_stream_with_130_and_whole_lines() {
    let (code, stdout, error) = interrupt_list("-INT");
    assert_eq!(code, 130);
    assert_whole_lines(&stdout);
    assert_eq!(error["error"], "INTERRUPTED");
}

#[test]
fn sigterm_ends_a_blocked_handler_promptly() {
    let mut child = demo(&["--agent", "sleep", "--seconds", "30"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Give the runtime time to install its watcher (before that, the default action applies).
    std::thread::sleep(Duration::from_millis(500));
    let sent = Instant::now();
    kill(&child, "-TERM");
    let out = {
        let mut stdout = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut stdout)
            .unwrap();
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        (stdout, stderr, child.wait().unwrap())
    };
    assert!(
        sent.elapsed() < Duration::from_secs(3),
        "ended after {:?}",
        sent.elapsed()
    );
    assert_eq!(out.2.code(), Some(143));
    assert_eq!(out.0, "");
    let error: serde_json::Value = serde_json::from_str(out.1.trim_end()).unwrap();
    assert_eq!(error["error"], "TERMINATED");
}
