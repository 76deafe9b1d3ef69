//! Children a handler starts with `std::process` directly, a daemon among them, end with the
//! call on Linux (CLI Agent Spec failure mode 17): the tool adopts its orphaned descendants and
//! ends every child left, whatever ends the call. Each test finds its processes by a marker
//! of its own (a unique sleep duration) and only ever signals those.
#![cfg(target_os = "linux")]

mod runtime_support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use runtime_support::{demo, named, processes_tagged, unique_tag};

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
    let state = tempfile::tempdir().unwrap();
    let status = with_state(direct_spawn(&tag, "0"), state.path())
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

/// The demo with its state directory (where the PID file goes) in `state`.
fn with_state(mut cmd: Command, state: &std::path::Path) -> Command {
    cmd.env("XDG_STATE_HOME", state).env("HOME", state);
    cmd
}

fn cleanup(state: &std::path::Path, flags: &[&str]) -> serde_json::Value {
    let mut args = vec!["--agent", "cleanup"];
    args.extend_from_slice(flags);
    let out = with_state(demo(&args), state).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    serde_json::from_slice(&out.stdout).expect("cleanup answers JSON")
}

fn kill_tagged(tag: &str) {
    for pid in processes_tagged(tag) {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
}

#[test]
fn kept_children_are_recorded_listed_by_cleanup_and_ended_by_cleanup_force() {
    let state = tempfile::tempdir().unwrap();
    let tag = unique_tag(4000);
    let status = with_state(direct_spawn(&tag, "1"), state.path())
        .env("DEMO_KEEP_CHILDREN", "1")
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let running = processes_tagged(&tag);
    let recorded: serde_json::Value = serde_json::from_slice(
        &std::fs::read(state.path().join("demo/children.json")).unwrap_or_default(),
    )
    .unwrap_or_default();
    let listed = cleanup(state.path(), &[]);
    let dry = cleanup(state.path(), &["--dry-run"]);
    let still = processes_tagged(&tag);
    let ended = cleanup(state.path(), &["--force"]);
    let after_cleanup_empty = wait_until_none_tagged(&tag);
    kill_tagged(&tag);
    assert_eq!(running.len(), 4, "the shell and its three sleeps were kept");
    let children = recorded["children"].as_array().expect("a PID file");
    assert_eq!(children.len(), 4, "{recorded}");
    for child in children {
        assert!(running.contains(&(child["pid"].as_i64().unwrap() as u32)));
        assert!(child["start_time"].as_u64().unwrap() > 0);
        assert_eq!(child["command"], "spawn");
        assert!(
            child["command_line"].as_str().unwrap().contains(&tag)
                || child["command_line"].as_str().unwrap().starts_with("sh")
        );
    }
    assert_eq!(listed["mode"], "list");
    assert_eq!(listed["children"].as_array().unwrap().len(), 4, "{listed}");
    assert!(
        listed["children"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["alive"] == true && c["ended"] == false)
    );
    assert_eq!(dry["mode"], "dry-run");
    assert_eq!(still.len(), 4, "list and dry run end nothing");
    assert!(
        ended["children"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["ended"] == true),
        "{ended}"
    );
    assert!(after_cleanup_empty, "cleanup --force ended them");
    assert_eq!(
        cleanup(state.path(), &[]).get("children"),
        None,
        "the PID file was pruned"
    );
}

#[test]
fn a_recorded_pid_reused_by_another_process_is_never_signalled() {
    let state = tempfile::tempdir().unwrap();
    let tag = unique_tag(4000);
    let mut stranger = Command::new("sleep").arg(&tag).spawn().unwrap();
    let pid = stranger.id();
    // A record naming the stranger's pid with another start time: a process that was kept,
    // ended, and whose pid the system handed to the stranger.
    let dir = state.path().join("demo");
    std::fs::create_dir_all(&dir).unwrap();
    let record = serde_json::json!({ "children": [{
        "pid": pid, "start_time": 1, "command_line": "sh -c server", "command": "spawn", "recorded_at": 0
    }]});
    std::fs::write(dir.join("children.json"), record.to_string()).unwrap();
    let ended = cleanup(state.path(), &["--force"]);
    std::thread::sleep(Duration::from_millis(100));
    let survived = stranger.try_wait().unwrap().is_none();
    let _ = stranger.kill();
    let _ = stranger.wait();
    assert!(survived, "the stranger was signalled");
    assert_eq!(ended["children"][0]["alive"], false, "{ended}");
    assert_eq!(ended["children"][0]["ended"], false, "{ended}");
}

/// The declaration (`sideEffects: [{kind: background}]`) shows in every face: agent help and
/// `.llm` name it with the `cleanup` word that ends the processes, the catalog carries it, and
/// the MCP export sets `pas-kit/spawnsBackgroundProcess`.
#[test]
fn every_face_tells_that_spawn_keeps_background_processes() {
    let text = |args: &[&str]| String::from_utf8(demo(args).output().unwrap().stdout).unwrap();
    let help = text(&["--agent", "spawn", "--help"]);
    assert!(
        help.contains("Side effects: background sh (kept running when DEMO_KEEP_CHILDREN is set) (`demo cleanup` lists the processes kept, `demo cleanup --force` ends them)."),
        "{help}"
    );
    let llm = text(&["docs"]);
    assert!(llm.contains("`demo cleanup --force` ends them"), "{llm}");
    let catalog: serde_json::Value = serde_json::from_str(&text(&["--agent", "tools"])).unwrap();
    let spawn = named(&catalog["tools"], "spawn");
    assert_eq!(spawn["sideEffects"][0]["kind"], "background", "{spawn}");
    let spec = demo(&["--pas-spec"]).output().unwrap().stdout;
    let registry: pas::spec::Registry = serde_json::from_slice(&spec).unwrap();
    let list = pas::spec::faces::mcp::tools_list(&registry);
    let tool = named(&list["tools"], "spawn");
    assert_eq!(
        tool["_meta"]["pas-kit/spawnsBackgroundProcess"], true,
        "{tool}"
    );
    // The declaration alone (the demo declares no filesystem effect) gives the tool the word.
    let state = tempfile::tempdir().unwrap();
    assert_eq!(cleanup(state.path(), &[])["mode"], "list");
}
