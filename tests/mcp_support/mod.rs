//! Drives a built CLI's `TOOL mcp` through the two official MCP clients nobody here wrote: the
//! Python SDK (PyPI `mcp`, `tests/mcp_client.py`) and the TypeScript SDK (npm
//! `@modelcontextprotocol/sdk`, `tests/mcp-ts-client/client.mjs`), from one plan (see the
//! Python driver for its format). Shared by the root package's and the examples' MCP tests
//! (`#[path]`), since only a package's own tests know where its binary is.
//!
//! Without a client installed the test is skipped loudly, and fails under `CI` (`.ci/run`
//! installs both).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

/// The repository's root (this file is `tests/mcp_support/mod.rs`).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("tests/mcp_client.py").exists())
        .expect("the repository root holds tests/mcp_client.py")
        .to_path_buf()
}

/// What `tools/list` must be: the MCP face of the registry the binary exports
/// (`BIN --pas-spec`), which is what `pas-gen mcp` prints from that spec.
pub fn expected_tools(bin: &Path) -> Value {
    let output = Command::new(bin).arg("--pas-spec").output().unwrap();
    assert!(output.status.success(), "{bin:?} --pas-spec failed");
    let source = pas::spec::load::read_reader("spec.json", output.stdout.as_slice()).unwrap();
    let registry = pas::spec::load::parse(&source).unwrap();
    pas::spec::faces::mcp::tools_list(&registry)
}

/// How every test starts a tool's MCP server: `TOOL --builtin mcp`, the form that works in every
/// tool (in a one-command tool whose root takes positionals, a bare `mcp` is a file's name).
pub const SERVE: [&str; 2] = ["--builtin", "mcp"];

/// A plan for `bin`: its tools, no calls yet.
pub fn plan(bin: &Path, name: &str, env: Value) -> Value {
    json!({
        "command": bin, "args": SERVE, "env": env, "tools_name": name,
        "tools": expected_tools(bin), "calls": [],
        "resources": null, "cancel": null, "progress": null, "concurrent": null,
    })
}

