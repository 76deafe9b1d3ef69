//! `snapshot`, `plan` and `explain`: read /proc, classify, pre-toggle within the gates.

use pas::{Args, Context, Error, ProseStyle, Reply};
use regex::Regex;
use serde_json::{Value, json};

use crate::procs::{self, DEFAULT_PROTECTED, Proc};

/// A process with its classification.
fn candidate(proc: &Proc, min_age: u64) -> Value {
    let share = proc.metrics.cpu_seconds / (proc.age_seconds.max(1) as f64);
    let (class, why) = if proc.state == "Z" {
        ("zombie", "exited; its parent has not reaped it".to_owned())
    } else if proc.age_seconds >= min_age && share < 0.01 && proc.state != "R" {
        (
            "idle",
            format!(
                "running {}s with {:.2}s of CPU ({:.2}%), state {}",
                proc.age_seconds,
                proc.metrics.cpu_seconds,
                share * 100.0,
                proc.state
            ),
        )
    } else {
        (
            "active",
            format!(
                "younger than {min_age}s or using CPU ({:.2}%), state {}",
                share * 100.0,
                proc.state
            ),
        )
    };
    let mut value = serde_json::to_value(proc).unwrap_or_default();
    value["classification"] = json!(class);
    value["recommended_action"] = json!(if class == "active" { "keep" } else { "kill" });
    value["action_rationale"] = json!(why);
    value
}

fn system() -> Value {
    let load = <procfs::LoadAverage as procfs::Current>::current().ok();
    let uptime = <procfs::Uptime as procfs::Current>::current().ok();
    json!({
        "os": std::env::consts::OS,
        "uptime_seconds": uptime.map(|u| u.uptime as u64),
        "load_avg": load.map(|l| vec![l.one, l.five, l.fifteen]),
    })
}

fn census(procs: &[Proc]) -> Value {
    let mut by_state = serde_json::Map::new();
    for proc in procs {
        let count = by_state.entry(proc.state.clone()).or_insert(json!(0));
        *count = json!(count.as_u64().unwrap_or(0) + 1);
    }
    json!({ "matching_processes": procs.len(), "by_state": by_state })
}

pub fn snapshot(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let scope = procs::scope(&args.require::<String>("match")?)?;
    let found = procs::scan(&scope)?;
    let candidates: Vec<Value> = found.iter().map(|p| candidate(p, 0)).collect();
    Ok(Reply::object(&json!({
        "system": system(),
        "census": census(&found),
        "candidates": candidates,
    })))
}

