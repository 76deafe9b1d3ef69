//! `TOOL mcp` at the wire, with a raw JSON-RPC peer: tools/list is byte for byte the registry's
//! MCP face; hostile input (malformed JSON, unknown methods, an oversized message, a request
//! before `initialize`, stdin closed mid-call) gets a protocol error or a clean exit, never a
//! panic (tests/mcp_outcomes.rs has every code); EOF ends the server with 0 and SIGTERM ends it
//! promptly; requests are served while a
//! call runs, and calls run side by side; a tool built without the feature says how to enable it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const DEMO: &str = env!("CARGO_BIN_EXE_pas-runtime-demo");

struct Peer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Receiver<String>,
}

impl Peer {
    fn start(env: &[(&str, &str)]) -> Peer {
        let mut child = Command::new(DEMO)
            .arg("mcp")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let (etx, stderr) = mpsc::channel();
        let err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut BufReader::new(err), &mut text);
            let _ = etx.send(text);
        });
        let stdin = child.stdin.take();
        Peer {
            child,
            stdin,
            lines,
            stderr,
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.send_raw(line.as_bytes());
    }

    fn next(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(20))
            .expect("the server answers");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON on stdout ({e}): {line}"))
    }

    /// The response to request `id` (notifications before it are skipped).
    fn response(&self, id: i64) -> Value {
        loop {
            let message = self.next();
            if message["id"] == id {
                return message;
            }
        }
    }

    fn request(&mut self, id: i64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(id)
    }

    fn initialize(&mut self) {
        let init = self.request(
            0,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "raw", "version": "1"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "demo", "{init}");
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    fn close_stdin(&mut self) {
        self.stdin.take();
    }

    /// Waits for the exit status; the server must end within `limit`.
    fn exit_within(&mut self, limit: Duration) -> std::process::ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if started.elapsed() > limit {
                let _ = self.child.kill();
                panic!("the server did not end within {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn stderr(&self) -> String {
        self.stderr
            .recv_timeout(Duration::from_secs(5))
            .unwrap_or_default()
    }
}

fn call(peer: &mut Peer, id: i64, name: &str, arguments: Value) -> Value {
    peer.request(
        id,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
}

fn no_panic(stderr: &str) {
    assert!(
        !stderr.contains("panicked"),
        "the server panicked: {stderr}"
    );
}

#[test]
fn tools_list_is_the_registrys_mcp_face_byte_for_byte() {
    let spec = Command::new(DEMO).arg("--pas-spec").output().unwrap();
    let source = pas::spec::load::read_reader("demo.json", spec.stdout.as_slice()).unwrap();
    let registry = pas::spec::load::parse(&source).unwrap();
    let face = pas::spec::faces::mcp::tools_list(&registry);

    let mut peer = Peer::start(&[]);
    peer.initialize();
    peer.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let line = peer.lines.recv_timeout(Duration::from_secs(20)).unwrap();
    let message: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(message["result"], face);
    // Byte for byte: the result's bytes on the wire are the face's compact JSON.
    let face_text = serde_json::to_string(&face).unwrap();
    assert!(line.contains(&face_text), "{line}\n{face_text}");
    peer.close_stdin();
    assert!(peer.exit_within(Duration::from_secs(5)).success());
}

#[test]
fn hostile_input_gets_protocol_errors_and_the_server_keeps_serving() {
    let mut peer = Peer::start(&[]);
    peer.initialize();
    // Malformed JSON: a parse error with id null, never a crash.
    peer.send_raw(b"{this is not json\n");
    let parse = peer.next();
    assert_eq!(parse["id"], Value::Null, "{parse}");
    assert_eq!(parse["error"]["code"], -32700, "{parse}");
    // A request for a method nobody has.
    let unknown = peer.request(2, "tools/explode", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    // Wrong params for a known method.
    let bad = peer.request(3, "tools/call", json!({"arguments": 5}));
    assert!(bad["error"]["code"].is_i64(), "{bad}");
    // An unknown tool is a protocol error naming it.
    let missing = call(&mut peer, 4, "no_such_tool", json!({}));
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
    assert!(
        missing["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no_such_tool")
    );
    // An oversized message (20 MB, over the transport's 16 MiB line limit): answered -32600
    // with id null and skipped, never read whole into memory.
    let mut huge = br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"item_get","arguments":{"id":"#.to_vec();
    huge.extend(std::iter::repeat_n(b'1', 20 * 1024 * 1024));
    huge.extend(b"}}}\n");
    peer.send_raw(&huge);
    let oversized = peer.next();
    assert_eq!(oversized["id"], Value::Null, "{oversized}");
    assert_eq!(oversized["error"]["code"], -32600, "{oversized}");
    // Still serving.
    let ok = call(&mut peer, 6, "item_get", json!({"id": 1}));
    assert_eq!(
        ok["result"]["structuredContent"],
        json!({"id": 1, "name": "item-1"}),
        "{ok}"
    );
    peer.close_stdin();
    let status = peer.exit_within(Duration::from_secs(5));
    assert_eq!(status.code(), Some(0));
    no_panic(&peer.stderr());
}

#[test]
fn a_request_before_initialize_is_refused_or_ends_the_session_cleanly() {
    let mut peer = Peer::start(&[]);
    peer.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    peer.close_stdin();
    let status = peer.exit_within(Duration::from_secs(5));
    assert_eq!(status.code(), Some(0));
    // Whatever came back on stdout is protocol, and no tools were listed.
    while let Ok(line) = peer.lines.try_recv() {
        let message: Value = serde_json::from_str(&line).expect("only JSON-RPC on stdout");
        assert!(
            message
                .get("result")
                .is_none_or(|r| r.get("tools").is_none()),
            "{message}"
        );
    }
    no_panic(&peer.stderr());
}

#[test]
fn stdin_closed_mid_call_ends_the_server_with_zero() {
    let mut peer = Peer::start(&[]);
    peer.initialize();
    peer.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "item_list", "arguments": {"count": 100000, "delay-ms": 20}}}));
    std::thread::sleep(Duration::from_millis(300));
    peer.close_stdin();
    let status = peer.exit_within(Duration::from_secs(5));
    assert_eq!(status.code(), Some(0));
    no_panic(&peer.stderr());
}

