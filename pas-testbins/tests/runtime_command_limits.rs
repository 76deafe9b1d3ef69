//! Limits a command declares (failure modes 11 and 43): `timeout` and `maxOutputBytes` in a
//! spec, `timeout = ...` and `max_output_bytes = ...` in the derive. In machine mode each
//! applies, the caller's `PAS_TIMEOUT` / `PAS_OUTPUT_LIMIT` (`--max-output`) may lower it but
//! never raise it, and every face states it. Output past the declared bound is not lost: the
//! rest of a list goes to a file (`runtime_bounded_output.rs`). The tool (`pas-limits-demo`) is spec first
//! (pas profile) by default and derived (compose profile) with `LIMITS_DEMO_DERIVE=1`.

mod runtime_support;

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use runtime_support::{code, error_json, limits_demo, named, ndjson, stdout};
use serde_json::Value;

fn limits(args: &[&str]) -> Command {
    limits_demo(args)
}

fn derived(args: &[&str]) -> Command {
    let mut cmd = limits(args);
    cmd.env("LIMITS_DEMO_DERIVE", "1");
    cmd
}

fn timed(mut cmd: Command) -> (Output, Duration) {
    let started = Instant::now();
    let out = cmd.output().expect("the demo runs");
    (out, started.elapsed())
}

fn envelope(out: &Output) -> Value {
    serde_json::from_str(stdout(out).trim_end()).expect("one JSON envelope on stdout")
}

