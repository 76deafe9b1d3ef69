//! High-entropy tokens (CLI Agent Spec 59): in machine mode a JWT, an API key or a long base64
//! blob in a handler's output or in an error is replaced by a short summary of what it is,
//! with no declaration; ids and hashes are left as they are; `PAS_UNMASK=1` shows the raw
//! value. Driven through `pas-spec-cli` with an echo handler that answers a token.

mod runtime_support;

use std::process::{Command, Output};

use runtime_support::{spec_cli, valid_fixture};
use serde_json::Value;

const JWT: &str = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzEyMyIsImlhdCI6MTcxMDAwMDAwMCwiZXhwIjoxNzEwMDAzNjAwfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const SUMMARY: &str = "[JWT sub=user_123 exp=2024-03-09T17:00:00Z]";
const SHA: &str = "da39a3ee5e6b4b0d3255bfef95601890afd80709";

fn tool(spec: &str, args: &[&str]) -> Command {
    let reply = format!(
        r#"{{"id":"p1","commit":"{SHA}","token":"{JWT}","key":"AKIAIOSFODNN7EXAMPLE1234"}}"#
    );
    spec_cli(valid_fixture(spec), &reply, args)
}

fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|err| panic!("one JSON value ({err}): {}", String::from_utf8_lossy(bytes)))
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap()
}

#[test]
fn tokens_in_output_are_summarised_and_ids_and_hashes_kept() {
    let out = run(&mut tool(
        "hardening.yaml",
        &["--agent", "project", "get", "p1"],
    ));
    assert!(out.status.success(), "{out:?}");
    let data = json(&out.stdout);
    assert_eq!(data["id"], "p1");
    assert_eq!(data["commit"], SHA);
    assert_eq!(data["token"], SUMMARY);
    assert_eq!(data["key"], "[API key AKIAIOSF...]");
}

#[test]
fn the_compose_envelope_carries_the_summary() {
    let out = run(&mut tool(
        "hardening-compose.yaml",
        &["project", "get", "p1"],
    ));
    let envelope = json(&out.stdout);
    assert_eq!(envelope["ok"], true, "{envelope}");
    assert_eq!(envelope["data"]["token"], SUMMARY);
}

#[test]
fn pas_unmask_shows_the_raw_value() {
    let out =
        run(tool("hardening.yaml", &["--agent", "project", "get", "p1"]).env("PAS_UNMASK", "1"));
    let data = json(&out.stdout);
    assert_eq!(data["token"], JWT);
    assert_eq!(data["key"], "AKIAIOSFODNN7EXAMPLE1234");
}

#[test]
fn a_token_in_an_error_is_summarised_too() {
    let query = format!("{JWT}?x=1");
    let out = run(&mut tool(
        "hardening.yaml",
        &["--agent", "project", "get", &query],
    ));
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("SflKxwRJSMeKKF2QT4fw"), "{stderr}");
    let error = json(&out.stderr);
    assert_eq!(error["details"]["corrected_input"], SUMMARY);
}