#[test]
fn sigterm_ends_the_server_promptly() {
    let mut peer = Peer::start(&[]);
    peer.initialize();
    peer.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "sleep", "arguments": {"seconds": 30}}}));
    std::thread::sleep(Duration::from_millis(300));
    // Only the child this test spawned is signalled, by its pid.
    let pid = peer.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = peer.exit_within(Duration::from_secs(3));
    assert_eq!(status.code(), Some(143));
}

#[test]
fn the_protocol_is_served_while_a_call_runs_and_a_quick_call_does_not_wait_for_it() {
    let mut peer = Peer::start(&[]);
    peer.initialize();
    let started = Instant::now();
    peer.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "sleep", "arguments": {"seconds": 2}}}));
    peer.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "item_get", "arguments": {"id": 7}}}));
    // tools/list and ping are answered at once, while the handler sleeps.
    let listed = peer.request(3, "tools/list", json!({}));
    assert!(listed["result"]["tools"].is_array());
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "tools/list waited for the call"
    );
    let mut answered = Vec::new();
    while answered.len() < 2 {
        let message = peer.next();
        if let Some(id) = message["id"].as_i64() {
            answered.push((id, message));
        }
    }
    let ids: Vec<i64> = answered.iter().map(|(id, _)| *id).collect();
    // Calls run side by side: the quick one is not queued behind the sleeping one.
    assert_eq!(ids, [2, 1], "both calls are answered, the quick one first");
    assert_eq!(
        answered[1].1["result"]["structuredContent"],
        json!({"slept": 2})
    );
    peer.close_stdin();
    assert!(peer.exit_within(Duration::from_secs(5)).success());
}

#[test]
fn a_secret_in_the_environment_is_never_written() {
    const CANARY: &str = "canary-protocol-91d2";
    let mut peer = Peer::start(&[("DEMO_TOKEN", CANARY)]);
    peer.initialize();
    // The handler copies the token into its error's message and details.
    let failed = call(&mut peer, 1, "item_get", json!({"id": 13}));
    let text = failed.to_string();
    assert!(!text.contains(CANARY), "{text}");
    assert!(text.contains("[REDACTED]"), "{text}");
    // And a secret is not an argument.
    let refused = call(&mut peer, 2, "item_get", json!({"id": 1, "token": "x"}));
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let listed = peer.request(3, "tools/list", json!({}));
    assert!(!listed.to_string().contains("\"token\""), "{listed}");
    peer.close_stdin();
    assert!(peer.exit_within(Duration::from_secs(5)).success());
    assert!(!peer.stderr().contains(CANARY));
}

