//! Configuration files through the runtime: in the `pas` profile with the demo (a file value
//! reaches the handler, secrets from the file are redacted, a broken file exits 2 with
//! `CONFIG_INVALID`), and in the compose profile with a spec-built CLI (`config show` sources
//! and redaction).

mod runtime_support;

use std::path::Path;
use std::process::Command;

use runtime_support::{code, demo, error_json, stderr, stdout};
use serde_json::Value;

/// The demo with its default config location inside `dir` (so no user file interferes).
fn demo_in(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = demo(args);
    cmd.env("XDG_CONFIG_HOME", dir.join("config"));
    cmd
}

/// A JSON value with the temp dir written as `[DIR]`, for snapshots.
fn scrubbed(value: &Value, dir: &Path) -> Value {
    let text = value
        .to_string()
        .replace(&dir.display().to_string(), "[DIR]");
    let mut value: Value = serde_json::from_str(&text).unwrap();
    // A new id on every call.
    if let Some(map) = value.as_object_mut()
        && map.contains_key("request_id")
    {
        map.insert("request_id".into(), "req_0000000000000000".into());
    }
    value
}

#[test]
fn a_file_secret_reaches_the_handler_and_is_redacted() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("demo.toml");
    std::fs::write(&file, "token = \"file-s3cr3t\"\n").unwrap();
    let out = demo_in(dir.path(), &["--agent", "item", "get", "13"])
        .arg("--config")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(!stderr(&out).contains("file-s3cr3t"), "{}", stderr(&out));
    assert_eq!(
        error_json(&out)["message"],
        "request to https://api.example/items/13?token=[REDACTED] failed"
    );
}

#[test]
fn the_default_location_and_demo_config_are_read() {
    let dir = tempfile::tempdir().unwrap();
    // No file at the default location: the call runs as before.
    let out = demo_in(dir.path(), &["--agent", "item", "get", "1"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    let default = dir.path().join("config/demo/config.toml");
    std::fs::create_dir_all(default.parent().unwrap()).unwrap();
    std::fs::write(&default, "token = \"default-s3cr3t\"\n").unwrap();
    let out = demo_in(dir.path(), &["--agent", "item", "get", "13"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        error_json(&out)["message"]
            .as_str()
            .unwrap()
            .contains("[REDACTED]")
    );

    let missing = dir.path().join("missing.toml");
    let out = demo_in(dir.path(), &["--agent", "item", "get", "1"])
        .env("DEMO_CONFIG", &missing)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    insta::assert_json_snapshot!(
        "missing_named_file",
        scrubbed(&error_json(&out), dir.path())
    );
}

#[test]
fn a_broken_file_exits_2_naming_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("demo.toml");
    let run = |text: &str| {
        std::fs::write(&file, text).unwrap();
        let out = demo_in(dir.path(), &["--agent", "item", "get", "1"])
            .arg(format!("--config={}", file.display()))
            .output()
            .unwrap();
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert!(stdout(&out).is_empty());
        scrubbed(&error_json(&out), dir.path())
    };
    insta::assert_json_snapshot!("unknown_key", run("colour = \"red\"\n"));
    // A secret's wrong value is never quoted.
    insta::assert_json_snapshot!("wrong_type", run("token = 12345\n"));
    insta::assert_json_snapshot!("bad_syntax", run("token = \"unterminated\n"));

    let out = demo_in(dir.path(), &["--agent", "item", "get", "1", "--config"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert_eq!(error_json(&out)["error"], "MISSING_ARGUMENT");
}

const COMPOSE_SPEC: &str = r#"{
  "specVersion": 1,
  "name": "deploy",
  "version": "2.0.0",
  "summary": "Deploy services.",
  "profile": "compose",
  "globalFlags": [
    {"name": "api-key", "env": "DEPLOY_API_KEY", "secret": true, "description": "API key."},
    {"name": "region", "env": "DEPLOY_REGION", "default": "eu", "description": "Region."},
    {"name": "retries", "type": "integer", "default": 3, "description": "Retries."},
    {"name": "verbose", "type": "boolean", "description": "Say more."},
    {"name": "timeout", "type": "number", "description": "Seconds."}
  ],
  "commands": [{"name": "service.list", "description": "List services.", "output": "list"}]
}"#;

/// `deploy ARGS... config show` (the spec-built CLI), returning the envelope and exit code.
fn compose(dir: &Path, args: &[&str], envs: &[(&str, &str)]) -> (Value, i32) {
    let spec = dir.join("deploy.json");
    std::fs::write(&spec, COMPOSE_SPEC).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"));
    cmd.env("PAS_SPEC_CLI_SPEC", &spec)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env_remove("DEPLOY_CONFIG")
        .env_remove("DEPLOY_API_KEY")
        .env_remove("DEPLOY_REGION")
        .env_remove("PAS_AGENT")
        .args(args)
        .envs(envs.iter().copied());
    let out = cmd.output().unwrap();
    let envelope = serde_json::from_str(stdout(&out).trim()).expect("one envelope");
    (scrubbed(&envelope, dir), code(&out))
}

#[test]
fn compose_config_show_reports_file_sources_and_redacts() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deploy.toml");
    std::fs::write(
        &file,
        "api-key = \"file-k3y\"\nregion = \"us\"\nretries = 5\nverbose = true\ntimeout = 2\n",
    )
    .unwrap();
    let config = file.display().to_string();
    let (envelope, exit) = compose(
        dir.path(),
        &["config", "show"],
        &[("DEPLOY_CONFIG", &config)],
    );
    assert_eq!(exit, 0);
    assert!(!envelope.to_string().contains("file-k3y"));
    let mut envelope = envelope;
    envelope["meta"]["elapsed"] = 0.into();
    envelope["meta"]["requestId"] = "req_0000000000000000".into();
    envelope["meta"]["cwd"] = "/cwd".into();
    insta::assert_json_snapshot!("compose_config_show_from_file", envelope);

    // Flag > environment > file: `region` from each in turn.
    let region = |args: &[&str], envs: &[(&str, &str)]| {
        let mut all = vec![("DEPLOY_CONFIG", config.as_str())];
        all.extend_from_slice(envs);
        let (envelope, _) = compose(dir.path(), args, &all);
        let flag = envelope["data"]["flags"][1].clone();
        (flag["source"].clone(), flag["value"].clone())
    };
    let env = [("DEPLOY_REGION", "ap")];
    assert_eq!(
        region(&["config", "show"], &env),
        ("environment".into(), "ap".into())
    );
    assert_eq!(
        region(&["config", "show", "--region", "sa"], &env),
        ("flag".into(), "sa".into())
    );

    // A wrong value in the file: blocking, exit 2, in the envelope.
    std::fs::write(&file, "retries = \"many\"\n").unwrap();
    let (mut envelope, exit) = compose(dir.path(), &["--config", &config, "service", "list"], &[]);
    assert_eq!(exit, 2);
    envelope["meta"]["elapsed"] = 0.into();
    envelope["meta"]["requestId"] = "req_0000000000000000".into();
    envelope["meta"]["cwd"] = "/cwd".into();
    insta::assert_json_snapshot!("compose_config_invalid", envelope);
}
