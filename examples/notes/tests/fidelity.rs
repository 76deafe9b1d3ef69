//! Fidelity (issue 27, "exact by default"): machine mode changes the form of a call, never its
//! meaning. Whatever strings a note holds (base64, keys, hashes, PEM blocks, JWT-shaped text,
//! data: URIs, instruction-like text, any Unicode) and in whatever order its arrays are, the
//! note an agent reads back (`--agent cat`, and `cat` over MCP) is the note that was stored,
//! value for value; a person's `cat` shows every one of those values; and `cat` -> `cp` ->
//! `cat` writes the same bytes to the store.

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

#[path = "../../../tests/fidelity_support/mod.rs"]
mod fidelity_support;

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use fidelity_support::stored_string;
use mcp_support::Session;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// A scratch store with one notebook, `inbox`.
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("store/inbox")).unwrap();
        Scratch { dir }
    }

    fn store(&self) -> PathBuf {
        self.dir.path().join("store")
    }

    fn command(&self) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_notes"));
        command
            .current_dir(self.dir.path())
            .env_remove("PAS_AGENT")
            .env_remove("PAS_UNMASK")
            .env("NOTES_STORE", self.store())
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .env("XDG_CACHE_HOME", self.dir.path().join("cache"));
        command
    }

    /// Runs `args`, which must succeed; its stdout.
    fn ok(&self, args: &[&str]) -> Vec<u8> {
        let output = self.command().args(args).output().unwrap();
        assert!(
            output.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        output.stdout
    }

    /// Writes `note` to a local file and copies it into the store at `/notebooks/inbox/NAME`.
    fn put(&self, name: &str, note: &[u8]) {
        let local = self.dir.path().join(format!("{name}.json"));
        fs::write(&local, note).unwrap();
        let to = format!("/notebooks/inbox/{name}");
        self.ok(&["--agent", "cp", local.to_str().unwrap(), &to]);
    }

    /// The bytes the store holds for a note.
    fn stored(&self, name: &str) -> Vec<u8> {
        fs::read(self.store().join(format!("inbox/{name}.json"))).unwrap()
    }

    /// `cat` over MCP (`notes mcp`, the shared stdio driver): the call's structured content.
    fn mcp_cat(&self, path: &str) -> Value {
        let mut server = self.command();
        server.stderr(Stdio::null());
        let mut session = Session::spawn(server);
        let result = session.call("cat", json!({ "path": path }));
        session.end();
        assert_ne!(result["isError"], true, "{result}");
        result["structuredContent"].clone()
    }
}

/// A note: a title, a few fields of stored strings, and an array in a random order.
fn note() -> impl Strategy<Value = Value> {
    (
        stored_string(),
        proptest::collection::vec(("[a-z]{1,12}", stored_string()), 0..6),
        proptest::collection::vec(stored_string(), 0..6),
    )
        .prop_map(|(title, fields, tags)| {
            let mut note = Map::new();
            note.insert("title".into(), Value::String(title));
            for (key, value) in fields {
                note.insert(format!("f_{key}"), Value::String(value));
            }
            note.insert(
                "tags".into(),
                Value::Array(tags.into_iter().map(Value::String).collect()),
            );
            Value::Object(note)
        })
}

fn parse(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(bytes)))
}

/// Every string leaf of a JSON value.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|item| strings(item, out)),
        Value::Object(map) => map.values().for_each(|item| strings(item, out)),
        _ => {}
    }
}

proptest! {
    // Each case starts the tool six times: a few dozen cases cover the kinds of strings.
    #![proptest_config(fidelity_support::config(24))]

    #[test]
    fn a_note_comes_back_as_it_was_stored(note in note()) {
        let scratch = Scratch::new();
        let bytes = serde_json::to_vec_pretty(&note).unwrap();
        scratch.put("p", &bytes);

        // The agent reads what was stored, value for value, arrays in their order.
        let agent = parse(&scratch.ok(&["--agent", "cat", "/notebooks/inbox/p"]));
        prop_assert_eq!(&agent, &note);

        // Over MCP: the same data as structured content.
        prop_assert_eq!(&scratch.mcp_cat("/notebooks/inbox/p"), &note);

        // A person sees every value (the form is text; no value is masked or cut).
        let human = String::from_utf8(scratch.ok(&["cat", "/notebooks/inbox/p"])).unwrap();
        let mut values = Vec::new();
        strings(&note, &mut values);
        for value in values.iter().filter(|v| !v.contains('\n') && !v.is_empty()) {
            prop_assert!(human.contains(value.as_str()), "{value:?} missing from {human}");
        }

        // cat -> cp -> cat: the agent's copy of the note writes the same bytes.
        let agent_bytes = scratch.ok(&["--agent", "cat", "/notebooks/inbox/p"]);
        scratch.put("q", &agent_bytes);
        prop_assert_eq!(scratch.stored("q"), scratch.stored("p"));
        prop_assert_eq!(scratch.ok(&["--agent", "cat", "/notebooks/inbox/q"]), agent_bytes);
    }
}

/// The reproduction of issue 27: a note of public keys, signatures and a data: URI read and
/// written back by an agent loses nothing (today's high-entropy masking replaced 8 of 15 fields).
#[test]
fn public_keys_signatures_and_data_uris_are_read_as_stored() {
    let scratch = Scratch::new();
    let note = json!({
        "title": "keys",
        "ssh": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@example",
        "signature": "MEUCIQDwQ3Xq0sFhQnnbwM7xg1VbqSXIjvrnRfTBFbqfqHkM1wIgV2r1k9t5Zj0CmeMNjoX6A7m8bNIf0kqa0t9Xo4yLk1Q=",
        "pixel": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "aws_id": "AKIAIOSFODNN7EXAMPLE",
        "aws_secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    });
    scratch.put("keys", &serde_json::to_vec(&note).unwrap());
    let read = scratch.ok(&["--agent", "cat", "/notebooks/inbox/keys"]);
    assert_eq!(parse(&read), note);
    scratch.put("again", &read);
    assert_eq!(
        parse(&scratch.ok(&["--agent", "cat", "/notebooks/inbox/again"])),
        note
    );
    assert_eq!(scratch.mcp_cat("/notebooks/inbox/keys"), note);
}
