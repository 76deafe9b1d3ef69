//! todo (compose profile) served over MCP (`todo mcp`), driven by the official Python and
//! TypeScript SDKs: tools/list equals `pas-gen mcp`, every command with valid and invalid
//! arguments, the destructive guard as a `force` argument, structured input as `input`; over
//! stdio and over streamable HTTP alike.

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::path::Path;

use mcp_support::{call, plan, run_clients, run_clients_over_http};
use serde_json::json;

#[test]
fn todo_through_both_sdks() {
    let dir = tempfile::tempdir().unwrap();
    // Each client gets its own store, so ids are the same for both.
    let bin = Path::new(env!("CARGO_BIN_EXE_todo"));
    let mut plan = plan(bin, "todo", json!({}));
    plan["calls"] = json!([
        call(
            "task_create",
            json!({"title": "Renew passport", "due": "2026-03-01"}),
            None
        ),
        call(
            "task_create",
            json!({"input": {"title": "From input", "priority": "high"}}),
            None
        ),
        call("task_create", json!({"title": 5}), Some("INVALID_ARGUMENT")),
        call(
            "task_create",
            json!({"title": "x", "priority": "urgent"}),
            Some("INVALID_ARGUMENT")
        ),
        call("task_list", json!({}), None),
        call("task_list", json!({"limit": 1}), None),
        call(
            "task_list",
            json!({"limit": "many"}),
            Some("INVALID_ARGUMENT")
        ),
        call("task_get", json!({"id": 1}), None),
        call("task_get", json!({"id": 999}), Some("TASK_NOT_FOUND")),
        call("task_get", json!({}), Some("INVALID_ARGUMENT")),
        call(
            "task_update",
            json!({"id": 1, "title": "Renew the passport"}),
            None
        ),
        call(
            "task_update",
            json!({"id": "one"}),
            Some("INVALID_ARGUMENT")
        ),
        call("task_done", json!({"id": 1}), None),
        call("task_done", json!({"id": 999}), Some("TASK_NOT_FOUND")),
        call("task_delete", json!({"id": 2}), Some("FORCE_REQUIRED")),
        call("task_delete", json!({"id": 2, "force": true}), None),
        call(
            "task_delete",
            json!({"id": 2, "force": "yes"}),
            Some("INVALID_ARGUMENT")
        ),
    ]);
    plan["calls"][4]["items"] = json!(2);
    plan["calls"][5]["items"] = json!(1);
    for client in ["python", "node"] {
        let db = dir.path().join(format!("{client}.db"));
        let mut plan = plan.clone();
        plan["env"] = json!({ "TODO_DB": db });
        plan["only"] = client.into();
        run_clients(&plan);
        // The same plan over streamable HTTP (`todo mcp --http`), on a store of its own.
        plan["env"] = json!({ "TODO_DB": dir.path().join(format!("{client}-http.db")) });
        run_clients_over_http(&plan);
    }
}

/// A timestamp (`2026-11-24T20:13:59Z`) as `<time>`: the two stores are written a moment apart.
fn timeless(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(text)
            if text.len() == 20
                && text.as_bytes()[10] == b'T'
                && text.ends_with('Z')
                && text[..4].bytes().all(|b| b.is_ascii_digit()) =>
        {
            *text = "<time>".into();
        }
        Value::Array(items) => items.iter_mut().for_each(timeless),
        Value::Object(map) => map.values_mut().for_each(timeless),
        _ => {}
    }
}

