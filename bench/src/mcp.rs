//! `TOOL mcp` against the CLI: 1,000 `tools/call` round trips on one server, over stdio and over
//! streamable HTTP (`TOOL mcp --http`, one keep-alive connection), against 1,000 spawns of the
//! same command (calls per second of each, side by side in one run), and each server's peak
//! memory after 100 and after 10,000 calls (it must not grow with the calls).
//!
//! The command is word-counter's `count` of one small file: the handler's own work is tiny, so
//! what is measured is the transport (process start-up against a JSON-RPC round trip).

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::{report, tools};

const CALLS: usize = 1000;
const MEMORY_CALLS: [usize; 2] = [100, 10_000];

pub fn run() {
    let bin = tools::release_binary("word-counter", "word-counter");
    let (dir, file) = tools::words_file("mcp", 1);

    // Spawns: the CLI call an agent without MCP makes.
    let started = Instant::now();
    for _ in 0..CALLS {
        let status = Command::new(&bin)
            .args(["--agent", &file])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("word-counter runs");
        assert!(status.success());
    }
    let spawns = started.elapsed();

    // Round trips on one server.
    let mut server = Server::start(&bin);
    let arguments = json!({ "files": [file] });
    let started = Instant::now();
    for _ in 0..CALLS {
        server.call(&arguments);
    }
    let round_trips = started.elapsed();
    server.stop();

    // The same round trips over HTTP.
    let mut http = HttpServer::start(&bin);
    let started = Instant::now();
    for _ in 0..CALLS {
        http.call(&arguments);
    }
    let http_round_trips = started.elapsed();
    http.stop();

    // Peak memory (VmHWM) of one server after 100 calls, then after 10,000.
    let mut server = Server::start(&bin);
    let mut peaks = Vec::new();
    let mut done = 0;
    for target in MEMORY_CALLS {
        while done < target {
            server.call(&arguments);
            done += 1;
        }
        peaks.push(peak_kib(server.child.id()));
    }
    server.stop();
    let mut http = HttpServer::start(&bin);
    let mut http_peaks = Vec::new();
    let mut done = 0;
    for target in MEMORY_CALLS {
        while done < target {
            http.call(&arguments);
            done += 1;
        }
        http_peaks.push(peak_kib(http.child.id()));
    }
    http.stop();
    let _ = std::fs::remove_dir_all(&dir);

    let per_second = |d: Duration| CALLS as f64 / d.as_secs_f64();
    let mut body = String::new();
    writeln!(
        body,
        "\n`cargo run --release -p pas-bench -- mcp`: word-counter's `count` of one small file, \
         {CALLS} calls each way, one after another.\n"
    )
    .unwrap();
    writeln!(body, "| transport | {CALLS} calls | calls/s |").unwrap();
    writeln!(body, "|---|---:|---:|").unwrap();
    writeln!(
        body,
        "| spawn `word-counter --agent FILE` | {:.0} ms | {:.0} |",
        spawns.as_secs_f64() * 1000.0,
        per_second(spawns)
    )
    .unwrap();
    writeln!(
        body,
        "| `tools/call` on one `word-counter mcp` | {:.0} ms | {:.0} |",
        round_trips.as_secs_f64() * 1000.0,
        per_second(round_trips)
    )
    .unwrap();
    writeln!(
        body,
        "| `tools/call` on one `word-counter mcp --http`, one keep-alive connection | {:.0} ms | {:.0} |",
        http_round_trips.as_secs_f64() * 1000.0,
        per_second(http_round_trips)
    )
    .unwrap();
    writeln!(
        body,
        "\n| server peak memory (VmHWM) | stdio, KiB | HTTP, KiB |"
    )
    .unwrap();
    writeln!(body, "|---|---:|---:|").unwrap();
    for ((calls, peak), http_peak) in MEMORY_CALLS.iter().zip(&peaks).zip(&http_peaks) {
        writeln!(body, "| after {calls} calls | {peak} | {http_peak} |").unwrap();
    }
    // Each call runs on a thread of its own: the threads end with their calls, so the peak
    // must not grow with the number of calls.
    for (transport, peaks) in [("stdio", &peaks), ("HTTP", &http_peaks)] {
        let growth = peaks[1] as i64 - peaks[0] as i64;
        writeln!(
            body,
            "\n{transport}: peak after {} calls minus after {}: {growth} KiB ({:.1}%; flat means within a few hundred KiB).",
            MEMORY_CALLS[1],
            MEMORY_CALLS[0],
            growth as f64 * 100.0 / peaks[0] as f64
        )
        .unwrap();
    }
    print!("{body}");
    report::update_section(&tools::workspace().join("BENCHMARKS.md"), "mcp", &body)
        .expect("BENCHMARKS.md is writable");
}

/// A `TOOL mcp` server this benchmark started, with a JSON-RPC peer on its pipes (`peers` drives
/// the peer frameworks' servers with it too).
pub(crate) struct Server {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
    next_id: u64,
    line: String,
}

