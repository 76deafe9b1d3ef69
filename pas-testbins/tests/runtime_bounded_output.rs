//! Bounded output that loses nothing (CLI Agent Spec failure mode 43; issue 27, item 3). No
//! default bound shortens anything; a caller's `--max-output BYTES` (or `PAS_OUTPUT_LIMIT`)
//! bounds a call in every profile: a list stops at a whole item and the rest of its items go to
//! a file an `OUTPUT_IN_FILE` warning names; one object or document past the bound is written
//! whole to a file (0600, under `$XDG_CACHE_HOME/TOOL/output`) and the answer is a pointer:
//! path, bytes, sha256, preview, how to read it. The effects demo's `add NAME` answers an
//! object holding the name; the runtime demo lists items and answers a document.

mod runtime_support;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use runtime_support::{code, demo, ndjson, stdout};
use serde_json::Value;
use sha2::{Digest, Sha256};

fn add(dir: &Path, profile: &str, name: &str, bound: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-effects-demo"));
    if profile == "pas" {
        cmd.arg("--agent");
    }
    cmd.args(["add", name])
        .env("EFFECTS_DIR", dir)
        .env("EFFECTS_PROFILE", profile)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("HOME", dir.join("home"))
        .env_remove("PAS_AGENT")
        .env_remove("PAS_META")
        .env_remove("PAS_OUTPUT_LIMIT")
        .stdin(Stdio::null());
    if let Some(bound) = bound {
        cmd.args(["--max-output", bound]);
    }
    cmd.output().expect("the effects demo runs")
}

/// The data of a successful call and the warnings it carries, where its profile puts them.
fn data_and_warnings(profile: &str, out: &Output) -> (Value, Vec<Value>) {
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout: Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON value");
    match profile {
        "pas" => (stdout, stderr_warnings(out)),
        "compose" => {
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

fn stderr_warnings(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|line| line.get("warning").cloned())
        .collect()
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The file a pointer names: its bytes, checked against the pointer's size, digest and mode.
fn pointed(pointer: &Value, cache: &Path) -> Vec<u8> {
    let path = Path::new(pointer["path"].as_str().expect("a path"));
    assert!(
        path.starts_with(cache),
        "{pointer} under {}",
        cache.display()
    );
    let bytes = std::fs::read(path).expect("the file is there");
    assert_eq!(pointer["bytes"], bytes.len() as u64, "{pointer}");
    assert_eq!(pointer["sha256"], sha256(&bytes), "{pointer}");
    assert!(
        pointer["read"].as_str().unwrap().contains("24 h"),
        "{pointer}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "readable by the user only");
    }
    bytes
}

#[test]
fn an_object_past_the_bound_is_written_whole_and_answered_with_a_pointer_in_every_profile() {
    let name = "y".repeat(200);
    for profile in ["pas", "compose", "robot"] {
        let dir = tempfile::tempdir().unwrap();
        let whole = add(dir.path(), profile, &name, None);
        let (whole, _) = data_and_warnings(profile, &whole);
        let out = add(dir.path(), profile, &name, Some("120"));
        let (data, warnings) = data_and_warnings(profile, &out);
        let pointer = &data["output_file"];
        assert_eq!(
            pointer["media_type"], "application/json",
            "{profile}: {data}"
        );
        let bytes = pointed(pointer, &dir.path().join("cache/shopping/output"));
        let kept: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            kept["name"], name,
            "{profile}: the name whole, not shortened"
        );
        assert_eq!(
            kept.get("runs").is_some(),
            whole.get("runs").is_some(),
            "{profile}"
        );
        assert!(
            pointer["preview"].as_str().unwrap().starts_with('{'),
            "{profile}: {pointer}"
        );
        assert!(
            warnings.iter().any(|w| w["code"] == "OUTPUT_IN_FILE"),
            "{profile}: {warnings:?}"
        );
        assert!(data.get("_truncated").is_none());
    }
}

#[test]
fn without_a_bound_nothing_is_shortened_marked_or_written_aside() {
    let dir = tempfile::tempdir().unwrap();
    let out = add(dir.path(), "pas", &"y".repeat(200), None);
    let (data, warnings) = data_and_warnings("pas", &out);
    assert_eq!(data["name"].as_str().unwrap().len(), 200);
    assert_eq!(data.get("_truncated"), None);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(!dir.path().join("cache").exists());
}

#[test]
fn a_list_past_the_bound_stops_at_a_whole_item_and_the_rest_is_in_the_file() {
    for to_file in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let mut cmd = demo(&[
            "--agent",
            "item",
            "list",
            "-n",
            "100",
            "--max-output",
            "200",
        ]);
        cmd.env("XDG_CACHE_HOME", &cache);
        let file = dir.path().join("out.ndjson");
        if to_file {
            cmd.stdout(std::fs::File::create(&file).unwrap());
        }
        let out = cmd.output().unwrap();
        assert_eq!(code(&out), 0, "{out:?}");
        let shown = match to_file {
            true => std::fs::read_to_string(&file).unwrap(),
            false => stdout(&out),
        };
        assert!(shown.len() <= 200 && shown.ends_with('\n'), "{shown}");
        let warnings = stderr_warnings(&out);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert_eq!(warnings[0]["code"], "OUTPUT_IN_FILE");
        let message = warnings[0]["message"].as_str().unwrap();
        let path = message
            .split('`')
            .nth(1)
            .expect("the message names the file");
        let rest = std::fs::read_to_string(path).unwrap();
        // Every item once, in order: the shown ones, then the rest.
        let all: Vec<Value> = shown
            .lines()
            .chain(rest.lines())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(all.len(), 100, "{shown}{rest}");
        for (n, item) in all.iter().enumerate() {
            assert_eq!(item["id"], n);
        }
        assert!(Path::new(path).starts_with(cache.join("demo/output")));
    }
}

#[test]
fn a_document_past_the_bound_is_answered_with_a_pointer_to_the_whole_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let whole = demo(&["--agent", "doc"]).output().unwrap();
    let out = demo(&["--agent", "doc", "--max-output=50"])
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    let pointer = &answer["output_file"];
    assert_eq!(pointer["media_type"], "text/markdown");
    let bytes = pointed(pointer, &cache.join("demo/output"));
    assert_eq!(
        String::from_utf8(bytes).unwrap().trim_end(),
        stdout(&whole).trim_end()
    );
    assert_eq!(stderr_warnings(&out)[0]["code"], "OUTPUT_IN_FILE");
}

#[test]
fn a_bound_that_is_not_a_number_of_bytes_is_refused() {
    let out = demo(&["--agent", "item", "list", "--max-output", "lots"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{out:?}");
    let error = runtime_support::error_json(&out);
    assert_eq!(error["error"], "INVALID_ARGUMENT", "{error}");
    assert!(out.stdout.is_empty());
}

#[test]
fn without_a_bound_a_long_list_is_printed_whole() {
    let out = demo(&["--agent", "item", "list", "-n", "100"])
        .output()
        .unwrap();
    assert_eq!(ndjson(&out).len(), 100);
    assert!(out.stderr.is_empty());
}
