//! `corrected_input` on refused arguments (CLI Agent Spec 35), in every profile: an enum value
//! in the wrong case is corrected to its declared spelling, a misspelt value, flag or command
//! word to clap's one close candidate, and the error's suggestion says it. Driven through
//! `pas-spec-cli` over `tests/fixtures/valid/declared.yaml` with its profile rewritten.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const SPEC: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/valid/declared.yaml"
);

fn spec_for(profile: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(SPEC)
        .unwrap()
        .replace("profile: compose", &format!("profile: {profile}"));
    let path = dir.path().join("spec.yaml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// The error's constant, suggestion and details, whatever the profile.
fn refused(profile: &str, args: &[&str]) -> (String, String, Value) {
    let (_dir, spec) = spec_for(profile);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"));
    if profile == "pas" {
        cmd.arg("--agent");
    }
    let out: Output = cmd
        .args(args)
        .env("PAS_SPEC_CLI_SPEC", &spec)
        .env("PAS_SPEC_CLI_REPLY", "{}")
        .env("DECL_TOKEN", "a-long-enough-token")
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0), "{profile} {args:?}");
    let text = if profile == "pas" {
        &out.stderr
    } else {
        &out.stdout
    };
    let value: Value = serde_json::from_slice(text).unwrap_or_else(|e| {
        panic!(
            "{profile}: one JSON value ({e}): {}",
            String::from_utf8_lossy(text)
        )
    });
    let (code, suggestion, details) = match profile {
        "pas" => (
            value["error"].clone(),
            value["suggestion"].clone(),
            value["details"].clone(),
        ),
        "compose" => (
            value["error"]["code"].clone(),
            value["error"]["hint"].clone(),
            value["error"]["details"].clone(),
        ),
        _ => (
            value["error"]["details"]["kind"].clone(),
            value["error"]["suggestion"].clone(),
            value["error"]["details"].clone(),
        ),
    };
    (
        code.as_str().unwrap_or_default().to_owned(),
        suggestion.as_str().unwrap_or_default().to_owned(),
        details,
    )
}

#[test]
fn an_enum_value_in_the_wrong_case_is_corrected_to_its_declared_spelling() {
    for profile in ["pas", "compose", "robot"] {
        let (code, suggestion, details) =
            refused(profile, &["note", "create", "hello", "--channel", "MAIL"]);
        assert_eq!(code, "INVALID_VALUE", "{profile}: {details}");
        assert_eq!(details["corrected_input"], "mail", "{profile}: {details}");
        assert_eq!(suggestion, "did you mean 'mail'?", "{profile}");
    }
}

#[test]
fn a_misspelt_value_flag_or_command_names_the_one_close_candidate() {
    for profile in ["pas", "compose", "robot"] {
        for (args, code, fixed) in [
            (
                &["note", "create", "hello", "--channel", "chta"][..],
                "INVALID_VALUE",
                "chat",
            ),
            (
                &["note", "create", "hello", "--priorty", "2"],
                "UNKNOWN_ARGUMENT",
                "--priority",
            ),
            (&["note", "craete", "hello"], "UNKNOWN_COMMAND", "create"),
        ] {
            let (got, _, details) = refused(profile, args);
            assert_eq!(got, code, "{profile} {args:?}: {details}");
            assert_eq!(
                details["corrected_input"], fixed,
                "{profile} {args:?}: {details}"
            );
        }
    }
}

#[test]
fn nothing_close_is_no_correction() {
    for profile in ["pas", "compose", "robot"] {
        let (_, _, details) = refused(profile, &["note", "create", "hello", "--channel", "zzzz"]);
        assert!(
            details.get("corrected_input").is_none(),
            "{profile}: {details}"
        );
    }
}
