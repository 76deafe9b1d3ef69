//! `TOOL mcp`: outcomes follow effects, calls that block never starve the others, and every
//! message the server can take an id from is answered (issue 28, items 1, 4 and 7). Raw
//! JSON-RPC over pipes, where a client SDK cannot express the case (stdin closed at once,
//! malformed input, a cancel for a request still queued); the SDKs drive the time limits
//! (`a_call_past_its_time_limit_is_answered_through_both_sdks`).

#[path = "../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{Value, json};

const OUTCOMES: &str = env!("CARGO_BIN_EXE_pas-outcomes-demo");
const DEMO: &str = env!("CARGO_BIN_EXE_pas-runtime-demo");

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

struct Peer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Peer {
    fn start(bin: &str, args: &[&str], env: &[(&str, &str)]) -> Peer {
        let mut child = Command::new(bin)
            .arg("mcp")
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
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
        let stdin = child.stdin.take();
        let mut peer = Peer {
            child,
            stdin,
            lines,
        };
        peer.send_raw(format!("{INIT}\n").as_bytes());
        assert!(peer.response(0)["result"]["serverInfo"].is_object());
        peer.send_raw(format!("{INITIALIZED}\n").as_bytes());
        peer
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, message: Value) {
        self.send_raw(format!("{message}\n").as_bytes());
    }

    fn next(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON on stdout ({e}): {line}"))
    }

    /// The response to `id` (other messages before it are skipped).
    fn response(&self, id: impl Into<Value>) -> Value {
        let id = id.into();
        loop {
            let message = self.next();
            if message["id"] == id && message.get("method").is_none() {
                return message;
            }
        }
    }

    /// The responses to `ids`, whatever their order.
    fn responses(&self, ids: impl IntoIterator<Item = i64>) -> HashMap<i64, Value> {
        let mut waiting: Vec<i64> = ids.into_iter().collect();
        let mut found = HashMap::new();
        while !waiting.is_empty() {
            let message = self.next();
            if let Some(id) = message["id"].as_i64()
                && message.get("method").is_none()
                && let Some(at) = waiting.iter().position(|w| *w == id)
            {
                waiting.remove(at);
                found.insert(id, message);
            }
        }
        found
    }

    fn call(&mut self, id: i64, tool: &str, arguments: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}));
    }

    fn cancel(&mut self, id: i64) {
        self.send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": id, "reason": "test"}}),
        );
    }

    /// A ping answered: every request sent before it has reached the server's queue (the
    /// protocol takes messages in order).
    fn sync(&mut self, id: i64) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
        self.response(id);
    }

    /// Closes stdin and waits for the exit status; every line written is returned.
    fn finish(mut self) -> (std::process::ExitStatus, Vec<Value>) {
        self.stdin.take();
        let status = self.child.wait().unwrap();
        let rest = self
            .lines
            .iter()
            .map(|line| serde_json::from_str(&line).unwrap())
            .collect();
        (status, rest)
    }
}

fn fifo(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    assert!(
        Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap()
            .success()
    );
    path
}

/// Lets a reader blocked on the FIFO go on (a writer that opens and closes it; none when no
/// reader is left).
fn open_gate(path: &Path) {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK (Linux): fails at once, rather than block, when nobody reads.
    let _ = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(0o4000)
        .open(path);
}

/// The error a tool result holds.
fn tool_error(response: &Value) -> Value {
    assert_eq!(response["result"]["isError"], true, "{response}");
    let text = response["result"]["content"][0]["text"].as_str().unwrap();
    serde_json::from_str::<Value>(text).unwrap()["error"].clone()
}

#[test]
fn a_call_whose_stdin_ends_at_once_is_answered_with_its_result() {
    // The issue's reproduction, five times: the reply is the created file, never CANCELLED.
    for run in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let name = format!("made-{run}");
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "put", "arguments": {"dir": dir.path(), "name": name}}});
        let mut child = Command::new(OUTCOMES)
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = format!("{INIT}\n{INITIALIZED}\n{call}\n");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "run {run}: {:?}", output.status);
        let stdout = String::from_utf8(output.stdout).unwrap();
        let reply = stdout
            .lines()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .find(|message| message["id"] == 1)
            .unwrap_or_else(|| panic!("run {run}: no reply to the call: {stdout}"));
        assert!(
            reply["result"].get("isError").is_none(),
            "run {run}: {reply}"
        );
        assert_eq!(
            reply["result"]["structuredContent"],
            json!({"name": name}),
            "run {run}"
        );
        assert!(dir.path().join(&name).exists(), "run {run}");
    }
}

