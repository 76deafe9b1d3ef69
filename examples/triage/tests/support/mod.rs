//! Helpers: triage in a private XDG data directory, and `sleep` processes the tests spawn
//! themselves, each with a unique marker in its command line (`sleep 1000.<marker>`), so a
//! test only ever matches, signals and reaps its own processes.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

static NEXT: AtomicU32 = AtomicU32::new(1);

/// A `sleep` this test spawned; killed and reaped on drop.
pub struct Marked {
    pub child: Child,
    /// A regular expression matching this process's command line only.
    pub pattern: String,
}

impl Marked {
    fn spawn(stubborn: bool, group: &str) -> Marked {
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let arg = format!("1000.{}{:04}{n:03}", std::process::id(), group.len());
        let child = if stubborn {
            // SIGTERM ignored before exec stays ignored in sleep: only SIGKILL ends it.
            Command::new("sh")
                .args(["-c", &format!("trap '' TERM; exec sleep {arg}")])
                .stdin(Stdio::null())
                .spawn()
                .expect("sh runs")
        } else {
            Command::new("sleep")
                .arg(&arg)
                .stdin(Stdio::null())
                .spawn()
                .expect("sleep runs")
        };
        let marked = Marked {
            pattern: format!("^sleep {}$", arg.replace('.', "\\.")),
            child,
        };
        marked.wait_exec(&arg);
        marked
    }

    /// A sleep that SIGTERM ends.
    pub fn sleep() -> Marked {
        Marked::spawn(false, "")
    }

    /// A sleep that ignores SIGTERM (only the grace period's SIGKILL ends it).
    pub fn stubborn() -> Marked {
        Marked::spawn(true, "")
    }

    fn wait_exec(&self, arg: &str) {
        let path = format!("/proc/{}/cmdline", self.child.id());
        let until = Instant::now() + Duration::from_secs(5);
        while Instant::now() < until {
            let cmdline = std::fs::read(&path).unwrap_or_default();
            if cmdline.starts_with(b"sleep\0") && String::from_utf8_lossy(&cmdline).contains(arg) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the marked sleep did not start");
    }

    pub fn pid(&self) -> i64 {
        i64::from(self.child.id())
    }

    /// Whether it still runs (a zombie, killed but not reaped yet, does not).
    pub fn running(&self) -> bool {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        let state = stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .next();
        !matches!(state, None | Some("Z") | Some("X"))
    }
}

impl Drop for Marked {
    fn drop(&mut self) {
        // Our own child: kill and reap it (it may be gone already).
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// triage with its data directory in `home`.
pub fn triage(home: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_triage"));
    cmd.args(args)
        .env("XDG_DATA_HOME", home)
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null());
    cmd
}

/// Runs triage and returns the exit code and the one envelope on stdout.
pub fn run(home: &Path, args: &[&str]) -> (i32, Value) {
    let output = triage(home, args).output().expect("triage runs");
    envelope_of(&output)
}

pub fn envelope_of(output: &Output) -> (i32, Value) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "one envelope line on stdout, got {stdout:?} (stderr {})",
        String::from_utf8_lossy(&output.stderr)
    );
    let value: Value = serde_json::from_str(lines[0]).expect("the envelope is JSON");
    assert_envelope(&value);
    (output.status.code().expect("an exit code"), value)
}

/// Every field of robot 3.1-3.3 with its type.
pub fn assert_envelope(value: &Value) {
    assert_eq!(value["schema_version"], "1.0.0", "{value}");
    let generated = value["generated_at"].as_str().expect("generated_at");
    // RFC 3339 UTC with milliseconds: 2026-01-15T14:30:22.456Z
    assert_eq!(generated.len(), 24, "{generated}");
    assert!(
        generated.ends_with('Z') && generated.as_bytes()[19] == b'.',
        "{generated}"
    );
    assert!(value["host_id"].is_string());
    assert!(value["command"].is_string());
    assert!(value["duration_ms"].is_u64());
    assert!(value["warnings"].is_array());
    for warning in value["warnings"].as_array().unwrap() {
        assert!(warning["code"].is_string() && warning["message"].is_string());
        assert!(warning["severity"].is_string() && warning["affects"].is_array());
    }
    match value["status"].as_str() {
        Some("success" | "partial") => assert!(value.get("data").is_some(), "{value}"),
        Some("error") => {
            let error = &value["error"];
            assert!(
                error["code"].is_string() && error["message"].is_string(),
                "{value}"
            );
            assert!(error["recoverable"].is_boolean(), "{value}");
            for key in ["details", "suggestion", "documentation_url"] {
                assert!(error.get(key).is_some(), "error.{key} in {value}");
            }
            assert!(value.get("data").is_none());
        }
        other => panic!("status {other:?} in {value}"),
    }
}

/// The id of a session an envelope names.
pub fn session_of(value: &Value) -> String {
    value["session_id"]
        .as_str()
        .expect("a session_id")
        .to_owned()
}

pub fn manifest_path(home: &Path, id: &str) -> PathBuf {
    home.join("triage/sessions").join(id).join("manifest.json")
}

pub fn manifest(home: &Path, id: &str) -> Value {
    serde_json::from_slice(&std::fs::read(manifest_path(home, id)).unwrap()).unwrap()
}

pub fn write_manifest(home: &Path, id: &str, value: &Value) {
    std::fs::write(
        manifest_path(home, id),
        serde_json::to_vec_pretty(value).unwrap(),
    )
    .unwrap();
}

/// Waits until `check` holds (up to 10 s).
pub fn eventually(what: &str, check: impl Fn() -> bool) {
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        if check() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("timed out waiting for {what}");
}
