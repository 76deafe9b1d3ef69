//! Output and logs never lie (issue 19): stdout closed (`>&-`) or full (`/dev/full`) ends the
//! call with GENERAL_ERROR (exit 1) and a structured error on stderr, never a quiet exit 0; a
//! closed pipe stays the quiet exit (runtime_faults.rs); an audit record that cannot be written
//! fails the call; a signal during `--format array` leaves one valid JSON array on stdout; and
//! SIGHUP and SIGQUIT end a call as SIGTERM does, leaving whole lines.

mod runtime_support;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use runtime_support::{demo_path, error_json};
use serde_json::Value;

/// `sh -c 'TOOL ARGS... REDIRECT'`: the shell gives the tool the stdout under test.
fn redirected(tool: &Path, redirect: &str, args: &[&str]) -> std::process::Output {
    let script = format!("\"$0\" \"$@\" {redirect}");
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(tool)
        .args(args)
        .env_remove("PAS_AGENT")
        .env_remove("DEMO_TOKEN")
        .stdin(Stdio::null())
        .output()
        .expect("sh runs")
}

fn assert_output_lost(out: &std::process::Output, cause: &str) {
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let error = error_json(out);
    assert_eq!(error["error"], "GENERAL_ERROR");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.starts_with("cannot write the output") && message.contains(cause),
        "{message}"
    );
}

#[test]
fn a_closed_stdout_is_an_error_not_a_quiet_success() {
    // The reproduction of issue 19 was `word-counter --agent FILE >&-` exiting 0.
    let out = redirected(&demo_path(), ">&-", &["--agent", "item", "list", "-n", "3"]);
    assert_output_lost(&out, "os error 9");
    // Help and the version, which clap writes itself, too.
    for args in [&["--help"][..], &["--version"], &["item", "--help"]] {
        let out = redirected(&demo_path(), ">&-", args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("cannot write the output"), "{stderr}");
    }
    // A call that writes nothing to stdout has nothing to lose.
    let out = redirected(&demo_path(), ">&-", &["--agent", "item", "get", "0"]);
    assert_eq!(out.status.code(), Some(100));
    assert_eq!(error_json(&out)["error"], "NOT_FOUND");
}

#[test]
fn a_full_disk_is_an_error_not_a_quiet_success() {
    let out = redirected(
        &demo_path(),
        ">/dev/full",
        &["--agent", "item", "list", "-n", "3"],
    );
    assert_output_lost(&out, "os error 28");
    let human = redirected(&demo_path(), ">/dev/full", &["item", "list", "-n", "3"]);
    assert_eq!(human.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&human.stderr).contains("cannot write the output"),
        "{human:?}"
    );
}

#[test]
fn a_compose_tool_whose_stdout_is_full_reports_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("deploy.json");
    std::fs::write(
        &spec,
        r#"{"specVersion": 1, "name": "deploy", "version": "1.0.0", "summary": "Deploy.",
            "profile": "compose",
            "commands": [{"name": "service.list", "description": "List.", "output": "list"}]}"#,
    )
    .unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg("\"$0\" tools >/dev/full")
        .arg(env!("CARGO_BIN_EXE_pas-spec-cli"))
        .env("PAS_SPEC_CLI_SPEC", &spec)
        .env_remove("PAS_AGENT")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot write the output"), "{stderr}");
}

#[test]
fn an_audit_record_that_cannot_be_written_fails_the_call() {
    let out = runtime_support::run(&[
        "--agent",
        "--audit-log",
        "/dev/full",
        "item",
        "list",
        "-n",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let error = error_json(&out);
    assert_eq!(error["error"], "GENERAL_ERROR");
    // One outcome: the record is written before the result, so nothing reached stdout, and
    // the error carries the result the command produced.
    assert_eq!(
        error["message"],
        "the command ran and succeeded (its result is in details.result), but cannot write the audit record to /dev/full: No space left on device (os error 28)"
    );
    assert!(out.stdout.is_empty(), "{out:?}");
    assert_eq!(
        error["details"]["result"].as_array().map(Vec::len),
        Some(2),
        "{error}"
    );
    // A failed call whose record is lost keeps its own error and exit code.
    let out = runtime_support::run(&["--agent", "--audit-log", "/dev/full", "item", "get", "0"]);
    assert_eq!(out.status.code(), Some(100));
    assert_eq!(error_json(&out)["error"], "NOT_FOUND");
}

fn kill(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Runs a slow array list, signals it once it is under way, and returns code, stdout, error.
fn signalled(mut cmd: Command, signal: &str, wait_for_line: bool) -> (i32, String, Value) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    if wait_for_line {
        for _ in 0..2 {
            out.read_line(&mut seen).unwrap();
        }
    } else {
        // An array is written at its end: nothing to read before the signal.
        std::thread::sleep(Duration::from_millis(600));
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
    let code = child.wait().unwrap().code().expect("exited, not killed");
    assert_eq!(err.matches('\n').count(), 1, "{err}");
    (code, seen, serde_json::from_str(err.trim_end()).unwrap())
}

fn bookmarks(dir: &Path, args: &[&str]) -> Command {
    for name in ["a", "b"] {
        std::fs::write(dir.join(name), "x").unwrap();
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-guard-demo"));
    cmd.args(args)
        .env("BOOKMARKS_DIR", dir)
        .env("BOOKMARKS_REPEAT_MS", "20")
        .env_remove("GUARD_DEMO_DERIVE")
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null());
    cmd
}

fn assert_array(stdout: &str) {
    assert!(stdout.ends_with("]\n"), "{stdout:?}");
    let array: Value = serde_json::from_str(stdout).expect("stdout is one JSON array");
    assert!(!array.as_array().unwrap().is_empty(), "{stdout}");
}

#[test]
fn a_signal_during_an_array_leaves_valid_json() {
    // Ended from the signal handler (a tool without secrets) ...
    let dir = tempfile::tempdir().unwrap();
    let args = ["--agent", "list", "--format", "array"];
    let (code, stdout, error) = signalled(bookmarks(dir.path(), &args), "-TERM", false);
    assert_eq!((code, error["error"].as_str()), (143, Some("TERMINATED")));
    assert_array(&stdout);
    // ... and from the watcher thread (the demo has a secret flag).
    let mut demo = runtime_support::demo(&[
        "--agent",
        "item",
        "list",
        "-n",
        "1000",
        "--delay-ms",
        "50",
        "--format",
        "array",
    ]);
    demo.env_remove("DEMO_TOKEN");
    let (code, stdout, error) = signalled(demo, "-INT", false);
    assert_eq!((code, error["error"].as_str()), (130, Some("INTERRUPTED")));
    assert_array(&stdout);
}

#[test]
fn sighup_and_sigquit_end_a_call_like_sigterm() {
    for (signal, name) in [("-HUP", "SIGHUP"), ("-QUIT", "SIGQUIT")] {
        let dir = tempfile::tempdir().unwrap();
        let direct = bookmarks(dir.path(), &["--agent", "list"]);
        let watched =
            runtime_support::demo(&["--agent", "item", "list", "-n", "1000", "--delay-ms", "50"]);
        for cmd in [direct, watched] {
            let (code, stdout, error) = signalled(cmd, signal, true);
            assert_eq!(code, 143, "{signal}");
            assert_eq!(error["error"], "TERMINATED");
            assert_eq!(error["message"], format!("terminated by {name}"));
            assert!(stdout.ends_with('\n'), "{stdout:?}");
            for line in stdout.lines() {
                serde_json::from_str::<Value>(line).expect("whole lines only");
            }
        }
    }
}
