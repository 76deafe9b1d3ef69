//! Discovery that stays small (issue 31, item 4) on notes, the largest example (8 tools in the
//! groups navigation, search and state): `notes mcp --group/--tools` serves a subset and
//! refuses the rest by name; `--discovery progressive` lists three tools whose search, describe
//! and call give what the full list and a direct call give; bad flag values are one startup
//! error. Also through the official Python SDK.

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use mcp_support::Session;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_notes");

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

/// A copy of the fixture store under `dir`, and the environment that points notes at it.
fn env(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let store = dir.join("store");
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/store"),
        &store,
    );
    vec![
        ("NOTES_STORE", store),
        ("XDG_STATE_HOME", dir.join("state")),
    ]
}

fn serve(dir: &Path, flags: &[&str]) -> Session {
    let mut command = Command::new(BIN);
    command.envs(env(dir));
    Session::spawn_with(command, flags)
}

fn listed(session: &mut Session) -> Vec<Value> {
    let list = session.request("tools/list", json!({}));
    list["result"]["tools"].as_array().unwrap().clone()
}

fn names(tools: &[Value]) -> Vec<&str> {
    tools.iter().map(|t| t["name"].as_str().unwrap()).collect()
}

/// The `{"error": ...}` a tool error's text holds.
fn error_of(result: &Value) -> Value {
    assert_eq!(result["isError"], true, "{result}");
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    text["error"].clone()
}

#[test]
fn a_group_and_tools_serve_their_union_and_refuse_the_rest_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut full = serve(dir.path(), &[]);
    let every = listed(&mut full);
    full.end();
    // notes is under the threshold: by default every tool is listed.
    assert_eq!(
        names(&every),
        [
            "cat", "ls", "stat", "search", "cp", "feedback", "rm", "sync"
        ]
    );

    let mut session = serve(dir.path(), &["--group", "navigation", "--tools=rm"]);
    let tools = listed(&mut session);
    assert_eq!(names(&tools), ["cat", "ls", "stat", "rm"]);
    for tool in &tools {
        assert!(every.contains(tool), "{tool} is the full list's entry");
    }
    let served = session.call("ls", json!({"path": "/notebooks"}));
    assert_ne!(served["isError"], true, "{served}");

    // A tool of notes left out: a tool error naming it, its group and the flag that serves it.
    let error = error_of(&session.call("search", json!({"query": "milk"})));
    assert_eq!(error["code"], "TOOL_NOT_SERVED", "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("`search`"),
        "{error}"
    );
    let hint = error["hint"].as_str().unwrap();
    assert!(hint.contains("--tools search"), "{hint}");
    assert!(hint.contains("--group search"), "{hint}");
    assert!(
        hint.contains("notes --builtin mcp") || hint.contains("notes mcp"),
        "{hint}"
    );
    assert_eq!(
        error["details"]["tools"],
        json!([{"name": "search", "group": "search"}])
    );
    assert_eq!(error["exitCode"], 2);
    // A name notes does not have at all stays the protocol's unknown tool.
    let unknown = session.request("tools/call", json!({"name": "nope", "arguments": {}}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    session.end();
}

#[test]
fn progressive_lists_three_tools_that_find_describe_and_call_as_a_direct_call_does() {
    let dir = tempfile::tempdir().unwrap();
    let mut full = serve(dir.path(), &["--discovery", "full"]);
    let every = listed(&mut full);
    full.end();

    let mut session = serve(dir.path(), &["--discovery", "progressive"]);
    let tools = listed(&mut session);
    assert_eq!(
        names(&tools),
        ["tools__search", "tools__describe", "tools__call"]
    );

    let found = session.call("tools__search", json!({"query": "delete"}));
    assert_ne!(found["isError"], true, "{found}");
    let first = &found["structuredContent"]["tools"][0];
    assert_eq!(first["name"], "rm", "{found}");
    assert_eq!(first["group"], "state");
    let in_group = session.call("tools__search", json!({"query": "", "group": "navigation"}));
    assert_eq!(in_group["structuredContent"]["total"], 3, "{in_group}");

    // Describe: the full list's entries, byte for byte, in the order asked.
    let all: Vec<&str> = names(&every);
    let described = session.call("tools__describe", json!({"names": all}));
    assert_eq!(
        serde_json::to_string(&described["structuredContent"]["tools"]).unwrap(),
        serde_json::to_string(&every).unwrap()
    );
    let missing = error_of(&session.call("tools__describe", json!({"names": ["cat", "nope"]})));
    assert_eq!(missing["code"], "TOOL_NOT_SERVED", "{missing}");
    assert_eq!(
        missing["details"]["tools"],
        json!([{"name": "nope", "group": null}])
    );

    // Call: the same result as a direct call, success or error, the outer `_meta` applying.
    let cases = [
        json!({"name": "cat", "arguments": {"path": "/notebooks/inbox/milk"}}),
        json!({"name": "ls", "arguments": {"path": "/notebooks"}}),
        json!({"name": "cat", "arguments": {"path": "/notebooks/inbox/nope"}}),
        json!({"name": "stat", "arguments": {"path": 7}}),
        json!({"name": "rm", "arguments": {"path": "/notebooks/recipes"}}),
    ];
    for case in cases {
        let direct = session.call(case["name"].as_str().unwrap(), case["arguments"].clone());
        let through = session.call("tools__call", case.clone());
        assert_eq!(through, direct, "{case}");
    }
    let meta = json!({"pas-kit/schemaHash": "0000000000000000"});
    let direct = session.request(
        "tools/call",
        json!({"name": "ls", "arguments": {"path": "/notebooks"}, "_meta": meta}),
    );
    let through = session.request(
        "tools/call",
        json!({"name": "tools__call", "arguments": {"name": "ls", "arguments": {"path": "/notebooks"}},
               "_meta": meta}),
    );
    assert_eq!(error_of(&direct["result"])["code"], "SCHEMA_STALE");
    // Progressive: the current schema is read through tools__describe, not tools/list.
    assert_eq!(
        error_of(&direct["result"])["hint"],
        "call tools__describe with {\"names\": [\"ls\"]} again and use ls's current inputSchema; nothing was run"
    );
    assert_eq!(through["result"], direct["result"]);
    let bad_timeout = json!({"pas-kit/timeout": "soon"});
    let direct = session.request(
        "tools/call",
        json!({"name": "ls", "arguments": {"path": "/"}, "_meta": bad_timeout}),
    );
    let through = session.request(
        "tools/call",
        json!({"name": "tools__call", "arguments": {"name": "ls", "arguments": {"path": "/"}},
               "_meta": bad_timeout}),
    );
    assert_eq!(direct["error"]["code"], -32602, "{direct}");
    assert_eq!(through["error"], direct["error"]);
    // An unknown tool is the protocol's error either way.
    let direct = session.request("tools/call", json!({"name": "nope", "arguments": {}}));
    let through = session.request(
        "tools/call",
        json!({"name": "tools__call", "arguments": {"name": "nope"}}),
    );
    assert_eq!(through["error"], direct["error"]);
    // A client that knows a name calls it directly, as without discovery.
    let direct = session.call("stat", json!({"path": "/notebooks/inbox/milk"}));
    assert_ne!(direct["isError"], true, "{direct}");

    // The discovery tools' own arguments are checked, every problem at once.
    let bad = error_of(&session.call("tools__search", json!({"limit": 0, "group": "x"})));
    assert_eq!(bad["code"], "INVALID_ARGUMENT");
    assert_eq!(
        bad["details"]["problems"].as_array().unwrap().len(),
        3,
        "{bad}"
    );
    let bad = error_of(&session.call("tools__call", json!({"name": "tools__search"})));
    assert_eq!(bad["code"], "INVALID_ARGUMENT");
    session.end();
}

#[test]
fn progressive_with_a_subset_searches_and_calls_only_the_subset() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = serve(
        dir.path(),
        &["--group", "navigation", "--discovery", "progressive"],
    );
    let found = session.call("tools__search", json!({"query": ""}));
    assert_eq!(found["structuredContent"]["total"], 3, "{found}");
    let refused = error_of(&session.call(
        "tools__call",
        json!({"name": "rm", "arguments": {"path": "/notebooks/recipes"}}),
    ));
    assert_eq!(refused["code"], "TOOL_NOT_SERVED", "{refused}");
    let refused = error_of(&session.call("tools__describe", json!({"names": ["rm"]})));
    assert_eq!(refused["code"], "TOOL_NOT_SERVED", "{refused}");
    session.end();
}

