//! notes (levels 3 and 4) served over MCP (`notes mcp`), driven by the official Python and
//! TypeScript SDKs: tools/list equals `pas-gen mcp`, every verb and command as a tool with
//! valid and invalid arguments, and the notes as MCP resources (`notes:///PATH`).

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::path::{Path, PathBuf};

use mcp_support::{Session, call, plan, run_clients, run_clients_over_http};
use serde_json::json;

fn store(dir: &Path) -> PathBuf {
    let store = dir.join("store");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/store");
    copy(&fixtures, &store);
    store
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn notes_through_both_sdks() {
    let dir = tempfile::tempdir().unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_notes"));
    let upload = dir.path().join("upload.json");
    std::fs::write(&upload, r#"{"title":"Uploaded"}"#).unwrap();
    let mut plan = plan(bin, "notes", json!({}));
    plan["calls"] = json!([
        call("search", json!({"query": "milk"}), None),
        call("search", json!({}), Some("INVALID_ARGUMENT")),
        call("ls", json!({"path": "/notebooks"}), None),
        call("ls", json!({"path": "/notebooks/inbox"}), None),
        call("ls", json!({"path": "/../etc"}), Some("INVALID_ARGUMENT")),
        call("cat", json!({"path": "/notebooks/inbox/milk"}), None),
        call(
            "cat",
            json!({"path": "/notebooks/inbox/nope"}),
            Some("NOT_FOUND")
        ),
        // A FIFO in a note's place: refused at once over MCP as on the command line, never
        // a call that blocks a slot for ever.
        call(
            "cat",
            json!({"path": "/notebooks/inbox/pipe"}),
            Some("STORE_FILE_INVALID")
        ),
        call("stat", json!({"path": "/notebooks/inbox/milk"}), None),
        call("stat", json!({"path": 7}), Some("INVALID_ARGUMENT")),
        call(
            "cp",
            json!({"source": upload, "dest": "/notebooks/inbox/up"}),
            None
        ),
        call(
            "cp",
            json!({"source": "/notebooks/inbox/milk"}),
            Some("INVALID_ARGUMENT")
        ),
        call(
            "rm",
            json!({"path": "/notebooks/inbox/*"}),
            Some("FORCE_REQUIRED")
        ),
        call("rm", json!({"path": "/notebooks/inbox/up"}), None),
        // A notebook is a container: without `force: true` it stays, with it it goes.
        call(
            "rm",
            json!({"path": "/notebooks/recipes"}),
            Some("FORCE_REQUIRED")
        ),
        call("cat", json!({"path": "/notebooks/recipes/bread"}), None),
        call(
            "sync",
            json!({"remote": "/notebooks/recipes", "local": dir.path().join("pulled")}),
            None
        ),
        call(
            "sync",
            json!({"remote": "/notebooks/recipes"}),
            Some("INVALID_ARGUMENT")
        ),
        call(
            "feedback",
            json!({"path": "/notebooks/inbox/milk", "level": "warn", "message": "typo"}),
            None
        ),
        call(
            "feedback",
            json!({"path": "/notebooks/inbox/milk", "level": "fatal"}),
            Some("INVALID_ARGUMENT")
        ),
        call(
            "cp",
            json!({"source": upload, "dest": "/notebooks/scratch/up"}),
            None
        ),
        call(
            "rm",
            json!({"path": "/notebooks/scratch", "force": true}),
            None
        ),
        call(
            "cat",
            json!({"path": "/notebooks/scratch/up"}),
            Some("NOT_FOUND")
        ),
    ]);
    plan["resources"] = json!({
        "read": ["notes:///notebooks/inbox/milk", "notes:///notebooks/recipes/bread"],
        "missing": "notes:///notebooks/inbox/nope",
    });
    // Each client over stdio, then over streamable HTTP, each on a store of its own.
    for (client, http) in [
        ("python", false),
        ("node", false),
        ("python", true),
        ("node", true),
    ] {
        let mut plan = plan.clone();
        let place = dir.path().join(format!("{client}-{http}"));
        let store = store(&place);
        let fifo = store.join("inbox/pipe.json");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        plan["env"] = json!({
            "NOTES_STORE": store,
            "XDG_STATE_HOME": place.join("state"),
        });
        plan["only"] = client.into();
        if http {
            run_clients_over_http(&plan);
        } else {
            run_clients(&plan);
        }
    }
}

/// A notebook is a container: over MCP its `rm` without `force: true` is refused with the CLI's
/// FORCE_REQUIRED, in MCP's terms (the hint names the argument, not the flag), and nothing goes.
#[test]
fn rm_of_a_notebook_over_mcp_needs_force_true() {
    let dir = tempfile::tempdir().unwrap();
    let store = store(dir.path());
    let state = dir.path().join("state");
    let bin = Path::new(env!("CARGO_BIN_EXE_notes"));
    let mut session = Session::start(bin, &[("NOTES_STORE", &store), ("XDG_STATE_HOME", &state)]);
    let refused = session.call("rm", json!({"path": "/notebooks/recipes"}));
    assert_eq!(refused["isError"], true, "{refused}");
    let text: serde_json::Value =
        serde_json::from_str(refused["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text["error"]["code"], "FORCE_REQUIRED", "{text}");
    let hint = text["error"]["hint"].as_str().unwrap_or_default();
    assert!(hint.contains("`force: true`"), "{text}");
    assert!(store.join("recipes/bread.json").exists(), "nothing deleted");
    let removed = session.call("rm", json!({"path": "/notebooks/recipes", "force": true}));
    assert_ne!(removed["isError"], true, "{removed}");
    assert!(!store.join("recipes").exists());
    session.end();
}
