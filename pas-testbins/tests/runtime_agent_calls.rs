//! What every call of every pas tool does for an agent (issue 17, the runtime part), by CLI
//! Agent Spec failure mode: a bare invocation is the root help (21; not in the robot profile,
//! whose every call is one envelope: a missing subcommand is ERR_ARGS); a wall-clock limit ends a
//! call as a `TIMEOUT` error (11); every error says whether a retry may help (19); every
//! response carries a request id and echoes the caller's trace id (33); compose `meta` holds
//! the tool's version, the exit code and the working directory (22, 56, 29).

mod runtime_support;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use runtime_support::{code, demo, error_json, ndjson, processes_tagged, stdout, unique_tag};
use serde_json::Value;

/// A run of `pas-spec-cli` (a runtime with no handlers) over a spec of the workspace.
fn spec_cli(spec: &str, args: &[&str]) -> Command {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"));
    cmd.env("PAS_SPEC_CLI_SPEC", root.join(spec))
        .env_remove("PAS_AGENT")
        .env_remove("PAS_TRACE_ID")
        .env_remove("TODO_TRACE_ID")
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("pas-agent-calls-none"),
        )
        .args(args)
        .stdin(Stdio::null());
    cmd
}

/// The one envelope a compose call printed.
fn envelope(out: &Output) -> Value {
    serde_json::from_str(stdout(out).trim_end()).expect("one JSON envelope on stdout")
}

fn is_request_id(value: &Value) -> bool {
    value.as_str().is_some_and(|id| {
        id.len() == 20 && id.starts_with("req_") && id[4..].chars().all(|c| c.is_ascii_hexdigit())
    })
}

