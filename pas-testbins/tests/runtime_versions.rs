//! Output versioning (CLI Agent Spec failure mode 22) in every profile: a command's declared
//! stability tier in every face and as a warning when it runs, `--schema-version` refusing an
//! incompatible caller before any handler, and the `changelog` built-in word.

mod runtime_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use runtime_support::named;
use serde_json::Value;

const PROFILES: [&str; 3] = ["pas", "compose", "robot"];

/// A tool at 2.4.1 with a changelog and an experimental command, in `profile`.
fn versioned_spec(dir: &Path, profile: &str) -> PathBuf {
    let spec = format!(
        r#"{{
  "specVersion": 1, "name": "versioned", "version": "2.4.1", "summary": "Has releases.",
  "profile": "{profile}",
  "changelog": [
    {{"version": "2.4.1", "date": "2026-11-20", "changes": ["fetch gains --tag"]}},
    {{"version": "2.0.0", "changes": ["name is now full_name"], "breaking": true}}
  ],
  "commands": [
    {{"name": "fetch", "description": "Fetch it.", "output": "object"}},
    {{"name": "preview", "description": "Try the new thing.", "output": "object",
      "stability": "experimental"}}
  ]
}}"#
    );
    let path = dir.join(format!("versioned-{profile}.json"));
    std::fs::write(&path, spec).unwrap();
    path
}

/// Runs the spec-driven CLI on `profile`'s spec; pas calls get `--agent` first.
fn run(dir: &Path, profile: &str, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"));
    command
        .env("PAS_SPEC_CLI_SPEC", versioned_spec(dir, profile))
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null());
    if profile != "compose" {
        command.arg("--agent");
    }
    command.args(args).output().unwrap()
}

fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {}", String::from_utf8_lossy(bytes));
    })
}

/// The answer's payload: pas prints it bare, compose and robot in their envelope's `data`
/// (robot's `tools` answers the catalog bare, as every profile's documentation words do).
fn data(profile: &str, out: &Output) -> Value {
    let value = json(&out.stdout);
    match value.get("data") {
        Some(data) if profile != "pas" => data.clone(),
        _ => value,
    }
}

/// The error's code and exit status in each profile's error channel (robot: the precise
/// constant is `details.kind`, its code the role's).
fn error_of(profile: &str, out: &Output) -> (String, Value, i32) {
    let code = out.status.code().unwrap();
    match profile {
        "pas" => {
            let line = json(String::from_utf8_lossy(&out.stderr).trim().as_bytes());
            (
                line["error"].as_str().unwrap().to_owned(),
                line["details"].clone(),
                code,
            )
        }
        "compose" => {
            let error = json(&out.stdout)["error"].clone();
            (
                error["code"].as_str().unwrap().to_owned(),
                error["details"].clone(),
                code,
            )
        }
        _ => {
            let error = json(&out.stdout)["error"].clone();
            let details = error["details"].clone();
            (details["kind"].as_str().unwrap().to_owned(), details, code)
        }
    }
}

/// The warnings a call left in its profile's warning channel.
fn warnings(profile: &str, out: &Output) -> Vec<Value> {
    match profile {
        "pas" => String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| v.get("warning").cloned())
            .collect(),
        "compose" => json(&out.stdout)["meta"]["warnings"]
            .as_array()
            .cloned()
            .unwrap_or_default(),
        _ => json(&out.stdout)["warnings"]
            .as_array()
            .cloned()
            .unwrap_or_default(),
    }
}

#[test]
fn changelog_prints_the_declared_releases_in_every_profile() {
    let dir = tempfile::tempdir().unwrap();
    for profile in PROFILES {
        let out = run(dir.path(), profile, &["changelog"]);
        assert_eq!(out.status.code(), Some(0), "{profile}: {out:?}");
        insta::assert_json_snapshot!(format!("changelog-{profile}"), data(profile, &out));
    }
}

#[test]
fn changelog_without_a_declared_one_is_an_empty_list_and_the_version() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bare.json");
    std::fs::write(
        &spec,
        r#"{"specVersion": 1, "name": "bare", "version": "0.3.0", "summary": "No releases.",
            "profile": "compose",
            "commands": [{"name": "fetch", "description": "Fetch it.", "output": "object"}]}"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"))
        .env("PAS_SPEC_CLI_SPEC", &spec)
        .arg("changelog")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let data = json(&out.stdout)["data"].clone();
    assert_eq!(
        data,
        serde_json::json!({"version": "0.3.0", "schema_version": "0.3.0", "changelog": []})
    );
}