#[test]
fn a_panicking_handler_is_a_tool_error_and_the_server_keeps_serving() {
    let mut peer = Peer::start(&[]);
    peer.initialize();
    let crashed = call(&mut peer, 1, "crash", json!({}));
    assert_eq!(crashed["result"]["isError"], true, "{crashed}");
    let error: Value =
        serde_json::from_str(crashed["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(error["error"]["code"], "INTERNAL_ERROR");
    assert_eq!(error["error"]["exitCode"], 1);
    let ok = call(&mut peer, 2, "item_get", json!({"id": 2}));
    assert_eq!(ok["result"]["structuredContent"]["id"], 2, "{ok}");
    peer.close_stdin();
    assert!(peer.exit_within(Duration::from_secs(5)).success());
}

#[test]
fn a_long_list_continues_where_it_stopped() {
    let mut peer = Peer::start(&[]);
    peer.initialize();
    let first = call(&mut peer, 1, "item_list", json!({"count": 1500}));
    let body = &first["result"]["structuredContent"];
    assert_eq!(body["items"].as_array().unwrap().len(), pas::mcp::MAX_ITEMS);
    let token = body["continuation"]
        .as_str()
        .expect("a continuation")
        .to_owned();
    let rest = peer.request(
        2,
        "tools/call",
        json!({"name": "item_list", "arguments": {}, "_meta": {"pas/continuation": token}}),
    );
    let items = rest["result"]["structuredContent"]["items"]
        .as_array()
        .unwrap();
    assert_eq!(items.len(), 500);
    assert_eq!(items[0]["id"], 1000);
    assert!(
        rest["result"]["structuredContent"]
            .get("continuation")
            .is_none()
    );
    // A continuation is good once.
    let again = peer.request(
        3,
        "tools/call",
        json!({"name": "item_list", "arguments": {}, "_meta": {"pas/continuation": token}}),
    );
    assert_eq!(again["result"]["isError"], true, "{again}");
    peer.close_stdin();
    assert!(peer.exit_within(Duration::from_secs(5)).success());
}

/// Unfinished lists wait on threads of their own; only the `MAX_HELD` newest are kept, and the
/// oldest is dropped (its thread ends) when another comes.
#[test]
fn only_the_newest_unfinished_lists_are_kept() {
    let mut peer = Peer::start(&[]);
    peer.initialize();
    let mut tokens = Vec::new();
    for id in 0..=pas::mcp::MAX_HELD as i64 {
        let first = call(&mut peer, 10 + id, "item_list", json!({"count": 1001}));
        let token = first["result"]["structuredContent"]["continuation"]
            .as_str()
            .expect("a continuation")
            .to_owned();
        tokens.push(token);
    }
    let resume = |peer: &mut Peer, id: i64, token: &str| {
        peer.request(
            id,
            "tools/call",
            json!({"name": "item_list", "arguments": {}, "_meta": {"pas/continuation": token}}),
        )
    };
    let oldest = resume(&mut peer, 100, &tokens[0]);
    assert_eq!(oldest["result"]["isError"], true, "{oldest}");
    let newest = resume(&mut peer, 101, tokens.last().unwrap());
    let items = newest["result"]["structuredContent"]["items"]
        .as_array()
        .unwrap_or_else(|| panic!("{newest}"));
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["id"], 1000);
    peer.close_stdin();
    assert!(peer.exit_within(Duration::from_secs(5)).success());
}

/// The error object of a tool error result.
fn tool_error(result: &Value) -> Value {
    assert_eq!(result["result"]["isError"], true, "{result}");
    serde_json::from_str(result["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
}

/// CLI Agent Spec 47: every result carries the tool's version and current schema hash; a call
/// holding an old hash, or passing an argument the current schema lacks, is `SCHEMA_STALE`
/// with the current hash, and runs nothing.
#[test]
fn a_client_holding_an_old_schema_gets_schema_stale_with_the_current_hash() {
    let mut peer = Peer::start(&[]);
    peer.initialize();
    let listed = peer.request(1, "tools/list", json!({}));
    let tool = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "item_get")
        .unwrap()
        .clone();
    let hash = tool["_meta"]["pas-kit/schemaHash"].as_str().unwrap();
    let version = tool["_meta"]["pas-kit/toolVersion"].clone();

    let ok = call(&mut peer, 2, "item_get", json!({"id": 1}));
    assert_eq!(ok["result"]["_meta"]["pas-kit/schemaHash"], hash, "{ok}");
    assert_eq!(
        ok["result"]["_meta"]["pas-kit/toolVersion"], version,
        "{ok}"
    );

    let held = |id: i64, held: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "item_get", "arguments": {"id": 1},
            "_meta": {"pas-kit/schemaHash": held}}})
    };
    peer.send(held(3, hash));
    let current = peer.response(3);
    assert_ne!(current["result"]["isError"], true, "{current}");

    peer.send(held(4, "0123456789abcdef"));
    let stale = peer.response(4);
    let error = tool_error(&stale);
    assert_eq!(error["error"]["code"], "SCHEMA_STALE", "{error}");
    assert_eq!(error["error"]["details"]["schemaHash"], hash);
    assert_eq!(
        error["error"]["details"]["heldSchemaHash"],
        "0123456789abcdef"
    );
    assert_eq!(error["error"]["details"]["toolVersion"], version);
    assert_eq!(stale["result"]["_meta"]["pas-kit/schemaHash"], hash);

    // An argument the schema does not have: the client's schema is older (or newer) than
    // the server's.
    let unknown = call(
        &mut peer,
        5,
        "item_get",
        json!({"id": 1, "verbose-v2": true}),
    );
    let error = tool_error(&unknown);
    assert_eq!(error["error"]["code"], "SCHEMA_STALE", "{error}");
    assert_eq!(
        error["error"]["details"]["unknownArguments"],
        json!(["verbose-v2"])
    );
    assert_eq!(error["error"]["details"]["argument"], "verbose-v2");
    // A secret left out of the schema on purpose stays an argument error.
    let secret = call(&mut peer, 6, "item_get", json!({"id": 1, "token": "x"}));
    assert_eq!(tool_error(&secret)["error"]["code"], "INVALID_ARGUMENT");
    peer.close_stdin();
    assert!(peer.exit_within(Duration::from_secs(5)).success());
}

