//! Structured input on stdin, read and checked by the runtime against the command's declared
//! `inputSchema` before the handler runs (CLI Agent Spec 46, 67, 61), in every profile: loose
//! JSON an agent wrote (trailing commas, comments, single quotes, bare keys, a code fence) is
//! corrected and each correction reported as a warning; input that breaks the schema is refused
//! with every problem at once, and the handler never runs. Driven through `pas-spec-cli` over
//! `tests/fixtures/valid/stdin-input.yaml`, whose echo handler answers the stdin it read.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

const SPEC: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/valid/stdin-input.yaml"
);

/// The fixture with `profile:` set to `profile`, in a directory of the test's own.
fn spec_for(profile: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(SPEC)
        .unwrap()
        .replace("profile: pas", &format!("profile: {profile}"));
    let path = dir.path().join("spec.yaml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn call(profile: &str, args: &[&str], stdin: &[u8]) -> Output {
    let (_dir, spec) = spec_for(profile);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"));
    cmd.args(args)
        .env("PAS_SPEC_CLI_SPEC", &spec)
        .env("PAS_SPEC_CLI_REPLY", "{}")
        .env("PAS_SPEC_CLI_ECHO_STDIN", "1")
        .env_remove("PAS_AGENT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if profile == "pas" {
        cmd.arg("--agent");
    }
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|err| panic!("one JSON value ({err}): {}", String::from_utf8_lossy(bytes)))
}

/// The call's data and warnings, whatever the profile.
fn success(profile: &str, out: &Output) -> (Value, Vec<Value>) {
    assert_eq!(out.status.code(), Some(0), "{profile}: {out:?}");
    let stdout = json_of(&out.stdout);
    match profile {
        "pas" => {
            let warnings = String::from_utf8_lossy(&out.stderr)
                .lines()
                .map(|line| json_of(line.as_bytes())["warning"].clone())
                .collect();
            (stdout, warnings)
        }
        "compose" => (
            stdout["data"].clone(),
            stdout["meta"]["warnings"]
                .as_array()
                .cloned()
                .unwrap_or_default(),
        ),
        _ => (
            stdout["data"].clone(),
            stdout["warnings"].as_array().cloned().unwrap_or_default(),
        ),
    }
}

/// The error object and exit code, whatever the profile.
fn failure(profile: &str, out: &Output) -> (Value, i32) {
    let code = out.status.code().unwrap();
    assert_ne!(code, 0, "{profile}: {out:?}");
    let error = match profile {
        "pas" => {
            assert!(out.stdout.is_empty(), "{profile}: stdout empty on error");
            let error = json_of(&out.stderr);
            // The pas error line: {"error": CODE, "message", "suggestion", "details"}.
            json!({"code": error["error"], "details": error["details"], "message": error["message"]})
        }
        "compose" => json_of(&out.stdout)["error"].clone(),
        _ => {
            // robot: the spec's role code (`ERR_ARGS`), the runtime's constant at details.kind.
            let env = json_of(&out.stdout);
            json!({"code": env["error"]["details"]["kind"], "details": env["error"]["details"], "message": env["error"]["message"]})
        }
    };
    (error, code)
}

const PROFILES: [&str; 3] = ["pas", "compose", "robot"];

#[test]
fn loose_json_on_stdin_is_corrected_reported_and_handed_over_strict() {
    let loose =
        b"```json\n{\n  // the item\n  title: 'Buy milk',\n  tags: ['a,b', \"c\",],\n}\n```\n";
    for profile in PROFILES {
        let out = call(profile, &["item", "create"], loose);
        let (data, warnings) = success(profile, &out);
        assert_eq!(
            json_of(data["stdin"].as_str().unwrap().as_bytes()),
            json!({"title": "Buy milk", "tags": ["a,b", "c"]}),
            "{profile}: the handler reads the corrected JSON"
        );
        let kinds: Vec<&str> = warnings
            .iter()
            .map(|w| {
                assert_eq!(w["code"], "INPUT_CORRECTED", "{profile}: {w}");
                w["message"].as_str().unwrap()
            })
            .collect();
        assert_eq!(
            kinds.len(),
            8,
            "{profile}: one warning per correction: {kinds:?}"
        );
        assert!(
            kinds[0].contains("line 1, column 1: removed a Markdown code fence"),
            "{kinds:?}"
        );
        assert!(
            kinds
                .iter()
                .any(|k| k.contains("line 5, column 20: removed a trailing comma")),
            "{kinds:?}"
        );
    }
}

#[test]
fn strict_json_reaches_the_handler_untouched_and_without_warnings() {
    let strict = b"{\"title\": \"x\", \"tags\": [\"a,b\"]}\n";
    for profile in PROFILES {
        let (data, warnings) = success(profile, &call(profile, &["item", "create"], strict));
        assert_eq!(data["stdin"], String::from_utf8_lossy(strict).as_ref());
        assert_eq!(warnings, Vec::<Value>::new(), "{profile}");
    }
}

#[test]
fn input_that_breaks_the_schema_is_refused_before_the_handler_with_every_problem() {
    let wrong = b"{title: '', priority: 'urgent', colour: 'red',}";
    for profile in PROFILES {
        let out = call(profile, &["item", "create"], wrong);
        let (error, exit) = failure(profile, &out);
        assert_eq!(error["code"], "INVALID_VALUE", "{profile}: {error}");
        if profile == "pas" {
            assert_eq!(
                exit, 2,
                "a validation failure is exit 2 (compose: 1, robot: ERR_ARGS)"
            );
        }
        let details = &error["details"];
        let mut paths: Vec<(&str, &str)> = details["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| (v["path"].as_str().unwrap(), v["keyword"].as_str().unwrap()))
            .collect();
        paths.sort();
        assert_eq!(
            paths,
            [
                ("/colour", "additionalProperties"),
                ("/priority", "enum"),
                ("/title", "minLength"),
            ],
            "{profile}"
        );
        assert_eq!(
            details["corrected_input"],
            json!({"title": "", "priority": "urgent", "colour": "red"}),
            "{profile}"
        );
        assert_eq!(
            details["corrections"].as_array().unwrap().len(),
            7,
            "{profile}"
        );
        // The echo handler never ran: its answer names stdin.
        assert!(
            !String::from_utf8_lossy(&out.stdout).contains("{\"stdin\":"),
            "{profile}"
        );
    }
}

#[test]
fn text_that_is_not_json_even_when_corrected_is_refused_with_its_position() {
    for profile in PROFILES {
        let out = call(profile, &["item", "create"], b"{\"title\": True}");
        let (error, _) = failure(profile, &out);
        assert_eq!(error["code"], "INVALID_VALUE", "{profile}: {error}");
        assert_eq!(error["details"]["input"], "stdin");
        assert_eq!(
            (
                error["details"]["line"].as_u64(),
                error["details"]["column"].as_u64()
            ),
            (Some(1), Some(11)),
            "{profile}: {error}"
        );
    }
}

#[test]
fn an_empty_stdin_is_left_to_the_handler() {
    for profile in PROFILES {
        let (data, _) = success(profile, &call(profile, &["item", "create"], b""));
        assert_eq!(data["stdin"], "", "{profile}");
    }
}