#[test]
fn an_incompatible_schema_version_fails_before_the_handler_in_every_profile() {
    let dir = tempfile::tempdir().unwrap();
    for profile in PROFILES {
        for wanted in ["3.0.0", "1", "latest"] {
            let out = run(dir.path(), profile, &["--schema-version", wanted, "fetch"]);
            let (code, details, exit) = error_of(profile, &out);
            assert_eq!(code, "SCHEMA_VERSION_UNSUPPORTED", "{profile} {wanted}");
            assert_eq!(exit, 2, "{profile} {wanted}");
            assert_eq!(details["supported"], serde_json::json!(["2.4.1"]));
            assert_eq!(details["requested"], wanted);
        }
        // With no value after it, the flag is refused the same way.
        let out = run(dir.path(), profile, &["fetch", "--schema-version"]);
        assert_eq!(error_of(profile, &out).0, "SCHEMA_VERSION_UNSUPPORTED");
    }
    // The pas line, whole.
    let out = run(dir.path(), "pas", &["--schema-version=3", "fetch"]);
    insta::assert_snapshot!(
        "schema-version-refused-pas",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_compatible_schema_version_answers_as_usual_in_every_profile() {
    let dir = tempfile::tempdir().unwrap();
    for profile in PROFILES {
        for wanted in ["2", "2.0.0", "2.9.0"] {
            let out = run(
                dir.path(),
                profile,
                &["--schema-version", wanted, "changelog"],
            );
            assert_eq!(out.status.code(), Some(0), "{profile} {wanted}: {out:?}");
            assert_eq!(data(profile, &out)["schema_version"], "2.4.1");
        }
    }
}

#[test]
fn a_non_stable_command_warns_when_it_runs_in_every_profile() {
    let dir = tempfile::tempdir().unwrap();
    for profile in PROFILES {
        let out = run(dir.path(), profile, &["preview"]);
        let found = warnings(profile, &out);
        assert_eq!(found.len(), 1, "{profile}: {out:?}");
        assert_eq!(found[0]["code"], "UNSTABLE_COMMAND");
        assert!(
            found[0]["message"]
                .as_str()
                .unwrap()
                .contains("`preview` is experimental")
        );
        // A stable command warns of nothing.
        let out = run(dir.path(), profile, &["fetch"]);
        assert!(warnings(profile, &out).is_empty(), "{profile}");
    }
}

#[test]
fn every_face_shows_the_stability_tier_and_the_version_words() {
    let dir = tempfile::tempdir().unwrap();
    for profile in PROFILES {
        // The catalog: `stability` on the command, absent on a stable one.
        let out = run(dir.path(), profile, &["tools", "preview"]);
        assert_eq!(
            data(profile, &out)["stability"],
            "experimental",
            "{profile}"
        );
        let out = run(dir.path(), profile, &["tools", "fetch"]);
        assert!(data(profile, &out).get("stability").is_none(), "{profile}");
        // Agent help of the command, and of the tool (the flag and the word).
        let out = run(dir.path(), profile, &["preview", "--help"]);
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(
            help.contains("Stability: experimental"),
            "{profile}: {help}"
        );
        let out = run(dir.path(), profile, &["--help"]);
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains("--schema-version <v>"), "{profile}");
        assert!(help.contains("versioned changelog"), "{profile}");
        assert!(help.contains("SCHEMA_VERSION_UNSUPPORTED") || profile == "robot");
        // The .llm document.
        let out = run(dir.path(), profile, &["docs"]);
        let docs = String::from_utf8_lossy(&out.stdout);
        assert!(docs.contains("Stability: experimental"), "{profile}");
        assert!(docs.contains("`--schema-version <v>`"), "{profile}");
        assert!(docs.contains("`versioned changelog`"), "{profile}");
    }
    // The MCP export: the description says it.
    let source = pas::spec::Source::new(
        "versioned.json",
        std::fs::read_to_string(versioned_spec(dir.path(), "pas")).unwrap(),
        pas::spec::Format::Json,
    );
    let registry = pas::spec::load::parse(&source).unwrap();
    let tools = pas::spec::faces::mcp::tools_list(&registry);
    let preview = named(&tools["tools"], "preview");
    assert!(
        preview["description"]
            .as_str()
            .unwrap()
            .contains("Stability: experimental"),
        "{preview}"
    );
}
