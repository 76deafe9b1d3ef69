//! `TOOL mcp` against the CLI: 1,000 `tools/call` round trips on one server against 1,000
//! spawns of the same command (calls per second of each, side by side in one run), and the
//! server's peak memory after 100 and after 10,000 calls (it must not grow with the calls).
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

    // Peak memory (VmHWM) of one server after 100 calls, then after 10,000.
    let mut server = Server::start(&bin);
    let mut peaks = Vec::new();
    let mut done = 0;
    for target in MEMORY_CALLS {
        while done < target {
            server.call(&arguments);
            done += 1;
        }
        peaks.push(server.peak_kib());
    }
    server.stop();
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
    writeln!(body, "\n| server peak memory (VmHWM) | KiB |").unwrap();
    writeln!(body, "|---|---:|").unwrap();
    for (calls, peak) in MEMORY_CALLS.iter().zip(&peaks) {
        writeln!(body, "| after {calls} calls | {peak} |").unwrap();
    }
    // Each call runs on a thread of its own: the threads end with their calls, so the peak
    // must not grow with the number of calls.
    let growth = peaks[1] as i64 - peaks[0] as i64;
    writeln!(
        body,
        "\nPeak after {} calls minus after {}: {growth} KiB ({:.1}%; flat means within a few hundred KiB).",
        MEMORY_CALLS[1],
        MEMORY_CALLS[0],
        growth as f64 * 100.0 / peaks[0] as f64
    )
    .unwrap();
    print!("{body}");
    report::update_section(&tools::workspace().join("BENCHMARKS.md"), "mcp", &body)
        .expect("BENCHMARKS.md is writable");
}

/// A `TOOL mcp` server this benchmark started, with a JSON-RPC peer on its pipes.
struct Server {
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
        let mut child = Command::new(bin)
            .args(["--builtin", "mcp"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("word-counter --builtin mcp runs");
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
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
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

    fn request(&mut self, method: &str, params: serde_json::Value) {
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
                return;
            }
        }
    }

    fn call(&mut self, arguments: &serde_json::Value) {
        self.request(
            "tools/call",
            json!({"name": "count", "arguments": arguments}),
        );
    }

    /// The server's peak resident set so far (Linux `VmHWM`), in KiB.
    fn peak_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc/PID/status (Linux)");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmHWM in /proc/PID/status")
    }

    fn stop(self) {
        let Server {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        let status = child.wait().expect("the server ends");
        assert!(status.success(), "EOF ends the server with 0");
    }
}
