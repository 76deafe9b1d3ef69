//! `TOOL mcp --http` against hostile and careless clients (issue 31, item 3): every request a
//! clean answer (an HTTP refusal or a JSON-RPC error), never a panic, a hang or a leak; a token
//! where one is set, refused where missing; a signal that lets the calls running answer.
//! Driven by a raw HTTP client (`mcp_support::raw_http`), so the test can send what no SDK would.

#[path = "../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::path::Path;
use std::time::{Duration, Instant};

use mcp_support::{HttpServer, mcp_post, raw_http};
use serde_json::{Value, json};

const CANARY: &str = "canary-http-5d1e";

fn demo() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_pas-runtime-demo"))
}

fn call(id: i64, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
}

fn ping(server: &HttpServer) {
    let answer = mcp_post(
        server.authority(),
        &json!({"jsonrpc": "2.0", "id": 99, "method": "ping"}),
        &[],
    );
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.json()["id"], 99);
}

#[test]
fn every_bad_request_gets_a_clean_answer_and_the_server_goes_on() {
    let server = HttpServer::start(demo(), &[], &[("DEMO_TOKEN", CANARY)]);
    let at = server.authority();
    let rpc = |body: &[u8]| {
        raw_http(
            at,
            "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream",
            body,
        )
    };

    // Not the endpoint; not a method a stateless server takes.
    assert_eq!(raw_http(at, "POST /other HTTP/1.1", b"{}").status, 404);
    assert_eq!(raw_http(at, "GET /mcp HTTP/1.1", b"").status, 405);

    // JSON-RPC's own codes, as on stdio.
    let answer = rpc(b"{not json");
    assert_eq!(answer.status, 400);
    assert_eq!(answer.json()["error"]["code"], -32700);
    assert_eq!(answer.json()["id"], Value::Null);
    let answer = rpc(b"[]");
    assert_eq!(answer.status, 400);
    assert_eq!(answer.json()["error"]["code"], -32600);
    let answer = rpc(b"");
    assert_eq!(answer.status, 400);
    assert_eq!(answer.json()["error"]["code"], -32700);
    let answer = rpc(br#"{"jsonrpc": "2.0", "id": 7, "method": "no/such"}"#);
    assert_eq!(answer.json()["error"]["code"], -32601);
    assert_eq!(answer.json()["id"], 7);
    let answer = rpc(br#"{"jsonrpc": "2.0", "id": 8, "method": "tools/call"}"#);
    assert_eq!(answer.json()["error"]["code"], -32602);
    assert_eq!(answer.json()["id"], 8);
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    assert_eq!(rpc(deep.as_bytes()).json()["error"]["code"], -32700);

    // A body past the limit: refused from its declared length, and when it comes chunked.
    let limit = pas::mcp::MAX_MESSAGE_BYTES;
    let answer = raw_http(
        at,
        &format!(
            "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nX-Declared: {}",
            limit + 1
        ),
        &vec![b' '; limit + 1],
    );
    assert_eq!(answer.status, 413, "{answer:?}");
    assert_eq!(chunked_flood(at, limit + 64 * 1024).status, 413);

    // A page of another origin (DNS rebinding) is refused; one of this machine is not.
    let hello = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let answer = mcp_post(at, &hello, &["Origin: http://evil.example"]);
    assert_eq!(answer.status, 403, "{answer:?}");
    let answer = mcp_post(at, &hello, &["Origin: http://localhost:3000"]);
    assert_eq!(answer.status, 200, "{answer:?}");
    // A `Host` that is not loopback, on a loopback server.
    let answer = raw_http(
        at,
        "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nHost: attacker.example",
        hello.to_string().as_bytes(),
    );
    assert!(answer.status == 403 || answer.status == 400, "{answer:?}");

    // A secret sent back as a tool's name never comes back.
    let answer = mcp_post(at, &call(3, CANARY, json!({})), &[]);
    assert!(
        !answer.body.contains(CANARY),
        "the secret came back: {}",
        answer.body
    );
    assert!(answer.body.contains("[REDACTED]"), "{}", answer.body);

    // And the server still serves, and wrote nothing on stdout.
    ping(&server);
    let answer = mcp_post(at, &call(4, "item_get", json!({"id": 1})), &[]);
    assert_eq!(
        answer.json()["result"]["structuredContent"]["id"],
        1,
        "{answer:?}"
    );
}

/// POSTs a chunked body of `size` bytes (no declared length), as fast as the server takes it.
fn chunked_flood(authority: &str, size: usize) -> mcp_support::Answer {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(authority).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    let _ = stream.write_all(head.as_bytes());
    let chunk = vec![b' '; 64 * 1024];
    let mut sent = 0;
    while sent < size {
        let framed = [format!("{:x}\r\n", chunk.len()).as_bytes(), &chunk, b"\r\n"].concat();
        if stream.write_all(&framed).is_err() {
            break; // the server answered and closed
        }
        sent += chunk.len();
    }
    let _ = stream.write_all(b"0\r\n\r\n");
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    mcp_support::parse_answer(&bytes)
}

/// Slowloris: headers that never end are cut off after `HEADER_TIME`, and the server keeps
/// serving the others meanwhile.
#[test]
fn headers_that_never_end_are_cut_off() {
    use std::io::{Read, Write};
    let server = HttpServer::start(demo(), &[], &[]);
    let mut slow = std::net::TcpStream::connect(server.authority()).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let started = Instant::now();
    ping(&server);
    let mut rest = Vec::new();
    let _ = slow.read_to_end(&mut rest);
    let waited = started.elapsed();
    assert!(
        waited >= pas::mcp::HEADER_TIME - Duration::from_secs(1)
            && waited < pas::mcp::HEADER_TIME + Duration::from_secs(20),
        "the slow connection ended after {waited:?}"
    );
    ping(&server);
}

/// A token in the environment guards every request; beyond loopback, there is none without it.
#[test]
fn a_token_guards_every_request_and_beyond_loopback_one_is_required() {
    let token = "t0ken-for-the-test-3f9a";
    let server = HttpServer::start(demo(), &[], &[("DEMO_MCP_TOKEN", token)]);
    let hello = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let answer = mcp_post(server.authority(), &hello, &[]);
    assert_eq!(answer.status, 401, "{answer:?}");
    assert!(
        answer
            .headers
            .iter()
            .any(|h| h == "www-authenticate: bearer")
    );
    let answer = mcp_post(server.authority(), &hello, &["Authorization: Bearer wrong"]);
    assert_eq!(answer.status, 401);
    let bearer = format!("Authorization: Bearer {token}");
    assert_eq!(mcp_post(server.authority(), &hello, &[&bearer]).status, 200);

    // Every interface, without a token: refused at start, naming the variable.
    let out = std::process::Command::new(demo())
        .args(["--builtin", "mcp", "--http", "0.0.0.0:0"])
        .env_remove("DEMO_MCP_TOKEN")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let error: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(error["error"], "INVALID_ARGUMENT");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("$DEMO_MCP_TOKEN")
    );

    // With one, it serves (here reached on loopback), and asks every request for it.
    let mut wide = std::process::Command::new(demo());
    wide.args(["--builtin", "mcp", "--http", "0.0.0.0:0"])
        .env("DEMO_MCP_TOKEN", token);
    let wide = HttpServer::spawn(wide);
    let port = wide.authority().rsplit(':').next().unwrap().to_owned();
    let local = format!("127.0.0.1:{port}");
    assert_eq!(mcp_post(&local, &hello, &[]).status, 401);
    assert_eq!(mcp_post(&local, &hello, &[&bearer]).status, 200);
}

/// A thousand requests at once: each gets an answer (a result, a retryable `-32000`, or a 503
/// past the connections the server holds), the server stays within a bounded memory, and
/// serves on.
#[test]
fn a_thousand_requests_at_once_each_get_an_answer() {
    let server = HttpServer::start(demo(), &[], &[]);
    let at = server.authority().to_owned();
    let threads: Vec<_> = (0..1000)
        .map(|n| {
            let at = at.clone();
            std::thread::spawn(move || {
                let message = call(n, "item_list", json!({"count": 2, "delay-ms": 20}));
                mcp_post(&at, &message, &[])
            })
        })
        .collect();
    let (mut served, mut busy, mut refused) = (0, 0, 0);
    for thread in threads {
        let answer = thread.join().unwrap();
        match answer.status {
            200 if answer.json()["result"]["structuredContent"].is_object() => served += 1,
            200 => {
                let error = &answer.json()["error"];
                assert_eq!(error["code"], -32000, "{answer:?}");
                assert_eq!(error["data"]["retryable"], true, "{answer:?}");
                busy += 1;
            }
            503 => {
                assert!(answer.headers.iter().any(|h| h.starts_with("retry-after:")));
                refused += 1;
            }
            other => panic!("{other}: {answer:?}"),
        }
    }
    assert_eq!(served + busy + refused, 1000);
    assert!(
        served >= pas::mcp::MAX_CALLS,
        "{served} served, {busy} busy, {refused} refused"
    );
    let rss = resident_kib(server.child.id());
    eprintln!("{served} served, {busy} busy (-32000), {refused} refused (503); {rss} KiB resident");
    assert!(
        rss < 256 * 1024,
        "the server holds {rss} KiB after the flood"
    );
    ping(&server);
}

/// VmRSS of a process, in KiB.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap()
}

