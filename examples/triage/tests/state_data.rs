//! A session file is data, never an order, and a failed call leaves nothing behind:
//! - a manifest edited to name a process outside the plan's `--match` (with its true start id)
//!   gets `ERR_SESSION` from `apply`, and that process is never signalled;
//! - `--fields ''` is `ERR_ARGS`, as in the other profiles;
//! - a `plan` that fails after its session was made removes it, and `sessions` never counts a
//!   directory it cannot show.
//!
//! Every process these tests match or signal is a `sleep` they spawned (see `support`).

// Not every helper is used here.
#[allow(dead_code)]
mod support;

use serde_json::{Value, json};
use support::{Marked, manifest, run, session_of, write_manifest};
use tempfile::TempDir;

/// A plan over one process of ours, and another process outside it: the session's plan (its
/// envelope) and the outsider's true identity, as a plan would have seen it had it matched.
struct Planned {
    home: TempDir,
    planned: Marked,
    outsider: Marked,
    plan: Value,
    id: String,
    outsider_seen: Value,
}

fn planned_with_an_outsider() -> Planned {
    let home = TempDir::new().unwrap();
    let planned = Marked::sleep();
    let outsider = Marked::sleep();
    let (code, plan) = run(
        home.path(),
        &["plan", "--match", &planned.pattern, "--min-age", "0"],
    );
    assert_eq!(code, 1, "{plan}");
    let id = session_of(&plan);
    let (_, seen) = run(home.path(), &["snapshot", "--match", &outsider.pattern]);
    let outsider_seen = seen["data"]["candidates"][0].clone();
    assert_eq!(outsider_seen["pid"], outsider.pid(), "{seen}");
    Planned {
        home,
        planned,
        outsider,
        plan,
        id,
        outsider_seen,
    }
}

#[test]
fn a_manifest_naming_a_process_outside_the_plan_is_refused_and_it_survives() {
    let Planned {
        home,
        planned,
        outsider,
        id,
        outsider_seen: candidate,
        ..
    } = planned_with_an_outsider();
    let mut saved = manifest(home.path(), &id);
    let plan = &mut saved["data"]["plan"];
    plan["candidates"] = json!([candidate]);
    plan["pre_toggled"]["pids"] = json!([outsider.pid()]);
    plan["pre_toggled"]["start_ids"] = json!([candidate["start_id"]]);
    write_manifest(home.path(), &id, &saved);

    for how in [
        &["--recommended"][..],
        &["--pids", &outsider.pid().to_string()][..],
    ] {
        let mut args = vec!["apply", "--session", &id, "--yes", "--grace-ms", "0"];
        args.extend_from_slice(how);
        let (code, value) = run(home.path(), &args);
        assert_eq!(code, 15, "{how:?}: {value}");
        assert_eq!(value["error"]["code"], "ERR_SESSION");
        let message = value["error"]["message"].as_str().unwrap();
        assert!(message.contains("--match"), "{message}");
        assert!(message.contains("nothing was signalled"), "{message}");
        assert!(outsider.running(), "the outsider is never signalled");
    }
    assert!(planned.running(), "nothing else was signalled either");

    // A manifest whose scope was widened to match everything still cannot reach past the
    // protected patterns, which a session file cannot remove.
    let mut saved = manifest(home.path(), &id);
    saved["state"] = json!("planned");
    saved["data"]["plan"]["scope"] = json!({ "match": ".", "protect": [] });
    saved["data"]["plan"]["candidates"][0]["pid"] = json!(1);
    saved["data"]["plan"]["pre_toggled"]["pids"] = json!([1]);
    write_manifest(home.path(), &id, &saved);
    let (code, value) = run(
        home.path(),
        &["apply", "--session", &id, "--yes", "--recommended"],
    );
    assert_eq!(code, 15, "pid 1 is refused: {value}");
}

