//! word-counter served over MCP (`word-counter --builtin mcp`: its root command takes files, so
//! a bare `mcp` is a file), driven by the official Python and TypeScript SDKs: tools/list equals
//! `pas-gen mcp`, its one command with valid and invalid arguments, over stdio and over HTTP.

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::path::Path;

use mcp_support::{call, plan, run_clients, run_clients_over_http};
use serde_json::json;

#[test]
fn word_counter_through_both_sdks() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.txt");
    std::fs::write(&file, "one two three").unwrap();
    let file = file.display().to_string();
    let bin = Path::new(env!("CARGO_BIN_EXE_word-counter"));
    let mut plan = plan(bin, "word-counter", json!({}));
    plan["calls"] = json!([
        call("count", json!({"files": [file]}), None),
        call("count", json!({"files": [file, file]}), None),
        call(
            "count",
            json!({"files": ["/no/such/file"]}),
            Some("FILE_NOT_FOUND")
        ),
        call("count", json!({"files": []}), Some("INVALID_ARGUMENT")),
        call("count", json!({"files": "a.txt"}), Some("INVALID_ARGUMENT")),
        call("count", json!({}), Some("INVALID_ARGUMENT")),
    ]);
    plan["calls"][1]["items"] = json!(2);
    run_clients(&plan);
    // The same plan over streamable HTTP (`word-counter --builtin mcp --http`).
    run_clients_over_http(&plan);
}

/// `--builtin mcp` serves MCP (issue 27, item 6), with or without `--agent`, even beside a file
/// named `mcp` (which a bare `word-counter --agent mcp` counts instead).
#[test]
fn the_builtin_flag_serves_mcp() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mcp");
    std::fs::write(&file, "one two three").unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_word-counter"));
    let mut session = mcp_support::Session::start(bin, &[]);
    let listed = session.request("tools/list", json!({}));
    assert_eq!(listed["result"]["tools"][0]["name"], "count", "{listed}");
    let result = session.call("count", json!({"files": [file.display().to_string()]}));
    let data = mcp_support::as_envelope(&result)["data"].clone();
    assert_eq!(data[0]["words"], 3, "{result}");
    session.end();
    // The same server with `--agent` before the flag.
    let mut server = std::process::Command::new(bin)
        .args(["--agent", "--builtin", "mcp"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = server.stdin.take().unwrap();
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "pas-test", "version": "1"}}});
        writeln!(stdin, "{initialize}").unwrap();
    }
    let output = server.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let answer: serde_json::Value =
        serde_json::from_slice(output.stdout.split(|b| *b == b'\n').next().unwrap()).unwrap();
    assert_eq!(
        answer["result"]["serverInfo"]["name"], "word-counter",
        "{answer}"
    );
}