/// SIGTERM: the listener closes, the call running is told to stop and still answers, and the
/// server exits 143.
#[test]
fn sigterm_lets_the_call_running_answer_then_ends_the_server() {
    let mut server = HttpServer::start(demo(), &[], &[]);
    let at = server.authority().to_owned();
    let long = std::thread::spawn(move || {
        mcp_post(
            &at,
            &call(1, "item_list", json!({"count": 100000, "delay-ms": 20})),
            &[],
        )
    });
    std::thread::sleep(Duration::from_millis(500));
    let pid = server.child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let started = Instant::now();
    let answer = long.join().unwrap();
    assert_eq!(answer.status, 200, "{answer:?}");
    let reply = answer.json();
    assert_eq!(reply["id"], 1, "{reply}");
    let status = server.child.wait().unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    use std::os::unix::process::ExitStatusExt;
    assert!(
        status.code() == Some(143) || status.signal() == Some(15),
        "{status:?}"
    );
}

/// Protocol 2026-07-28 removed the handshake, the log level and subscriptions: a request at that
/// version for one of them is 404 with -32601, while the same `initialize` at 2025-11-25 is a
/// legacy client's handshake and is served.
#[test]
fn a_method_2026_removed_is_not_found_at_that_version_only() {
    let server = HttpServer::start(demo(), &[], &[]);
    let at = server.authority();
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}});
    for method in [
        "initialize",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
    ] {
        let message =
            json!({"jsonrpc": "2.0", "id": 5, "method": method, "params": {"_meta": meta}});
        let answer = mcp_post(at, &message, &["MCP-Protocol-Version: 2026-07-28"]);
        assert_eq!(answer.status, 404, "{method}: {answer:?}");
        assert_eq!(answer.json()["error"]["code"], -32601, "{method}");
        assert_eq!(answer.json()["id"], 5, "{method}");
    }
    let handshake = json!({"jsonrpc": "2.0", "id": 6, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "legacy", "version": "1"}}});
    let answer = mcp_post(at, &handshake, &[]);
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.json()["result"]["protocolVersion"], "2025-11-25");
}

