//! The rough edges an agent met (issue 29, item 7), each held by a regression test here or in
//! `person_twins.rs` (`--agent UNKNOWN --help`, a command's flag before its subcommand word):
//! - `list --output-id | show -` with several ids for a parameter that takes one: the error's
//!   hint is the exact call once per id (`xargs -I{}`), and the ids are in its details;
//! - `doctor` reports the state the tool declares (`stateless` is false for a tool with a
//!   command that writes).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

fn envs(args: &[&str], input: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pas-envs-demo"))
        .env("PAS_ENVS_PROFILE", "pas")
        .env_remove("PAS_AGENT")
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("pas-envs-none"),
        )
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn many_ids_for_a_one_id_dash_hint_the_call_once_per_id() {
    let out = envs(&["--agent", "show", "-", "--stable-output"], "a\nb\nc\n");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(out.stdout.is_empty());
    let error: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(error["error"], "INVALID_ARGUMENT", "{error}");
    assert_eq!(
        error["suggestion"],
        "run the call once per id: ... | xargs -I{} envs --agent show {} --stable-output",
        "{error}"
    );
    assert_eq!(error["details"]["ids"], serde_json::json!(["a", "b", "c"]));
    // The hint works: each id alone is a call that succeeds.
    for id in ["a", "b", "c"] {
        let out = envs(&["--agent", "show", "-"], &format!("{id}\n"));
        assert!(out.status.success(), "{out:?}");
    }
}

fn doctor(program: &str) -> Value {
    let out = Command::new(program)
        .args(["--agent", "doctor"])
        .env("PAS_ENVS_PROFILE", "pas")
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn doctor_reports_the_state_the_tool_declares() {
    // envs declares read commands only; the twin's `save` writes.
    let read_only = doctor(env!("CARGO_BIN_EXE_pas-envs-demo"));
    assert_eq!(read_only["context"]["stateless"], true, "{read_only}");
    let writes = doctor(env!("CARGO_BIN_EXE_pas-twin-pas"));
    assert_eq!(writes["context"]["stateless"], false, "{writes}");
}