pub fn plan(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let pattern = args.require::<String>("match")?;
    let scope = procs::scope(&pattern)?;
    let min_age = args.get::<i64>("min-age")?.unwrap_or(60).max(0) as u64;
    let max_kills = args.get::<i64>("max-kills")?.unwrap_or(5).max(0) as usize;
    let mut protect = Vec::new();
    let extra: Vec<String> = args.many("protect")?;
    for pattern in DEFAULT_PROTECTED
        .iter()
        .map(|p| (*p).to_owned())
        .chain(extra.iter().cloned())
    {
        let regex = Regex::new(&pattern).map_err(|e| {
            Error::new(
                "ERR_ARGS",
                format!("--protect is not a regular expression: {e}"),
            )
        })?;
        protect.push((pattern, regex));
    }
    let session = ctx
        .session()
        .ok_or_else(|| Error::internal("plan runs in a session"))?;
    let found = procs::scan(&scope)?;
    let candidates: Vec<Value> = found.iter().map(|p| candidate(p, min_age)).collect();
    let mut toggled: Vec<&Value> = Vec::new();
    let mut excluded = Vec::new();
    let mut mismatched = Vec::new();
    for c in candidates
        .iter()
        .filter(|c| c["recommended_action"] == "kill")
    {
        let cmd = c["cmd_full"].as_str().unwrap_or_default();
        if let Some((pattern, _)) = protect.iter().find(|(_, r)| r.is_match(cmd)) {
            excluded
                .push(json!({"pid": c["pid"], "gate": "protected_patterns", "pattern": pattern}));
            continue;
        }
        // Identity just before toggling: a process that ended or was replaced is left out.
        let pid = c["pid"].as_i64().unwrap_or(0) as i32;
        let start_id = c["start_id"].as_str().unwrap_or_default();
        if procs::now(pid).is_none_or(|(id, _)| id != start_id) {
            mismatched.push(pid);
            excluded.push(json!({"pid": pid, "gate": "identity_mismatch"}));
            continue;
        }
        toggled.push(c);
    }
    let requested = toggled.len();
    for c in toggled.drain(max_kills.min(requested)..) {
        excluded.push(json!({"pid": c["pid"], "gate": "max_kills"}));
    }
    let blocked: Vec<&Value> = excluded
        .iter()
        .filter(|e| e["gate"] == "protected_patterns")
        .collect();
    ctx.gate(
        "max_kills",
        requested <= max_kills,
        json!({"limit": max_kills, "requested": requested}),
    )?;
    ctx.gate(
        "protected_patterns",
        blocked.is_empty(),
        json!({"blocked": blocked, "patterns": protect.iter().map(|(p, _)| p).collect::<Vec<_>>()}),
    )?;
    ctx.gate(
        "identity_mismatch",
        mismatched.is_empty(),
        json!({"skipped": mismatched}),
    )?;
    let id = session.id();
    let pre_toggled = json!({
        "action": "kill",
        "pids": toggled.iter().map(|c| c["pid"].clone()).collect::<Vec<_>>(),
        "start_ids": toggled.iter().map(|c| c["start_id"].clone()).collect::<Vec<_>>(),
        "rationale": format!("{} idle or zombie processes within the gates", toggled.len()),
        "gates_applied": ["max_kills", "protected_patterns", "identity_mismatch"],
        "excluded_by_gates": excluded,
    });
    let found_any = candidates.iter().any(|c| c["recommended_action"] == "kill");
    let by_class = |class: &str| {
        candidates
            .iter()
            .filter(|c| c["classification"] == class)
            .count()
    };
    let data = json!({
        "scan_summary": {
            "processes_scanned": found.len(),
            "candidates_found": by_class("idle") + by_class("zombie"),
            "min_age_seconds": min_age,
        },
        "plan": {
            "total_candidates": candidates.len(),
            "by_action": { "kill": toggled.len(), "keep": candidates.len() - toggled.len() },
            "by_class": { "idle": by_class("idle"), "zombie": by_class("zombie"), "active": by_class("active") },
        },
        "candidates": candidates,
        "pre_toggled": pre_toggled,
        "requires_confirmation": true,
    });
    // The scope goes with the plan: `apply` checks every target against it again. The plan's
    // digest goes to the caller, not only to the session file: an `apply` that names it runs
    // that plan or nothing, whatever was written into the file since.
    let stored = json!({
        "candidates": data["candidates"],
        "pre_toggled": data["pre_toggled"],
        "scope": { "match": pattern, "protect": extra },
    });
    let digest = crate::digest::of(&stored);
    let mut data = data;
    data["plan_digest"] = json!(digest);
    data["apply_command"] = json!(format!(
        "triage apply --session {id} --recommended --yes --plan {digest}"
    ));
    session.put("plan", &stored)?;
    session.write_artifact(
        "plan.json",
        &serde_json::to_vec_pretty(&data).unwrap_or_default(),
    )?;
    session.set_summary(
        "candidates_found",
        json!(by_class("idle") + by_class("zombie")),
    )?;
    session.set_summary("actions_applied", json!(0))?;
    // Nothing to end: the session is complete at once (nothing to resume).
    session.transition(if toggled.is_empty() {
        "complete"
    } else {
        "planned"
    })?;
    ctx.outcome(if found_any {
        "OK_CANDIDATES"
    } else {
        "OK_CLEAN"
    })?;
    if let Some(style) = ctx.prose_style() {
        ctx.prose(prose(style, toggled.len(), candidates.len()));
    }
    Ok(Reply::object(&data))
}

fn prose(style: ProseStyle, toggled: usize, total: usize) -> String {
    match style {
        ProseStyle::Terse => format!("{toggled} to end of {total} matching."),
        ProseStyle::Conversational => format!(
            "I looked at {total} of your matching processes and {toggled} look idle enough to end safely."
        ),
        ProseStyle::Formal => format!(
            "Of {total} matching processes, {toggled} were classified idle or zombie and pre-toggled for termination."
        ),
        ProseStyle::Technical => format!(
            "{total} processes matched the scope; {toggled} passed max_kills, protected_patterns and identity_mismatch and are pre-toggled (SIGTERM, then SIGKILL after the grace period)."
        ),
    }
}

pub fn explain(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let pid: i64 = args.require("pid")?;
    let session = ctx
        .session()
        .ok_or_else(|| Error::internal("explain runs in a session"))?;
    let plan = session
        .get("plan")
        .ok_or_else(|| Error::new("ERR_SESSION", "the session has no plan yet"))?;
    let Some(candidate) = plan["candidates"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|c| c["pid"] == json!(pid))
        .cloned()
    else {
        return Err(Error::new(
            "ERR_ARGS",
            format!("{pid} is not a candidate of session {}", session.id()),
        )
        .with_details(json!({ "pid": pid })));
    };
    let toggled = plan["pre_toggled"]["pids"]
        .as_array()
        .is_some_and(|pids| pids.contains(&json!(pid)));
    let excluded_by = plan["pre_toggled"]["excluded_by_gates"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| e["pid"] == json!(pid))
        .cloned();
    let still = procs::alive(
        pid as i32,
        candidate["start_id"].as_str().unwrap_or_default(),
    );
    Ok(Reply::object(&json!({
        "candidate": candidate,
        "evidence": {
            "age_seconds": candidate["age_seconds"],
            "cpu_seconds": candidate["metrics"]["cpu_seconds"],
            "state": candidate["state"],
            "rationale": candidate["action_rationale"],
        },
        "pre_toggled": toggled,
        "excluded_by_gate": excluded_by,
        "still_running": still,
    })))
}