/// Progressive discovery and a served subset work over HTTP as over stdio (issue 31, item 4):
/// the list is the three discovery tools, and a call through `tools__call` answers what the
/// direct call of the same tool answers.
#[test]
fn progressive_discovery_over_http_calls_as_a_direct_call_does() {
    let server = HttpServer::start(demo(), &["--discovery", "progressive"], &[]);
    let at = server.authority();
    let listed = mcp_post(
        at,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
        &[],
    );
    let names: Vec<String> = listed.json()["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, pas::spec::faces::mcp_discovery::DISCOVERY_TOOLS);
    let direct = mcp_post(at, &call(2, "item_get", json!({"id": 1})), &[]);
    let through = mcp_post(
        at,
        &call(
            2,
            "tools__call",
            json!({"name": "item_get", "arguments": {"id": 1}}),
        ),
        &[],
    );
    assert_eq!(
        through.json()["result"]["structuredContent"],
        direct.json()["result"]["structuredContent"],
        "{through:?}"
    );
    assert!(
        direct.json()["result"]["structuredContent"].is_object(),
        "{direct:?}"
    );
}

/// `--allow-origin` adds an origin (a browser page the operator serves) to the loopback ones;
/// any other stays refused. A head twice `MAX_HEADER_BYTES` is refused (431) before any body is
/// read (hyper grows its buffer in steps, so the bound is not to the byte).
#[test]
fn an_allowed_origin_passes_and_an_oversized_head_is_refused() {
    let server = HttpServer::start(
        demo(),
        &["--allow-origin", "https://app.example.com:443"],
        &[],
    );
    let at = server.authority();
    let hello = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let answer = mcp_post(at, &hello, &["Origin: https://app.example.com"]);
    assert_eq!(answer.status, 200, "{answer:?}");
    let answer = mcp_post(at, &hello, &["Origin: https://other.example.com"]);
    assert_eq!(answer.status, 403, "{answer:?}");
    let huge = format!("X-Padding: {}", "a".repeat(2 * pas::mcp::MAX_HEADER_BYTES));
    let answer = mcp_post(at, &hello, &[&huge]);
    assert_eq!(answer.status, 431, "{answer:?}");
    ping(&server);
}

/// An address the server cannot listen on (taken by another server) is `MCP_LISTEN_FAILED` on
/// stderr, exit 1, nothing on stdout, at once.
#[test]
fn an_address_taken_is_a_clean_start_up_error() {
    let first = HttpServer::start(demo(), &[], &[]);
    let out = std::process::Command::new(demo())
        .args(["--builtin", "mcp", "--http", first.authority()])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(out.stdout.is_empty());
    let error: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(error["error"], "MCP_LISTEN_FAILED", "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains(first.authority())
    );
    ping(&first);
}

/// Bodies held at once stay within `BODY_BUDGET`: while four clients hold nearly 16 MiB each
/// (a body not yet finished), a fifth body past what is left is refused (503, retryable), and
/// a body that stops arriving is cut off after `BODY_TIME` (408).
#[test]
fn bodies_held_at_once_stay_within_the_budget_and_a_stalled_body_is_cut_off() {
    use std::io::{Read, Write};
    let server = HttpServer::start(demo(), &[], &[]);
    let at = server.authority().to_owned();
    let held = pas::mcp::MAX_MESSAGE_BYTES - 1024;
    let open = |sent: usize, declared: usize| {
        let mut stream = std::net::TcpStream::connect(&at).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(90)))
            .unwrap();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {at}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {declared}\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).unwrap();
        let _ = stream.write_all(&vec![b' '; sent]);
        stream
    };
    let started = Instant::now();
    let holders: Vec<_> = (0..4)
        .map(|_| open(held, pas::mcp::MAX_MESSAGE_BYTES))
        .collect();
    // Let the server take what was sent.
    std::thread::sleep(Duration::from_secs(2));
    let mut fifth = open(
        pas::mcp::BODY_BUDGET - 4 * held + 64 * 1024,
        pas::mcp::MAX_MESSAGE_BYTES,
    );
    let mut bytes = Vec::new();
    let _ = fifth.read_to_end(&mut bytes);
    let answer = mcp_support::parse_answer(&bytes);
    assert_eq!(answer.status, 503, "{answer:?}");
    // The four never finish: each is cut off once its body is late.
    for mut stream in holders {
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        assert_eq!(mcp_support::parse_answer(&bytes).status, 408);
    }
    assert!(started.elapsed() >= pas::mcp::BODY_TIME - Duration::from_secs(1));
    ping(&server);
}
