//! The weather example (specs/weather.yaml with offline handlers) and the runtime demo served
//! over MCP, driven by the official Python and TypeScript SDKs: every command with valid and
//! invalid arguments, progress, cancellation of a long call, and a secret canary that never
//! appears in anything the server writes; concurrent calls served at the same time.

#[path = "../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::path::Path;

use mcp_support::{call, plan, run_clients, run_clients_counted, run_clients_over_http};
use serde_json::json;

const CANARY: &str = "canary-7f3a9c1e5b";

#[test]
fn weather_through_both_sdks() {
    let bin = Path::new(env!("CARGO_BIN_EXE_pas-mcp-weather"));
    let mut plan = plan(bin, "weather", json!({ "WEATHER_API_KEY": CANARY }));
    plan["calls"] = json!([
        call("current", json!({"city": "Boston"}), None),
        call(
            "current",
            json!({"city": "Boston", "units": "imperial"}),
            None
        ),
        call("current", json!({}), Some("INVALID_ARGUMENT")),
        call("current", json!({"city": 3}), Some("INVALID_ARGUMENT")),
        call(
            "current",
            json!({"city": "Boston", "units": "kelvin"}),
            Some("INVALID_ARGUMENT")
        ),
        // A secret is never an argument.
        call(
            "current",
            json!({"city": "Boston", "api-key": "x"}),
            Some("INVALID_ARGUMENT")
        ),
        call(
            "current",
            json!({"city": "Atlantis"}),
            Some("CITY_NOT_FOUND")
        ),
        // The handler echoes the key in its error: the runtime redacts it.
        call("current", json!({"city": "Leaky"}), Some("NETWORK_ERROR")),
        call("forecast", json!({"city": "Paris", "days": 3}), None),
        call(
            "forecast",
            json!({"city": "Paris", "days": "three"}),
            Some("INVALID_ARGUMENT")
        ),
        call(
            "forecast",
            json!({"city": "Paris", "days": 99}),
            Some("INVALID_ARGUMENT")
        ),
        call("search", json!({"query": "Spring", "limit": 2}), None),
        call(
            "search",
            json!({"query": "Spring", "extra": true}),
            // An argument the current schema lacks: the client's schema is stale (47).
            Some("SCHEMA_STALE")
        ),
    ]);
    plan["calls"][8]["items"] = json!(3);
    let written = run_clients(&plan);
    assert!(!written.contains(CANARY), "the secret leaked: {written}");
    // The same plan over streamable HTTP: same results, and no secret in any reply.
    let written = run_clients_over_http(&plan);
    assert!(
        !written.contains(CANARY),
        "the secret leaked over HTTP: {written}"
    );
}

#[test]
fn weather_without_its_key_reports_it() {
    let bin = Path::new(env!("CARGO_BIN_EXE_pas-mcp-weather"));
    let mut plan = plan(bin, "weather", json!({}));
    plan["calls"] = json!([call(
        "current",
        json!({"city": "Boston"}),
        Some("API_KEY_MISSING")
    )]);
    run_clients(&plan);
}

#[test]
fn demo_progress_panics_and_cancellation() {
    let bin = Path::new(env!("CARGO_BIN_EXE_pas-runtime-demo"));
    let mut plan = plan(bin, "demo", json!({ "DEMO_TOKEN": CANARY }));
    plan["calls"] = json!([
        call("crash", json!({}), Some("INTERNAL_ERROR")),
        // The server keeps serving after a panic.
        call("item_get", json!({"id": 1}), None),
        call("item_get", json!({"id": 13}), Some("GENERAL_ERROR")),
        call("doc", json!({}), None),
        call("nothing", json!({}), None),
        call("item_list", json!({"count": 2500}), None),
        call(
            "item_list",
            json!({"count": 5, "panic-at": 2}),
            Some("INTERNAL_ERROR")
        ),
        call("ingest", json!({}), Some("MISSING_INPUT")),
    ]);
    // A list is bounded: the first page holds MAX_ITEMS.
    plan["calls"][5]["items"] = json!(pas::mcp::MAX_ITEMS);
    // The TypeScript SDK drops a notification it reads in the same chunk as the call's result
    // (it closes the call first): the last step's notifications come with the result, so one
    // step more than the notifications counted.
    plan["progress"] = json!({"tool": "work", "arguments": {"steps": 4}, "least": 3});
    plan["cancel"] = json!({
        "tool": "item_list",
        "arguments": {"count": 100000, "delay-ms": 50},
        "after": {"count": 1},
    });
    let written = run_clients(&plan);
    assert!(!written.contains(CANARY), "the secret leaked: {written}");
    // The same plan over streamable HTTP: same results, and no secret in any reply.
    let written = run_clients_over_http(&plan);
    assert!(
        !written.contains(CANARY),
        "the secret leaked over HTTP: {written}"
    );
}

