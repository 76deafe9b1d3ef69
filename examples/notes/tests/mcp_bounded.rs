//! Bounded output over MCP (issue 27, item 3), only where asked for: a `tools/call` whose
//! `_meta` carries `pas-kit/maxOutputBytes` gets a result that loses nothing. A note past the
//! bound is written whole to a file and the result's structuredContent is the pointer (path,
//! bytes, sha256, preview, how to read it), with a `resource_link` content item to the note's
//! resource; a list's page stops at its last whole item under the bound and its continuation
//! returns the rest. Without a bound nothing changes. Both official SDKs accept the pointer
//! against the tool's outputSchema.

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mcp_support::{Session, call, plan, run_clients};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_notes");
const BOUND: &str = "pas-kit/maxOutputBytes";

/// A store with one notebook, `inbox`, holding a large note `big` and `small` notes `n0`..`n9`.
struct Store {
    dir: tempfile::TempDir,
    big: Value,
}

impl Store {
    fn new() -> Store {
        let dir = tempfile::tempdir().unwrap();
        let inbox = dir.path().join("store/inbox");
        fs::create_dir_all(&inbox).unwrap();
        let rows: Vec<String> = (0..40)
            .map(|i| format!("row {i}: {}", "z".repeat(30)))
            .collect();
        let big = json!({"title": "big", "rows": rows});
        fs::write(inbox.join("big.json"), serde_json::to_vec(&big).unwrap()).unwrap();
        for i in 0..10 {
            let note = json!({"title": format!("note {i}")});
            fs::write(inbox.join(format!("n{i}.json")), note.to_string()).unwrap();
        }
        Store { dir, big }
    }

    fn cache(&self) -> PathBuf {
        self.dir.path().join("cache")
    }

    fn server(&self) -> Command {
        let mut command = Command::new(BIN);
        command
            .env_remove("PAS_AGENT")
            .env_remove("PAS_OUTPUT_LIMIT")
            .env("NOTES_STORE", self.dir.path().join("store"))
            .env("XDG_STATE_HOME", self.dir.path().join("state"))
            .env("XDG_CACHE_HOME", self.cache())
            .stderr(Stdio::null());
        command
    }
}

/// A `tools/call` with `_meta`.
fn call_with(session: &mut Session, tool: &str, arguments: Value, meta: Value) -> Value {
    let params = json!({"name": tool, "arguments": arguments, "_meta": meta});
    session.request("tools/call", params)["result"].clone()
}

