//! `verify`: whether each process the session ended is gone, still running, or respawned.

use pas::{Args, Context, Error, Reply};
use serde_json::{Value, json};

use crate::procs;

pub fn verify(_args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let session = ctx
        .session()
        .ok_or_else(|| Error::internal("verify runs in a session"))?;
    let id = session.id();
    if session.state() != "complete" {
        return Err(Error::new(
            "ERR_SESSION",
            format!("session {id} is `{}`: apply it first", session.state()),
        )
        .with_suggestion(format!("triage apply --session {id} --recommended --yes")));
    }
    session.transition("verifying")?;
    let mut outcomes = Vec::new();
    let mut unexpected = Vec::new();
    for action in session
        .completed()
        .iter()
        .filter(|a| a["result"] == "success")
    {
        let pid = action["pid"].as_i64().unwrap_or(0) as i32;
        let start_id = action["start_id"].as_str().unwrap_or_default();
        let cmd = action["cmd_full"].as_str().unwrap_or_default();
        let outcome = if procs::alive(pid, start_id) {
            "still_running"
        } else if respawned(cmd, pid).is_some() {
            "respawned"
        } else {
            "confirmed_gone"
        };
        let mut entry = json!({
            "pid": pid, "start_id": start_id, "action": action["action"], "outcome": outcome,
        });
        if let Some(new_pid) = respawned(cmd, pid).filter(|_| outcome == "respawned") {
            entry["respawned_as"] = json!(new_pid);
        }
        if outcome != "confirmed_gone" {
            unexpected.push(entry.clone());
        }
        outcomes.push(entry);
    }
    session.transition("complete")?;
    let recommendation = if unexpected.is_empty() {
        "No issues detected. Safe to close session.".to_owned()
    } else {
        format!(
            "{} process(es) did not stay gone; plan again.",
            unexpected.len()
        )
    };
    Ok(Reply::object(&json!({
        "outcomes": outcomes,
        "unexpected_effects": unexpected,
        "recommendation": recommendation,
    })))
}

/// Another process of the user with the very same command line (a supervisor restarted it).
fn respawned(cmd: &str, old_pid: i32) -> Option<i32> {
    if cmd.is_empty() {
        return None;
    }
    let exact = regex::Regex::new(&format!("^{}$", regex::escape(cmd))).ok()?;
    let found: Vec<Value> = procs::scan(&exact)
        .ok()?
        .into_iter()
        .filter(|p| p.pid != old_pid && p.state != "Z")
        .map(|p| json!(p.pid))
        .collect();
    found.first().and_then(Value::as_i64).map(|p| p as i32)
}
