//! `apply`: SIGTERM, then SIGKILL after the grace period, for each confirmed target; every
//! finished action is recorded in the session at once, so an interrupted apply resumes
//! (`--resume`) without redoing one.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use pas::{Args, Context, Error, Reply};
use serde_json::{Value, json};

use crate::procs;

struct Target {
    pid: i64,
    start_id: String,
    cmd_full: String,
}

pub fn apply(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let session = ctx
        .session()
        .ok_or_else(|| Error::internal("apply runs in a session"))?;
    let recommended = args.flag("recommended");
    let pids: Vec<i64> = args.many("pids")?;
    // Both, or neither, is refused.
    if recommended != pids.is_empty() {
        return Err(
            Error::new("ERR_ARGS", "give either --recommended or --pids")
                .with_suggestion("--recommended applies the plan's pre_toggled set"),
        );
    }
    let grace = Duration::from_millis(args.get::<i64>("grace-ms")?.unwrap_or(2000).max(0) as u64);
    let id = session.id();
    if session.state() == "complete" {
        return Err(
            Error::new("ERR_SESSION", format!("session {id} is already complete"))
                .with_suggestion(format!("triage verify --session {id}")),
        );
    }
    let plan = session
        .get("plan")
        .ok_or_else(|| Error::new("ERR_SESSION", format!("session {id} has no plan")))?;
    // The plan the caller confirmed, by the digest `plan` gave it: a session file rewritten
    // since (its scope included) is refused before anything is read from it.
    let digest = crate::digest::of(&plan);
    if let Some(confirmed) = args.get::<String>("plan")?
        && digest != confirmed
    {
        return Err(Error::new(
                "ERR_SESSION",
                format!(
                    "session {id}'s plan is not the plan you confirmed (its digest is {digest}, not {confirmed}); nothing was signalled"
                ),
            )
            .with_suggestion("the session file was changed after the plan: make a new plan with triage plan --match ...")
            .with_details(json!({ "plan_digest": digest, "confirmed": confirmed })));
    }
    let targets = targets(ctx, &plan, recommended, &pids)?;
    // What this call means to do, before it does any: a resumed call's envelope lists what is
    // left of it (`resume_context.remaining`), matched against the records of `act`.
    let planned: Vec<Value> = targets
        .iter()
        .map(|t| json!({ "pid": t.pid, "start_id": t.start_id, "action": "kill" }))
        .collect();
    session.record_planned(&planned)?;
    let done: HashSet<i64> = session
        .completed()
        .iter()
        .filter_map(|a| a["pid"].as_i64())
        .collect();
    // The session file is data: every target it leads to is checked again, against /proc,
    // with the plan's scope, the user and the protected patterns, before anything is signalled.
    let rules = rules_of(&id, &plan)?;
    for target in targets.iter().filter(|t| !done.contains(&t.pid)) {
        if let Some(why) = rules.refuses(target.pid as i32) {
            return Err(Error::new(
                "ERR_SESSION",
                format!(
                    "session {id} names process {} outside its plan: {why}; nothing was signalled",
                    target.pid
                ),
            )
            .with_suggestion("the session file was changed after the plan: make a new plan with triage plan --match ...")
            .with_details(json!({ "pid": target.pid, "reason": why })));
        }
    }
    session.transition("applying")?;
    let (mut applied, mut skipped, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    for target in targets.iter().filter(|t| !done.contains(&t.pid)) {
        // A signal mid-action leaves that action unrecorded (it is redone on --resume) and
        // the session for the runtime to mark interrupted.
        let Some(record) = act(ctx, target, grace) else {
            return Err(
                Error::new("ERR_INTERRUPTED", "interrupted during apply").with_suggestion(format!(
                    "triage apply --session {id} --recommended --yes --resume --plan {digest}"
                )),
            );
        };
        session.record_completed(&record)?;
        match record["result"].as_str() {
            Some("success") => applied.push(record),
            Some("skipped") => skipped.push(record),
            _ => failed.push(record),
        }
    }
    let mismatched: Vec<&Value> = skipped
        .iter()
        .filter(|s| s["reason"] == "identity_mismatch")
        .collect();
    ctx.gate(
        "identity_mismatch",
        mismatched.is_empty(),
        json!({ "skipped": mismatched.iter().map(|s| s["pid"].clone()).collect::<Vec<_>>() }),
    )?;
    session.transition("complete")?;
    let total_applied = session
        .completed()
        .iter()
        .filter(|a| a["result"] == "success")
        .count();
    session.set_summary("actions_applied", json!(total_applied))?;
    ctx.outcome(if failed.is_empty() {
        "OK_APPLIED"
    } else {
        "ERR_PARTIAL"
    })?;
    let summary = json!({
        "attempted": applied.len() + skipped.len() + failed.len(),
        "succeeded": applied.len(),
        "skipped": skipped.len(),
        "failed": failed.len(),
    });
    Ok(Reply::object(&json!({
        "applied": applied,
        "skipped": skipped,
        "failed": failed,
        "summary": summary,
        "session_state": "complete",
        "verify_command": format!("triage verify --session {id}"),
    })))
}

/// The scope the plan was made with, as the session keeps it (a session without one was not
/// written by this version's plan, and is refused).
fn rules_of(id: &str, plan: &Value) -> Result<procs::Rules, Error> {
    let scope = &plan["scope"];
    let (Some(pattern), Some(protect)) = (scope["match"].as_str(), scope["protect"].as_array())
    else {
        return Err(Error::new(
            "ERR_SESSION",
            format!("session {id} has no plan scope to check its targets against"),
        )
        .with_suggestion("make a new plan with triage plan --match ..."));
    };
    let protect: Vec<String> = protect
        .iter()
        .map(|p| p.as_str().map(str::to_owned))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            Error::new(
                "ERR_SESSION",
                format!("session {id}'s plan scope is not a list of patterns"),
            )
        })?;
    procs::Rules::new(pattern, &protect).map_err(|e| {
        Error::new(
            "ERR_SESSION",
            format!("session {id}'s plan scope is invalid: {}", e.message()),
        )
    })
}

