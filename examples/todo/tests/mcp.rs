//! todo (compose profile) served over MCP (`todo mcp`), driven by the official Python and
//! TypeScript SDKs: tools/list equals `pas-gen mcp`, every command with valid and invalid
//! arguments, the destructive guard as a `force` argument, structured input as `input`.

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::path::Path;

use mcp_support::{call, plan, run_clients};
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
    }
}
