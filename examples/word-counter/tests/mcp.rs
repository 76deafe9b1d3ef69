//! word-counter served over MCP (`word-counter mcp`), driven by the official Python and
//! TypeScript SDKs: tools/list equals `pas-gen mcp`, its one command with valid and invalid
//! arguments.

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::path::Path;

use mcp_support::{call, plan, run_clients};
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
}
