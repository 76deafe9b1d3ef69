//! Arguments as agents write them: negative numbers where the type allows them, values that start
//! with a dash given as `--flag=VALUE`, and `--agent=true|1`. Driven through `pas-spec-cli` (any
//! spec as a CLI whose commands have no handlers): a call that parses reaches the missing
//! handler (INTERNAL_ERROR), one that does not parse is a usage error (exit 2).

use assert_cmd::Command;

const SPEC: &str = "\
specVersion: 1
name: bookmarks
version: 0.1.0
summary: Keep bookmarks.
commands:
  - name: list
    description: List bookmarks.
    output: list
    parameters:
      - {name: limit, type: integer, default: 10, description: At most this many}
      - {name: tag, description: Only this tag}
  - name: move
    description: Move a bookmark by an offset.
    effect: write
    parameters:
      - {name: id, kind: positional, type: integer, required: true, description: The bookmark}
      - {name: offset, kind: positional, type: number, required: true, description: How far}
";

fn run(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bookmarks.yaml");
    std::fs::write(&spec, SPEC).unwrap();
    let output = Command::cargo_bin("pas-spec-cli")
        .unwrap()
        .env("PAS_SPEC_CLI_SPEC", &spec)
        .env_remove("PAS_AGENT")
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let error = serde_json::from_str(stderr.trim())
        .unwrap_or_else(|_| panic!("JSON error on stderr for {args:?}: {stderr}"));
    (output.status.code(), error)
}

/// The call parsed: it got as far as the (missing) handler.
fn parsed(args: &[&str]) {
    let (code, error) = run(args);
    assert_eq!(error["error"], "INTERNAL_ERROR", "{args:?}: {error}");
    assert_eq!(code, Some(1), "{args:?}");
}

#[test]
fn negative_numbers_are_values_where_the_type_allows_them() {
    parsed(&["--agent", "list", "--limit", "-1"]);
    parsed(&["--agent", "move", "4", "-3"]);
    parsed(&["--agent", "move", "-4", "-0.5"]);
    // Not a number: still the usage error it is, as JSON.
    let (code, error) = run(&["--agent", "list", "--limit", "-x"]);
    assert_eq!(code, Some(2), "{error}");
}

#[test]
fn a_value_starting_with_a_dash_goes_after_an_equals_sign() {
    parsed(&["--agent", "list", "--tag=-urgent"]);
    parsed(&["--agent", "list", "--limit=-5"]);
}

#[test]
fn agent_takes_a_boolean_value() {
    for spelling in ["--agent=true", "--agent=1"] {
        parsed(&[spelling, "list"]);
        parsed(&["list", spelling]);
    }
    // Anything else still asks for agent mode, and the parser's error is JSON.
    let (code, error) = run(&["list", "--agent=maybe"]);
    assert_eq!(code, Some(2), "{error}");
    assert!(error["error"].is_string(), "{error}");
}