#[test]
fn a_cancelled_waiting_call_never_runs_and_cancelled_blocked_calls_give_their_slots_back() {
    let dir = tempfile::tempdir().unwrap();
    let fifos: Vec<PathBuf> = (0..16)
        .map(|i| fifo(dir.path(), &format!("fifo-{i}")))
        .collect();
    let made = tempfile::tempdir().unwrap();
    let mut peer = Peer::start(OUTCOMES, &[], &[]);
    // Sixteen reads that block take every slot (no time limit applies to them).
    for (i, path) in fifos.iter().enumerate() {
        peer.call(1 + i as i64, "cat", json!({"path": path}));
    }
    peer.sync(100);
    // A write waits for a slot; its client cancels it: it leaves the queue, and never runs.
    peer.call(17, "put", json!({"dir": made.path(), "name": "cancelled"}));
    peer.sync(101);
    peer.cancel(17);
    // Cancelling the blocked reads gives their slots back, though their threads stay blocked.
    for id in 1..=16 {
        peer.cancel(id);
    }
    peer.call(18, "put", json!({"dir": made.path(), "name": "later"}));
    let later = peer.response(18);
    assert_eq!(
        later["result"]["structuredContent"],
        json!({"name": "later"}),
        "{later}"
    );
    let (status, rest) = peer.finish();
    assert!(status.success(), "{status:?}");
    // No reply for a cancelled request (MCP), and the cancelled write never ran.
    assert!(rest.iter().all(|m| m["id"] != 17), "{rest:?}");
    assert!(!made.path().join("cancelled").exists());
    fifos.iter().for_each(|path| open_gate(path));
}

#[test]
fn sixteen_blocked_reads_time_out_and_a_later_call_is_still_answered() {
    let dir = tempfile::tempdir().unwrap();
    let fifos: Vec<PathBuf> = (0..16)
        .map(|i| fifo(dir.path(), &format!("fifo-{i}")))
        .collect();
    let mut peer = Peer::start(OUTCOMES, &["--call-timeout", "1"], &[]);
    for (i, path) in fifos.iter().enumerate() {
        peer.call(1 + i as i64, "cat", json!({"path": path}));
    }
    peer.call(17, "put", json!({"dir": dir.path(), "name": "after"}));
    let answered = peer.responses(1..=17);
    assert_eq!(
        answered[&17]["result"]["structuredContent"],
        json!({"name": "after"})
    );
    for id in 1..=16 {
        let error = tool_error(&answered[&id]);
        assert_eq!(error["code"], "TIMEOUT", "{error}");
        // A read: a retry duplicates nothing.
        assert_eq!(error["retryable"], true, "{error}");
        assert_eq!(error["details"]["limit_ms"], 1000, "{error}");
        assert_eq!(error["details"]["declared"], false, "{error}");
        assert!(error["details"].get("outcome").is_none(), "{error}");
        assert!(
            error["hint"].as_str().unwrap().contains("--call-timeout"),
            "{error}"
        );
    }
    // A write stopped while its handler ran: its outcome is unknown, and it says how to check.
    let hang = fifo(dir.path(), "hang");
    peer.call(18, "hang", json!({"path": hang}));
    let error = tool_error(&peer.response(18));
    assert_eq!(error["code"], "TIMEOUT", "{error}");
    assert_eq!(error["retryable"], false, "{error}");
    assert_eq!(error["details"]["outcome"], "unknown", "{error}");
    assert!(
        error["hint"].as_str().unwrap().contains("`list`"),
        "{error}"
    );
    let (status, _) = peer.finish();
    assert!(status.success(), "{status:?}");
    fifos.iter().for_each(|path| open_gate(path));
    open_gate(&hang);
}