#[test]
fn a_note_past_the_callers_bound_is_answered_with_a_pointer_and_a_resource_link() {
    let store = Store::new();
    let mut session = Session::spawn(store.server());
    let path = "/notebooks/inbox/big";

    // No bound asked: the note itself.
    let whole = session.call("cat", json!({ "path": path }));
    assert_eq!(whole["structuredContent"], store.big, "{whole}");

    // A bound it fits in: the note itself.
    let fits = call_with(
        &mut session,
        "cat",
        json!({ "path": path }),
        json!({BOUND: 1_000_000}),
    );
    assert_eq!(fits["structuredContent"], store.big, "{fits}");

    // Past the bound: the pointer, the file holding the note whole.
    let bounded = call_with(
        &mut session,
        "cat",
        json!({ "path": path }),
        json!({BOUND: 200}),
    );
    assert_ne!(bounded["isError"], true, "{bounded}");
    let pointer = &bounded["structuredContent"]["output_file"];
    let file = Path::new(pointer["path"].as_str().expect("a path"));
    assert!(
        file.starts_with(store.cache().join("notes/output")),
        "{pointer}"
    );
    let bytes = fs::read(file).unwrap();
    assert_eq!(serde_json::from_slice::<Value>(&bytes).unwrap(), store.big);
    assert_eq!(pointer["bytes"], json!(bytes.len()));
    let sha = pointer["sha256"].as_str().unwrap();
    assert!(
        sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit()),
        "{sha}"
    );
    assert_eq!(pointer["media_type"], "application/json");
    let preview = pointer["preview"].as_str().unwrap();
    assert!(
        String::from_utf8_lossy(&bytes).starts_with(preview),
        "{preview}"
    );
    assert!(
        pointer["read"]
            .as_str()
            .unwrap()
            .contains(file.to_str().unwrap())
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "readable by the user only");
    }

    // The text block holds the same pointer; the resource link names the note.
    let content = bounded["content"].as_array().unwrap();
    let text: Value = serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, bounded["structuredContent"]);
    let link = content
        .iter()
        .find(|c| c["type"] == "resource_link")
        .unwrap_or_else(|| panic!("a resource_link: {bounded}"));
    assert_eq!(link["uri"], "notes:///notebooks/inbox/big");
    assert_eq!(link["name"], path);
    assert_eq!(link["mimeType"], "application/json");

    // The link reads the note whole.
    let read = session.request("resources/read", json!({"uri": link["uri"]}));
    let text = read["result"]["contents"][0]["text"].as_str().unwrap();
    assert_eq!(serde_json::from_str::<Value>(text).unwrap(), store.big);

    // A bound that is not a number of bytes is refused, saying so.
    let refused = call_with(
        &mut session,
        "cat",
        json!({ "path": path }),
        json!({BOUND: "lots"}),
    );
    assert_eq!(refused["isError"], true, "{refused}");
    let error: Value =
        serde_json::from_str(refused["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(error["error"]["code"], "INVALID_ARGUMENT", "{error}");
    assert!(error["error"]["message"].as_str().unwrap().contains(BOUND));
    session.end();
}

#[test]
fn a_list_past_the_callers_bound_stops_at_a_whole_item_and_continues() {
    let store = Store::new();
    let mut session = Session::spawn(store.server());
    let args = json!({"path": "/notebooks/inbox"});
    let whole = session.call("ls", args.clone());
    let all = whole["structuredContent"]["items"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(all.len(), 11, "{whole}");
    assert!(whole["structuredContent"].get("continuation").is_none());

    // Pages of whole items, each under the bound (or one item alone), until the end.
    let bound = all[0].to_string().len() * 3;
    let mut items: Vec<Value> = Vec::new();
    let mut page = call_with(&mut session, "ls", args.clone(), json!({BOUND: bound}));
    let mut pages = 1;
    loop {
        let body = &page["structuredContent"];
        let got = body["items"].as_array().unwrap();
        assert!(!got.is_empty(), "{page}");
        let size: usize = got.iter().map(|i| i.to_string().len() + 1).sum();
        assert!(size <= bound || got.len() == 1, "{size} > {bound}: {page}");
        items.extend(got.iter().cloned());
        let Some(token) = body["continuation"].as_str() else {
            break;
        };
        page = call_with(
            &mut session,
            "ls",
            args.clone(),
            json!({"pas/continuation": token}),
        );
        pages += 1;
    }
    assert!(pages > 1, "the bound split the list");
    assert_eq!(items, all, "every item, whole, in order");
    session.end();
}

/// Both SDKs call `cat` with the bound and check the pointer against the tool's outputSchema
/// (which admits it), and `ls` with a bound.
#[test]
fn the_pointer_fits_the_outputschema_in_both_sdks() {
    let store = Store::new();
    let mut plan = plan(
        Path::new(BIN),
        "notes",
        json!({
            "NOTES_STORE": store.dir.path().join("store"),
            "XDG_CACHE_HOME": store.cache(),
        }),
    );
    let mut bounded = call("cat", json!({"path": "/notebooks/inbox/big"}), None);
    bounded["meta"] = json!({BOUND: 200});
    let mut page = call("ls", json!({"path": "/notebooks/inbox"}), None);
    page["meta"] = json!({BOUND: 100});
    plan["calls"] = json!([
        call("cat", json!({"path": "/notebooks/inbox/big"}), None),
        bounded,
        page
    ]);
    run_clients(&plan);
}
