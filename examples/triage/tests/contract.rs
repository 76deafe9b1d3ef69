//! triage keeps the robot contract end to end. Every process these tests match or signal is a
//! `sleep` they spawned themselves with a unique marker (see `support`); nothing else is touched.

mod support;

use serde_json::{Value, json};
use support::{Marked, envelope_of, eventually, manifest, run, session_of, triage, write_manifest};
use tempfile::TempDir;

fn plan(home: &std::path::Path, pattern: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["plan", "--match", pattern, "--min-age", "0"];
    args.extend_from_slice(extra);
    run(home, &args)
}

#[test]
fn argument_errors_exit_10_in_an_envelope() {
    let home = TempDir::new().unwrap();
    for args in [
        &["plan"][..],                                     // --match missing
        &["plan", "--match", ""][..],                      // an empty scope
        &["plan", "--match", "x", "--min-age", "abc"][..], // a wrong type
        &["plan", "--bogus"][..],                          // an unknown flag
        &[][..],                                           // a missing subcommand
        &["snapshot", "--match", "("][..],                 // not a regular expression
    ] {
        let (code, value) = run(home.path(), args);
        assert_eq!(code, 10, "{args:?}: {value}");
        assert_eq!(value["status"], "error");
        assert_eq!(value["error"]["code"], "ERR_ARGS", "{args:?}");
        assert_eq!(value["error"]["recoverable"], true);
    }
}

#[test]
fn success_codes_0_1_2_and_plan_apply_verify() {
    let home = TempDir::new().unwrap();
    let (code, value) = plan(home.path(), "^no process has this command line 42$", &[]);
    assert_eq!(
        (code, &value["status"]),
        (0, &json!("success")),
        "OK_CLEAN: {value}"
    );

    let target = Marked::sleep();
    let (code, value) = plan(home.path(), &target.pattern, &[]);
    assert_eq!(code, 1, "OK_CANDIDATES: {value}");
    let id = session_of(&value);
    assert!(id.starts_with("triage-"), "{id}");
    let data = &value["data"];
    assert_eq!(data["candidates"][0]["pid"], target.pid());
    assert_eq!(data["candidates"][0]["classification"], "idle");
    assert_eq!(data["pre_toggled"]["pids"], json!([target.pid()]));
    // The seed's shapes: data.plan.safety_gates (5.2, 9.2) and data.pre_toggled (6.3).
    assert!(data.get("safety_gates").is_none(), "{data}");
    let gates = &data["plan"]["safety_gates"];
    assert_eq!(gates["all_gates_passed"], true);
    assert_eq!(gates["max_kills"]["passed"], true);
    assert!(gates["max_kills"]["limit"].is_u64() && gates["max_kills"]["requested"].is_u64());
    assert_eq!(gates["protected_patterns"]["blocked"], json!([]));
    let pre = &data["pre_toggled"];
    assert_eq!(pre["action"], "kill");
    assert_eq!(pre["start_ids"][0], data["candidates"][0]["start_id"]);
    assert!(pre["rationale"].is_string() && pre["gates_applied"].is_array());
    assert!(pre["excluded_by_gates"].is_array());

    let (code, value) = run(
        home.path(),
        &[
            "explain",
            "--session",
            &id,
            "--pid",
            &target.pid().to_string(),
        ],
    );
    assert_eq!(code, 0, "{value}");
    assert_eq!(value["data"]["pre_toggled"], true);

    let (code, value) = run(
        home.path(),
        &[
            "apply",
            "--session",
            &id,
            "--recommended",
            "--yes",
            "--grace-ms",
            "2000",
        ],
    );
    assert_eq!(code, 2, "OK_APPLIED: {value}");
    assert_eq!(value["session_id"], id.as_str());
    assert_eq!(value["data"]["applied"][0]["pid"], target.pid());
    eventually("the target to end", || !target.running());

    let (code, value) = run(home.path(), &["verify", "--session", &id]);
    assert_eq!(code, 0, "{value}");
    assert_eq!(value["data"]["outcomes"][0]["outcome"], "confirmed_gone");
    assert_eq!(manifest(home.path(), &id)["state"], "complete");

    let (code, value) = run(home.path(), &["sessions"]);
    assert_eq!(code, 0);
    assert_eq!(value["data"]["total"], 2);
    assert_eq!(value["data"]["resumable_count"], 0);
}

