//! What the todo tests share: a `todo` call on a temporary store, its one envelope, and the
//! envelope's JSON Schema (tests/fixtures/compose-envelope.schema.json at the workspace root).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

/// A temporary store and home (XDG_DATA_HOME points inside it, so no test touches the user's).
pub struct Env {
    pub dir: tempfile::TempDir,
}

impl Env {
    pub fn new() -> Env {
        Env {
            dir: tempfile::tempdir().expect("a temporary directory"),
        }
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("tasks.db")
    }

    /// `todo --db DB ARGS...`.
    pub fn command(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = self.bare(&[]);
        cmd.arg("--db").arg(self.db()).args(args);
        cmd
    }

    /// Where `todo` looks for its configuration file by default (inside the temp dir).
    pub fn default_config(&self) -> PathBuf {
        self.dir.path().join("config/todo/config.toml")
    }

    /// `todo ARGS...` with no `--db` (XDG_DATA_HOME and XDG_CONFIG_HOME inside the temp dir,
    /// TODO_DB and TODO_CONFIG unset).
    pub fn bare(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_todo"));
        cmd.args(args)
            .env_remove("TODO_DB")
            .env_remove("TODO_CONFIG")
            .env("XDG_CONFIG_HOME", self.dir.path().join("config"))
            .env_remove("PAS_AGENT")
            .env("XDG_DATA_HOME", self.dir.path().join("xdg"))
            .env("XDG_CACHE_HOME", self.dir.path().join("cache"))
            .stdin(std::process::Stdio::null());
        cmd
    }

    /// Runs `todo --db DB ARGS...` and returns its one envelope.
    pub fn call(&self, args: &[&str]) -> Call {
        Call::from(self.command(args).output().expect("todo runs"))
    }
}

/// One finished call.
#[derive(Debug)]
pub struct Call {
    pub stdout: String,
    pub stderr: String,
    pub exit: i32,
    pub envelope: Value,
}

impl From<Output> for Call {
    fn from(output: Output) -> Call {
        let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let envelope = if stdout.trim_start().starts_with('{') {
            assert!(
                stdout.ends_with('\n') && stdout.matches('\n').count() == 1,
                "stdout must be exactly one line: {stdout:?}"
            );
            serde_json::from_str(&stdout).expect("stdout is one JSON value")
        } else {
            Value::Null
        };
        Call {
            stdout,
            stderr,
            exit: output.status.code().unwrap_or(-1),
            envelope,
        }
    }
}

impl Call {
    pub fn data(&self) -> &Value {
        assert_eq!(self.envelope["ok"], true, "expected success: {self:?}");
        &self.envelope["data"]
    }

    pub fn code(&self) -> &str {
        assert_eq!(self.envelope["ok"], false, "expected failure: {self:?}");
        self.envelope["error"]["code"].as_str().expect("a code")
    }
}

/// The envelope with the fields that differ between runs set to fixed values: `meta.elapsed`
/// to 0, `meta.requestId` to zeros and `meta.cwd` to `/cwd`.
pub fn normalised(mut envelope: Value) -> Value {
    if let Some(meta) = envelope.get_mut("meta").and_then(Value::as_object_mut) {
        if meta.contains_key("elapsed") {
            meta.insert("elapsed".into(), Value::from(0));
        }
        if meta.contains_key("requestId") {
            meta.insert("requestId".into(), Value::from("req_0000000000000000"));
        }
        if meta.contains_key("cwd") {
            meta.insert("cwd".into(), Value::from("/cwd"));
        }
    }
    envelope
}

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .expect("examples/todo sits two levels below the workspace")
}

pub fn envelope_schema() -> Value {
    let path = workspace().join("tests/fixtures/compose-envelope.schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the schema fixture"))
        .expect("the schema fixture is JSON")
}

/// Validates `instance` against `schema`, listing every problem on failure.
pub fn assert_valid(schema: &Value, instance: &Value, what: &str) {
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("the schema for {what} compiles: {e}"));
    let problems: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        problems.is_empty(),
        "{what} is invalid:\n{}\n{instance:#}",
        problems.join("\n")
    );
}

/// Validates against the whole envelope schema.
pub fn assert_envelope(call: &Call, what: &str) {
    assert_valid(&envelope_schema(), &call.envelope, what);
}

/// Validates `instance` against one `$defs` entry of the envelope schema.
pub fn assert_def(instance: &Value, def: &str) {
    let mut schema = envelope_schema();
    let defs = schema["$defs"].take();
    let schema = serde_json::json!({ "$defs": defs, "$ref": format!("#/$defs/{def}") });
    assert_valid(&schema, instance, def);
}
