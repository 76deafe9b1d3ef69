//! Children a handler starts with `std::process` directly, a daemon among them, end with the
//! call on Linux (CLI Agent Spec failure mode 17): the tool adopts its orphaned descendants and
//! ends every child left, whatever ends the call. Each test finds its processes by a marker
//! of its own (a unique sleep duration) and only ever signals those.
#![cfg(target_os = "linux")]

mod runtime_support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use runtime_support::{demo, processes_tagged, unique_tag};

fn direct_spawn(tag: &str, seconds: &str) -> Command {
    let mut cmd = demo(&["--agent", "spawn", "--tag", tag, "--seconds", seconds]);
    cmd.env("DEMO_SPAWN_DIRECT", "1")
        .env_remove("DEMO_KEEP_CHILDREN")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

fn wait_until_none_tagged(tag: &str) -> bool {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(2) {
        if processes_tagged(tag).is_empty() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn children_started_with_std_process_end_with_the_call() {
    let tag = unique_tag(4000);
    let status = direct_spawn(&tag, "1").status().unwrap();
    assert_eq!(status.code(), Some(0));
    assert!(
        wait_until_none_tagged(&tag),
        "outlived the call: {:?}",
        processes_tagged(&tag)
    );
}

#[test]
fn children_started_with_std_process_end_when_a_signal_ends_the_call() {
    let tag = unique_tag(4000);
    let child = direct_spawn(&tag, "30").spawn().unwrap();
    let started = Instant::now();
    // The demo (its argv holds the tag), the shell and its three sleeps.
    while processes_tagged(&tag).len() < 5 && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(processes_tagged(&tag).len(), 5, "the helpers started");
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143));
    assert!(
        wait_until_none_tagged(&tag),
        "outlived the call: {:?}",
        processes_tagged(&tag)
    );
}

#[test]
fn keep_children_lets_a_command_leave_a_process_running() {
    let tag = unique_tag(4000);
    let status = direct_spawn(&tag, "0")
        .env("DEMO_KEEP_CHILDREN", "1")
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    std::thread::sleep(Duration::from_millis(200));
    let left = processes_tagged(&tag);
    // Ours to clean up: found by the marker only this test uses.
    for pid in &left {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert_eq!(left.len(), 4, "the shell and its three sleeps were kept");
}
