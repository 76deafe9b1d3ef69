//! A library's prints never corrupt stdout (CLI Agent Spec failure mode 68): while a handler
//! runs (and its stream is drained), fd 1 points away from the real stdout; what lands there
//! becomes a `THIRD_PARTY_STDOUT` warning in every profile: the `pas` warning line on stderr,
//! compose's `meta.warnings`, robot's `warnings`.

mod runtime_support;

use std::process::{Command, Output, Stdio};

use serde_json::Value;

use runtime_support::{demo, stderr, stdout};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/valid");

/// `pas-spec-cli` over a fixture spec, with echo handlers that print `text` (a `println!`, a
/// `print!` without a newline, and a child process inheriting stdout) before they answer.
fn printing_spec_cli(spec: &str, text: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"))
        .args(args)
        .env("PAS_SPEC_CLI_SPEC", format!("{FIXTURES}/{spec}"))
        .env("PAS_SPEC_CLI_REPLY", r#"{"id":"n1"}"#)
        .env("PAS_SPEC_CLI_PRINT", text)
        .env_remove("PAS_SPEC_CLI_FAIL")
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The `THIRD_PARTY_STDOUT` warnings among `warnings`.
fn captured(warnings: &Value) -> Vec<String> {
    warnings
        .as_array()
        .unwrap_or(&Vec::new())
        .iter()
        .filter(|w| w["code"] == "THIRD_PARTY_STDOUT")
        .map(|w| w["message"].as_str().unwrap().to_owned())
        .collect()
}

fn assert_all_three_prints(message: &str, text: &str) {
    assert!(message.contains(&format!("{text}\n")), "{message}");
    assert!(
        message.contains(&format!("{text} without a newline")),
        "{message}"
    );
    assert!(
        message.contains(&format!("{text} from a child")),
        "{message}"
    );
}

#[test]
fn a_library_printing_in_a_pas_stream_leaves_stdout_whole_ndjson() {
    for to_file in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.ndjson");
        let mut cmd = demo(&["--agent", "item", "list", "-n", "3"]);
        cmd.env("DEMO_LIBRARY_PRINTS", "1");
        if to_file {
            cmd.stdout(std::fs::File::create(&path).unwrap());
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = match to_file {
            true => std::fs::read_to_string(&path).unwrap(),
            false => stdout(&out),
        };
        let ids: Vec<Value> = text
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).expect("only items")["id"].clone())
            .collect();
        assert_eq!(ids, [0, 1, 2], "{text}");
        let warning: Value = serde_json::from_str(stderr(&out).trim_end()).unwrap();
        assert_eq!(warning["warning"]["code"], "THIRD_PARTY_STDOUT");
        let message = warning["warning"]["message"].as_str().unwrap();
        for id in 0..3 {
            assert!(
                message.contains(&format!("library: made item {id}")),
                "{message}"
            );
        }
    }
}

#[test]
fn a_quiet_handler_gets_no_warning() {
    let out = demo(&["--agent", "item", "list", "-n", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
    assert_eq!(stdout(&out).lines().count(), 2);
}

#[test]
fn compose_moves_a_library_print_to_meta_warnings() {
    let out = printing_spec_cli("compose.json", "SDK banner v1", &["service", "list"]);
    let envelope: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|err| panic!("stdout is one envelope ({err}): {}", stdout(&out)));
    assert_eq!(envelope["ok"], true, "{envelope}");
    let warnings = captured(&envelope["meta"]["warnings"]);
    assert_eq!(warnings.len(), 1, "{envelope}");
    assert_all_three_prints(&warnings[0], "SDK banner v1");
}

#[test]
fn robot_moves_a_library_print_to_warnings() {
    let out = printing_spec_cli("robot.yaml", "driver log", &["plan"]);
    let envelope: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|err| panic!("stdout is one envelope ({err}): {}", stdout(&out)));
    let warnings = captured(&envelope["warnings"]);
    assert_eq!(warnings.len(), 1, "{envelope}");
    assert_all_three_prints(&warnings[0], "driver log");
}

#[test]
fn a_library_print_before_a_failure_is_still_kept_off_stdout() {
    let out = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"))
        .args(["service", "list"])
        .env("PAS_SPEC_CLI_SPEC", format!("{FIXTURES}/compose.json"))
        .env("PAS_SPEC_CLI_REPLY", "{}")
        .env("PAS_SPEC_CLI_PRINT", "noisy")
        .env("PAS_SPEC_CLI_FAIL", "SERVICE_NOT_FOUND")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let envelope: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|err| panic!("stdout is one envelope ({err}): {}", stdout(&out)));
    assert_eq!(envelope["ok"], false, "{envelope}");
    assert_eq!(
        captured(&envelope["meta"]["warnings"]).len(),
        1,
        "{envelope}"
    );
}