#[test]
fn bad_flag_values_are_one_startup_error_listing_the_known_names() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(BIN)
        .envs(env(dir.path()))
        .args(mcp_support::SERVE)
        .args([
            "--group",
            "navigation,nope",
            "--tools",
            "zap",
            "--discovery",
            "maybe",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty(), "nothing on stdout");
    let error: Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(error["error"], "INVALID_ARGUMENT", "{error}");
    let problems: Vec<&str> = error["details"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["value"].as_str().unwrap())
        .collect();
    assert_eq!(problems, ["maybe", "nope", "zap"]);
    assert_eq!(
        error["details"]["groups"],
        json!(["navigation", "search", "state"])
    );
    assert_eq!(error["details"]["tools"].as_array().unwrap().len(), 8);
    assert!(error["suggestion"].as_str().unwrap().contains("navigation"));
}

#[test]
fn print_config_carries_the_subset_flags() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(BIN)
        .current_dir(dir.path())
        .args([
            "--agent",
            "mcp",
            "--print-config",
            "vscode",
            "--group",
            "navigation",
            "--discovery",
            "progressive",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    let args = &printed["config"]["servers"]["notes"]["args"];
    let args: Vec<&str> = args
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(
        args.ends_with(&["--group", "navigation", "--discovery", "progressive"]),
        "{args:?}"
    );
    let refused = Command::new(BIN)
        .current_dir(dir.path())
        .args([
            "--agent",
            "mcp",
            "--print-config",
            "vscode",
            "--group",
            "nope",
        ])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
}

#[test]
fn the_python_sdk_drives_progressive_discovery() {
    let dir = tempfile::tempdir().unwrap();
    let env: serde_json::Map<String, Value> = env(dir.path())
        .into_iter()
        .map(|(k, v)| (k.to_owned(), json!(v)))
        .collect();
    let mut args: Vec<&str> = mcp_support::SERVE.to_vec();
    args.extend(["--discovery", "progressive"]);
    let plan = json!({
        "command": BIN, "args": args, "env": env, "query": "read a note",
        "tool": "cat", "arguments": {"path": "/notebooks/inbox/milk"},
    });
    let Some(printed) = mcp_support::run_python("mcp_discovery.py", &plan) else {
        return;
    };
    let got: Value = serde_json::from_str(&printed).unwrap();
    assert_eq!(
        got["tools"],
        json!(["tools__search", "tools__describe", "tools__call"])
    );
    let found = &got["search"]["structured"]["tools"];
    assert!(
        found.as_array().unwrap().iter().any(|t| t["name"] == "cat"),
        "{got}"
    );
    assert_eq!(got["describe"]["structured"]["tools"][0]["name"], "cat");
    assert_eq!(got["through"]["is_error"], false, "{got}");
    assert_eq!(got["through"], got["direct"]);
    assert!(got["through"]["structured"].is_object(), "{got}");
}