impl Server {
    fn start(bin: &std::path::Path) -> Server {
        // word-counter's root command takes files: a bare `mcp` is a file, the server is
        // `--builtin mcp`.
        Server::start_with(bin, &["--builtin", "mcp"])
    }

    /// Start `bin ARGS` as an MCP server on stdio and initialize it.
    pub(crate) fn start_with(bin: &std::path::Path, args: &[&str]) -> Server {
        let mut child = Command::new(bin)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{} {args:?} runs: {e}", bin.display()));
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut server = Server {
            child,
            stdin,
            stdout,
            next_id: 0,
            line: String::new(),
        };
        server.request(
            "initialize",
            // The protocol version every server measured here negotiates.
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "pas-bench", "version": "1"}}),
        );
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    fn send(&mut self, message: &serde_json::Value) {
        let mut text = message.to_string();
        text.push('\n');
        self.stdin
            .write_all(text.as_bytes())
            .expect("the server reads");
        self.stdin.flush().expect("the server reads");
    }

    /// Send a request and wait for its answer; returns its `result`.
    pub(crate) fn request(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            self.line.clear();
            let read = self
                .stdout
                .read_line(&mut self.line)
                .expect("the server answers");
            assert!(read > 0, "the server closed stdout");
            let message: serde_json::Value =
                serde_json::from_str(&self.line).expect("JSON-RPC on stdout");
            if message["id"] == id {
                assert!(message.get("error").is_none(), "{message}");
                assert!(message["result"]["isError"] != true, "{message}");
                return message["result"].clone();
            }
        }
    }

    fn call(&mut self, arguments: &serde_json::Value) {
        self.call_tool("count", arguments);
    }

    /// One `tools/call` of `name`, which must succeed.
    pub(crate) fn call_tool(&mut self, name: &str, arguments: &serde_json::Value) {
        self.request("tools/call", json!({"name": name, "arguments": arguments}));
    }

    /// End a server that may not take EOF as the end: close stdin, give it a second, then
    /// kill it (only this child, by its handle).
    pub(crate) fn close(self) {
        let Server {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = child.kill();
        let _ = child.wait();
    }

    pub(crate) fn stop(self) {
        let Server {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        let status = child.wait().expect("the server ends");
        assert!(status.success(), "EOF ends the server with 0");
    }
}

/// A process's peak resident set so far (Linux `VmHWM`), in KiB.
fn peak_kib(pid: u32) -> u64 {
    let status =
        std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/PID/status (Linux)");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status")
}

/// A `TOOL mcp --http` server this benchmark started, with one keep-alive connection to it (as
/// an SDK's connection pool keeps one).
struct HttpServer {
    child: std::process::Child,
    connection: BufReader<std::net::TcpStream>,
    authority: String,
    next_id: u64,
}

impl HttpServer {
    fn start(bin: &std::path::Path) -> HttpServer {
        let mut child = Command::new(bin)
            .args(["--builtin", "mcp", "--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("word-counter --builtin mcp --http runs");
        let mut first = String::new();
        BufReader::new(child.stderr.take().expect("piped"))
            .read_line(&mut first)
            .expect("the server says where it listens");
        let listening: serde_json::Value =
            serde_json::from_str(&first).expect("a JSON `listening` line");
        let url = listening["listening"].as_str().expect("a URL").to_owned();
        let authority = url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .expect("host:port")
            .to_owned();
        let stream = std::net::TcpStream::connect(&authority).expect("the server accepts");
        stream.set_nodelay(true).expect("TCP_NODELAY");
        HttpServer {
            child,
            connection: BufReader::new(stream),
            authority,
            next_id: 0,
        }
    }

    fn call(&mut self, arguments: &serde_json::Value) {
        self.next_id += 1;
        let body = json!({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                          "params": {"name": "count", "arguments": arguments}})
        .to_string();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: {}\r\n\r\n{body}",
            self.authority,
            body.len()
        );
        self.connection
            .get_mut()
            .write_all(request.as_bytes())
            .expect("the server reads");
        // The head, then a body of its Content-Length (a JSON reply: no progress was asked for).
        let mut length = None;
        let mut line = String::new();
        loop {
            line.clear();
            self.connection
                .read_line(&mut line)
                .expect("the server answers");
            if line == "\r\n" {
                break;
            }
            let lower = line.to_ascii_lowercase();
            if let Some(value) = lower.strip_prefix("content-length:") {
                length = value.trim().parse::<usize>().ok();
            }
            assert!(!line.is_empty(), "the server closed the connection");
        }
        let mut reply = vec![0; length.expect("a JSON reply has a length")];
        std::io::Read::read_exact(&mut self.connection, &mut reply).expect("the whole reply");
        let message: serde_json::Value = serde_json::from_slice(&reply).expect("JSON-RPC");
        assert!(message.get("error").is_none(), "{message}");
        assert!(message["result"]["isError"] != true, "{message}");
    }

    fn stop(mut self) {
        // Only the server this benchmark started, by its pid.
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}