fn python() -> Option<String> {
    let candidates = [
        std::env::var("PAS_MCP_PYTHON").ok(),
        Some(
            repo()
                .join("target/mcp-venv/bin/python")
                .display()
                .to_string(),
        ),
    ];
    candidates.into_iter().flatten().find(|python| {
        Command::new(python)
            .args(["-c", "import mcp, jsonschema"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn node_client() -> Option<PathBuf> {
    let dir = repo().join("tests/mcp-ts-client");
    let installed = dir.join("node_modules/@modelcontextprotocol/sdk").exists();
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    (installed && node).then(|| dir.join("client.mjs"))
}

fn skipped(what: &str, how: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run the MCP client tests: {what} is missing ({how})"
    );
    eprintln!("\n!!!!!!!! SKIPPED an MCP client: {what} is missing. {how}\n");
}

/// Runs `script` (a file of `tests/`) with the Python MCP SDK on `plan` (written to a file, its
/// path the script's argument) and returns what it printed; `None` when the SDK is missing
/// outside CI (said on stderr), a failure when it is missing in CI.
pub fn run_python(script: &str, plan: &Value) -> Option<String> {
    let Some(python) = python() else {
        skipped(
            "the Python MCP SDK",
            "python3 -m venv target/mcp-venv && target/mcp-venv/bin/pip install mcp==2.3.0",
        );
        return None;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plan.json");
    std::fs::write(&file, serde_json::to_vec(plan).unwrap()).unwrap();
    let output = Command::new(python)
        .arg(repo().join("tests").join(script))
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{script}: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    Some(String::from_utf8(output.stdout).unwrap())
}

/// Runs the plan through both clients, with the server's stdout and stderr also copied to
/// files; returns everything the server wrote (for the secret canary).
pub fn run_clients(plan: &Value) -> String {
    run_clients_counted(plan).0
}

/// [`run_clients`], also saying how many clients ran the plan (0 when every client it asks for
/// is missing and skipped outside CI): a test that checks what the calls did afterwards checks
/// it only when some client made them.
pub fn run_clients_counted(plan: &Value) -> (String, usize) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("stdout");
    let err = dir.path().join("stderr");
    // The clients start `sh`, which runs the server and copies what it writes.
    let mut traced = plan.clone();
    let bin = plan["command"].as_str().unwrap();
    // The plan's arguments (`--builtin mcp`, and the server's own flags), each quoted for `sh`.
    let args: Vec<String> = plan["args"]
        .as_array()
        .map(|args| {
            args.iter()
                .filter_map(Value::as_str)
                .map(|a| format!("'{a}'"))
                .collect()
        })
        .unwrap_or_else(|| SERVE.iter().map(|a| format!("'{a}'")).collect());
    let script = format!(
        "'{bin}' {} 2>>'{}' | tee -a '{}'",
        args.join(" "),
        err.display(),
        out.display()
    );
    traced["command"] = "sh".into();
    traced["args"] = json!(["-c", script]);
    let file = dir.path().join("plan.json");
    std::fs::write(&file, serde_json::to_vec(&traced).unwrap()).unwrap();

    let ran = drive(&file, plan["only"].as_str());
    let mut written = std::fs::read_to_string(&out).unwrap_or_default();
    written.push_str(&std::fs::read_to_string(&err).unwrap_or_default());
    assert!(ran == 0 || !written.is_empty(), "the server wrote nothing");
    (written, ran)
}

/// A call the plan makes: `error` is the code the tool error must carry, or null.
pub fn call(tool: &str, arguments: Value, error: Option<&str>) -> Value {
    json!({ "tool": tool, "arguments": arguments, "error": error })
}

/// One `TOOL mcp` server on pipes, for tests that compare an MCP call with the same command
/// on the command line (the SDK plans above check the protocol; this reads the results).
pub struct Session {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    next_id: i64,
}

impl Session {
    /// Starts `bin --builtin mcp` with `env` added and initializes the session.
    pub fn start(bin: &Path, env: &[(&str, &Path)]) -> Session {
        let mut command = Command::new(bin);
        command.envs(env.iter().map(|(k, v)| (*k, *v)));
        Session::spawn(command)
    }

    /// Starts `command` (a binary with its environment and directory set, as the test's CLI
    /// calls have them) with the `mcp` argument, and initializes the session: the fidelity
    /// tests compare a call on the command line with the same call over MCP on one store.
    pub fn spawn(command: Command) -> Session {
        Session::spawn_with(command, &[])
    }

    /// [`Session::spawn`] with the server's own flags after the `mcp` word (`--group`, ...).
    pub fn spawn_with(command: Command, flags: &[&str]) -> Session {
        Session::spawn_declaring(command, flags, "2025-06-18", json!({}))
    }

    /// [`Session::spawn_with`] for a client of protocol `version` that declares `capabilities`
    /// at `initialize` (the tasks extension, say).
    pub fn spawn_declaring(
        mut command: Command,
        flags: &[&str],
        version: &str,
        capabilities: Value,
    ) -> Session {
        use std::process::Stdio;
        let mut child = command
            .args(SERVE)
            .args(flags)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut session = Session {
            child,
            stdin,
            stdout,
            next_id: 0,
        };
        session.request(
            "initialize",
            json!({"protocolVersion": version, "capabilities": capabilities,
                   "clientInfo": {"name": "pas-test", "version": "1"}}),
        );
        session.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        session
    }

    fn send(&mut self, message: &Value) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// The response to one request (notifications before it are skipped).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        use std::io::BufRead;
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            let read = self.stdout.read_line(&mut line).unwrap();
            assert!(
                read > 0,
                "the server closed stdout before answering {method}"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    }

    /// A `tools/call` result.
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        response["result"].clone()
    }

    /// Closes stdin; the server must end with 0.
    pub fn end(mut self) {
        self.stdin.take();
        let status = self.child.wait().unwrap();
        assert!(status.success(), "EOF ends the server with 0: {status}");
    }
}

/// What an MCP result means, in the terms of a CLI envelope: `{"data": ...}` for a success (a
/// list's items as the array the envelope holds), `{"error": {"code", "message"}}` for an
/// error.
pub fn as_envelope(result: &Value) -> Value {
    let text = |result: &Value| -> Value {
        result["content"][0]["text"]
            .as_str()
            .map(|t| serde_json::from_str(t).unwrap_or(Value::String(t.to_owned())))
            .unwrap_or(Value::Null)
    };
    if result["isError"] == true {
        let error = &text(result)["error"];
        return json!({"error": {"code": error["code"], "message": error["message"]}});
    }
    let data = match result.get("structuredContent") {
        Some(Value::Object(body)) if body.contains_key("items") => body["items"].clone(),
        Some(body) => body.clone(),
        None => text(result),
    };
    json!({ "data": data })
}

/// A CLI envelope reduced to the same terms: its `data`, or its error's code and message.
pub fn envelope_meaning(envelope: &Value) -> Value {
    match envelope.get("error") {
        Some(error) => json!({"error": {"code": error["code"], "message": error["message"]}}),
        None => json!({ "data": envelope["data"] }),
    }
}

/// Runs the plan file through each client it asks for (`only`: one client per plan, for a
/// plan that changes a store); says how many ran.
fn drive(file: &Path, only: Option<&str>) -> usize {
    let mut ran = 0;
    match python().filter(|_| only != Some("node")) {
        Some(python) => {
            let output = Command::new(python)
                .arg(repo().join("tests/mcp_client.py"))
                .arg(file)
                .output()
                .unwrap();
            assert!(
                output.status.success(),
                "Python SDK: {}\n{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            ran += 1;
        }
        None if only == Some("node") => {}
        None => skipped(
            "the Python MCP SDK",
            "python3 -m venv target/mcp-venv && target/mcp-venv/bin/pip install mcp==2.3.0",
        ),
    }
    match node_client().filter(|_| only != Some("python")) {
        Some(client) => {
            let output = Command::new("node").arg(client).arg(file).output().unwrap();
            assert!(
                output.status.success(),
                "TypeScript SDK: {}\n{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            ran += 1;
        }
        None if only == Some("python") => {}
        None => skipped(
            "the TypeScript MCP SDK",
            "npm ci --prefix tests/mcp-ts-client",
        ),
    }
    ran
}

/// A server listening on streamable HTTP (`TOOL mcp --http 127.0.0.1:0`), started by the test
/// and ended (by its pid) when dropped.
pub struct HttpServer {
    pub child: std::process::Child,
    /// `http://127.0.0.1:PORT/mcp`, from the server's `listening` line.
    pub url: String,
    /// What the server wrote on stderr so far (after the `listening` line).
    pub stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl HttpServer {
    /// Starts `bin` serving HTTP with `args` after `--http 127.0.0.1:0`, and `env`.
    pub fn start(bin: &Path, args: &[&str], env: &[(&str, &str)]) -> HttpServer {
        let mut command = Command::new(bin);
        command
            .args(SERVE)
            .args(["--http", "127.0.0.1:0"])
            .args(args)
            .envs(env.iter().copied());
        HttpServer::spawn(command)
    }

    /// Starts `command` (a server's whole argv and environment) and reads where it listens.
    pub fn spawn(mut command: Command) -> HttpServer {
        use std::io::BufRead;
        let mut child = command
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
        let first = lines.next().and_then(Result::ok).unwrap_or_default();
        let listening: Value = serde_json::from_str(&first).unwrap_or_else(|_| {
            panic!("the server's first stderr line is not its address: {first}")
        });
        let url = listening["listening"]
            .as_str()
            .unwrap_or_else(|| panic!("no `listening` in {first}"))
            .to_owned();
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let copy = stderr.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                let mut text = copy.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
            }
        });
        HttpServer { child, url, stderr }
    }

    /// The `host:port` the server listens on.
    pub fn authority(&self) -> &str {
        let rest = self.url.strip_prefix("http://").unwrap();
        rest.split('/').next().unwrap()
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the plan through both clients over streamable HTTP, against one server the test
/// starts (`TOOL mcp --http`); returns everything the server wrote, on stdout (which must stay
/// empty: HTTP carries the protocol) and stderr.
pub fn run_clients_over_http(plan: &Value) -> String {
    let bin = PathBuf::from(plan["command"].as_str().unwrap());
    let env: Vec<(String, String)> = plan["env"]
        .as_object()
        .map(|env| {
            env.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                .collect()
        })
        .unwrap_or_default();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let extra: Vec<&str> = plan["args"]
        .as_array()
        .map(|args| {
            args.iter()
                .filter_map(Value::as_str)
                .skip(SERVE.len())
                .collect()
        })
        .unwrap_or_default();
    let mut server = HttpServer::start(&bin, &extra, &env);
    let mut traced = plan.clone();
    traced["url"] = server.url.clone().into();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plan.json");
    std::fs::write(&file, serde_json::to_vec(&traced).unwrap()).unwrap();
    drive(&file, plan["only"].as_str());
    let _ = server.child.kill();
    let _ = server.child.wait();
    let mut stdout = String::new();
    if let Some(mut out) = server.child.stdout.take() {
        use std::io::Read;
        let _ = out.read_to_string(&mut stdout);
    }
    assert!(
        stdout.is_empty(),
        "an HTTP server wrote on stdout: {stdout}"
    );
    // Let the copying thread take the last lines.
    std::thread::sleep(std::time::Duration::from_millis(50));
    server.stderr.lock().unwrap().clone()
}

/// An HTTP answer as a test reads it.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    /// Header lines, lower-cased names: `name: value`.
    pub headers: Vec<String>,
    pub body: String,
}

impl Answer {
    /// The body as JSON (panics, naming the body, if it is not).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|_| panic!("not JSON ({}): {}", self.status, self.body))
    }
}

/// Sends `head` (the request line and headers, without the blank line that ends them) and
/// `body` on a new connection to `authority`, with `Connection: close`, and reads the answer to
/// its end: a raw client, so a test can send what no SDK would.
pub fn raw_http(authority: &str, head: &str, body: &[u8]) -> Answer {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(authority).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .unwrap();
    let request = format!(
        "{head}\r\nHost: {authority}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    // The server may answer (and close) before it takes the whole body: what it read is enough.
    let _ = stream.write_all(&[request.as_bytes(), body].concat());
    let mut bytes = Vec::new();
    if let Err(err) = stream.read_to_end(&mut bytes)
        && bytes.is_empty()
    {
        panic!("no answer from {authority}: {err}");
    }
    parse_answer(&bytes)
}

/// Reads an HTTP/1.1 answer (a whole body, or a chunked one put together).
pub fn parse_answer(bytes: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(bytes);
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split_whitespace().nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP answer: {text:?}"));
    let headers: Vec<String> = lines.map(|l| l.to_ascii_lowercase()).collect();
    let chunked = headers
        .iter()
        .any(|h| h.starts_with("transfer-encoding:") && h.contains("chunked"));
    let body = if chunked {
        let mut body = String::new();
        let mut rest = rest;
        while let Some((size, after)) = rest.split_once("\r\n") {
            let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
                break;
            };
            if size == 0 || after.len() < size {
                break;
            }
            body.push_str(&after[..size]);
            rest = after[size..].trim_start_matches("\r\n");
        }
        body
    } else {
        rest.to_owned()
    };
    Answer {
        status,
        headers,
        body,
    }
}

/// A JSON-RPC request POSTed as an MCP client does (both media types accepted, protocol
/// 2025-11-25 unless `extra` names another), with `extra` header lines.
pub fn mcp_post(authority: &str, message: &Value, extra: &[&str]) -> Answer {
    let mut head = String::from(
        "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream",
    );
    let versioned = extra.iter().any(|line| {
        line.to_ascii_lowercase()
            .starts_with("mcp-protocol-version:")
    });
    if !versioned {
        head.push_str("\r\nMCP-Protocol-Version: 2025-11-25");
    }
    for line in extra {
        head.push_str("\r\n");
        head.push_str(line);
    }
    raw_http(authority, &head, message.to_string().as_bytes())
}