/// The confirmed targets, in the plan's order; an explicit PID must be a candidate of the plan,
/// and one the plan left out as protected is blocked.
fn targets(
    ctx: &Context,
    plan: &Value,
    recommended: bool,
    pids: &[i64],
) -> Result<Vec<Target>, Error> {
    let candidates = plan["candidates"].as_array().cloned().unwrap_or_default();
    let of = |c: &Value| Target {
        pid: c["pid"].as_i64().unwrap_or(0),
        start_id: c["start_id"].as_str().unwrap_or_default().to_owned(),
        cmd_full: c["cmd_full"].as_str().unwrap_or_default().to_owned(),
    };
    if recommended {
        let chosen = plan["pre_toggled"]["pids"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let start_ids = plan["pre_toggled"]["start_ids"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        return Ok(chosen
            .iter()
            .zip(start_ids)
            .filter_map(|(pid, start_id)| {
                let c = candidates.iter().find(|c| &c["pid"] == pid)?;
                let mut target = of(c);
                // The identity the plan confirmed when it toggled the process.
                target.start_id = start_id.as_str().unwrap_or_default().to_owned();
                Some(target)
            })
            .collect());
    }
    let excluded = plan["pre_toggled"]["excluded_by_gates"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut targets = Vec::new();
    for pid in pids {
        let Some(c) = candidates.iter().find(|c| c["pid"] == json!(pid)) else {
            return Err(
                Error::new("ERR_ARGS", format!("{pid} is not a candidate of the plan"))
                    .with_details(json!({ "pid": pid })),
            );
        };
        if let Some(protected) = excluded
            .iter()
            .find(|e| e["pid"] == json!(pid) && e["gate"] == "protected_patterns")
        {
            ctx.gate(
                "protected_target",
                false,
                json!({ "pid": pid, "pattern": protected["pattern"], "reason": "the command line matches a protected pattern" }),
            )?;
        }
        targets.push(of(c));
    }
    ctx.gate("protected_target", true, json!({ "checked": pids }))?;
    Ok(targets)
}

/// One action: skip a target whose identity changed; else SIGTERM, SIGKILL after `grace`.
/// `None` when a signal asked the call to stop before the action finished.
fn act(ctx: &Context, target: &Target, grace: Duration) -> Option<Value> {
    let pid = target.pid as i32;
    let base = json!({ "pid": target.pid, "start_id": target.start_id, "cmd_full": target.cmd_full, "action": "kill" });
    let with = |mut value: Value, extra: Value| {
        if let (Value::Object(map), Value::Object(more)) = (&mut value, extra) {
            map.extend(more);
        }
        value
    };
    match procs::now(pid) {
        Some((start_id, _)) if start_id != target.start_id => {
            return Some(with(
                base,
                json!({ "result": "skipped", "reason": "identity_mismatch",
                "details": "Process start_id changed; PID may have been reused" }),
            ));
        }
        Some((_, true)) | None => {
            return Some(with(
                base,
                json!({ "result": "skipped", "reason": "already_gone" }),
            ));
        }
        Some(_) => {}
    }
    let started = Instant::now();
    if let Err(err) = procs::signal(pid, libc::SIGTERM) {
        return Some(with(
            base,
            json!({ "result": "failed", "error": err.to_string() }),
        ));
    }
    let mut signal = "SIGTERM";
    if !wait_gone(ctx, pid, &target.start_id, grace) {
        if ctx.stop_requested() {
            return None;
        }
        signal = "SIGKILL";
        let _ = procs::signal(pid, libc::SIGKILL);
        wait_gone(ctx, pid, &target.start_id, Duration::from_secs(2));
    }
    let gone = !procs::alive(pid, &target.start_id);
    Some(with(
        base,
        json!({
            "signal": signal,
            "result": if gone { "success" } else { "failed" },
            "duration_ms": started.elapsed().as_millis() as u64,
            "verification": { "process_exited": gone },
        }),
    ))
}

/// Waits until the process is gone (or a zombie), up to `limit`.
fn wait_gone(ctx: &Context, pid: i32, start_id: &str, limit: Duration) -> bool {
    let until = Instant::now() + limit;
    loop {
        if !procs::alive(pid, start_id) {
            return true;
        }
        if Instant::now() >= until || ctx.stop_requested() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
