//! Secrets are `[REDACTED]` in every error and in the audit log; `--audit-log` appends one
//! JSON line per invocation.

mod runtime_support;

use runtime_support::{code, demo, error_json, run, stderr};

#[test]
fn a_secret_flag_is_redacted_in_handler_errors() {
    let out = run(&["--agent", "item", "get", "13", "--token", "s3cr3t-tok"]);
    assert_eq!(code(&out), 1);
    let text = stderr(&out);
    assert!(!text.contains("s3cr3t-tok"), "{text}");
    let error = error_json(&out);
    assert_eq!(
        error["message"],
        "request to https://api.example/items/13?token=[REDACTED] failed"
    );
    assert_eq!(
        error["details"]["url"],
        "https://api.example/items/13?token=[REDACTED]"
    );
}

#[test]
fn a_secret_from_the_environment_is_redacted() {
    let out = demo(&["--agent", "item", "get", "13"])
        .env("DEMO_TOKEN", "env-s3cr3t")
        .output()
        .unwrap();
    assert!(!stderr(&out).contains("env-s3cr3t"), "{}", stderr(&out));
    assert!(stderr(&out).contains("[REDACTED]"));
}

#[test]
fn every_spelling_of_a_secret_is_redacted_in_both_modes() {
    for args in [
        &["--agent", "login", "--user", "bob", "-p", "hunter22"][..],
        &["--agent", "login", "--user", "bob", "-phunter22"],
        &["--agent", "login", "--user", "bob", "--password=hunter22"],
        &["login", "--user", "bob", "--password", "hunter22"],
    ] {
        let out = run(args);
        let text = stderr(&out);
        assert!(!text.contains("hunter22"), "{args:?}: {text}");
        assert!(
            text.contains("wrong password [REDACTED] for bob"),
            "{args:?}: {text}"
        );
    }
}

#[test]
fn a_secret_is_redacted_in_parse_errors() {
    // clap's message echoes the bad value of --count; the token is elsewhere in argv.
    let out = run(&[
        "--agent", "item", "list", "--token", "tok-999", "--count", "tok-999",
    ]);
    assert_eq!(code(&out), 2);
    assert!(!stderr(&out).contains("tok-999"), "{}", stderr(&out));
    let human = run(&["item", "list", "--token", "tok-999", "--count", "tok-999"]);
    assert!(!stderr(&human).contains("tok-999"), "{}", stderr(&human));
    assert!(
        stderr(&human).contains("invalid value '[REDACTED]'"),
        "{}",
        stderr(&human)
    );
}

#[test]
fn the_audit_log_gets_one_redacted_line_per_call() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    let log_arg = log.to_str().unwrap();
    let ok = run(&[
        "--agent",
        "--audit-log",
        log_arg,
        "item",
        "get",
        "5",
        "--token",
        "tok-abc",
    ]);
    assert_eq!(code(&ok), 0);
    let failed = run(&[
        "login",
        "--user",
        "bob",
        "--password=pw-xyz",
        &format!("--audit-log={log_arg}"),
    ]);
    assert_eq!(code(&failed), 1);
    let rejected = run(&["--agent", "--audit-log", log_arg, "item", "get", "nope"]);
    assert_eq!(code(&rejected), 2);

    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        !text.contains("tok-abc") && !text.contains("pw-xyz"),
        "{text}"
    );
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3);

    let first = &records[0];
    assert!(first["time"].as_str().unwrap().ends_with('Z'));
    assert_eq!(first["tool"], "demo");
    assert_eq!(first["command"], "item.get");
    assert_eq!(
        first["argv"],
        serde_json::json!([demo_arg0(), "item", "get", "5", "--token", "[REDACTED]"])
    );
    assert_eq!(first["agent"], true);
    assert_eq!(first["result"], "success");
    assert_eq!(first["exit_code"], 0);

    assert_eq!(records[1]["command"], "login");
    assert_eq!(records[1]["argv"][4], "--password=[REDACTED]");
    assert_eq!(records[1]["result"], "error");
    assert_eq!(records[1]["error"], "GENERAL_ERROR");
    assert_eq!(records[1]["exit_code"], 1);
    assert_eq!(records[1]["agent"], false);

    assert_eq!(
        records[2]["command"],
        serde_json::Value::Null,
        "argv did not parse"
    );
    assert_eq!(records[2]["error"], "INVALID_VALUE");
    assert_eq!(records[2]["exit_code"], 2);
}

fn demo_arg0() -> String {
    runtime_support::demo_path().to_string_lossy().into_owned()
}

#[test]
fn an_unwritable_audit_log_stops_the_call() {
    let out = run(&[
        "--agent",
        "--audit-log",
        "/nonexistent-dir/audit.jsonl",
        "item",
        "get",
        "5",
    ]);
    assert_eq!(code(&out), 1);
    assert!(out.stdout.is_empty(), "the command did not run");
    assert_eq!(error_json(&out)["error"], "GENERAL_ERROR");
}
