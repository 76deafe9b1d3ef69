//! `--validate-only` (CLI Agent Spec 14 and 54): every check the runtime makes before a handler,
//! then `{"valid": true}` instead of the handler, in every profile; a call that is not valid
//! ends with the error it would end with, every problem listed at once. Driven through
//! `pas-spec-cli`, whose echo handlers answer a marker a validated call must never print.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/valid/");

/// What the echo handler answers: a call that prints it ran its handler.
const MARKER: &str = "handler-ran-5b1c";

const PROFILES: [&str; 3] = ["pas", "compose", "robot"];

/// `fixture` with its `profile:` line set to `profile`, in a directory of the test's own.
fn spec_for(fixture: &str, profile: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(format!("{FIXTURES}{fixture}")).unwrap();
    let text = text
        .lines()
        .map(|line| match line.starts_with("profile:") {
            true => format!("profile: {profile}"),
            false => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let path = dir.path().join("spec.yaml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn call(fixture: &str, profile: &str, args: &[&str], stdin: &[u8]) -> Output {
    let (_dir, spec) = spec_for(fixture, profile);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"));
    if profile == "pas" {
        cmd.arg("--agent");
    }
    cmd.args(args)
        .env("PAS_SPEC_CLI_SPEC", &spec)
        .env(
            "PAS_SPEC_CLI_REPLY",
            json!({ "marker": MARKER }).to_string(),
        )
        .env("DECL_TOKEN", "a-long-enough-token")
        .env_remove("PAS_AGENT")
        .env_remove("PAS_SPEC_CLI_ECHO_STDIN")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains(MARKER),
        "{profile} {args:?}: the handler ran: {out:?}"
    );
    out
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|err| panic!("one JSON value ({err}): {}", String::from_utf8_lossy(bytes)))
}

/// The answer of a successful call (pas: stdout; else the envelope's data).
fn data(profile: &str, out: &Output) -> Value {
    assert_eq!(out.status.code(), Some(0), "{profile}: {out:?}");
    let stdout = json_of(&out.stdout);
    match profile {
        "pas" => stdout,
        _ => stdout["data"].clone(),
    }
}

/// The runtime's error constant and details (robot: its constant is `details.kind`).
fn error(profile: &str, out: &Output) -> (String, Value) {
    assert_ne!(out.status.code(), Some(0), "{profile}: {out:?}");
    let (code, details) = match profile {
        "pas" => {
            let error = json_of(&out.stderr);
            (error["error"].clone(), error["details"].clone())
        }
        "compose" => {
            let error = json_of(&out.stdout)["error"].clone();
            (error["code"].clone(), error["details"].clone())
        }
        _ => {
            let error = json_of(&out.stdout)["error"].clone();
            (error["details"]["kind"].clone(), error["details"].clone())
        }
    };
    (code.as_str().unwrap_or_default().to_owned(), details)
}

#[test]
fn a_valid_call_answers_valid_without_running_its_handler() {
    for profile in PROFILES {
        let out = call(
            "declared.yaml",
            profile,
            &[
                "note",
                "create",
                "hello",
                "--validate-only",
                "--priority",
                "2",
            ],
            b"",
        );
        assert_eq!(
            data(profile, &out),
            json!({"valid": true, "command": "note.create", "ran": false}),
            "{profile}"
        );
    }
}

#[test]
fn an_invalid_call_lists_every_problem_and_runs_nothing() {
    for profile in PROFILES {
        // `--validate-only` anywhere before `--`, as `--agent`.
        let out = call(
            "declared.yaml",
            profile,
            &[
                "--validate-only",
                "note",
                "create",
                "Hello",
                "--remind-at",
                "9am",
                "--priority",
                "9",
            ],
            b"",
        );
        let (code, details) = error(profile, &out);
        assert_eq!(code, "INVALID_VALUE", "{profile}: {details}");
        let mut broken: Vec<&str> = details["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["constraint"].as_str().unwrap())
            .collect();
        broken.sort_unstable();
        assert_eq!(broken, ["maximum", "pattern", "requires"], "{profile}");
        assert_eq!(
            details["missing_args"],
            json!(["timezone", "channel"]),
            "{profile}"
        );
    }
}

#[test]
fn only_missing_co_required_parameters_are_a_missing_argument_when_validating() {
    for profile in PROFILES {
        let out = call(
            "declared.yaml",
            profile,
            &[
                "note",
                "create",
                "hello",
                "--remind-at",
                "9am",
                "--validate-only",
            ],
            b"",
        );
        let (code, details) = error(profile, &out);
        assert_eq!(code, "MISSING_ARGUMENT", "{profile}: {details}");
        assert_eq!(
            details["missing_args"],
            json!(["timezone", "channel"]),
            "{profile}"
        );
    }
}

#[test]
fn stdin_is_checked_against_the_input_schema_when_validating() {
    for profile in PROFILES {
        let ok = call(
            "stdin-input.yaml",
            profile,
            &["item", "create", "--validate-only"],
            b"{title: 'x',}",
        );
        assert_eq!(data(profile, &ok)["valid"], true, "{profile}");
        let bad = call(
            "stdin-input.yaml",
            profile,
            &["item", "create", "--validate-only"],
            br#"{"priority": "urgent"}"#,
        );
        let (code, details) = error(profile, &bad);
        assert_eq!(code, "INVALID_VALUE", "{profile}");
        assert_eq!(
            details["violations"].as_array().unwrap().len(),
            2,
            "{profile}: {details}"
        );
    }
}

#[test]
fn a_destructive_call_without_its_confirmation_is_not_valid() {
    for (profile, flag) in [
        ("pas", "--force"),
        ("compose", "--force"),
        ("robot", "--yes"),
    ] {
        let out = call(
            "guard-only.yaml",
            profile,
            &["thing", "delete", "a", "--validate-only"],
            b"",
        );
        let (code, _) = error(profile, &out);
        if profile != "robot" {
            assert_eq!(code, "FORCE_REQUIRED", "{profile}");
        }
        let confirmed = call(
            "guard-only.yaml",
            profile,
            &["thing", "delete", "a", flag, "--validate-only"],
            b"",
        );
        assert_eq!(data(profile, &confirmed)["valid"], true, "{profile}");
    }
}