/// Issue 12, item 7 (compose): every command run on the command line and over MCP, each way on
/// a fresh store, means the same: the MCP data is the envelope's `data` (a list's items its
/// array), an MCP error carries the envelope's code and message.
#[test]
fn an_mcp_call_returns_the_data_of_the_cli_envelope() {
    use mcp_support::{Session, as_envelope, envelope_meaning};
    let dir = tempfile::tempdir().unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_todo"));
    // (argv, stdin, tool, arguments)
    let steps: Vec<(Vec<&str>, Option<&str>, &str, serde_json::Value)> = vec![
        (
            vec![
                "task",
                "create",
                "--title",
                "Renew passport",
                "--due",
                "2026-03-01",
            ],
            None,
            "task_create",
            json!({"title": "Renew passport", "due": "2026-03-01"}),
        ),
        (
            vec!["task", "create"],
            Some(r#"{"title": "From input", "priority": "high", "tags": ["home"]}"#),
            "task_create",
            json!({"input": {"title": "From input", "priority": "high", "tags": ["home"]}}),
        ),
        (vec!["task", "list"], None, "task_list", json!({})),
        (
            vec!["task", "list", "--limit", "1"],
            None,
            "task_list",
            json!({"limit": 1}),
        ),
        (vec!["task", "get", "1"], None, "task_get", json!({"id": 1})),
        (
            vec!["task", "get", "999"],
            None,
            "task_get",
            json!({"id": 999}),
        ),
        (
            vec!["task", "update", "1", "--title", "Renew the passport"],
            None,
            "task_update",
            json!({"id": 1, "title": "Renew the passport"}),
        ),
        (
            vec!["task", "done", "1"],
            None,
            "task_done",
            json!({"id": 1}),
        ),
        (
            vec!["task", "delete", "2"],
            None,
            "task_delete",
            json!({"id": 2}),
        ),
        (
            vec!["task", "delete", "2", "--dry-run"],
            None,
            "task_delete",
            json!({"id": 2, "dry-run": true}),
        ),
        (
            vec!["task", "delete", "2", "--force"],
            None,
            "task_delete",
            json!({"id": 2, "force": true}),
        ),
        (
            vec!["task", "list", "--status", "all"],
            None,
            "task_list",
            json!({"status": "all"}),
        ),
    ];
    let cli_db = dir.path().join("cli.db");
    let mcp_db = dir.path().join("mcp.db");
    let mut session = Session::start(bin, &[("TODO_DB", &mcp_db)]);
    for (argv, stdin, tool, arguments) in steps {
        let mut cli = std::process::Command::new(bin);
        cli.args(&argv).env("TODO_DB", &cli_db);
        let output = match stdin {
            Some(text) => {
                use std::io::Write;
                let mut child = cli
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped())
                    .spawn()
                    .unwrap();
                child
                    .stdin
                    .take()
                    .unwrap()
                    .write_all(text.as_bytes())
                    .unwrap();
                child.wait_with_output().unwrap()
            }
            None => cli.output().unwrap(),
        };
        let envelope: serde_json::Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|e| panic!("{argv:?}: not an envelope ({e})"));
        let mut expected = envelope_meaning(&envelope);
        let mut got = as_envelope(&session.call(tool, arguments.clone()));
        timeless(&mut expected);
        timeless(&mut got);
        if expected.get("error").is_some() {
            // The hint differs by design (a flag on the command line, an argument over MCP);
            // the code is the same.
            assert_eq!(got["error"]["code"], expected["error"]["code"], "{argv:?}");
        } else {
            assert_eq!(got, expected, "{argv:?} against {tool} {arguments}");
        }
    }
    session.end();
}

