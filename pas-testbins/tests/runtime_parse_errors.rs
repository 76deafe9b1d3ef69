//! Parse errors in agent mode: one JSON line on stderr with a precise constant, clap's message
//! and a suggestion; stdout empty; exit 2. Human mode keeps clap's text.

mod runtime_support;

use assert_cmd::Command;
use runtime_support::{code, demo_path, error_json, run, stderr, without_request_id};

/// Runs an agent-mode call that must fail to parse; returns the error JSON.
fn parse_failure(args: &[&str]) -> serde_json::Value {
    let assert = Command::new(demo_path())
        .args(args)
        .env_remove("PAS_AGENT")
        .assert();
    let output = assert.code(2).stdout("").get_output().clone();
    error_json(&output)
}

#[test]
fn each_kind_of_parse_error_has_its_constant() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["--agent", "item", "list", "--cont", "3"],
            "UNKNOWN_ARGUMENT",
        ),
        (&["--agent", "item", "list", "--count"], "INVALID_VALUE"),
        (&["--agent", "item", "get"], "MISSING_ARGUMENT"),
        (&["--agent", "item", "get", "abc"], "INVALID_VALUE"),
        (
            &["--agent", "item", "list", "--kind", "weird"],
            "INVALID_VALUE",
        ),
        (&["--agent"], "MISSING_COMMAND"),
        (&["--agent", "item"], "MISSING_COMMAND"),
        (&["--agent", "item", "lst"], "UNKNOWN_COMMAND"),
    ];
    for (args, constant) in cases {
        let error = parse_failure(args);
        assert_eq!(error["error"], constant, "{args:?}: {error}");
        assert_eq!(error["code"], 2, "{args:?}");
        assert!(
            error["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty() && !m.contains('\n'))
        );
        assert!(error["suggestion"].is_string(), "{args:?}");
    }
}

#[test]
fn parse_errors_are_pinned() {
    let lines: Vec<String> = [
        &["--agent", "item", "list", "--cont", "3"][..],
        &["--agent", "item", "get"],
        &["--agent", "item", "get", "abc"],
        &["--agent", "item", "list", "--kind", "weird"],
        &["--agent", "item", "lst"],
        &["--agent"],
    ]
    .iter()
    .map(|args| format!("{args:?}\n{}\n", without_request_id(&run(args).stderr)))
    .collect();
    insta::assert_snapshot!(lines.join("\n"));
}

#[test]
fn suggestions_come_from_clap_did_you_mean() {
    assert_eq!(
        parse_failure(&["--agent", "item", "list", "--cont"])["suggestion"],
        "did you mean '--count'?"
    );
    assert_eq!(
        parse_failure(&["--agent", "item", "lst"])["suggestion"],
        "did you mean 'list'?"
    );
    assert_eq!(
        parse_failure(&["--agent", "item", "list", "--kind", "x"])["suggestion"],
        "use one of: plain, fancy"
    );
    // No did-you-mean: point at the contract of the command argv reached.
    assert_eq!(
        parse_failure(&["--agent", "item", "get"])["suggestion"],
        "see `demo --agent item get --help`"
    );
}

#[test]
fn human_mode_keeps_clap_text() {
    let out = run(&["item", "list", "--cont", "3"]);
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
    let text = stderr(&out);
    assert!(
        text.starts_with("error: unexpected argument '--cont' found"),
        "{text}"
    );
    assert!(
        text.contains("tip: a similar argument exists: '--count'"),
        "{text}"
    );
    assert!(text.contains("Usage: demo item list"), "{text}");
}

#[test]
fn audit_log_without_a_file_is_a_parse_error_too() {
    let error = parse_failure(&["--agent", "item", "list", "--audit-log"]);
    assert_eq!(error["error"], "MISSING_ARGUMENT");
}