#[test]
fn a_bare_invocation_prints_the_root_help_and_exits_0() {
    // pas, for people: the tool's own bare call, clap's (the root help on stderr, exit 2, as a
    // clap CLI that requires a command answers): adopting pas changes nothing a person sees.
    let out = demo(&[]).output().unwrap();
    assert_eq!(code(&out), 2, "{out:?}");
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Usage: demo"), "{stderr}");
    // pas with agent mode from the environment: the agent help.
    let out = demo(&[]).env("PAS_AGENT", "1").output().unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    assert!(stdout(&out).starts_with("USAGE:\n  demo --agent"));
    // compose: its help, exit 0.
    let out = spec_cli("specs/todo.yaml", &[]).output().unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    assert!(
        stdout(&out).starts_with("USAGE:\n  todo"),
        "{}",
        stdout(&out)
    );
    // robot keeps its rule that every call answers one envelope, and a missing subcommand
    // is its argument error (issue 16).
    let out = spec_cli("specs/pt-agent.yaml", &[]).output().unwrap();
    assert_eq!(code(&out), 10, "{out:?}");
    assert_eq!(envelope(&out)["error"]["code"], "ERR_ARGS");
    // A tool whose root needs a positional argument: the agent's probe still answers help,
    // not a usage error; a person gets clap's usage error, as before pas.
    let out = spec_cli("specs/word-counter.yaml", &[])
        .env("PAS_AGENT", "1")
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    assert!(stdout(&out).starts_with("USAGE:\n  word-counter --agent"));
    let out = spec_cli("specs/word-counter.yaml", &[]).output().unwrap();
    assert_eq!(code(&out), 2, "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("Usage: word-counter"));
}

#[test]
fn a_call_past_its_time_limit_ends_as_a_timeout_error_keeping_whole_lines() {
    let started = Instant::now();
    let out = demo(&["--agent", "item", "list", "-n", "100", "--delay-ms", "100"])
        .env("PAS_TIMEOUT", "0.5")
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(code(&out), 124, "{out:?}");
    let items = ndjson(&out);
    assert!(
        !items.is_empty() && items.len() < 100,
        "partial results: {items:?}"
    );
    let error = error_json(&out);
    assert_eq!(error["error"], "TIMEOUT");
    assert_eq!(error["code"], 124);
    assert_eq!(error["retryable"], true);
    assert_eq!(error["details"]["limit_ms"], 500);
}

#[test]
fn a_blocked_handler_ends_on_time_too_and_zero_turns_the_limit_off() {
    let started = Instant::now();
    let out = demo(&["--agent", "sleep", "--seconds", "30"])
        .env("PAS_TIMEOUT", "0.3")
        .output()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(code(&out), 124, "{out:?}");
    assert_eq!(error_json(&out)["error"], "TIMEOUT");

    let out = demo(&["--agent", "item", "list", "-n", "3", "--delay-ms", "200"])
        .env("PAS_TIMEOUT", "0")
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    assert_eq!(ndjson(&out).len(), 3);
}

#[test]
fn every_error_says_whether_to_retry_and_when() {
    // A handler's transient error: retryable, with its delay.
    let out = demo(&["--agent", "item", "list", "-n", "5", "--fail-at", "2"])
        .output()
        .unwrap();
    let error = error_json(&out);
    assert_eq!(error["retryable"], true);
    assert_eq!(error["retry_after_ms"], 250);
    // An argument error: the same call fails the same way.
    let out = demo(&["--agent", "item", "get"]).output().unwrap();
    let error = error_json(&out);
    assert_eq!(error["error"], "MISSING_ARGUMENT");
    assert_eq!(error["retryable"], false);
    assert!(error.get("retry_after_ms").is_none());
    // compose: in the error body.
    let out = spec_cli("specs/todo.yaml", &["no-such-command"])
        .output()
        .unwrap();
    let envelope = envelope(&out);
    assert_eq!(envelope["error"]["retryable"], false, "{envelope}");
}

#[test]
fn a_traced_call_echoes_the_trace_id_with_a_request_id_of_its_own() {
    let traced = || {
        demo(&["--agent", "item", "get"])
            .env("PAS_TRACE_ID", "trace-123")
            .output()
            .unwrap()
    };
    let (first, second) = (error_json(&traced()), error_json(&traced()));
    assert!(is_request_id(&first["request_id"]), "{first}");
    assert!(is_request_id(&second["request_id"]), "{second}");
    assert_ne!(first["request_id"], second["request_id"]);
    assert_eq!(second["trace_id"], "trace-123");
    // Untraced, the line is the same bytes for the same input (pas determinism).
    let untraced = error_json(&demo(&["--agent", "item", "get"]).output().unwrap());
    assert!(untraced.get("trace_id").is_none() && untraced.get("request_id").is_none());
    // The tool's own variable, when PAS_TRACE_ID is unset.
    let out = demo(&["--agent", "item", "get"])
        .env("DEMO_TRACE_ID", "own-7")
        .output()
        .unwrap();
    assert_eq!(error_json(&out)["trace_id"], "own-7");
}

#[test]
fn compose_meta_has_the_version_exit_code_cwd_and_ids() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path().canonicalize().unwrap();
    let out = spec_cli("specs/todo.yaml", &["tools"])
        .current_dir(&cwd)
        .env("TODO_TRACE_ID", "t-1")
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    let meta = envelope(&out)["meta"].clone();
    assert_eq!(meta["ok"], true, "{meta}");
    assert_eq!(meta["exitCode"], 0);
    assert_eq!(meta["version"], "0.4.1");
    assert!(is_request_id(&meta["requestId"]), "{meta}");
    assert_eq!(meta["traceId"], "t-1");
    assert_eq!(meta["cwd"], cwd.display().to_string());

    let out = spec_cli("specs/todo.yaml", &["no-such-command"])
        .current_dir(&cwd)
        .output()
        .unwrap();
    let envelope = envelope(&out);
    assert_eq!(envelope["ok"], false);
    assert_eq!(envelope["meta"]["ok"], false);
    assert_eq!(envelope["meta"]["exitCode"], code(&out), "{envelope}");
    assert_ne!(code(&out), 0);
    assert!(envelope["meta"].get("traceId").is_none());
}

/// A tool with a deprecated command, in the given profile.
fn deprecating_spec(dir: &Path, profile: &str) -> std::path::PathBuf {
    let spec = format!(
        r#"{{
  "specVersion": 1, "name": "old", "version": "1.2.3", "summary": "Keeps an old word.",
  "profile": "{profile}",
  "commands": [
    {{"name": "fetch", "description": "Fetch it.", "output": "object"}},
    {{"name": "get", "description": "Fetch it (old name).", "output": "object",
      "deprecated": {{"replacement": "fetch", "since": "1.2.0"}}}}
  ]
}}"#
    );
    let path = dir.join(format!("old-{profile}.json"));
    std::fs::write(&path, spec).unwrap();
    path
}

