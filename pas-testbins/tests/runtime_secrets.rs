//! A secret's value appears on no stream and in no audit record, whatever its spelling (issue
//! 19): `--flag VALUE`, `--flag=VALUE`, glued `--flagVALUE` and `-kVALUE`, misspelt flags
//! (`--api_key=VALUE`, `--apikey VALUE`, `--API-KEY VALUE`, `--api-kye=VALUE`), after `--`, from
//! the environment and from a configuration file. Redaction replaces whole tokens, and a secret
//! shorter than the documented minimum is refused by name, so it neither garbles nor leaks.

mod runtime_support;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const CANARY: &str = "CANARY7x9q";

fn spec_cli(spec: &Path, args: &[&str], envs: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"))
        .env("PAS_SPEC_CLI_SPEC", spec)
        .env_remove("PAS_AGENT")
        .env_remove("WEATHER_API_KEY")
        .env_remove("WEATHER_CONFIG")
        .env("XDG_CONFIG_HOME", "/nonexistent-pas-test-config")
        .envs(envs.iter().copied())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the spec CLI runs")
}

fn weather() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../specs/weather.yaml"
    ))
}

/// Runs weather with an audit log and asserts the canary is nowhere.
fn nowhere(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    let mut all = vec!["--audit-log", log.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = spec_cli(weather(), &all, envs);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let audit = std::fs::read_to_string(&log).unwrap_or_default();
    for (stream, text) in [
        ("stdout", &*stdout),
        ("stderr", &*stderr),
        ("audit", &*audit),
    ] {
        assert!(
            !text.contains(CANARY),
            "{args:?}: {stream} shows it: {text}"
        );
        assert!(
            !text.contains("CANARY"),
            "{args:?}: {stream} shows part: {text}"
        );
    }
    assert_eq!(
        audit.lines().count(),
        1,
        "{args:?}: one audit record: {audit}"
    );
    out
}

#[test]
fn a_glued_secret_is_not_echoed() {
    // The reproduction of issue 19: clap echoes the unknown word whole.
    let glued = format!("--api-key{CANARY}");
    for agent in [true, false] {
        let mut args = vec![glued.as_str(), "current"];
        if agent {
            args.insert(0, "--agent");
        }
        let out = nowhere(&args, &[]);
        assert_eq!(out.status.code(), Some(2));
    }
    let out = nowhere(&["--agent", &glued, "current"], &[]);
    let error: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(error["message"], "unexpected argument '[REDACTED]' found");
}

#[test]
fn every_spelling_of_a_secret_is_kept_out_of_streams_and_the_audit_log() {
    let eq = |flag: &str| format!("{flag}={CANARY}");
    let spellings: Vec<Vec<String>> = vec![
        vec!["--api-key".into(), CANARY.into()],
        vec![eq("--api-key")],
        vec![eq("--api_key")],
        vec!["--apikey".into(), CANARY.into()],
        vec!["--api_key".into(), CANARY.into()],
        vec![eq("--apikey")],
        vec!["--API-KEY".into(), CANARY.into()],
        vec![eq("--api-kye")],
        vec![format!("--apikey{CANARY}")],
    ];
    for spelling in &spellings {
        for agent in [true, false] {
            let mut args: Vec<&str> = Vec::new();
            if agent {
                args.push("--agent");
            }
            args.extend(spelling.iter().map(String::as_str));
            args.extend(["current", "Boston"]);
            nowhere(&args, &[]);
            // After the command's own words too, and with a parse error elsewhere.
            let mut late: Vec<&str> = vec!["--agent", "forecast", "Paris", "--days", "many"];
            late.extend(spelling.iter().map(String::as_str));
            nowhere(&late, &[]);
        }
    }
    // After `--` the words are data to the parser, and still kept out of the log.
    nowhere(
        &["--agent", "current", "Boston", "--", "--api-key", CANARY],
        &[],
    );
    nowhere(&["--agent", "current", "--", &eq("--api-key")], &[]);
}

#[test]
fn secrets_from_the_environment_and_a_config_file_are_kept_out() {
    nowhere(
        &["--agent", "forecast", "Paris", "--days", CANARY],
        &[("WEATHER_API_KEY", CANARY)],
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("weather.toml");
    std::fs::write(&file, format!("api-key = \"{CANARY}\"\n")).unwrap();
    nowhere(
        &[
            "--agent",
            "--config",
            file.to_str().unwrap(),
            "forecast",
            CANARY,
            "--days",
            CANARY,
        ],
        &[],
    );
}

#[test]
fn redaction_replaces_whole_tokens_only() {
    // A secret that is also the start of a longer word in clap's message leaves that word alone
    // (the secret is not in it), and is replaced where it stands alone.
    let out = spec_cli(
        weather(),
        &[
            "--agent",
            "--api-key",
            "s3cr3tval",
            "forecast",
            "X",
            "--days",
            "s3cr3tvalue",
        ],
        &[],
    );
    let error: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(
        error["message"],
        "invalid value 's3cr3tvalue' for '--days <DAYS>': invalid digit found in string"
    );
    let out = spec_cli(
        weather(),
        &[
            "--agent",
            "--api-key",
            "s3cr3tval",
            "forecast",
            "X",
            "--days",
            "s3cr3tval",
        ],
        &[],
    );
    let error: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(
        error["message"],
        "invalid value '[REDACTED]' for '--days <DAYS>': invalid digit found in string"
    );
}

#[test]
fn a_short_secret_neither_garbles_nor_leaks() {
    for (args, envs, source) in [
        (
            vec!["--agent", "--api-key", "e", "current", "--days"],
            vec![],
            "--api-key",
        ),
        (
            vec!["--agent", "--api-key=e", "forecast", "X", "--days", "zz"],
            vec![],
            "--api-key",
        ),
        (
            vec!["--agent", "current", "X"],
            vec![("WEATHER_API_KEY", "ab")],
            "$WEATHER_API_KEY",
        ),
    ] {
        let out = spec_cli(weather(), &args, &envs);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        let error: Value = serde_json::from_str(&stderr).unwrap();
        assert_eq!(error["error"], "INVALID_ARGUMENT");
        assert_eq!(
            error["message"],
            format!("the secret given in {source} is shorter than 6 characters")
        );
        assert!(!stderr.contains("REDACTED"), "nothing garbled: {stderr}");
    }
    // A short secret in the configuration file is refused by its key.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("weather.toml");
    std::fs::write(&file, "api-key = \"e\"\n").unwrap();
    let out = spec_cli(
        weather(),
        &[
            "--agent",
            "--config",
            file.to_str().unwrap(),
            "current",
            "X",
        ],
        &[],
    );
    let error: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(
        error["details"]["source"],
        format!("`api-key` of {}", file.display())
    );
    // Help still answers: it never echoes argv.
    let help = spec_cli(weather(), &["--agent", "--api-key", "e", "--help"], &[]);
    assert_eq!(help.status.code(), Some(0));
}

#[test]
fn config_show_never_shows_a_secret() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("deploy.json");
    std::fs::write(
        &spec,
        r#"{"specVersion": 1, "name": "deploy", "version": "1.0.0", "summary": "Deploy.",
            "profile": "compose",
            "globalFlags": [{"name": "api-key", "env": "DEPLOY_API_KEY", "secret": true,
                             "description": "API key."}],
            "commands": [{"name": "service.list", "description": "List.", "output": "list"}]}"#,
    )
    .unwrap();
    let glued = format!("--api-key={CANARY}");
    for (args, envs) in [
        (vec!["config", "show", "--api-key", CANARY], vec![]),
        (vec!["config", "show", glued.as_str()], vec![]),
        (vec!["config", "show"], vec![("DEPLOY_API_KEY", CANARY)]),
    ] {
        let out = spec_cli(&spec, &args, &envs);
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0), "{stdout}");
        assert!(!stdout.contains(CANARY), "{stdout}");
        let envelope: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(envelope["data"]["flags"][0]["value"], "[REDACTED]");
    }
}

#[test]
fn a_secret_flag_taken_as_another_flag_s_value_is_still_kept_out() {
    // Finds of tests/runtime_fuzz.rs: the word after a flag that takes a value was a secret
    // flag, so its own value was not known as a secret (`--config` is the runtime's flag and
    // takes `--api-key` as its file; `--units` takes it as a value).
    nowhere(
        &["--agent", "--config", "--api-key", CANARY, "current", "X"],
        &[],
    );
    nowhere(
        &["--agent", "--units", "--api-key", CANARY, "current", "X"],
        &[],
    );
    nowhere(
        &["--agent", "--api-key", "--api-key", CANARY, "current", "X"],
        &[],
    );
}
