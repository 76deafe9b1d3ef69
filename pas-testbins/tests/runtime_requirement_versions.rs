//! CLI Agent Spec 38: a `program` requirement may declare the `version` range it needs; a
//! command that `needs` it fails with `RUNTIME_VERSION`, the range (`requirement`) and the
//! installed version (`actual`) before its handler runs; `health` and the catalog say the same.
//! Driven through `pas-spec-cli` with a fake program that prints its version.

#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

/// A spec whose two commands need the same program in two ranges: one it meets, one it misses.
fn spec(program: &Path) -> String {
    format!(
        r#"specVersion: 1
name: vers
version: 0.1.0
summary: A tool that needs a program in a version range.
profile: compose
requirements:
  - name: fresh-tool
    kind: program
    target: {program}
    version: ">=2.30"
    fix: upgrade the tool to 2.30 or later
  - name: old-tool
    kind: program
    target: {program}
    version: "^1.4"
    fix: install the tool 1.4
commands:
  - name: build
    description: Needs the tool at 2.30 or later.
    needs: [fresh-tool]
    parameters: []
  - name: check
    description: Needs the tool at 1.4.
    needs: [old-tool]
    parameters: []
"#,
        program = program.display()
    )
}

struct Fixture {
    _dir: tempfile::TempDir,
    spec: std::path::PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("faketool");
    std::fs::write(&program, "#!/bin/sh\necho \"faketool version 1.4.2\"\n").unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let spec = dir.path().join("vers.yaml");
    std::fs::write(&spec, spec_text(&program)).unwrap();
    Fixture { _dir: dir, spec }
}

fn spec_text(program: &Path) -> String {
    spec(program)
}

fn run(fixture: &Fixture, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"))
        .args(args)
        .env("PAS_SPEC_CLI_SPEC", &fixture.spec)
        .env("PAS_SPEC_CLI_REPLY", r#"{"ran":true}"#)
        .env_remove("PAS_SPEC_CLI_FAIL")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn envelope(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|err| {
        panic!(
            "stdout is one JSON envelope ({err}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

#[test]
fn a_program_older_than_its_declared_range_fails_with_runtime_version_before_the_handler() {
    let fixture = fixture();
    let out = run(&fixture, &["build"]);
    assert_eq!(out.status.code(), Some(2));
    let env = envelope(&out);
    assert_eq!(env["ok"], false);
    assert_eq!(env["error"]["code"], "RUNTIME_VERSION");
    assert_eq!(env["error"]["details"]["requirement"], ">=2.30");
    assert_eq!(env["error"]["details"]["actual"], "1.4.2");
    assert_eq!(env["error"]["hint"], "upgrade the tool to 2.30 or later");
    assert!(env.get("data").is_none_or(Value::is_null), "{env}");
}

#[test]
fn a_program_in_its_declared_range_lets_the_handler_run() {
    let fixture = fixture();
    let env = envelope(&run(&fixture, &["check"]));
    assert_eq!(env["ok"], true, "{env}");
    assert_eq!(env["data"], json!({"ran": true}));
}

#[test]
fn health_and_the_catalog_state_the_declared_range() {
    let fixture = fixture();
    let health = envelope(&run(&fixture, &["health"]));
    let checks = health["data"]["checks"].as_array().unwrap();
    let row = |name: &str| checks.iter().find(|c| c["name"] == name).unwrap().clone();
    assert_eq!(row("requirement:fresh-tool")["status"], "blocked");
    assert!(
        row("requirement:fresh-tool")["message"]
            .as_str()
            .unwrap()
            .contains("is 1.4.2, outside >=2.30"),
        "{checks:?}"
    );
    assert_eq!(row("requirement:old-tool")["status"], "ok");
    let tool = envelope(&run(&fixture, &["tools", "build"]));
    assert_eq!(tool["data"]["requirements"][0]["version"], ">=2.30");
    let help = run(&fixture, &["build", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains(">=2.30") && help.contains("RUNTIME_VERSION"),
        "{help}"
    );
}