#[test]
fn a_deprecated_command_that_runs_says_so_in_every_profile() {
    let dir = tempfile::tempdir().unwrap();
    let run = |profile: &str, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"))
            .env("PAS_SPEC_CLI_SPEC", deprecating_spec(dir.path(), profile))
            .env_remove("PAS_AGENT")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    // pas, agent mode: one `{"warning":{...}}` line on stderr before anything else.
    let out = run("pas", &["--agent", "get"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let first: Value = serde_json::from_str(stderr.lines().next().unwrap()).unwrap();
    assert_eq!(first["warning"]["code"], "DEPRECATED", "{stderr}");
    assert!(
        first["warning"]["message"]
            .as_str()
            .unwrap()
            .contains("use `fetch`")
    );
    // pas, people: a `warning:` line.
    let out = run("pas", &["get"]);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .starts_with("warning: `get` is deprecated since 1.2.0")
    );
    // compose: `meta.warnings`, and the tool's version in `meta`.
    let out = run("compose", &["get"]);
    let meta = envelope(&out)["meta"].clone();
    assert_eq!(meta["warnings"][0]["code"], "DEPRECATED", "{meta}");
    assert_eq!(meta["version"], "1.2.3");
    // The current word warns of nothing.
    let out = run("compose", &["fetch"]);
    assert!(envelope(&out)["meta"].get("warnings").is_none());
}

#[test]
fn an_open_but_idle_stdin_is_an_error_not_a_hang() {
    let started = Instant::now();
    // The documented wait (10 s by default), shortened for the test.
    let mut child = demo(&["--agent", "ingest"])
        .env("PAS_STDIN_WAIT", "500")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Keep our end open and write nothing: an agent that forgot to close stdin.
    let held = child.stdin.take();
    let out = child.wait_with_output().unwrap();
    drop(held);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(code(&out), 2, "{out:?}");
    let error = error_json(&out);
    assert_eq!(error["error"], "MISSING_INPUT");
    assert!(
        error["suggestion"]
            .as_str()
            .unwrap()
            .contains("PAS_STDIN_WAIT")
    );

    // Input that arrives within the wait is read as usual.
    let mut child = demo(&["--agent", "ingest"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"a\nb\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 0);
    assert_eq!(
        serde_json::from_slice::<Value>(&out.stdout).unwrap()["lines"],
        2
    );
}

#[test]
fn a_paged_list_tells_where_the_next_page_is_on_stderr() {
    let out = demo(&["--agent", "item", "page"]).output().unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    assert_eq!(ndjson(&out).len(), 10);
    let page: Value = serde_json::from_slice(&out.stderr).expect("one JSON line on stderr");
    assert_eq!(page["page"]["has_more"], true);
    assert_eq!(page["page"]["next_cursor"], "10");
    assert_eq!(page["page"]["total"], 30);
    // The cursor gets the next page; the last page has no cursor.
    let out = demo(&["--agent", "item", "page", "--cursor", "20"])
        .output()
        .unwrap();
    assert_eq!(ndjson(&out)[0]["id"], 20);
    let page: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(page["page"]["has_more"], false);
    assert!(page["page"]["next_cursor"].is_null());
}

#[test]
fn resource_paths_spelt_as_urls_are_refused_and_no_other_path_is_offered() {
    for (path, pattern) in [
        ("/collections/acme%2Fwidgets", "percent_encoding"),
        ("/collections?name=books", "query_string"),
        ("/collections/books#top", "fragment"),
    ] {
        let out = spec_cli("specs/docstore.yaml", &["--agent", "cat", path])
            .output()
            .unwrap();
        assert_eq!(code(&out), 2, "{path}: {out:?}");
        let error = error_json(&out);
        assert_eq!(error["error"], "INVALID_ARGUMENT");
        assert_eq!(error["details"]["input"], path);
        assert_eq!(error["details"]["rejected_pattern"], pattern);
        // `/collections` is not what `/collections#x` names: no correction points elsewhere.
        assert!(error["details"].get("corrected_input").is_none(), "{error}");
    }
}

#[test]
fn declared_secrets_are_scrubbed_from_successful_output_too() {
    let secret = "s3cr3t-t0ken";
    // One object.
    let out = demo(&["--agent", "item", "get", "14"])
        .env("DEMO_TOKEN", secret)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        value["url"],
        "https://api.example/items/14?token=[REDACTED]"
    );
    // A stream, to a pipe and to a file.
    let out = demo(&["--agent", "item", "page"])
        .env("DEMO_TOKEN", secret)
        .output()
        .unwrap();
    let items = ndjson(&out);
    assert_eq!(items.len(), 10);
    assert!(!stdout(&out).contains(secret));
    assert_eq!(
        items[0]["via"],
        "https://api.example/items?token=[REDACTED]"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.ndjson");
    demo(&["--agent", "item", "page"])
        .env("DEMO_TOKEN", secret)
        .stdout(std::fs::File::create(&file).unwrap())
        .output()
        .unwrap();
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written.lines().count(), 10);
    assert!(!written.contains(secret) && written.contains("[REDACTED]"));
}

#[test]
fn sync_of_a_tree_that_lists_below_its_templates_fails_at_once() {
    // pas-spec-cli's resources list a directory `one` inside every directory: a tree without
    // end. Resource templates bound a spec'd tree's depth, so the walk fails at the first
    // directory no template has, promptly, naming it (a deeper or wider walk: SYMLINK_LOOP,
    // see the unit tests of `resources::sync`).
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = spec_cli(
        "specs/docstore.yaml",
        &[
            "--agent",
            "sync",
            "/collections/books",
            &dir.path().display().to_string(),
        ],
    )
    .output()
    .unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(code(&out), 2, "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let error: Value = serde_json::from_str(stderr.lines().last().unwrap()).unwrap();
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("/collections/books/one"),
        "{stderr}"
    );
}

#[test]
fn child_process_groups_end_with_the_call() {
    // A forgotten child: the call's normal end kills its group.
    let tag = unique_tag(3000);
    let out = demo(&["--agent", "spawn", "--tag", &tag, "--seconds", "0"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        processes_tagged(&tag).is_empty(),
        "helpers outlived the call"
    );

    // A call ended by SIGTERM while its child runs: the group ends too.
    let tag = unique_tag(3000);
    let child = demo(&["--agent", "spawn", "--tag", &tag, "--seconds", "30"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // The demo itself (its argv holds the tag), the shell and its two sleeps.
    while processes_tagged(&tag).len() < 4 && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(processes_tagged(&tag).len(), 4, "the helpers started");
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143));
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        processes_tagged(&tag).is_empty(),
        "helpers outlived the call"
    );
}

/// The offline weather tool (specs/weather.yaml, `pas` profile, a list with an output schema).
fn weather(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-mcp-weather"));
    cmd.env_remove("PAS_AGENT")
        .env("WEATHER_API_KEY", "k-test")
        .args(args)
        .stdin(Stdio::null());
    cmd
}

#[test]
fn fields_keep_only_the_named_fields_of_each_item_in_the_pas_profile() {
    // Failure mode 4: `--fields` in the pas profile, NDJSON and `--format=array` alike.
    let out = weather(&[
        "--agent", "forecast", "Boston", "--days", "2", "--fields", "date,low",
    ])
    .output()
    .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    let items = ndjson(&out);
    assert_eq!(items.len(), 2);
    for item in &items {
        let keys: Vec<&String> = item.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["date", "low"], "{item}");
    }
    let out = weather(&[
        "forecast",
        "Boston",
        "-d",
        "1",
        "--format=array",
        "--fields",
        "high",
    ])
    .output()
    .unwrap();
    let array: Value = serde_json::from_str(stdout(&out).trim_end()).unwrap();
    assert_eq!(array.as_array().unwrap().len(), 1);
    assert_eq!(array[0].as_object().unwrap().len(), 1, "{array}");
    assert!(array[0]["high"].is_number());

    // An unknown field is an argument error (exit 2) naming the known ones, before the handler.
    let out = weather(&["--agent", "forecast", "Boston", "--fields", "date,wind"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{out:?}");
    assert!(stdout(&out).is_empty());
    let error = error_json(&out);
    assert_eq!(error["error"], "INVALID_ARGUMENT");
    assert_eq!(error["details"]["unknown"], serde_json::json!(["wind"]));
    assert!(
        error["suggestion"]
            .as_str()
            .unwrap()
            .contains("date, high, low"),
        "{error}"
    );
    // A command with no list refuses it.
    let out = weather(&["--agent", "current", "Boston", "--fields", "x"])
        .output()
        .unwrap();
    assert_eq!(error_json(&out)["error"], "INVALID_ARGUMENT");
}

#[test]
fn a_paged_list_without_a_page_size_gets_a_default_of_100_in_every_face() {
    // Failure mode 5: a call that names no `--limit` still answers one bounded page.
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("paged.json");
    std::fs::write(
        &spec,
        r#"{"specVersion": 1, "name": "paged", "version": "1.0.0", "summary": "Pages.",
  "commands": [{"name": "item.list", "description": "List items.", "output": "list",
    "paging": {"limit": "limit", "cursor": "cursor"},
    "parameters": [{"name": "limit", "type": "integer", "description": "Page size."},
                   {"name": "cursor", "description": "Where the page starts."}]}]}"#,
    )
    .unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"))
            .env("PAS_SPEC_CLI_SPEC", &spec)
            .env_remove("PAS_AGENT")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let help = stdout(&run(&["--agent", "item", "list", "--help"]));
    assert!(help.contains("default 100"), "{help}");
    let catalog: Value = serde_json::from_str(&stdout(&run(&["--agent", "tools"]))).unwrap();
    let text = catalog.to_string();
    assert!(text.contains(r#""default":100"#), "{text}");
}

#[test]
fn the_pas_profile_gives_the_exit_code_version_and_ids_on_stderr_when_asked() {
    // Failure modes 56, 22 and 33 where PAS keeps stdout for data alone: `PAS_META=1` ends
    // every agent-mode call with one `{"meta":{...}}` line on stderr.
    let out = demo(&["--agent", "item", "list", "-n", "2"])
        .env("PAS_META", "1")
        .env("PAS_TRACE_ID", "trace-17")
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    assert_eq!(ndjson(&out).len(), 2, "stdout is the data alone");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let meta: Value = serde_json::from_str(stderr.trim_end()).expect("one meta line");
    let meta = &meta["meta"];
    assert_eq!(meta["ok"], true, "{meta}");
    assert_eq!(meta["exit_code"], 0);
    assert!(meta["version"].is_string(), "{meta}");
    assert!(is_request_id(&meta["request_id"]), "{meta}");
    assert_eq!(meta["trace_id"], "trace-17");
    assert!(meta["duration_ms"].is_u64());
    // A failure: the error line first (unchanged), then the meta line with its exit code.
    let out = demo(&["--agent", "item", "nope"])
        .env("PAS_META", "1")
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stderr)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0]["error"].is_string());
    assert_eq!(lines[1]["meta"]["ok"], false);
    assert_eq!(lines[1]["meta"]["exit_code"], code(&out));
    // Not asked: stderr stays empty on success (PAS 2.1.1 as checkers read it).
    let out = demo(&["--agent", "item", "list", "-n", "1"])
        .output()
        .unwrap();
    assert!(out.stderr.is_empty(), "{out:?}");
}

#[test]
fn print_schema_is_an_alias_of_the_spec_flag() {
    // Failure mode 21: `--print-schema`, as other tools spell it, prints the same manifest.
    let spec = demo(&["--pas-spec"]).output().unwrap();
    let alias = demo(&["--print-schema"]).output().unwrap();
    assert_eq!(code(&alias), 0, "{alias:?}");
    assert_eq!(alias.stdout, spec.stdout);
    let manifest: Value = serde_json::from_slice(&alias.stdout).unwrap();
    assert!(
        manifest["commands"]
            .as_array()
            .is_some_and(|c| !c.is_empty())
    );
}