#[test]
fn a_declared_time_limit_applies_over_mcp() {
    let dir = tempfile::tempdir().unwrap();
    let path = fifo(dir.path(), "fifo");
    let mut peer = Peer::start(OUTCOMES, &[], &[]);
    peer.call(1, "slow-cat", json!({"path": path}));
    let error = tool_error(&peer.response(1));
    assert_eq!(error["code"], "TIMEOUT", "{error}");
    assert_eq!(
        error["details"],
        json!({"limit_ms": 1000, "declared": true})
    );
    assert!(
        error["hint"].as_str().unwrap().contains("declares"),
        "{error}"
    );
    let (status, _) = peer.finish();
    assert!(status.success());
    open_gate(&path);
}

/// A caller's limit over MCP is a CLI caller's `--timeout`: given per call in `_meta`
/// (`pas-kit/timeout`, seconds) or by the server's own `PAS_TIMEOUT`; it may only lower a declared
/// limit, and a value it cannot use is refused rather than dropped (issue 28, item 4).
#[test]
fn a_callers_time_limit_applies_over_mcp_as_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut peer = Peer::start(OUTCOMES, &[], &[]);
    let call_with = |peer: &mut Peer, id: i64, tool: &str, path: &Path, meta: Value| {
        peer.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": {"path": path}, "_meta": meta}}));
    };
    let first = fifo(dir.path(), "first");
    call_with(&mut peer, 1, "cat", &first, json!({"pas-kit/timeout": 1}));
    let error = tool_error(&peer.response(1));
    assert_eq!(error["code"], "TIMEOUT", "{error}");
    assert_eq!(
        error["details"],
        json!({"limit_ms": 1000, "declared": false})
    );
    assert!(
        error["hint"].as_str().unwrap().contains("pas-kit/timeout"),
        "{error}"
    );
    // A longer limit of the caller's does not lift the command's declared one.
    let second = fifo(dir.path(), "second");
    call_with(
        &mut peer,
        2,
        "slow-cat",
        &second,
        json!({"pas-kit/timeout": 60}),
    );
    let error = tool_error(&peer.response(2));
    assert_eq!(
        error["details"],
        json!({"limit_ms": 1000, "declared": true})
    );
    // A value that is not a number of seconds is refused, never taken for "no limit".
    for (id, bad) in [(3, json!("soon")), (4, json!(-1)), (5, json!(null))] {
        call_with(
            &mut peer,
            id,
            "cat",
            &first,
            json!({"pas-kit/timeout": bad}),
        );
        let response = peer.response(id);
        assert_eq!(response["error"]["code"], -32602, "{bad}: {response}");
        assert!(
            response["error"]["message"]
                .as_str()
                .unwrap()
                .contains("pas-kit/timeout"),
            "{response}"
        );
    }
    let (status, _) = peer.finish();
    assert!(status.success());
    // The server's own PAS_TIMEOUT is every call's caller limit, as for a CLI call.
    let third = fifo(dir.path(), "third");
    let mut peer = Peer::start(OUTCOMES, &[], &[("PAS_TIMEOUT", "1")]);
    peer.call(1, "cat", json!({"path": third}));
    let error = tool_error(&peer.response(1));
    assert_eq!(
        error["details"],
        json!({"limit_ms": 1000, "declared": false})
    );
    let (status, _) = peer.finish();
    assert!(status.success());
    for path in [&first, &second, &third] {
        open_gate(path);
    }
}

#[test]
fn sigterm_while_a_committed_call_waits_answers_it_before_the_server_ends() {
    let dir = tempfile::tempdir().unwrap();
    let gate = fifo(dir.path(), "gate");
    let made = tempfile::tempdir().unwrap();
    let mut peer = Peer::start(OUTCOMES, &[], &[]);
    peer.call(
        1,
        "gate",
        json!({"dir": made.path(), "name": "kept", "gate": gate}),
    );
    // The handler committed (the file exists) and waits on the gate.
    while !made.path().join("kept").exists() {
        std::thread::sleep(Duration::from_millis(10));
    }
    // Only the child this test spawned is signalled, by its pid.
    let pid = peer.child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    // Blocking open: the handler is the reader waiting on the other end.
    drop(std::fs::OpenOptions::new().write(true).open(&gate).unwrap());
    let reply = peer.response(1);
    assert_eq!(
        reply["result"]["structuredContent"],
        json!({"name": "kept"}),
        "{reply}"
    );
    let (status, _) = peer.finish();
    assert_eq!(status.code(), Some(143));
}

