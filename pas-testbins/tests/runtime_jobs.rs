//! Async jobs (CLI Agent Spec failure mode 49): a command whose output is `job` answers a
//! typed descriptor at once and runs detached; the runtime's `job status ID` says the job's
//! state by a distinct exit code (0 succeeded, 75 running, 76 failed, 77 cancelled, 78 timed
//! out, 74 unknown id), `job cancel ID` ends it, and `--wait` runs it in the foreground, in
//! every profile. Each test keeps its jobs in a state directory of its own, and ends what it
//! started.

use std::path::PathBuf;
use std::process::Output;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/jobs");

/// One tool (a profile's fixture, or the derive-built one) with a state directory of its own.
struct Tool {
    state: tempfile::TempDir,
    spec: Option<&'static str>,
    derive: bool,
}

impl Tool {
    /// The spec-first `pas` tool (`include_spec!`).
    fn pas() -> Tool {
        Tool {
            state: tempfile::tempdir().unwrap(),
            spec: None,
            derive: false,
        }
    }

    /// The tool loaded at run time from a profile's fixture.
    fn profile(name: &'static str) -> Tool {
        Tool {
            state: tempfile::tempdir().unwrap(),
            spec: Some(name),
            derive: false,
        }
    }

    /// The derive-built tool (compose profile).
    fn derived() -> Tool {
        Tool {
            state: tempfile::tempdir().unwrap(),
            spec: None,
            derive: true,
        }
    }

