//! Fidelity (issue 27, "exact by default") in the robot profile: what triage reads (a
//! process's command line) and what it stores and reads back (a session's plan, read by
//! `explain`) reach the caller unchanged, whatever the command line holds (base64, keys,
//! hashes, PEM blocks, JWT-shaped text, instruction-like text, any Unicode), in a person's
//! call (`triage ...`), in the pas `--agent` form (`triage --agent ...`) and over `triage mcp`:
//! the same data, value for value.

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

#[path = "../../../tests/fidelity_support/mod.rs"]
mod fidelity_support;

#[allow(dead_code)]
mod support;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use mcp_support::{Session, as_envelope, envelope_meaning};
use proptest::prelude::*;
use serde_json::{Value, json};

static NEXT: AtomicU32 = AtomicU32::new(1);

/// A `sleep` this test spawned whose command line starts with `value` (its `argv[0]`); killed
/// and reaped on drop.
struct Named {
    child: Child,
    /// The whole command line as `/proc` joins it: `VALUE 1000.MARKER`.
    cmd_full: String,
    /// A regular expression matching this process's command line only.
    pattern: String,
}

impl Named {
    fn spawn(value: &str) -> Named {
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let arg = format!("1000.{}7{n:04}", std::process::id());
        let child = Command::new("sleep")
            .arg0(value)
            .arg(&arg)
            .stdin(Stdio::null())
            .spawn()
            .expect("sleep runs");
        let named = Named {
            child,
            cmd_full: format!("{value} {arg}"),
            pattern: format!(" {}$", arg.replace('.', "\\.")),
        };
        let cmdline = format!("/proc/{}/cmdline", named.child.id());
        let mut expected = value.as_bytes().to_vec();
        expected.push(0);
        expected.extend_from_slice(arg.as_bytes());
        expected.push(0);
        support::eventually("the named sleep to start", || {
            std::fs::read(&cmdline).unwrap_or_default() == expected
        });
        named
    }

    fn pid(&self) -> i64 {
        i64::from(self.child.id())
    }
}

impl Drop for Named {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What differs between two reads of a live process by nature (its age and CPU time) and
/// between two runs (the machine's load), set aside.
fn settled(mut data: Value) -> Value {
    if let Some(map) = data.as_object_mut() {
        map.remove("system");
    }
    if let Some(candidates) = data["candidates"].as_array_mut() {
        for candidate in candidates {
            if let Some(map) = candidate.as_object_mut() {
                map.remove("age_seconds");
                map.remove("metrics");
                // Its words quote the age and CPU time ("running 1s with 0.00s of CPU").
                map.remove("action_rationale");
            }
        }
    }
    data
}

/// One private data directory, and one `triage mcp` server on it.
struct Triage {
    home: tempfile::TempDir,
    mcp: Session,
}

impl Triage {
    fn new() -> Triage {
        let home = tempfile::tempdir().unwrap();
        let mut server = support::triage(home.path(), &[]);
        server.stderr(Stdio::null());
        let mcp = Session::spawn(server);
        Triage { home, mcp }
    }

    fn home(&self) -> &Path {
        self.home.path()
    }

    /// The same call three ways (`triage ARGS`, `triage --agent ARGS`, the tool over MCP):
    /// they must mean the same; the data.
    fn three_ways(
        &mut self,
        args: &[&str],
        tool: &str,
        arguments: Value,
        settle: fn(Value) -> Value,
    ) -> Result<Value, TestCaseError> {
        let (_, person) = support::run(self.home(), args);
        let mut agent_args = vec!["--agent"];
        agent_args.extend(args);
        let (_, agent) = support::run(self.home(), &agent_args);
        let person = envelope_meaning(&person);
        prop_assert!(person.get("data").is_some(), "{args:?}: {person}");
        let mcp = as_envelope(&self.mcp.call(tool, arguments));
        let person = settle(person["data"].clone());
        prop_assert_eq!(&settle(envelope_meaning(&agent)["data"].clone()), &person);
        prop_assert_eq!(&settle(mcp["data"].clone()), &person);
        Ok(person)
    }
}

fn same(data: Value) -> Value {
    data
}

proptest! {
    // Each case starts a process and the tool seven times.
    #![proptest_config(fidelity_support::config(24))]

    #[test]
    fn a_command_line_reads_back_as_it_is_in_every_form(value in fidelity_support::stored_string()) {
        let named = Named::spawn(&value);
        let mut triage = Triage::new();

        // The snapshot: the process's command line, unchanged, three ways.
        let snapshot = triage.three_ways(
            &["snapshot", "--match", &named.pattern],
            "snapshot",
            json!({"match": named.pattern}),
            settled,
        )?;
        let candidates = snapshot["candidates"].as_array().unwrap();
        prop_assert_eq!(candidates.len(), 1, "{}", snapshot);
        prop_assert_eq!(&candidates[0]["cmd_full"], &json!(named.cmd_full));
        prop_assert_eq!(&candidates[0]["pid"], &json!(named.pid()));

        // A plan stores it in a session; `explain` reads it back from there, three ways.
        let (_, planned) = support::run(
            triage.home(),
            &["plan", "--match", &named.pattern, "--min-age", "0"],
        );
        let id = support::session_of(&planned);
        let pid = named.pid().to_string();
        let explained = triage.three_ways(
            &["explain", "--session", &id, "--pid", &pid],
            "explain",
            json!({"session": id, "pid": named.pid()}),
            same,
        )?;
        prop_assert_eq!(&explained["candidate"]["cmd_full"], &json!(named.cmd_full));
        let stored = support::manifest(triage.home(), &id);
        prop_assert!(
            stored.to_string().contains(&json!(named.cmd_full).to_string()),
            "the session stores the command line as it is: {}", stored
        );
        triage.mcp.end();
    }
}
