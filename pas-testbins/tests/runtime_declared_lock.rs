//! A command that declares `lock: NAME` (derive: `lock = "NAME"`) runs one call at a time
//! (failure modes 15 and 58): the runtime takes the lock before the handler, a concurrent call
//! fails at once with `LOCK_HELD`, `retry_after_ms` and the holder, `PAS_LOCK_WAIT` makes it
//! wait instead, and every face says so. The handlers of `pas-limits-demo` take no lock.

mod runtime_support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use runtime_support::{code, error_json, limits_demo, named, stdout};
use serde_json::Value;

fn limits(state: &Path, args: &[&str]) -> Command {
    let mut cmd = limits_demo(args);
    cmd.env("XDG_STATE_HOME", state);
    cmd
}

/// Starts a call that holds the lock for `seconds`, and returns once it holds it (its holder
/// is written in the lock file).
fn holding(mut cmd: Command, lock_file: &Path) -> Child {
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !std::fs::read_to_string(lock_file)
        .is_ok_and(|text| text.contains(&child.id().to_string()))
    {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the first call never took the lock"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

#[test]
fn a_second_call_of_a_locked_command_gets_lock_held_and_a_waiting_one_runs_after() {
    let state = tempfile::tempdir().unwrap();
    let lock_file = state.path().join("limits-demo/locks/deploy.lock");
    let mut first = holding(
        limits(state.path(), &["--agent", "deploy", "--seconds", "1.5"]),
        &lock_file,
    );
    let out = limits(state.path(), &["--agent", "deploy", "--seconds", "0"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 100, "{out:?}");
    assert!(out.stdout.is_empty());
    let error = error_json(&out);
    assert_eq!(error["error"], "LOCK_HELD");
    assert_eq!(error["retryable"], true);
    assert_eq!(error["retry_after_ms"], 1000);
    // Its delay is known: retry after it, each time (failure mode 19).
    assert_eq!(error["retry_strategy"], "linear_backoff");
    assert_eq!(error["max_retries"], 3);
    assert_eq!(error["details"]["holder"]["pid"], first.id());
    assert_eq!(error["details"]["holder"]["command"], "deploy");
    // `--validate-only` checks the call and takes no lock.
    let out = limits(
        state.path(),
        &["--agent", "deploy", "--seconds", "0", "--validate-only"],
    )
    .output()
    .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    // A caller that would rather wait: runs once the first call is done.
    let out = limits(state.path(), &["--agent", "deploy", "--seconds", "0"])
        .env("PAS_LOCK_WAIT", "20000")
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    assert!(first.wait().unwrap().success());
    // Free again: a plain call runs.
    let out = limits(state.path(), &["--agent", "deploy", "--seconds", "0"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
}

#[test]
fn a_derived_locked_command_answers_lock_held_in_its_compose_envelope() {
    let state = tempfile::tempdir().unwrap();
    let lock_file = state.path().join("limits-derived/locks/deploy.lock");
    let mut hold = limits(state.path(), &["deploy", "--seconds", "1"]);
    hold.env("LIMITS_DEMO_DERIVE", "1");
    let mut first = holding(hold, &lock_file);
    let out = limits(state.path(), &["deploy", "--seconds", "0"])
        .env("LIMITS_DEMO_DERIVE", "1")
        .output()
        .unwrap();
    let envelope: Value = serde_json::from_str(stdout(&out).trim_end()).unwrap();
    assert_eq!(envelope["ok"], false, "{envelope}");
    assert_eq!(envelope["error"]["code"], "LOCK_HELD");
    assert_eq!(envelope["error"]["retryAfterMs"], 1000);
    assert_eq!(envelope["error"]["details"]["holder"]["pid"], first.id());
    first.wait().unwrap();
}

#[test]
fn every_face_states_the_declared_lock() {
    let state = tempfile::tempdir().unwrap();
    let help = stdout(
        &limits(state.path(), &["--agent", "deploy", "--help"])
            .output()
            .unwrap(),
    );
    assert!(
        help.contains("One call at a time (lock `deploy`, taken by the runtime): a concurrent call fails at once with LOCK_HELD"),
        "{help}"
    );
    let catalog: Value = serde_json::from_slice(
        &limits(state.path(), &["--agent", "tools"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let deploy = named(&catalog["tools"], "deploy").clone();
    assert_eq!(deploy["lock"], "deploy");
    let llm = stdout(&limits(state.path(), &["docs"]).output().unwrap());
    assert!(llm.contains("One call at a time (lock `deploy`"), "{llm}");
    let spec = limits(state.path(), &["--pas-spec"])
        .output()
        .unwrap()
        .stdout;
    let registry: pas::spec::Registry = serde_json::from_slice(&spec).unwrap();
    let list = pas::spec::faces::mcp::tools_list(&registry);
    let tool = named(&list["tools"], "deploy").clone();
    assert_eq!(tool["_meta"]["pas-kit/lock"], "deploy");
    // The derive declares the same.
    let spec: Value = serde_json::from_slice(
        &limits(state.path(), &["--pas-spec"])
            .env("LIMITS_DEMO_DERIVE", "1")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let deploy = named(&spec["commands"], "deploy").clone();
    assert_eq!(deploy["lock"], "deploy");
}