#[test]
fn apply_without_yes_refuses_and_touches_nothing() {
    let home = TempDir::new().unwrap();
    let target = Marked::sleep();
    let (_, value) = plan(home.path(), &target.pattern, &[]);
    let id = session_of(&value);
    let (code, value) = run(home.path(), &["apply", "--session", &id, "--recommended"]);
    assert_eq!(code, 10, "{value}");
    assert_eq!(value["error"]["details"]["requires_confirmation"], true);
    assert!(target.running());
    assert_eq!(manifest(home.path(), &id)["state"], "planned");
}

/// Two applies on one session: exactly one gets the lock. SIGTERM during the long grace period
/// leaves the session interrupted with the completed kill recorded; `--resume` finishes the
/// rest without redoing it.
#[test]
fn concurrent_apply_sigterm_and_resume() {
    let home = TempDir::new().unwrap();
    let first = Marked::sleep();
    std::thread::sleep(std::time::Duration::from_millis(30));
    let stubborn = Marked::stubborn();
    let pattern = format!("{}|{}", first.pattern, stubborn.pattern);
    let (code, value) = plan(home.path(), &pattern, &[]);
    assert_eq!(code, 1, "{value}");
    let id = session_of(&value);
    assert_eq!(
        value["data"]["pre_toggled"]["pids"],
        json!([first.pid(), stubborn.pid()])
    );

    let long = triage(
        home.path(),
        &[
            "apply",
            "--session",
            &id,
            "--recommended",
            "--yes",
            "--grace-ms",
            "60000",
        ],
    )
    .stdout(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    // The first kill is recorded, the stubborn one waits out its grace period.
    eventually("the first kill to be recorded", || {
        manifest(home.path(), &id)["completed"]
            .as_array()
            .is_some_and(|c| c.len() == 1)
    });
    assert!(!first.running());

    let (code, value) = run(
        home.path(),
        &["apply", "--session", &id, "--recommended", "--yes"],
    );
    assert_eq!(code, 14, "the second writer gets ERR_LOCK: {value}");
    assert_eq!(value["error"]["code"], "ERR_LOCK");
    assert_eq!(value["error"]["details"]["holder"]["pid"], long.id());

    // SIGTERM to the triage process this test spawned (never anything else).
    let rc = unsafe { libc_kill(long.id() as i32, 15) };
    assert_eq!(rc, 0);
    let output = long.wait_with_output().unwrap();
    let (code, value) = envelope_of(&output);
    assert_eq!(code, 6, "ERR_INTERRUPTED: {value}");
    assert_eq!(value["error"]["code"], "ERR_INTERRUPTED");
    let saved = manifest(home.path(), &id);
    assert_eq!(saved["state"], "interrupted");
    assert_eq!(saved["completed"][0]["pid"], first.pid());
    assert!(stubborn.running());

    let (code, value) = run(
        home.path(),
        &["apply", "--session", &id, "--recommended", "--yes"],
    );
    assert_eq!(code, 15, "an interrupted session needs --resume: {value}");

    let (code, value) = run(
        home.path(),
        &[
            "apply",
            "--session",
            &id,
            "--recommended",
            "--yes",
            "--resume",
            "--grace-ms",
            "100",
        ],
    );
    assert_eq!(code, 2, "{value}");
    assert_eq!(value["resumed"], true);
    assert_eq!(value["resume_context"]["previous_state"], "interrupted");
    assert_eq!(
        value["resume_context"]["already_completed"][0]["pid"],
        first.pid()
    );
    // Robot 7.3: beside what was done, what was left of the plan when the call was interrupted.
    let remaining = value["resume_context"]["remaining"].as_array().unwrap();
    assert_eq!(remaining.len(), 1, "{value}");
    assert_eq!(remaining[0]["pid"], stubborn.pid());
    assert_eq!(remaining[0]["action"], "kill");
    let applied = value["data"]["applied"].as_array().unwrap();
    assert_eq!(
        applied.len(),
        1,
        "the completed kill is not redone: {value}"
    );
    assert_eq!(applied[0]["pid"], stubborn.pid());
    assert_eq!(applied[0]["signal"], "SIGKILL");
    eventually("the stubborn sleep to end", || !stubborn.running());

    let (_, value) = run(
        home.path(),
        &[
            "apply",
            "--session",
            &id,
            "--recommended",
            "--yes",
            "--resume",
        ],
    );
    assert_eq!(
        value["error"]["code"], "ERR_SESSION",
        "complete is not resumable: {value}"
    );
}

unsafe extern "C" {
    #[link_name = "kill"]
    fn libc_kill(pid: i32, signal: i32) -> i32;
}

#[test]
fn a_pid_reused_between_plan_and_apply_is_skipped() {
    let home = TempDir::new().unwrap();
    let target = Marked::sleep();
    let (_, value) = plan(home.path(), &target.pattern, &[]);
    let id = session_of(&value);
    // What a reused PID looks like: the plan's identity for it is no longer the process's.
    let mut saved = manifest(home.path(), &id);
    let stale = "00000000-0000-0000-0000-000000000000:1:1";
    saved["data"]["plan"]["pre_toggled"]["start_ids"][0] = json!(stale);
    write_manifest(home.path(), &id, &saved);
    let (code, value) = run(
        home.path(),
        &["apply", "--session", &id, "--recommended", "--yes"],
    );
    assert_eq!(code, 2, "{value}");
    assert_eq!(value["data"]["skipped"][0]["reason"], "identity_mismatch");
    assert_eq!(
        value["data"]["safety_gates"]["identity_mismatch"]["passed"],
        false
    );
    assert!(
        target.running(),
        "a process whose identity changed is never signalled"
    );
}

#[test]
fn unknown_expired_and_corrupt_sessions() {
    let home = TempDir::new().unwrap();
    let (code, value) = run(
        home.path(),
        &[
            "explain",
            "--session",
            "triage-20000101-000000-aaaa",
            "--pid",
            "1",
        ],
    );
    assert_eq!(
        (code, &value["error"]["code"]),
        (15, &json!("ERR_SESSION")),
        "{value}"
    );

    let target = Marked::sleep();
    let (_, value) = plan(home.path(), &target.pattern, &[]);
    let id = session_of(&value);
    let mut saved = manifest(home.path(), &id);
    saved["updated_ms"] = json!(0);
    write_manifest(home.path(), &id, &saved);
    let (code, value) = run(
        home.path(),
        &["apply", "--session", &id, "--recommended", "--yes"],
    );
    assert_eq!(code, 15, "{value}");
    assert!(
        value["error"]["message"]
            .as_str()
            .unwrap()
            .contains("expired")
    );
    assert_eq!(manifest(home.path(), &id)["state"], "expired");
    assert!(target.running());

    let (_, value) = plan(home.path(), &target.pattern, &[]);
    let id = session_of(&value);
    let path = support::manifest_path(home.path(), &id);
    std::fs::write(&path, b"{\"format\": 1, \"session_id\": ").unwrap();
    let (code, value) = run(home.path(), &["explain", "--session", &id, "--pid", "1"]);
    assert_eq!(code, 15, "{value}");
    assert!(
        value["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&path.display().to_string())
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        b"{\"format\": 1, \"session_id\": ",
        "never rewritten"
    );

    let mut newer = manifest_value_of(home.path(), &target);
    newer["format"] = json!(99);
    let id = newer["session_id"].as_str().unwrap().to_owned();
    write_manifest(home.path(), &id, &newer);
    let (code, value) = run(home.path(), &["explain", "--session", &id, "--pid", "1"]);
    assert_eq!(code, 15);
    assert!(
        value["error"]["message"]
            .as_str()
            .unwrap()
            .contains("newer"),
        "{value}"
    );
}

fn manifest_value_of(home: &std::path::Path, target: &Marked) -> Value {
    let (_, value) = plan(home, &target.pattern, &[]);
    manifest(home, &session_of(&value))
}

#[test]
fn fields_compact_prose_and_markdown_on_plan() {
    let home = TempDir::new().unwrap();
    let target = Marked::sleep();
    let (code, value) = plan(
        home.path(),
        &target.pattern,
        &["--fields", "pid,cmd_short,classification"],
    );
    assert_eq!(code, 1);
    let candidate = value["data"]["candidates"][0].as_object().unwrap();
    let keys: Vec<&str> = candidate.keys().map(String::as_str).collect();
    assert_eq!(keys, ["pid", "cmd_short", "classification"]);

    let (code, value) = plan(home.path(), &target.pattern, &["--fields", "pid,nope"]);
    assert_eq!(code, 10);
    assert!(
        value["error"]["suggestion"]
            .as_str()
            .unwrap()
            .contains("cmd_short"),
        "{value}"
    );

    let (_, value) = plan(home.path(), &target.pattern, &["--compact"]);
    let candidate = &value["data"]["candidates"][0];
    assert!(
        candidate.get("cmd_full").is_none() && candidate.get("metrics").is_none(),
        "{candidate}"
    );
    assert!(candidate["start_id"].is_string() && candidate["classification"].is_string());

    let (_, value) = plan(home.path(), &target.pattern, &[]);
    assert!(
        value["data"].get("prose_summary").is_none(),
        "no prose unless asked"
    );
    let (_, value) = plan(
        home.path(),
        &target.pattern,
        &["--include-prose", "--prose-style", "conversational"],
    );
    assert!(
        value["data"]["prose_summary"]
            .as_str()
            .unwrap()
            .starts_with("I looked at")
    );

    let output = triage(
        home.path(),
        &[
            "plan",
            "--match",
            &target.pattern,
            "--min-age",
            "0",
            "--format",
            "md",
        ],
    )
    .output()
    .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("# plan: success\n"), "{text}");
    assert!(
        text.contains("| pid |") && text.contains(&target.pid().to_string()),
        "{text}"
    );
}

#[test]
fn capabilities_and_check_action() {
    let home = TempDir::new().unwrap();
    let (code, value) = run(home.path(), &["capabilities"]);
    assert_eq!(code, 0);
    let data = &value["data"];
    assert_eq!(data["os"]["family"], std::env::consts::OS);
    assert!(data["privileges"]["effective_uid"].is_u64());
    assert!(data["privileges"]["is_root"].is_boolean());
    assert_eq!(data["probes"]["proc_fs"], true);
    assert_eq!(data["limits"]["max_kills_per_run"], 5);
    assert!(
        data["storage"]["data_dir"]
            .as_str()
            .unwrap()
            .ends_with("/triage")
    );
    let (code, value) = run(home.path(), &["capabilities", "--check-action", "kill_own"]);
    assert_eq!((code, &value["data"]["available"]), (0, &json!(true)));
    let (code, value) = run(
        home.path(),
        &["capabilities", "--check-action", "kill_others"],
    );
    assert_eq!(
        (code, &value["error"]["code"]),
        (11, &json!("ERR_CAPABILITY"))
    );
}

#[test]
fn deprecated_aliases_still_work_and_warn() {
    let home = TempDir::new().unwrap();
    let target = Marked::sleep();
    let (code, value) = run(
        home.path(),
        &["plan", "--match", &target.pattern, "--min-seconds", "0"],
    );
    assert_eq!(code, 1, "{value}");
    assert_eq!(value["warnings"][0]["code"], "DEPRECATED");
    assert!(
        value["warnings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("--min-age")
    );
    let id = session_of(&value);
    let (code, value) = run(home.path(), &["status", "--session", &id]);
    assert_eq!(code, 0, "{value}");
    assert_eq!(value["data"]["session"]["session_id"], id.as_str());
    assert_eq!(value["data"]["session"]["state"], "planned");
    assert_eq!(value["warnings"][0]["code"], "DEPRECATED");
    let (code, value) = run(home.path(), &["sessions", "--status", &id]);
    assert_eq!(
        (code, &value["data"]["session"]["resumable"]),
        (0, &json!(true))
    );
}

#[test]
fn every_command_and_error_prints_one_envelope() {
    let home = TempDir::new().unwrap();
    let target = Marked::sleep();
    let (_, value) = run(home.path(), &["snapshot", "--match", &target.pattern]);
    assert_eq!(value["data"]["candidates"][0]["pid"], target.pid());
    assert!(value.get("session_id").is_none(), "snapshot has no session");
    for args in [
        &["sessions"][..],
        &["capabilities"][..],
        &["verify", "--session", "triage-20000101-000000-aaaa"][..],
        &["explain", "--pid", "1"][..],
        &["no-such-command"][..],
    ] {
        // `run` asserts the envelope and its field types.
        let (code, _) = run(home.path(), args);
        assert!([0, 10, 15].contains(&code), "{args:?}: {code}");
    }
}

#[test]
fn a_blocking_gate_ends_the_call_with_err_blocked() {
    let home = TempDir::new().unwrap();
    let target = Marked::sleep();
    let (code, value) = plan(home.path(), &target.pattern, &["--protect", "^sleep "]);
    assert_eq!(code, 1, "{value}");
    assert_eq!(value["data"]["pre_toggled"]["pids"], json!([]));
    assert_eq!(
        value["data"]["plan"]["safety_gates"]["protected_patterns"]["passed"],
        false
    );
    assert_eq!(
        value["data"]["plan"]["safety_gates"]["all_gates_passed"],
        false
    );
    let id = session_of(&value);
    // A nothing-to-do plan is complete; plan again keeping one unprotected candidate around.
    assert_eq!(manifest(home.path(), &id)["state"], "complete");
    let other = Marked::sleep();
    let pattern = format!("{}|{}", target.pattern, other.pattern);
    let escaped = target
        .pattern
        .trim_start_matches('^')
        .trim_end_matches('$')
        .to_owned();
    let (_, value) = plan(home.path(), &pattern, &["--protect", &escaped]);
    let id = session_of(&value);
    let pid = target.pid().to_string();
    let (code, value) = run(
        home.path(),
        &["apply", "--session", &id, "--pids", &pid, "--yes"],
    );
    assert_eq!(code, 4, "{value}");
    let error = &value["error"];
    assert_eq!(error["code"], "ERR_BLOCKED");
    assert_eq!(error["recoverable"], true);
    assert_eq!(error["details"]["gate"], "protected_target");
    assert!(error["suggestion"].is_string());
    assert!(target.running() && other.running());
}

/// `--validate-only` runs nothing: a command that creates a session creates none, and one that
/// continues a session neither locks nor writes it, yet a session the call could not continue
/// is still the error the call would end with.
#[test]
fn validate_only_creates_locks_and_writes_no_session() {
    let home = TempDir::new().unwrap();
    let target = Marked::sleep();
    let (code, value) = plan(home.path(), &target.pattern, &["--validate-only"]);
    assert_eq!(
        (code, &value["data"]["valid"]),
        (0, &json!(true)),
        "{value}"
    );
    assert!(value.get("session_id").is_none(), "{value}");
    assert!(
        !home.path().join("triage/sessions").exists()
            || std::fs::read_dir(home.path().join("triage/sessions"))
                .unwrap()
                .next()
                .is_none(),
        "no session directory"
    );

    let (code, value) = plan(home.path(), &target.pattern, &[]);
    assert_eq!(code, 1, "{value}");
    let id = session_of(&value);
    let before = std::fs::read(support::manifest_path(home.path(), &id)).unwrap();
    let (code, value) = run(
        home.path(),
        &["apply", "--session", &id, "--yes", "--validate-only"],
    );
    assert_eq!(
        (code, &value["data"]["valid"]),
        (0, &json!(true)),
        "{value}"
    );
    assert!(target.running(), "validating an apply kills nothing");
    let after = std::fs::read(support::manifest_path(home.path(), &id)).unwrap();
    assert_eq!(before, after, "the manifest is untouched");

    let (code, value) = run(
        home.path(),
        &[
            "apply",
            "--session",
            "triage-20000101-000000-aaaa",
            "--yes",
            "--validate-only",
        ],
    );
    assert_ne!(code, 0, "an unknown session is still an error: {value}");
    assert_eq!(value["status"], "error", "{value}");
}