/// The protocol version each client asks for is the one it gets (issue 31, item 1): a client
/// of 2026-07-28 discovers the server and calls it statelessly, every result carrying
/// `resultType` (which that version requires); a client with the `initialize` handshake gets
/// the version it asks for when the server has it (2024-11-05 to 2025-11-25), else the newest
/// with a handshake, and its results keep their old shape (no `resultType`).
#[test]
fn each_protocol_version_a_client_asks_for_is_negotiated() {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
    });
    let mut peer = Peer::start(&[]);
    let discovered = peer.request(1, "server/discover", json!({"_meta": meta}));
    let versions = &discovered["result"]["supportedVersions"];
    for version in [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ] {
        assert!(
            versions.as_array().unwrap().contains(&json!(version)),
            "{version}: {discovered}"
        );
    }
    assert_eq!(
        discovered["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "demo",
        "{discovered}"
    );
    // Stateless: no handshake, the version in each request's `_meta`.
    let listed = peer.request(2, "tools/list", json!({"_meta": meta}));
    assert_eq!(listed["result"]["resultType"], "complete", "{listed}");
    assert!(
        listed["result"]["tools"]
            .as_array()
            .is_some_and(|t| !t.is_empty())
    );
    let called = peer.request(
        3,
        "tools/call",
        json!({"name": "item_get", "arguments": {"id": 1}, "_meta": meta}),
    );
    assert_eq!(called["result"]["resultType"], "complete", "{called}");
    assert_eq!(
        called["result"]["structuredContent"],
        json!({"id": 1, "name": "item-1"}),
        "{called}"
    );
    peer.close_stdin();
    assert!(peer.exit_within(Duration::from_secs(10)).success());

    for (asked, answered) in [
        ("2024-11-05", "2024-11-05"),
        ("2025-03-26", "2025-03-26"),
        ("2025-06-18", "2025-06-18"),
        ("2025-11-25", "2025-11-25"),
        // No handshake exists in 2026-07-28; an unknown version gets the newest known.
        ("2026-07-28", "2025-11-25"),
        ("2099-01-01", "2025-11-25"),
    ] {
        let mut peer = Peer::start(&[]);
        let init = peer.request(
            0,
            "initialize",
            json!({"protocolVersion": asked, "capabilities": {},
                   "clientInfo": {"name": "raw", "version": "1"}}),
        );
        assert_eq!(
            init["result"]["protocolVersion"], answered,
            "{asked}: {init}"
        );
        peer.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        let listed = peer.request(1, "tools/list", json!({}));
        assert!(
            listed["result"].get("resultType").is_none(),
            "{asked}: {listed}"
        );
        let called = call(&mut peer, 2, "item_get", json!({"id": 1}));
        assert!(
            called["result"].get("resultType").is_none(),
            "{asked}: {called}"
        );
        assert_eq!(
            called["result"]["structuredContent"]["id"], 1,
            "{asked}: {called}"
        );
        peer.close_stdin();
        assert!(
            peer.exit_within(Duration::from_secs(10)).success(),
            "{asked}"
        );
    }
}
