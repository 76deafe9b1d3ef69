//! MCP Tasks are pas jobs (issue 31, item 2; SEP-2663, the `io.modelcontextprotocol/tasks`
//! extension). A client that takes tasks gets a job command's call back as a task whose id is
//! the job id; `TOOL job status ID` and `tasks/get` follow the same job to the same outcome,
//! whichever side started it and after the client went away; `tasks/cancel` is `job cancel`.
//! A client that takes no tasks (or a call with `wait: true`) gets the result in the call, as
//! before. Driven over stdio with a raw JSON-RPC peer and over HTTP by two servers sharing one
//! job store, against the job example `pas-jobs-demo` (`tests/fixtures/jobs/pas.yaml`).

#[path = "../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use mcp_support::{HttpServer, Session, mcp_post};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_pas-jobs-demo");
const TASKS: &str = "io.modelcontextprotocol/tasks";

/// One job store (a state directory of the test's own) shared by the CLI and the servers.
struct Store {
    state: tempfile::TempDir,
}

impl Store {
    fn new() -> Store {
        Store {
            state: tempfile::tempdir().unwrap(),
        }
    }

    fn command(&self) -> Command {
        let mut command = Command::new(BIN);
        command
            .env("XDG_STATE_HOME", self.state.path())
            .env_remove("PAS_AGENT")
            .env_remove("PAS_TIMEOUT")
            .env_remove("JOBS_DEMO_SPEC")
            .env_remove("JOBS_DEMO_DERIVE");
        command
    }

    fn cli(&self, args: &[&str]) -> Output {
        let mut command = self.command();
        command.args(args);
        command.output().unwrap()
    }