/// Calls that wait for each other (each leaves a mark, then waits for the other's) succeed
/// only if the server runs them at the same time: served one at a time, the first waits for a
/// second that cannot start and fails with `ALONE`. Proven through both SDKs, each sending the
/// calls together, with no clock in the test.
#[test]
fn concurrent_calls_are_served_at_the_same_time() {
    let bin = Path::new(env!("CARGO_BIN_EXE_pas-mcp-rendezvous"));
    let dir = tempfile::tempdir().unwrap();
    let party = 3;
    for client in ["python", "node"] {
        let place = dir.path().join(client);
        std::fs::create_dir(&place).unwrap();
        let mut plan = plan(bin, "rendezvous", json!({}));
        let meet = |name: &str| {
            json!({"tool": "meet", "arguments": {
                "dir": place, "name": name, "party": party, "patience": 20,
            }})
        };
        plan["concurrent"] = json!([meet("a"), meet("b"), meet("c")]);
        // A lone caller still gets a structured error, not a hang.
        plan["calls"] = json!([call(
            "meet",
            json!({"dir": dir.path().join("nobody"), "name": "x", "party": 2, "patience": 0}),
            Some("ALONE")
        )]);
        std::fs::create_dir(dir.path().join("nobody")).ok();
        plan["only"] = client.into();
        if run_clients_counted(&plan).1 == 0 {
            continue; // this client is missing (skipped, said on stderr; an error under CI)
        }
        let marks = std::fs::read_dir(&place).unwrap().count();
        assert_eq!(marks, party, "{client}: every call left its mark");
        // Over HTTP, each call its own request: the server still runs them together.
        let place = dir.path().join(format!("{client}-http"));
        std::fs::create_dir(&place).unwrap();
        plan["concurrent"] = json!([0, 1, 2].map(|n| json!({"tool": "meet", "arguments": {
            "dir": place, "name": format!("h{n}"), "party": party, "patience": 20,
        }})));
        run_clients_over_http(&plan);
        let marks = std::fs::read_dir(&place).unwrap().count();
        assert_eq!(marks, party, "{client} over HTTP: every call left its mark");
    }
}

/// The entry `mcp --print-config` gives a client starts a server both SDKs drive: the plan runs
/// the printed command with the printed words, as the client would (`--call-timeout` kept).
#[test]
fn the_printed_client_entry_starts_a_server_both_sdks_drive() {
    let bin = Path::new(env!("CARGO_BIN_EXE_pas-runtime-demo"));
    let out = std::process::Command::new(bin)
        .args([
            "--agent",
            "mcp",
            "--print-config",
            "claude-code",
            "--call-timeout",
            "30",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let entry = &answer["config"]["mcpServers"]["demo"];
    let mut plan = plan(bin, "demo", json!({}));
    plan["command"] = entry["command"].clone();
    plan["args"] = entry["args"].clone();
    plan["calls"] = json!([call("item_get", json!({"id": 1}), None)]);
    run_clients(&plan);
}

/// The official Python SDK negotiates each protocol version it can ask for (issue 31, item 1):
/// `auto` discovers the server and speaks 2026-07-28, a pinned 2026-07-28 too, and `legacy`
/// the handshake's 2025-11-25; every connection lists the same tools and gets the same result
/// of the same call.
#[test]
fn the_python_sdk_speaks_every_protocol_version_the_server_offers() {
    let bin = Path::new(env!("CARGO_BIN_EXE_pas-runtime-demo"));
    let plan = json!({
        "command": bin, "args": mcp_support::SERVE, "env": {},
        "modes": ["auto", "2026-07-28", "legacy"],
        "tool": "item_get", "arguments": {"id": 1},
    });
    let Some(printed) = mcp_support::run_python("mcp_versions.py", &plan) else {
        return;
    };
    let answers: serde_json::Value = serde_json::from_str(&printed).unwrap();
    let versions: Vec<&str> = answers
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["version"].as_str().unwrap())
        .collect();
    assert_eq!(versions, ["2026-07-28", "2026-07-28", "2025-11-25"]);
    for answer in answers.as_array().unwrap() {
        assert_eq!(answer["tools"], answers[0]["tools"], "{answer}");
        assert_eq!(answer["is_error"], false, "{answer}");
        assert_eq!(
            answer["structured"],
            json!({"id": 1, "name": "item-1"}),
            "{answer}"
        );
    }
}
