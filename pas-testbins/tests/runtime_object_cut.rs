//! CLI Agent Spec failure mode 43 for one object: past the output cap its JSON stays whole,
//! its longest strings are shortened to fit, it is marked `"_truncated": true`, and the cut is
//! said where each profile says warnings (compose also `meta.truncated`). The effects demo's
//! `add NAME` answers an object holding the name.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn add(dir: &Path, profile: &str, name: &str, cap: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-effects-demo"));
    if profile == "pas" {
        cmd.arg("--agent");
    }
    cmd.args(["add", name])
        .env("EFFECTS_DIR", dir)
        .env("EFFECTS_PROFILE", profile)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("HOME", dir.join("home"))
        .env_remove("PAS_AGENT")
        .env_remove("PAS_META")
        .env_remove("PAS_OUTPUT_LIMIT")
        .stdin(Stdio::null());
    if let Some(cap) = cap {
        cmd.env("PAS_OUTPUT_LIMIT", cap);
    }
    cmd.output().expect("the effects demo runs")
}

/// The data object of a successful call and the warnings it carries, where its profile puts them.
fn data_and_warnings(profile: &str, out: &Output) -> (Value, Vec<Value>) {
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout: Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON value");
    match profile {
        "pas" => {
            let warnings = String::from_utf8_lossy(&out.stderr)
                .lines()
                .filter_map(|line| serde_json::from_str::<Value>(line).ok())
                .filter_map(|line| line.get("warning").cloned())
                .collect();
            (stdout, warnings)
        }
        "compose" => {
            assert_eq!(stdout["meta"]["truncated"], true, "{stdout}");
            let warnings = stdout["meta"]["warnings"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            (stdout["data"].clone(), warnings)
        }
        _ => {
            let warnings = stdout["warnings"].as_array().cloned().unwrap_or_default();
            (stdout["data"].clone(), warnings)
        }
    }
}

#[test]
fn an_object_past_the_cap_keeps_its_shape_with_its_long_strings_shortened_in_every_profile() {
    let name = "y".repeat(200);
    for profile in ["pas", "compose", "robot"] {
        let dir = tempfile::tempdir().unwrap();
        let out = add(dir.path(), profile, &name, Some("120"));
        let (data, warnings) = data_and_warnings(profile, &out);
        assert_eq!(data["_truncated"], true, "{profile}: {data}");
        let kept = data["name"].as_str().unwrap();
        assert!(
            kept.len() < 200 && name.starts_with(kept),
            "{profile}: {data}"
        );
        assert_eq!(data["runs"], 1, "{profile}: numbers are never touched");
        assert!(
            serde_json::to_vec(&data).unwrap().len() <= 120,
            "{profile}: {data}"
        );
        assert!(
            warnings.iter().any(|w| w["code"] == "OUTPUT_TRUNCATED"),
            "{profile}: {warnings:?}"
        );
    }
}

#[test]
fn an_object_under_the_cap_is_not_marked() {
    let dir = tempfile::tempdir().unwrap();
    let out = add(dir.path(), "pas", &"y".repeat(200), None);
    let (data, warnings) = data_and_warnings("pas", &out);
    assert_eq!(data["name"].as_str().unwrap().len(), 200);
    assert_eq!(data.get("_truncated"), None);
    assert!(warnings.is_empty(), "{warnings:?}");
}