/// Issue 28 ("Committed, reported cancelled"): a client that writes its call and closes stdin at
/// once (`printf '%s\n' INIT INITIALIZED CALL | todo mcp`) gets the created task, never
/// `CANCELLED`, and the store holds exactly that task. Five runs, each on a fresh store.
#[test]
fn a_create_whose_stdin_ends_at_once_answers_with_the_created_task() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let bin = env!("CARGO_BIN_EXE_todo");
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "printf", "version": "1"}}});
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let create = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "task_create", "arguments": {"title": "Stored once"}}});
    for run in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("todo.db");
        let mut child = Command::new(bin)
            .arg("mcp")
            .env("TODO_DB", &db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = format!("{init}\n{initialized}\n{create}\n");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "run {run}");
        let stdout = String::from_utf8(output.stdout).unwrap();
        let reply: serde_json::Value = stdout
            .lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
            .find(|message| message["id"] == 1)
            .unwrap_or_else(|| panic!("run {run}: no reply: {stdout}"));
        assert!(
            reply["result"].get("isError").is_none(),
            "run {run}: {reply}"
        );
        let task = &reply["result"]["structuredContent"];
        assert_eq!(task["title"], "Stored once", "run {run}: {reply}");
        // The store holds what the reply says: one task.
        let listed = Command::new(bin)
            .args(["task", "list"])
            .env("TODO_DB", &db)
            .output()
            .unwrap();
        let envelope: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
        let tasks = envelope["data"].as_array().unwrap();
        assert_eq!(tasks.len(), 1, "run {run}: {envelope}");
        assert_eq!(tasks[0]["id"], task["id"], "run {run}");
    }
}

/// Stateless HTTP (issue 31, item 3): one client's requests spread over two server processes,
/// as a load balancer would send them, with one store between them. The handshake goes to one,
/// the calls alternate, and each answer is what one server alone would give: a task created
/// through one is read, updated and listed through the other. At protocol 2025-11-25 (the
/// `MCP-Protocol-Version` header) and 2026-07-28 (the version in each request's `_meta`).
#[test]
fn one_client_is_served_by_two_servers_behind_a_balancer() {
    use mcp_support::{HttpServer, mcp_post};
    let dir = tempfile::tempdir().unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_todo"));
    let db = dir.path().join("shared.db");
    let db = db.to_str().unwrap();
    let a = HttpServer::start(bin, &[], &[("TODO_DB", db)]);
    let b = HttpServer::start(bin, &[], &[("TODO_DB", db)]);
    let servers = [a.authority(), b.authority()];
    let init = mcp_post(
        servers[0],
        &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "balanced", "version": "1"}}}),
        &[],
    );
    assert_eq!(
        init.json()["result"]["serverInfo"]["name"],
        "todo",
        "{init:?}"
    );
    // No session id: nothing ties the next request to the server that answered this one.
    assert!(!init.headers.iter().any(|h| h.starts_with("mcp-session-id")));
    let call = |n: usize, tool: &str, arguments: serde_json::Value, meta: bool| {
        let mut params = json!({"name": tool, "arguments": arguments});
        if meta {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "balanced", "version": "1"},
            });
        }
        let version = if meta { "2026-07-28" } else { "2025-11-25" };
        let mut headers = vec![format!("MCP-Protocol-Version: {version}")];
        if meta {
            // 2026-07-28 names the method and tool in headers too (for a balancer to route by).
            headers.push("Mcp-Method: tools/call".to_owned());
            headers.push(format!("Mcp-Name: {tool}"));
        }
        let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
        let message = json!({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params});
        let answer = mcp_post(servers[n % 2], &message, &headers);
        let reply = answer.json();
        assert!(
            reply["error"].is_null(),
            "{tool} on server {}: {reply}",
            n % 2
        );
        assert_ne!(
            reply["result"]["isError"],
            true,
            "{tool} on server {}: {reply}",
            n % 2
        );
        reply["result"]["structuredContent"].clone()
    };
    for meta in [false, true] {
        let created = call(1, "task_create", json!({"title": "Balanced"}), meta);
        let id = created["id"].clone();
        let read = call(2, "task_get", json!({"id": id}), meta);
        assert_eq!(read["title"], "Balanced");
        call(
            3,
            "task_update",
            json!({"id": id, "title": "Rebalanced"}),
            meta,
        );
        let listed = call(4, "task_list", json!({}), meta);
        let titles: Vec<&str> = listed["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["title"].as_str())
            .collect();
        assert!(titles.contains(&"Rebalanced"), "{listed}");
        call(5, "task_delete", json!({"id": id, "force": true}), meta);
    }
}
