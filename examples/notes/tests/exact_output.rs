//! notes returns what it stores, exactly (issue 27: machine mode changes the form of a call,
//! never its meaning). notes declares no masking, so keys, signatures and data: URIs are data;
//! a note read and written back loses nothing; and no default bound shortens a large note.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};
use tempfile::TempDir;

const SSH_KEY: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGb2Gq3vQh6m5Gq0r8WfKXJ3j1yPpZ8kS2Lw7N4dT5eF user@host";
const SIGNATURE: &str = "MEUCIQDx3v7Hkq9N2bL5yR8wT1pZc4mJ6sK0aV3uF7eG9hI2jAIgQ5rW8tY1uI4oP7aS0dF3gH6jK9lZ2xC5vB8nM1qE4wR=";
const DATA_URI: &str = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const AWS_DOCS_KEY: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const AWS_DOCS_ID: &str = "AKIAIOSFODNN7EXAMPLE";
const JWT: &str = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzEyMyIsImlhdCI6MTcxMDAwMDAwMCwiZXhwIjoxNzEwMDAzNjAwfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

struct Store {
    dir: TempDir,
}

impl Store {
    fn new() -> Store {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("store/keys")).unwrap();
        Store { dir }
    }

    fn store(&self) -> PathBuf {
        self.dir.path().join("store")
    }

    fn put(&self, name: &str, note: &Value) {
        fs::write(
            self.store().join(format!("keys/{name}.json")),
            serde_json::to_vec(note).unwrap(),
        )
        .unwrap();
    }

    fn agent(&self, args: &[&str]) -> Vec<u8> {
        let output = Command::cargo_bin("notes")
            .unwrap()
            .current_dir(self.dir.path())
            .env_remove("PAS_AGENT")
            .env_remove("PAS_OUTPUT_LIMIT")
            .env_remove("PAS_UNMASK")
            .env("NOTES_STORE", self.store())
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .env("XDG_CACHE_HOME", self.dir.path().join("cache"))
            .arg("--agent")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(output.stderr.is_empty(), "{args:?}");
        output.stdout
    }

    fn cat(&self, path: &str) -> Value {
        serde_json::from_slice(&self.agent(&["cat", path])).expect("one JSON value")
    }
}

fn keys_note() -> Value {
    json!({
        "title": "Keys",
        "ssh": SSH_KEY,
        "signature": SIGNATURE,
        "image": DATA_URI,
        "aws_access_key_id": AWS_DOCS_ID,
        "aws_secret_access_key": AWS_DOCS_KEY,
        "session": JWT,
        "tags": ["ops", "keys"]
    })
}

#[test]
fn cat_returns_keys_signatures_and_data_uris_unchanged() {
    let store = Store::new();
    store.put("all", &keys_note());
    assert_eq!(store.cat("/notebooks/keys/all"), keys_note());
}

#[test]
fn a_note_read_and_written_back_loses_nothing() {
    let store = Store::new();
    store.put("all", &keys_note());
    let read = store.agent(&["cat", "/notebooks/keys/all"]);
    let copy = store.dir.path().join("copy.json");
    fs::write(&copy, &read).unwrap();
    store.agent(&["cp", copy.to_str().unwrap(), "/notebooks/keys/again"]);
    assert_eq!(store.agent(&["cat", "/notebooks/keys/again"]), read);
    assert_eq!(store.cat("/notebooks/keys/again"), keys_note());
}

/// Past 64 MiB nothing is cut: a note of 2,300,000 rows comes back whole, every row intact.
#[test]
fn a_note_past_64_mib_is_read_back_whole() {
    let store = Store::new();
    let rows: Vec<String> = (0..2_300_000)
        .map(|n| format!("row {n:07} of the export, all of it"))
        .collect();
    let note = json!({"title": "Export", "rows": rows});
    store.put("export", &note);
    let size = fs::metadata(store.store().join("keys/export.json"))
        .unwrap()
        .len();
    assert!(size > 64 * 1024 * 1024, "{size}");
    let read = store.agent(&["cat", "/notebooks/keys/export"]);
    assert!(read.len() as u64 >= size);
    let back: Value = serde_json::from_slice(&read).unwrap();
    assert_eq!(back.get("_truncated"), None);
    assert_eq!(back, note);
    assert!(!Path::new(&store.dir.path().join("cache")).exists());
}
