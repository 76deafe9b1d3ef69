//! Shared helpers of the `runtime_*` tests: the demo binary, and runs of it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

mod tools;
#[allow(unused_imports)] // each test file takes what it needs
pub use tools::*;

/// The demo tool (`tests/bin/runtime_demo.rs`, spec `tests/bin/runtime-demo.json`).
pub fn demo_path() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_pas-runtime-demo"))
}

/// A command for the demo with a clean environment for the runtime's variables.
pub fn demo(args: &[&str]) -> Command {
    let mut cmd = Command::new(demo_path());
    cmd.args(args)
        .env_remove("PAS_AGENT")
        .env_remove("DEMO_TOKEN")
        .env_remove("DEMO_CONFIG")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::null());
    cmd
}

/// Runs the demo to completion.
pub fn run(args: &[&str]) -> Output {
    demo(args).output().expect("the demo runs")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

pub fn code(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

/// stderr as the one JSON error line the `pas` profile writes in agent mode.
pub fn error_json(output: &Output) -> serde_json::Value {
    let text = stderr(output);
    assert_eq!(
        text.matches('\n').count(),
        1,
        "one line on stderr: {text:?}"
    );
    serde_json::from_str(text.trim_end()).expect("stderr is JSON")
}

/// Every stdout line parses as JSON (NDJSON), and the text ends with a newline.
pub fn ndjson(output: &Output) -> Vec<serde_json::Value> {
    let text = stdout(output);
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "whole lines only: {text:?}"
    );
    text.lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

/// Runs a shell command line on a pseudo-terminal with util-linux `script` (stdin, stdout and
/// stderr all on the pty), returning the exit code and everything the pty showed.
pub fn on_pty(command_line: &str) -> (i32, String) {
    let output = Command::new("script")
        .args(["-qec", command_line, "/dev/null"])
        .env_remove("PAS_AGENT")
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null())
        .output()
        .expect("util-linux `script` runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// stderr with the `request_id` of each JSON line set aside: a new id on every call is the one
/// part of an error line that differs between two identical calls.
pub fn without_request_id(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .map(
            |line| match serde_json::from_str::<serde_json::Value>(line) {
                Ok(serde_json::Value::Object(mut map)) => {
                    map.remove("request_id");
                    serde_json::Value::Object(map).to_string()
                }
                _ => line.to_owned(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

/// The pids of live processes whose command line holds `tag` (zombies left out): how a test
/// finds the processes it started itself, and only those.
pub fn processes_tagged(tag: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            String::from_utf8_lossy(&cmdline).contains(tag) && !state.contains(") Z ")
        })
        .collect()
}

/// A sleep duration no other process uses: the marker a test finds its helpers by. `base`
/// keeps the tags of different test files apart.
pub fn unique_tag(base: u32) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("{}.{:09}", base + std::process::id() % 1000, nanos)
}