/// A session file rewritten whole (its scope and its targets) passes every check that reads
/// the file; the plan's digest, which reached the caller and never the file, does not. The
/// plan's own `apply_command` names it, so an agent that follows the plan is protected.
#[test]
fn a_plan_rewritten_scope_and_all_is_refused_by_its_digest() {
    let Planned {
        home,
        planned,
        outsider,
        plan: value,
        id,
        outsider_seen: candidate,
    } = planned_with_an_outsider();
    let digest = value["data"]["plan_digest"].as_str().unwrap().to_owned();
    assert_eq!(digest.len(), 64, "{value}");
    let apply_command = value["data"]["apply_command"].as_str().unwrap().to_owned();
    assert!(
        apply_command.ends_with(&format!("--plan {digest}")),
        "{apply_command}"
    );

    // The plan made over for the outsider: its scope too, so the scope check passes.
    let mut saved = manifest(home.path(), &id);
    let plan = &mut saved["data"]["plan"];
    plan["scope"]["match"] = json!(outsider.pattern);
    plan["candidates"] = json!([candidate]);
    plan["pre_toggled"]["pids"] = json!([outsider.pid()]);
    plan["pre_toggled"]["start_ids"] = json!([candidate["start_id"]]);
    let original = manifest(home.path(), &id);
    write_manifest(home.path(), &id, &saved);

    // The plan's apply_command, word for word (and --grace-ms 0 for a fast test).
    let words: Vec<&str> = apply_command.split(' ').skip(1).collect();
    let mut args = words.clone();
    args.extend(["--grace-ms", "0"]);
    let (code, value) = run(home.path(), &args);
    assert_eq!(code, 15, "{value}");
    assert_eq!(value["error"]["code"], "ERR_SESSION", "{value}");
    let message = value["error"]["message"].as_str().unwrap();
    assert!(message.contains("not the plan you confirmed"), "{message}");
    assert!(message.contains("nothing was signalled"), "{message}");
    assert!(outsider.running(), "the outsider is never signalled");
    assert!(planned.running(), "nothing else was signalled either");

    // The file put back as the plan wrote it: the same command ends the planned process.
    write_manifest(home.path(), &id, &original);
    let (code, value) = run(home.path(), &args);
    assert_eq!(code, 2, "OK_APPLIED: {value}");
    assert!(outsider.running(), "the outsider is still never signalled");
}

#[test]
fn an_empty_fields_selection_is_an_argument_error() {
    let home = TempDir::new().unwrap();
    for fields in ["", ",", " , "] {
        let (code, value) = run(
            home.path(),
            &[
                "snapshot",
                "--match",
                "^no such process 42$",
                "--fields",
                fields,
            ],
        );
        assert_eq!(code, 10, "--fields {fields:?}: {value}");
        assert_eq!(value["error"]["code"], "ERR_ARGS");
        assert!(
            value["error"]["message"]
                .as_str()
                .unwrap()
                .contains("no field"),
            "{value}"
        );
    }
}

#[test]
fn a_failed_plan_leaves_no_session_and_sessions_counts_only_what_it_shows() {
    let home = TempDir::new().unwrap();
    // The scope is checked by the handler, after the runtime made the session.
    let (code, value) = run(home.path(), &["plan", "--match", "("]);
    assert_eq!(code, 10, "{value}");
    assert!(value.get("session_id").is_none(), "{value}");
    let sessions = home.path().join("triage/sessions");
    let left: Vec<_> = std::fs::read_dir(&sessions)
        .map(|dir| dir.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "nothing left behind: {left:?}");

    // A directory with no manifest (a crash before the first write) is no session.
    std::fs::create_dir_all(sessions.join("triage-20260101-000000-aaaa")).unwrap();
    let (code, value) = run(home.path(), &["sessions"]);
    assert_eq!(code, 0, "{value}");
    assert_eq!(value["data"]["total"], 0, "{value}");
    assert_eq!(value["data"]["sessions"], json!([]), "{value}");

    // A manifest that is a FIFO is listed as unreadable (and counted), at once.
    let fifo_dir = sessions.join("triage-20260101-000000-bbbb");
    std::fs::create_dir_all(&fifo_dir).unwrap();
    let fifo = fifo_dir.join("manifest.json");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (code, value) = run(home.path(), &["sessions"]);
    assert_eq!(code, 0, "{value}");
    assert_eq!(value["data"]["total"], 1, "{value}");
    assert_eq!(
        value["data"]["unreadable"],
        json!([fifo.display().to_string()])
    );
    let (code, value) = run(
        home.path(),
        &["sessions", "--session", "triage-20260101-000000-bbbb"],
    );
    assert_eq!(code, 15, "{value}");
    assert!(
        value["error"]["message"]
            .as_str()
            .unwrap()
            .contains("a pipe"),
        "{value}"
    );
}