    fn run(&self, args: &[&str]) -> Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-jobs-demo"));
        cmd.args(args)
            .env("XDG_STATE_HOME", self.state.path())
            .env_remove("PAS_AGENT")
            .env_remove("PAS_TIMEOUT")
            .env_remove("JOBS_DEMO_SPEC")
            .env_remove("JOBS_DEMO_DERIVE");
        if let Some(spec) = self.spec {
            cmd.env("JOBS_DEMO_SPEC", format!("{FIXTURES}/{spec}.yaml"));
        }
        if self.derive {
            cmd.env("JOBS_DEMO_DERIVE", "1");
        }
        cmd.timeout(Duration::from_secs(30)).output().unwrap()
    }

    fn jobs(&self) -> PathBuf {
        self.state.path().join("builder").join("jobs")
    }

    fn manifest(&self, id: &str) -> Value {
        let text = std::fs::read_to_string(self.jobs().join(id).join("manifest.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    /// Polls `status` (the argv before the id) until its exit code is not 75 (still running).
    fn poll(&self, before: &[&str], id: &str) -> Output {
        let started = Instant::now();
        loop {
            let mut args = before.to_vec();
            args.extend(["job", "status", id]);
            let out = self.run(&args);
            let running = self.running_code();
            if out.status.code() != Some(running) || started.elapsed() > Duration::from_secs(20) {
                return out;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn running_code(&self) -> i32 {
        if self.spec == Some("compose") || self.derive {
            1
        } else {
            75
        }
    }
}

impl Drop for Tool {
    /// Ends any job a failed assertion left running (through the tool's own cancel).
    fn drop(&mut self) {
        let Ok(entries) = std::fs::read_dir(self.jobs()) else {
            return;
        };
        for entry in entries.flatten() {
            let id = entry.file_name().to_string_lossy().into_owned();
            let _ = self.run(&["--agent", "job", "cancel", &id]);
        }
    }
}

fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(bytes)))
}

/// A marker no other process has, so a process found by it is one this test started.
fn marker(test: &str) -> String {
    format!("jobs-test-{test}-{}", std::process::id())
}

/// Whether `pid` is still the job process this test started (its argv holds `marker`; not a
/// zombie).
fn job_process_alive(pid: i64, marker: &str) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat[stat.rfind(')').unwrap() + 1..]
        .split_whitespace()
        .next()
        .unwrap_or("");
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    state != "Z" && String::from_utf8_lossy(&cmdline).contains(marker)
}

fn assert_descriptor(data: &Value, prefix: &str) -> String {
    let id = data["job_id"].as_str().expect("job_id").to_owned();
    assert!(id.starts_with("job-"), "{data}");
    assert_eq!(data["status"], "running", "{data}");
    assert_eq!(data["terminal"], false, "{data}");
    assert_eq!(
        data["status_command"],
        format!("{prefix} job status {id}"),
        "{data}"
    );
    assert_eq!(
        data["cancel_command"],
        format!("{prefix} job cancel {id}"),
        "{data}"
    );
    assert_eq!(data["poll_interval_ms"], 200, "{data}");
    assert_eq!(data["timeout_ms"], 60000, "{data}");
    let started = data["started_at"].as_str().expect("started_at");
    assert!(started.len() == 20 && started.ends_with('Z'), "{data}");
    id
}

/// The rubric's check: start a job, ask its status at once (the running code, not 0), then
/// again once it ended (0, with the result).
#[test]
fn a_started_job_is_running_then_succeeded_with_its_result() {
    let tool = Tool::pas();
    let started = tool.run(&["--agent", "build", "run", "--ms", "1500"]);
    assert_eq!(started.status.code(), Some(0));
    let id = assert_descriptor(&json(&started.stdout), "builder --agent");

    let now = tool.run(&["--agent", "job", "status", &id]);
    assert_eq!(now.status.code(), Some(75), "{now:?}");
    assert!(now.stdout.is_empty());
    let error = json(&now.stderr);
    assert_eq!(error["error"], "JOB_RUNNING", "{error}");
    assert_eq!(error["retryable"], true, "{error}");
    assert_eq!(error["retry_after_ms"], 200, "{error}");
    assert_eq!(error["details"]["status"], "running", "{error}");
    assert_eq!(error["details"]["terminal"], false, "{error}");

    let done = tool.poll(&["--agent"], &id);
    assert_eq!(done.status.code(), Some(0), "{done:?}");
    let data = json(&done.stdout);
    assert_eq!(data["status"], "succeeded", "{data}");
    assert_eq!(data["terminal"], true, "{data}");
    assert_eq!(
        data["result"],
        serde_json::json!({"built": true, "ms": 1500}),
        "{data}"
    );
    assert!(data["ended_at"].is_string(), "{data}");

    let manifest = tool.manifest(&id);
    assert_eq!(manifest["command"], "build.run");
    assert!(
        manifest["pid"].is_i64() && manifest["pid_start"].is_u64(),
        "{manifest}"
    );
}

#[test]
fn a_failing_job_ends_failed_with_the_handlers_error() {
    let tool = Tool::pas();
    let started = tool.run(&["--agent", "build", "run", "--ms", "100", "--fail"]);
    let id = json(&started.stdout)["job_id"].as_str().unwrap().to_owned();
    let out = tool.poll(&["--agent"], &id);
    assert_eq!(out.status.code(), Some(76), "{out:?}");
    let error = json(&out.stderr);
    assert_eq!(error["error"], "JOB_FAILED");
    assert_eq!(error["retryable"], false);
    assert_eq!(error["details"]["status"], "failed");
    assert_eq!(error["details"]["terminal"], true);
    assert_eq!(error["details"]["error"]["code"], "BUILD_FAILED", "{error}");
    assert_eq!(
        error["details"]["error"]["suggestion"], "drop --fail",
        "{error}"
    );
}

#[test]
fn cancel_ends_the_jobs_process_and_status_says_cancelled() {
    let tool = Tool::pas();
    let marker = marker("cancel");
    let started = tool.run(&[
        "--agent", "build", "run", "--ms", "20000", "--marker", &marker,
    ]);
    let id = json(&started.stdout)["job_id"].as_str().unwrap().to_owned();
    let pid = tool.manifest(&id)["pid"].as_i64().unwrap();
    assert!(job_process_alive(pid, &marker), "the job runs as pid {pid}");

    let cancelled = tool.run(&["--agent", "job", "cancel", &id]);
    assert_eq!(cancelled.status.code(), Some(0), "{cancelled:?}");
    let data = json(&cancelled.stdout);
    assert_eq!(
        (data["status"].as_str(), data["cancelled"].as_bool()),
        (Some("cancelled"), Some(true))
    );
    assert!(!job_process_alive(pid, &marker), "pid {pid} still runs");

    let status = tool.run(&["--agent", "job", "status", &id]);
    assert_eq!(status.status.code(), Some(77), "{status:?}");
    assert_eq!(json(&status.stderr)["error"], "JOB_CANCELLED");

    // Cancelling a finished job changes nothing, and says so.
    let again = tool.run(&["--agent", "job", "cancel", &id]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(json(&again.stdout)["cancelled"], false);
}

#[test]
fn a_job_past_its_time_limit_is_ended_and_timed_out() {
    let tool = Tool::pas();
    let marker = marker("timeout");
    let started = tool.run(&[
        "--agent", "build", "quick", "--ms", "20000", "--marker", &marker,
    ]);
    let id = json(&started.stdout)["job_id"].as_str().unwrap().to_owned();
    assert_eq!(json(&started.stdout)["timeout_ms"], 300);
    let pid = tool.manifest(&id)["pid"].as_i64().unwrap();
    let out = tool.poll(&["--agent"], &id);
    assert_eq!(out.status.code(), Some(78), "{out:?}");
    let error = json(&out.stderr);
    assert_eq!(error["details"]["status"], "timed_out", "{error}");
    std::thread::sleep(Duration::from_millis(100));
    assert!(!job_process_alive(pid, &marker), "pid {pid} still runs");
}

#[test]
fn a_job_whose_process_vanished_is_failed_as_lost() {
    let tool = Tool::pas();
    let marker = marker("lost");
    let started = tool.run(&[
        "--agent", "build", "run", "--ms", "20000", "--marker", &marker,
    ]);
    let id = json(&started.stdout)["job_id"].as_str().unwrap().to_owned();
    let pid = tool.manifest(&id)["pid"].as_i64().unwrap();
    assert!(job_process_alive(pid, &marker));
    // The job this test started (its argv holds the marker) is killed from outside.
    std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    let started = Instant::now();
    while job_process_alive(pid, &marker) && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = tool.run(&["--agent", "job", "status", &id]);
    assert_eq!(out.status.code(), Some(76), "{out:?}");
    assert_eq!(json(&out.stderr)["details"]["error"]["code"], "JOB_LOST");
}

#[test]
fn unknown_malformed_and_corrupt_ids_are_structured_errors() {
    let tool = Tool::pas();
    for id in ["job-aaaaaaaaaaaa", "../../etc/passwd", ""] {
        let out = tool.run(&["--agent", "job", "status", id]);
        assert_eq!(out.status.code(), Some(74), "{id}: {out:?}");
        assert_eq!(json(&out.stderr)["error"], "JOB_NOT_FOUND", "{id}");
        let out = tool.run(&["--agent", "job", "cancel", id]);
        assert_eq!(out.status.code(), Some(74), "{id}: {out:?}");
    }
    let dir = tool.jobs().join("job-bbbbbbbbbbbb");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("manifest.json"), "{not json").unwrap();
    let out = tool.run(&["--agent", "job", "status", "job-bbbbbbbbbbbb"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let error = json(&out.stderr);
    let file = dir.join("manifest.json");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains(&file.display().to_string()),
        "{error}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "{not json",
        "never rewritten"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wait_runs_the_job_in_the_foreground() {
    let tool = Tool::pas();
    let out = tool.run(&["--agent", "build", "run", "--ms", "50", "--wait"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        json(&out.stdout),
        serde_json::json!({"built": true, "ms": 50})
    );
    let out = tool.run(&["--agent", "build", "run", "--wait", "--fail"]);
    assert_eq!(out.status.code(), Some(100), "{out:?}");
    assert_eq!(json(&out.stderr)["error"], "BUILD_FAILED");
    assert!(!tool.jobs().exists(), "--wait records no job");
}

#[test]
fn job_list_lists_every_job_with_its_status() {
    let tool = Tool::pas();
    let empty = tool.run(&["--agent", "job", "list"]);
    assert_eq!(empty.status.code(), Some(0));
    assert!(empty.stdout.is_empty());
    let mut ids = Vec::new();
    for _ in 0..2 {
        let out = tool.run(&["--agent", "build", "run", "--ms", "10"]);
        ids.push(json(&out.stdout)["job_id"].as_str().unwrap().to_owned());
    }
    for id in &ids {
        assert_eq!(tool.poll(&["--agent"], id).status.code(), Some(0));
    }
    let out = tool.run(&["--agent", "job", "list"]);
    let listed: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| json(l.as_bytes()))
        .collect();
    let mut got: Vec<&str> = listed
        .iter()
        .map(|j| j["job_id"].as_str().unwrap())
        .collect();
    got.sort_unstable();
    ids.sort();
    assert_eq!(got, ids);
    assert!(listed.iter().all(|j| j["status"] == "succeeded"));
}

#[test]
fn compose_envelopes_carry_the_descriptor_and_the_state() {
    let tool = Tool::profile("compose");
    let started = tool.run(&["build", "run", "--ms", "1000"]);
    assert_eq!(started.status.code(), Some(0));
    let envelope = json(&started.stdout);
    assert_eq!(envelope["ok"], true);
    let id = assert_descriptor(&envelope["data"], "builder");
    let now = tool.run(&["job", "status", &id]);
    // compose keeps exit 1 for every failure: the state is error.code.
    assert_eq!(now.status.code(), Some(1));
    let envelope = json(&now.stdout);
    assert_eq!(envelope["error"]["code"], "JOB_RUNNING", "{envelope}");
    assert_eq!(envelope["error"]["retryable"], true, "{envelope}");
    assert_eq!(envelope["error"]["retryAfterMs"], 200, "{envelope}");
    assert_eq!(
        envelope["error"]["details"]["terminal"], false,
        "{envelope}"
    );
    let done = tool.poll(&[], &id);
    assert_eq!(done.status.code(), Some(0));
    let envelope = json(&done.stdout);
    assert_eq!(envelope["data"]["result"]["built"], true, "{envelope}");
    assert_eq!(envelope["meta"]["tool"], "job.status", "{envelope}");
}

#[test]
fn robot_envelopes_carry_the_descriptor_and_the_job_exit_codes() {
    let tool = Tool::profile("robot");
    let started = tool.run(&["build", "run", "--ms", "1000"]);
    assert_eq!(started.status.code(), Some(0));
    let envelope = json(&started.stdout);
    assert_eq!(envelope["status"], "success");
    let id = assert_descriptor(&envelope["data"], "builder --agent");
    let now = tool.run(&["job", "status", &id]);
    assert_eq!(now.status.code(), Some(75), "{now:?}");
    let envelope = json(&now.stdout);
    assert_eq!(envelope["error"]["code"], "JOB_RUNNING", "{envelope}");
    assert_eq!(envelope["error"]["recoverable"], true, "{envelope}");
    assert_eq!(envelope["error"]["retry_after_ms"], 200, "{envelope}");
    let done = tool.poll(&[], &id);
    assert_eq!(done.status.code(), Some(0));
    assert_eq!(json(&done.stdout)["data"]["status"], "succeeded");
    let unknown = tool.run(&["job", "status", "job-aaaaaaaaaaaa"]);
    assert_eq!(unknown.status.code(), Some(74));
}

#[test]
fn a_derive_built_job_command_runs_as_a_job() {
    let tool = Tool::derived();
    let started = tool.run(&["build", "--ms", "300"]);
    assert_eq!(started.status.code(), Some(0), "{started:?}");
    let id = assert_descriptor(&json(&started.stdout)["data"], "builder");
    let done = tool.poll(&[], &id);
    assert_eq!(done.status.code(), Some(0));
    assert_eq!(
        json(&done.stdout)["data"]["result"],
        serde_json::json!({"built": true, "ms": 300})
    );
}

#[test]
fn the_job_words_exist_only_where_a_job_command_does() {
    let tool = Tool::pas();
    let help = tool.run(&["--agent", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("builder job status|cancel ID, list"),
        "{help}"
    );
    assert!(help.contains("75  `job status`: still running"), "{help}");
    let one = tool.run(&["--agent", "build", "run", "--help"]);
    assert!(
        String::from_utf8_lossy(&one.stdout).contains("--wait"),
        "{one:?}"
    );
    // A tool without job commands has no `job` word.
    let plain = Command::new(env!("CARGO_BIN_EXE_pas-limits-demo"))
        .args(["--agent", "job", "list"])
        .env_remove("PAS_AGENT")
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(2), "{plain:?}");
}

/// The conformance engine's fm49.job_status (`--validate-pas`, the same checks as `pas-gen
/// conform`) passes on the job tool in every profile.
#[test]
fn conform_s_job_status_check_passes_in_every_profile() {
    for tool in [
        Tool::pas(),
        Tool::profile("compose"),
        Tool::profile("robot"),
    ] {
        let out = tool.run(&["--validate-pas"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("✓ fm49.job_status"), "{text}");
        assert_eq!(out.status.code(), Some(0), "{text}");
    }
}

/// Over MCP a job command runs to its end (as with `--wait`): the call's structured content is
/// the job's result, and no job is recorded (MCP has its own progress and cancellation).
#[test]
fn over_mcp_a_job_command_answers_its_result() {
    use std::io::{BufRead, BufReader, Write};
    let tool = Tool::pas();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pas-jobs-demo"))
        .arg("mcp")
        .env("XDG_STATE_HOME", tool.state.path())
        .env_remove("PAS_AGENT")
        .env_remove("JOBS_DEMO_SPEC")
        .env_remove("JOBS_DEMO_DERIVE")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let messages = [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "build_run", "arguments": {"ms": 100}}}),
    ];
    for message in messages {
        writeln!(stdin, "{message}").unwrap();
    }
    stdin.flush().unwrap();
    let mut answer = Value::Null;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let message = json(line.unwrap().as_bytes());
        if message["id"] == 2 {
            answer = message;
            break;
        }
    }
    drop(stdin);
    let _ = child.wait();
    assert_ne!(answer["result"]["isError"], true, "{answer}");
    assert_eq!(
        answer["result"]["structuredContent"],
        serde_json::json!({"built": true, "ms": 100}),
        "{answer}"
    );
    assert!(!tool.jobs().exists(), "no job recorded over MCP");
}

/// A handler's progress (`ctx.progress`) reaches `job status` as `progress_pct` while the job
/// runs.
#[test]
fn a_running_job_reports_the_handlers_progress() {
    let tool = Tool::pas();
    let started = tool.run(&["--agent", "build", "run", "--ms", "3000"]);
    let id = json(&started.stdout)["job_id"].as_str().unwrap().to_owned();
    let begun = Instant::now();
    let mut seen = None;
    while begun.elapsed() < Duration::from_secs(10) {
        let out = tool.run(&["--agent", "job", "status", &id]);
        if out.status.code() != Some(75) {
            break;
        }
        let pct = json(&out.stderr)["details"]["progress_pct"].as_f64();
        if let Some(pct) = pct.filter(|p| *p > 0.0 && *p < 100.0) {
            seen = Some(pct);
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(seen.is_some(), "no progress_pct while the job ran");
    assert_eq!(tool.poll(&["--agent"], &id).status.code(), Some(0));
}

/// A job that ended more than seven days ago is removed when another starts: its id is then
/// JOB_NOT_FOUND (expired), while a recent one stays.
#[test]
fn finished_jobs_expire_after_seven_days() {
    let tool = Tool::pas();
    let first = tool.run(&["--agent", "build", "run", "--wait"]);
    assert_eq!(first.status.code(), Some(0));
    let started = tool.run(&["--agent", "build", "run", "--ms", "10"]);
    let recent = json(&started.stdout)["job_id"].as_str().unwrap().to_owned();
    assert_eq!(tool.poll(&["--agent"], &recent).status.code(), Some(0));
    // The same job, as if it had run eight days ago.
    let old = "job-oooooooooooo";
    let mut manifest = tool.manifest(&recent);
    manifest["id"] = old.into();
    manifest["started_ms"] =
        (manifest["started_ms"].as_u64().unwrap() - 8 * 24 * 3600 * 1000).into();
    std::fs::create_dir_all(tool.jobs().join(old)).unwrap();
    std::fs::write(
        tool.jobs().join(old).join("manifest.json"),
        manifest.to_string(),
    )
    .unwrap();
    assert_eq!(
        tool.run(&["--agent", "job", "status", old]).status.code(),
        Some(0),
        "kept until another job starts"
    );
    let _ = tool.run(&["--agent", "build", "run", "--ms", "10"]);
    assert_eq!(
        tool.run(&["--agent", "job", "status", old]).status.code(),
        Some(74)
    );
    assert_eq!(
        tool.run(&["--agent", "job", "status", &recent])
            .status
            .code(),
        Some(0)
    );
}