#[test]
fn every_message_with_an_id_is_answered_with_the_code_json_rpc_names() {
    let dir = tempfile::tempdir().unwrap();
    let mut peer = Peer::start(OUTCOMES, &[], &[]);
    let expect_null = |peer: &mut Peer, bytes: &[u8], code: i64| {
        peer.send_raw(bytes);
        let answer = peer.next();
        assert_eq!(answer["id"], Value::Null, "{answer}");
        assert_eq!(answer["error"]["code"], code, "{answer}");
    };
    expect_null(&mut peer, b"{this is not json\n", -32700);
    let deep = format!("{}{}\n", "[".repeat(300), "]".repeat(300));
    expect_null(&mut peer, deep.as_bytes(), -32700);
    let mut huge = br#"{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":""#.to_vec();
    huge.extend(std::iter::repeat_n(b'y', 17 * 1024 * 1024));
    huge.extend(b"\"}}\n");
    expect_null(&mut peer, &huge, -32600);
    expect_null(&mut peer, b"[1,2]\n", -32600);

    peer.send(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": []}));
    assert_eq!(peer.response(4)["error"]["code"], -32600);
    peer.send(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call"}));
    assert_eq!(peer.response(5)["error"]["code"], -32602);
    peer.send(json!({"jsonrpc": "2.0", "id": 6, "method": "tools/explode", "params": {}}));
    assert_eq!(peer.response(6)["error"]["code"], -32601);
    peer.send(json!({"jsonrpc": "2.0", "id": "seven", "method": "tools/call", "params": {"arguments": {}}}));
    assert_eq!(peer.response("seven")["error"]["code"], -32602);
    // And the server goes on serving.
    peer.call(8, "put", json!({"dir": dir.path(), "name": "still"}));
    assert_eq!(
        peer.response(8)["result"]["structuredContent"],
        json!({"name": "still"})
    );
    let (status, _) = peer.finish();
    assert!(status.success());
}

#[test]
fn a_secret_sent_as_a_name_or_a_method_is_never_echoed() {
    const CANARY: &str = "canary-names-5e1b7";
    let mut peer = Peer::start(DEMO, &[], &[("DEMO_TOKEN", CANARY)]);
    let mut written = Vec::new();
    peer.call(1, CANARY, json!({}));
    written.push(peer.response(1));
    peer.call(2, "item_get", json!({"id": 1, CANARY: 1}));
    written.push(peer.response(2));
    peer.send(json!({"jsonrpc": "2.0", "id": 3, "method": CANARY, "params": {}}));
    written.push(peer.response(3));
    peer.send(json!({"jsonrpc": "2.0", "id": 4, "method": format!("tools/{CANARY}")}));
    written.push(peer.response(4));
    let (status, rest) = peer.finish();
    assert!(status.success());
    written.extend(rest);
    let text = serde_json::to_string(&written).unwrap();
    assert!(!text.contains(CANARY), "{text}");
    assert!(text.contains("[REDACTED]"), "{text}");
}

#[test]
fn a_call_past_its_time_limit_is_answered_through_both_sdks() {
    let dir = tempfile::tempdir().unwrap();
    let first = fifo(dir.path(), "first");
    let second = fifo(dir.path(), "second");
    let bin = Path::new(OUTCOMES);
    let mut plan = mcp_support::plan(bin, "outcomes", json!({}));
    plan["args"] = json!(["mcp", "--call-timeout", "1"]);
    plan["calls"] = json!([
        mcp_support::call("cat", json!({"path": first}), Some("TIMEOUT")),
        mcp_support::call("put", json!({"dir": dir.path(), "name": "made"}), None),
        mcp_support::call("cat", json!({"path": second}), Some("TIMEOUT")),
    ]);
    mcp_support::run_clients(&plan);
    open_gate(&first);
    open_gate(&second);
}