    /// `job status ID` until it no longer says running (exit 75).
    fn poll_cli(&self, id: &str) -> Output {
        let started = Instant::now();
        loop {
            let out = self.cli(&["--agent", "job", "status", id]);
            if out.status.code() != Some(75) || started.elapsed() > Duration::from_secs(30) {
                return out;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A stdio session whose client takes tasks (declared at `initialize`).
    fn tasks_session(&self) -> Session {
        Session::spawn_declaring(
            self.command(),
            &[],
            "2025-11-25",
            json!({"extensions": {TASKS: {}}}),
        )
    }

    /// A stdio session whose client declares nothing.
    fn plain_session(&self) -> Session {
        Session::spawn_declaring(self.command(), &[], "2025-11-25", json!({}))
    }

    fn manifest(&self, id: &str) -> Value {
        let path = self
            .state
            .path()
            .join("builder/jobs")
            .join(id)
            .join("manifest.json");
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }
}

impl Drop for Store {
    /// Ends any job a failed assertion left running (through the tool's own cancel).
    fn drop(&mut self) {
        let Ok(entries) = std::fs::read_dir(self.state.path().join("builder/jobs")) else {
            return;
        };
        for entry in entries.flatten() {
            let id = entry.file_name().to_string_lossy().into_owned();
            let _ = self.cli(&["--agent", "job", "cancel", &id]);
        }
    }
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(bytes)))
}

/// `tasks/get` until the task's status is terminal.
fn poll_task(session: &mut Session, id: &str) -> Value {
    let started = Instant::now();
    loop {
        let answer = session.request("tasks/get", json!({"taskId": id}));
        let task = answer["result"].clone();
        assert!(task.is_object(), "tasks/get {id}: {answer}");
        let terminal =
            ["completed", "failed", "cancelled"].contains(&task["status"].as_str().unwrap_or(""));
        if terminal || started.elapsed() > Duration::from_secs(30) {
            return task;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The task a `tools/call` created (asserting its shape) and its id.
fn created(answer: &Value) -> String {
    let task = &answer["result"];
    assert_eq!(task["resultType"], "task", "{answer}");
    assert_eq!(task["status"], "working", "{answer}");
    let id = task["taskId"].as_str().expect("taskId").to_owned();
    assert!(
        id.starts_with("job-") && id.len() == 16,
        "the task id is a job id: {id}"
    );
    for field in ["createdAt", "lastUpdatedAt"] {
        assert!(
            task[field].as_str().is_some_and(|t| t.ends_with('Z')),
            "{field}: {answer}"
        );
    }
    assert_eq!(task["ttlMs"], 7 * 24 * 3600 * 1000, "{answer}");
    for absent in ["result", "error", "content", "structuredContent"] {
        assert!(
            task.get(absent).is_none(),
            "a new task carries no {absent}: {answer}"
        );
    }
    let job = &task["_meta"]["pas-kit/job"];
    assert_eq!(job["job_id"], id.as_str(), "{answer}");
    assert!(
        job["status_command"]
            .as_str()
            .unwrap()
            .ends_with(&format!("job status {id}")),
        "{answer}"
    );
    id
}

/// A job started over MCP is a task; the client goes away at once (as after its own timeout),
/// the job runs on, `job status` follows it to its result, and a later session's `tasks/get`
/// inlines the very result a call that took no task gets.
#[test]
fn a_job_started_over_mcp_is_a_task_the_cli_follows_to_its_end() {
    let store = Store::new();
    let mut session = store.tasks_session();
    let answer = session.request(
        "tools/call",
        json!({"name": "build_run", "arguments": {"ms": 600}}),
    );
    let id = created(&answer);
    assert_eq!(
        answer["result"]["pollIntervalMs"], 200,
        "the job's poll interval: {answer}"
    );
    session.end();

    let out = store.poll_cli(&id);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let status = json_of(&out.stdout);
    assert_eq!(
        status["result"],
        json!({"built": true, "ms": 600}),
        "{status}"
    );

    let mut later = store.tasks_session();
    let task = poll_task(&mut later, &id);
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(task["taskId"], id.as_str());
    assert_eq!(
        task["result"]["structuredContent"], status["result"],
        "{task}"
    );
    later.end();
    let mut plain = store.plain_session();
    let in_the_call = plain.call("build_run", json!({"ms": 600}));
    assert_eq!(
        task["result"], in_the_call,
        "the task's result is the call's"
    );
    plain.end();
}

/// A job started on the command line is read through `tasks/get`: working (with the handler's
/// progress) while it runs, then completed with the result `job status` gives.
#[test]
fn a_job_started_on_the_cli_is_read_through_tasks_get() {
    let store = Store::new();
    let started = store.cli(&["--agent", "build", "run", "--ms", "2000"]);
    assert_eq!(started.status.code(), Some(0), "{started:?}");
    let id = json_of(&started.stdout)["job_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut session = store.tasks_session();
    let first = session.request("tasks/get", json!({"taskId": id}));
    assert_eq!(first["result"]["status"], "working", "{first}");
    assert_eq!(first["result"]["taskId"], id.as_str(), "{first}");
    // The handler's progress (ctx.progress) reaches both: `job status` and tasks/get.
    let until = Instant::now() + Duration::from_secs(20);
    let mut seen = None;
    while Instant::now() < until {
        let task = session.request("tasks/get", json!({"taskId": id}))["result"].clone();
        let message = task["statusMessage"].as_str().unwrap_or("").to_owned();
        if task["status"] != "working" {
            break;
        }
        if message.ends_with("% done") {
            seen = Some(message);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let message = seen.expect("tasks/get says the job's progress while it runs");
    assert!(message.starts_with("running, "), "{message}");
    let out = store.poll_cli(&id);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let status = json_of(&out.stdout);
    assert_eq!(status["progress_pct"], 100.0, "{status}");
    let task = poll_task(&mut session, &id);
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(
        task["result"]["structuredContent"], status["result"],
        "{task}"
    );
    assert_eq!(task["lastUpdatedAt"], status["ended_at"], "{task}");
    session.end();
}

/// A handler's error is the tool's error, not the protocol's: the task completes with the
/// `isError` result the call would have had (code, hint, exit code), and `job status` says
/// JOB_FAILED (76) with the same error. A job past its time limit completes with
/// JOB_TIMED_OUT.
#[test]
fn a_failed_or_timed_out_job_is_a_completed_task_with_the_calls_error() {
    let store = Store::new();
    let mut session = store.tasks_session();
    let answer = session.request(
        "tools/call",
        json!({"name": "build_run", "arguments": {"ms": 50, "fail": true}}),
    );
    let id = created(&answer);
    let task = poll_task(&mut session, &id);
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(task["result"]["isError"], true, "{task}");
    assert!(
        task.get("error").is_none(),
        "a tool error is no protocol error: {task}"
    );
    let mut plain = store.plain_session();
    let in_the_call = plain.call("build_run", json!({"ms": 50, "fail": true}));
    assert_eq!(
        task["result"], in_the_call,
        "the task's error is the call's"
    );
    let error = mcp_support::as_envelope(&task["result"]);
    assert_eq!(error["error"]["code"], "BUILD_FAILED", "{error}");
    let out = store.cli(&["--agent", "job", "status", &id]);
    assert_eq!(out.status.code(), Some(76), "{out:?}");
    assert_eq!(
        json_of(&out.stderr)["details"]["error"]["code"],
        "BUILD_FAILED"
    );

    let answer = session.request(
        "tools/call",
        json!({"name": "build_quick", "arguments": {"ms": 5000}}),
    );
    let id = created(&answer);
    let task = poll_task(&mut session, &id);
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(task["result"]["isError"], true, "{task}");
    let error = mcp_support::as_envelope(&task["result"]);
    assert_eq!(error["error"]["code"], "JOB_TIMED_OUT", "{task}");
    let out = store.cli(&["--agent", "job", "status", &id]);
    assert_eq!(out.status.code(), Some(78), "{out:?}");
    plain.end();
    session.end();
}

/// `tasks/cancel` is `job cancel`: an empty acknowledgement, the job's process ends, the task
/// and `job status` say cancelled (77); a second cancel of the ended task is the same empty
/// acknowledgement.
#[test]
fn tasks_cancel_is_job_cancel() {
    let store = Store::new();
    let marker = format!("tasks-cancel-{}", std::process::id());
    let mut session = store.tasks_session();
    let answer = session.request(
        "tools/call",
        json!({"name": "build_run", "arguments": {"ms": 30000, "marker": marker}}),
    );
    let id = created(&answer);
    let pid = store.manifest(&id)["pid"].as_i64().expect("the run's pid");
    for _ in 0..2 {
        let ack = session.request("tasks/cancel", json!({"taskId": id}));
        let result = ack["result"].as_object().unwrap_or_else(|| panic!("{ack}"));
        assert!(
            result.keys().all(|k| k == "resultType" || k == "_meta"),
            "an empty acknowledgement: {ack}"
        );
    }
    let task = session.request("tasks/get", json!({"taskId": id}))["result"].clone();
    assert_eq!(task["status"], "cancelled", "{task}");
    let out = store.cli(&["--agent", "job", "status", &id]);
    assert_eq!(out.status.code(), Some(77), "{out:?}");
    let gone = |pid: i64| {
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let zombie = stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z'));
        zombie || !String::from_utf8_lossy(&cmdline).contains(&marker)
    };
    let until = Instant::now() + Duration::from_secs(5);
    while !gone(pid) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(gone(pid), "the job's process ended");
    session.end();
}

/// A job whose process vanished is a protocol-level failure: `failed`, with JSON-RPC's
/// internal error and the job's JOB_LOST as its data.
#[test]
fn a_job_whose_process_vanished_is_a_failed_task() {
    let store = Store::new();
    let marker = format!("tasks-lost-{}", std::process::id());
    let mut session = store.tasks_session();
    let answer = session.request(
        "tools/call",
        json!({"name": "build_run", "arguments": {"ms": 30000, "marker": marker}}),
    );
    let id = created(&answer);
    let pid = store.manifest(&id)["pid"].as_i64().expect("the run's pid");
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    assert!(
        String::from_utf8_lossy(&cmdline).contains(&marker),
        "the job this test started"
    );
    // The job this test started (its argv holds the marker) is killed from outside.
    Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    let task = poll_task(&mut session, &id);
    assert_eq!(task["status"], "failed", "{task}");
    assert_eq!(task["error"]["code"], -32603, "{task}");
    assert_eq!(task["error"]["data"]["code"], "JOB_LOST", "{task}");
    assert!(task.get("result").is_none(), "{task}");
    session.end();
}

/// A client that takes no tasks gets the job's result in the call (and `tasks/*` answer it
/// -32021, the capability it did not declare); one that takes tasks may still ask for the
/// result in the call with `wait: true`. An unknown task id is -32602.
#[test]
fn a_client_that_takes_no_tasks_gets_the_result_in_the_call() {
    let store = Store::new();
    let mut plain = store.plain_session();
    let result = plain.call("build_run", json!({"ms": 10}));
    assert_eq!(
        result["structuredContent"],
        json!({"built": true, "ms": 10}),
        "{result}"
    );
    assert!(result.get("taskId").is_none(), "{result}");
    let refused = plain.request("tasks/get", json!({"taskId": "job-aaaaaaaaaaaa"}));
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    plain.end();

    let mut session = store.tasks_session();
    let result = session.call("build_run", json!({"ms": 10, "wait": true}));
    assert_eq!(
        result["structuredContent"],
        json!({"built": true, "ms": 10}),
        "{result}"
    );
    for id in ["job-aaaaaaaaaaaa", "not-a-job", "../../etc"] {
        let unknown = session.request("tasks/get", json!({"taskId": id}));
        assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
        let unknown = session.request("tasks/cancel", json!({"taskId": id}));
        assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    }
    session.end();
    // The calls that ran in the call recorded no job.
    let listed = store.cli(&["--agent", "job", "list"]);
    assert_eq!(
        String::from_utf8_lossy(&listed.stdout).trim(),
        "",
        "{listed:?}"
    );
}

/// Over HTTP at 2026-07-28, a client opts in per request (`_meta` clientCapabilities), and two
/// servers sharing one job store serve one client: the task created through one is followed
/// through the other, and through `job status`.
#[test]
fn over_http_a_task_created_on_one_server_is_followed_on_another() {
    let store = Store::new();
    let state = store.state.path().to_str().unwrap();
    let env = [("XDG_STATE_HOME", state)];
    let a = HttpServer::start(Path::new(BIN), &[], &env);
    let b = HttpServer::start(Path::new(BIN), &[], &env);
    let request = |server: &HttpServer, id: i64, method: &str, params: Value, name: &str| {
        let mut params = params;
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS: {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "balanced", "version": "1"},
        });
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let headers = [
            "MCP-Protocol-Version: 2026-07-28".to_owned(),
            format!("Mcp-Method: {method}"),
            format!("Mcp-Name: {name}"),
        ];
        let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
        mcp_post(server.authority(), &message, &headers).json()
    };
    let answer = request(
        &a,
        1,
        "tools/call",
        json!({"name": "build_run", "arguments": {"ms": 300}}),
        "build_run",
    );
    let id = created(&answer);
    let until = Instant::now() + Duration::from_secs(30);
    let task = loop {
        let answer = request(&b, 2, "tasks/get", json!({"taskId": id}), &id);
        let task = answer["result"].clone();
        assert!(task.is_object(), "{answer}");
        if task["status"] != "working" || Instant::now() > until {
            break task;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(
        task["result"]["structuredContent"],
        json!({"built": true, "ms": 300})
    );
    let out = store.poll_cli(&id);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let ack = request(&a, 3, "tasks/cancel", json!({"taskId": id}), &id);
    assert!(
        ack["error"].is_null(),
        "cancelling an ended task is acknowledged: {ack}"
    );
}

/// A handler that panics in a job's detached run is recorded as the tool's INTERNAL_ERROR (the
/// panic's message), not as a process that vanished; the task completes with the `isError`
/// result the same call gives in the session.
#[test]
fn a_panicking_job_records_its_internal_error() {
    let state = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_pas-mcp-fixtures");
    let command = || {
        let mut command = Command::new(bin);
        command
            .env("XDG_STATE_HOME", state.path())
            .env_remove("PAS_AGENT");
        command
    };
    let started = command()
        .args(["--agent", "protocol", "error", "job"])
        .output()
        .unwrap();
    let id = json_of(&started.stdout)["job_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let until = Instant::now() + Duration::from_secs(20);
    let out = loop {
        let out = command()
            .args(["--agent", "job", "status", &id])
            .output()
            .unwrap();
        if out.status.code() != Some(75) || Instant::now() > until {
            break out;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(out.status.code(), Some(76), "{out:?}");
    let error = &json_of(&out.stderr)["details"]["error"];
    assert_eq!(error["code"], "INTERNAL_ERROR", "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("the fixture job panics"),
        "{error}"
    );
    let mut session = Session::spawn_declaring(
        command(),
        &[],
        "2025-11-25",
        json!({"extensions": {TASKS: {}}}),
    );
    let task = poll_task(&mut session, &id);
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(task["result"]["isError"], true, "{task}");
    session.end();
    let mut plain = Session::spawn_declaring(command(), &[], "2025-11-25", json!({}));
    let in_the_call = plain.call("protocol_error_job", json!({}));
    let (task_error, call_error) = (
        mcp_support::as_envelope(&task["result"]),
        mcp_support::as_envelope(&in_the_call),
    );
    assert_eq!(task_error["error"]["code"], "INTERNAL_ERROR", "{task}");
    assert_eq!(task_error, call_error, "the task's error is the call's");
    plain.end();
}

/// Both official SDKs (which take no tasks) drive the job example over stdio and over HTTP:
/// a job command's call answers its result, or its error, in the call.
#[test]
fn the_job_example_through_both_sdks() {
    let state = tempfile::tempdir().unwrap();
    let mut plan = mcp_support::plan(
        Path::new(BIN),
        "builder",
        json!({"XDG_STATE_HOME": state.path()}),
    );
    plan["calls"] = json!([
        mcp_support::call("build_run", json!({"ms": 50}), None),
        mcp_support::call("build_quick", json!({"ms": 10}), None),
        mcp_support::call(
            "build_run",
            json!({"ms": 10, "fail": true}),
            Some("BUILD_FAILED")
        ),
        mcp_support::call("build_run", json!({"ms": "soon"}), Some("INVALID_ARGUMENT")),
        mcp_support::call("build_run", json!({"ms": 10, "wait": true}), None),
    ]);
    mcp_support::run_clients(&plan);
    mcp_support::run_clients_over_http(&plan);
    // The calls ran in the call: no job was recorded.
    assert!(!state.path().join("builder/jobs").exists());
}
