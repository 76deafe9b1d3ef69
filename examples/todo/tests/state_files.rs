//! What todo reads from disk is data, and every call has one outcome:
//! - a configuration file that is a device (`/dev/zero`) or a FIFO, named by `--config`,
//!   `TODO_CONFIG` or found at the default path, is `CONFIG_INVALID` naming it, at once, for
//!   every command (`health` included), never a read that blocks or fills memory;
//! - `--audit-log /dev/full task create ...`: the task is stored, and the call's one outcome
//!   (envelope, exit code, stderr) is the audit failure, with the created task in
//!   `details.result`, never `ok: true` with exit 1 and a stray `error:` line.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::{Call, Env, assert_envelope};

/// Runs the call with a hang guard: a call still running after a minute is killed (this
/// test's own child) and the test fails.
fn finished(cmd: &mut Command) -> Call {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("todo runs");
    let until = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the call never ended: {cmd:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Call::from(child.wait_with_output().unwrap())
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

fn refused(call: &Call, file: &Path, what: &str) {
    assert_eq!(call.exit, 2, "{call:?}");
    assert_envelope(call, "CONFIG_INVALID");
    assert_eq!(call.code(), "CONFIG_INVALID");
    let error = &call.envelope["error"];
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains(&file.display().to_string()) && message.contains(what),
        "{message}"
    );
    assert!(
        error["hint"].as_str().unwrap().contains("regular"),
        "{error}"
    );
}

#[test]
fn a_configuration_file_that_is_a_device_or_fifo_is_refused_at_once() {
    let env = Env::new();
    let fifo = env.dir.path().join("named.toml");
    mkfifo(&fifo);
    for args in [&["health"][..], &["task", "list"][..]] {
        let zero = finished(&mut env.bare(&[&["--config", "/dev/zero"][..], args].concat()));
        refused(&zero, Path::new("/dev/zero"), "a device");
        let by_var = finished(env.bare(args).env("TODO_CONFIG", &fifo));
        refused(&by_var, &fifo, "a pipe");
    }
    // The default location too: whatever is there is named, not skipped or read for ever.
    mkfifo(&env.default_config());
    let default = finished(&mut env.bare(&["health"]));
    refused(&default, &env.default_config(), "a pipe");
}

#[test]
fn an_audit_record_that_cannot_be_written_is_the_calls_one_outcome() {
    let env = Env::new();
    let created = env.call(&[
        "--audit-log",
        "/dev/full",
        "task",
        "create",
        "--title",
        "audited",
    ]);
    assert_eq!(created.exit, 1, "{created:?}");
    assert_envelope(&created, "audit failure");
    assert_eq!(created.code(), "GENERAL_ERROR", "{created:?}");
    let error = &created.envelope["error"];
    assert!(
        error["message"].as_str().unwrap().contains("/dev/full"),
        "{error}"
    );
    // The task was stored: the error says so, with the task itself.
    let task = &error["details"]["result"];
    assert_eq!(task["title"], "audited", "{error}");
    assert_eq!(
        error["retryable"], false,
        "running it again would create it twice"
    );
    assert!(
        error["hint"]
            .as_str()
            .unwrap()
            .contains("do not run it again"),
        "{error}"
    );
    // stderr agrees: nothing there claims another outcome.
    assert!(!created.stderr.contains("error:"), "{}", created.stderr);
    let listed = env.call(&["task", "list"]);
    assert_eq!(listed.exit, 0, "{listed:?}");
    let titles: Vec<&str> = listed
        .data()
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["title"].as_str())
        .collect();
    assert_eq!(titles, ["audited"], "{listed:?}");
}