#[test]
fn a_declared_timeout_replaces_the_default_and_the_caller_may_only_lower_it() {
    // The declared half second ends a call that would sleep for 30.
    let (out, took) = timed(limits(&["--agent", "slow", "--seconds", "30"]));
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(code(&out), 124, "{out:?}");
    let error = error_json(&out);
    assert_eq!(error["error"], "TIMEOUT");
    assert_eq!(error["retryable"], true);
    assert_eq!(error["details"]["limit_ms"], 500);
    assert_eq!(error["details"]["declared"], true);
    assert!(
        error["suggestion"]
            .as_str()
            .unwrap()
            .contains("the command declares this limit")
    );
    // A larger PAS_TIMEOUT, or 0, leaves the declared limit armed.
    for caller in ["10", "0"] {
        let mut cmd = limits(&["--agent", "slow", "--seconds", "30"]);
        cmd.env("PAS_TIMEOUT", caller);
        let (out, took) = timed(cmd);
        assert!(
            took < Duration::from_secs(5),
            "PAS_TIMEOUT={caller}: {took:?}"
        );
        assert_eq!(error_json(&out)["details"]["limit_ms"], 500, "{out:?}");
    }
    // A smaller one tightens it.
    let mut cmd = limits(&["--agent", "slow", "--seconds", "30"]);
    cmd.env("PAS_TIMEOUT", "0.2");
    let (out, _) = timed(cmd);
    let error = error_json(&out);
    assert_eq!(error["details"]["limit_ms"], 200);
    assert_eq!(error["details"].get("declared"), None);
    // A call within the limit answers as usual.
    let out = limits(&["--agent", "slow", "--seconds", "0.01"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    assert_eq!(ndjson(&out)[0]["slept"], 0.01);
}

#[test]
fn a_declared_output_cap_replaces_the_default_and_the_caller_may_only_lower_it() {
    let cache = tempfile::tempdir().unwrap();
    let limits = |args: &[&str]| {
        let mut cmd = limits(args);
        cmd.env("XDG_CACHE_HOME", cache.path());
        cmd
    };
    let out = limits(&["--agent", "items", "-n", "100"]).output().unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    let items = ndjson(&out);
    assert!(!items.is_empty() && items.len() < 100, "{items:?}");
    assert!(out.stdout.len() <= 300, "{}", out.stdout.len());
    let warning: Value = serde_json::from_slice(&out.stderr).expect("one warning line");
    assert_eq!(warning["warning"]["code"], "OUTPUT_IN_FILE");
    assert!(
        warning["warning"]["message"]
            .as_str()
            .unwrap()
            .contains("the command's declared 300 bytes"),
        "{warning}"
    );
    // PAS_OUTPUT_LIMIT above the declared cap (or 0) does not raise it; below, it lowers it.
    for (caller, most) in [("100000", 300), ("0", 300), ("100", 100)] {
        let out = limits(&["--agent", "items", "-n", "100"])
            .env("PAS_OUTPUT_LIMIT", caller)
            .output()
            .unwrap();
        assert!(
            !out.stdout.is_empty() && out.stdout.len() <= most,
            "PAS_OUTPUT_LIMIT={caller}: {} bytes",
            out.stdout.len()
        );
    }
    // People at a terminal get the whole output, as with the default cap.
    let out = limits(&["items", "-n", "100"]).output().unwrap();
    assert_eq!(stdout(&out).lines().count(), 100);
}

#[test]
fn derived_commands_declare_the_same_limits_and_compose_reports_them_in_the_envelope() {
    let (out, took) = timed(derived(&["slow", "--seconds", "30"]));
    assert!(took < Duration::from_secs(5), "{took:?}");
    let envelope_ = envelope(&out);
    assert_eq!(envelope_["ok"], false, "{envelope_}");
    assert_eq!(envelope_["error"]["code"], "TIMEOUT");
    assert_eq!(envelope_["error"]["details"]["limit_ms"], 500);

    let cache = tempfile::tempdir().unwrap();
    let out = derived(&["items", "-n", "100"])
        .env("XDG_CACHE_HOME", cache.path())
        .output()
        .unwrap();
    let envelope_ = envelope(&out);
    assert_eq!(envelope_["ok"], true, "{envelope_}");
    assert_eq!(envelope_["meta"]["truncated"], true);
    assert!(envelope_["meta"]["rest"]["path"].is_string(), "{envelope_}");
    let kept = envelope_["data"].as_array().unwrap().len();
    assert!(kept > 0 && kept < 100, "{kept}");

    // The derive's registry says what the spec says.
    let spec: Value =
        serde_json::from_slice(&derived(&["--pas-spec"]).output().unwrap().stdout).unwrap();
    let slow = named(&spec["commands"], "slow");
    let items = named(&spec["commands"], "items");
    assert_eq!(slow["timeout"], 0.5);
    assert_eq!(items["maxOutputBytes"], 300);
}

#[test]
fn every_face_states_the_declared_limits() {
    // Agent help of the command.
    let help = stdout(&limits(&["--agent", "slow", "--help"]).output().unwrap());
    assert!(
        help.contains(
            "Limits: at most 0.5 s per call (then TIMEOUT); PAS_TIMEOUT may only lower it."
        ),
        "{help}"
    );
    let help = stdout(&limits(&["--agent", "items", "--help"]).output().unwrap());
    assert!(
        help.contains("Limits: at most 300 bytes of output in machine mode (past it, the rest in a file: OUTPUT_IN_FILE; see --max-output); PAS_OUTPUT_LIMIT may only lower it."),
        "{help}"
    );
    // The catalog.
    let catalog: Value =
        serde_json::from_slice(&limits(&["--agent", "tools"]).output().unwrap().stdout).unwrap();
    let tool = |name: &str| named(&catalog["tools"], name);
    assert_eq!(tool("slow")["timeoutMs"], 500);
    assert_eq!(tool("slow").get("maxOutputBytes"), None);
    assert_eq!(tool("items")["maxOutputBytes"], 300);
    // The .llm document.
    let llm = stdout(&limits(&["docs"]).output().unwrap());
    assert!(llm.contains("at most 0.5 s per call"), "{llm}");
    assert!(llm.contains("at most 300 bytes of output"), "{llm}");
    // The MCP export, from the registry the binary prints.
    let spec = limits(&["--pas-spec"]).output().unwrap().stdout;
    let registry: pas::spec::Registry = serde_json::from_slice(&spec).unwrap();
    let list = pas::spec::faces::mcp::tools_list(&registry);
    let mcp_tool = |name: &str| named(&list["tools"], name);
    assert_eq!(mcp_tool("slow")["_meta"]["pas-kit/timeoutMs"], 500);
    assert_eq!(mcp_tool("items")["_meta"]["pas-kit/maxOutputBytes"], 300);
}

/// Failure mode 61: a command's declared stdin cap (`maxInputBytes`) ends a large pipe at once
/// with an error naming `--input-file`, which every stdin command has and which takes the
/// same payload from a file (checked against the inputSchema like stdin).
#[test]
fn a_declared_stdin_cap_points_large_inputs_to_input_file() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(&big, format!("{{\"text\":\"{}\"}}", "a".repeat(5000))).unwrap();
    // A caller that writes the whole payload before it reads anything: the call ends with a
    // structured error instead of both sides waiting on full pipes.
    let mut child = limits(&["--agent", "ingest"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let payload = format!("{{\"text\":\"{}\"}}", "a".repeat(4 * 1024 * 1024));
        let _ = std::io::Write::write_all(&mut stdin, payload.as_bytes());
    });
    let started = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    writer.join().unwrap();
    assert_eq!(code(&out), 2, "{out:?}");
    assert!(out.stdout.is_empty());
    let error = error_json(&out);
    assert_eq!(error["error"], "INVALID_ARGUMENT");
    assert_eq!(error["details"]["limit"], 1024);
    assert!(
        error["suggestion"]
            .as_str()
            .unwrap()
            .contains("--input-file PATH: the command takes at most 1024 bytes on stdin"),
        "{error}"
    );
    // A PAS_INPUT_LIMIT above the cap does not raise it.
    let out = limits(&["--agent", "ingest"])
        .env("PAS_INPUT_LIMIT", "1000000")
        .stdin(std::fs::File::open(&big).unwrap())
        .output()
        .unwrap();
    assert_eq!(error_json(&out)["details"]["limit"], 1024);
    // The same payload as a file is read whole.
    let path = big.to_str().unwrap();
    let out = limits(&["--agent", "ingest", "--input-file", path])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    assert_eq!(ndjson(&out)[0]["bytes"], 5011);
    // `-` is stdin; loose JSON from a file is corrected as on stdin, and a value that breaks
    // the inputSchema is refused.
    let out = limits(&["--agent", "ingest", "--input-file", "-"])
        .stdin(std::fs::File::open(&big).unwrap())
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{out:?}");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"text\": 3}").unwrap();
    let out = limits(&["--agent", "ingest", "--input-file", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(error_json(&out)["error"], "INVALID_VALUE");
    let out = limits(&[
        "--agent",
        "ingest",
        "--input-file",
        "/nonexistent/input.json",
    ])
    .output()
    .unwrap();
    assert_eq!(code(&out), 2, "{out:?}");
    assert_eq!(error_json(&out)["error"], "INVALID_ARGUMENT");
    // Derived, in compose: the same cap and the same way around it.
    let out = derived(&["ingest"])
        .stdin(std::fs::File::open(&big).unwrap())
        .output()
        .unwrap();
    assert_eq!(envelope(&out)["error"]["details"]["limit"], 1024);
    let out = derived(&["ingest", "--input-file", path]).output().unwrap();
    assert_eq!(envelope(&out)["data"]["bytes"], 5011, "{out:?}");
}

#[test]
fn every_face_states_the_stdin_cap_and_input_file() {
    let help = stdout(&limits(&["--agent", "ingest", "--help"]).output().unwrap());
    assert!(
        help.contains("at most 1024 bytes on stdin (then INVALID_ARGUMENT; larger inputs through --input-file)"),
        "{help}"
    );
    assert!(
        help.contains("`--input-file PATH` reads the same input from a file instead"),
        "{help}"
    );
    let catalog: Value =
        serde_json::from_slice(&limits(&["--agent", "tools"]).output().unwrap().stdout).unwrap();
    let ingest = named(&catalog["tools"], "ingest").clone();
    assert_eq!(ingest["maxInputBytes"], 1024);
    assert!(
        ingest["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "input-file" && p["type"] == "string"),
        "{ingest}"
    );
    let llm = stdout(&limits(&["docs"]).output().unwrap());
    assert!(llm.contains("--input-file PATH"), "{llm}");
    let spec = limits(&["--pas-spec"]).output().unwrap().stdout;
    let registry: pas::spec::Registry = serde_json::from_slice(&spec).unwrap();
    let list = pas::spec::faces::mcp::tools_list(&registry);
    let tool = named(&list["tools"], "ingest").clone();
    assert_eq!(tool["_meta"]["pas-kit/maxInputBytes"], 1024);
    // The derive says the same.
    let spec: Value =
        serde_json::from_slice(&derived(&["--pas-spec"]).output().unwrap().stdout).unwrap();
    let ingest = named(&spec["commands"], "ingest").clone();
    assert_eq!(ingest["maxInputBytes"], 1024);
}
