//! fm49.job_status (CLI Agent Spec §49, Async Job / Polling Protocol Absence): a tool with a
//! job command (`output: job`) answers it at once with a typed descriptor, and its
//! `job status ID` says the job's state by its exit code: the running code (not 0) while the
//! job runs, 0 once it succeeded, the failed code when it failed, and the not-found code for an
//! unknown id. Skipped when the target declares no job command.

use serde_json::Value;

use super::{Verdict, compose, json, robot};
use crate::context::Ctx;
use crate::runner::{Call, Run};
use crate::target::Contract;

/// An id no job has.
const UNKNOWN: &str = "job-aaaaaaaaaaaa";
/// How long the check follows one job before it cancels it.
const FOLLOW_MS: u64 = 15_000;

/// The answer's payload (pas: stdout; compose and robot: the envelope's `data`).
fn data(contract: Contract, run: &Run) -> Result<Value, String> {
    match contract {
        Contract::Pas => json(&run.out()),
        Contract::Compose => Ok(compose::envelope(run)?["data"].clone()),
        Contract::Robot => Ok(robot::envelope(run)?["data"].clone()),
    }
}

/// A failure's constant and details (pas: stderr's line; compose and robot: the envelope).
fn error(contract: Contract, run: &Run) -> Option<(String, Value)> {
    let (code, details) = match contract {
        Contract::Pas => {
            let line = super::errors::stderr_error(run).ok()?;
            (line["error"].clone(), line["details"].clone())
        }
        Contract::Compose => {
            let envelope = compose::envelope(run).ok()?;
            (
                envelope["error"]["code"].clone(),
                envelope["error"]["details"].clone(),
            )
        }
        Contract::Robot => {
            let envelope = robot::envelope(run).ok()?;
            (
                envelope["error"]["code"].clone(),
                envelope["error"]["details"].clone(),
            )
        }
    };
    Some((code.as_str()?.to_owned(), details))
}

/// The exit code of a `job status` state in this contract (compose keeps 1 for every failure).
fn exit_of(contract: Contract, name: &str) -> i32 {
    if contract == Contract::Compose {
        return 1;
    }
    pas_spec::builtin_codes::JOB_CODES
        .iter()
        .find(|b| b.name == name)
        .map_or(1, |b| i32::from(b.exit))
}

/// What the descriptor lacks, if anything.
fn descriptor_problem(data: &Value) -> Option<String> {
    let string = |key: &str| data[key].as_str().is_some_and(|s| !s.is_empty());
    for key in [
        "job_id",
        "status",
        "status_command",
        "cancel_command",
        "started_at",
    ] {
        if !string(key) {
            return Some(format!("the descriptor has no {key} string"));
        }
    }
    let states = [
        "queued",
        "running",
        "succeeded",
        "failed",
        "cancelled",
        "timed_out",
    ];
    if !states.contains(&data["status"].as_str().unwrap_or("")) {
        return Some(format!(
            "status {} is not one of {states:?}",
            data["status"]
        ));
    }
    if !data["terminal"].is_boolean() {
        return Some("the descriptor has no terminal boolean".to_owned());
    }
    for key in ["poll_interval_ms", "timeout_ms"] {
        if !data[key].is_u64() {
            return Some(format!("the descriptor has no {key} number"));
        }
    }
    None
}

/// The words that start the job command: its first example's (after the tool's name and the
/// machine switch), else its argv path.
fn start_words(command: &pas_spec::Command) -> Vec<String> {
    match command.examples.first() {
        Some(example) => example
            .command
            .split_whitespace()
            .skip(1)
            .filter(|w| *w != "--agent")
            .map(str::to_owned)
            .collect(),
        None => command.argv_path(),
    }
}

/// The state `job status` reported: `Ok((name, terminal))` where name is `succeeded` or the
/// error constant, or why the answer breaks the protocol.
fn state(contract: Contract, run: &Run) -> Result<(String, bool), String> {
    if run.exited(0) {
        let data = data(contract, run)?;
        if data["status"] != "succeeded" || data["terminal"] != true {
            return Err(format!(
                "job status exited 0 while the job is {}",
                data["status"]
            ));
        }
        if data.get("result").is_none() {
            return Err("job status exited 0 without the job's result".to_owned());
        }
        return Ok(("succeeded".to_owned(), true));
    }
    let Some((code, details)) = error(contract, run) else {
        return Err("job status failed without a structured error".to_owned());
    };
    if run.code != Some(exit_of(contract, &code)) {
        return Err(format!(
            "job status answered {code} with exit {:?}",
            run.code
        ));
    }
    let terminal = details["terminal"].as_bool();
    match code.as_str() {
        "JOB_RUNNING" if terminal == Some(false) => Ok((code, false)),
        "JOB_FAILED" | "JOB_CANCELLED" | "JOB_TIMED_OUT" if terminal == Some(true) => {
            Ok((code, true))
        }
        _ => Err(format!(
            "job status answered {code} with terminal {terminal:?}"
        )),
    }
}

/// The check.
pub fn job_status(ctx: &mut Ctx) -> Verdict {
    let Some(registry) = ctx.registry.clone() else {
        return Verdict::skip("the target's registry is unknown");
    };
    let Some(command) = registry.commands.iter().find(|c| c.is_job()) else {
        return Verdict::skip("the target declares no job command (output: job)");
    };
    if !registry.offers_jobs() {
        return Verdict::skip("the target's job word is taken by a command of its own");
    }
    let contract = ctx.contract;
    let started = ctx.run(&Call::new(&ctx.machine(&start_words(command))));
    let descriptor = match data(contract, &started) {
        Ok(d) if started.exited(0) => d,
        _ => {
            return Verdict::fail(
                "the job command did not exit 0 with a descriptor",
                &[&started],
            );
        }
    };
    if let Some(problem) = descriptor_problem(&descriptor) {
        return Verdict::fail(problem, &[&started]);
    }
    let id = descriptor["job_id"].as_str().unwrap_or_default().to_owned();
    let poll = descriptor["poll_interval_ms"]
        .as_u64()
        .unwrap_or(1000)
        .clamp(20, 1000);
    let status_words = ctx.machine(&["job".to_owned(), "status".to_owned(), id.clone()]);
    let first = ctx.run(&Call::new(&status_words));
    if let Err(why) = state(contract, &first) {
        return Verdict::fail(why, &[&started, &first]);
    }
    let mut last = first.clone();
    let mut waited = 0;
    while matches!(state(contract, &last), Ok((_, false))) && waited < FOLLOW_MS {
        std::thread::sleep(std::time::Duration::from_millis(poll));
        waited += poll;
        last = ctx.run(&Call::new(&status_words));
        if let Err(why) = state(contract, &last) {
            return Verdict::fail(why, &[&started, &first, &last]);
        }
    }
    if matches!(state(contract, &last), Ok((_, false))) {
        // Still running: the protocol's cancel must end it.
        let cancel = ctx.run(&Call::new(&ctx.machine(&[
            "job".to_owned(),
            "cancel".to_owned(),
            id.clone(),
        ])));
        last = ctx.run(&Call::new(&status_words));
        if !cancel.exited(0)
            || !matches!(state(contract, &last), Ok((ref c, true)) if c == "JOB_CANCELLED")
        {
            return Verdict::fail(
                "job cancel did not end a running job",
                &[&first, &cancel, &last],
            );
        }
    }
    let unknown = ctx.run(&Call::new(&ctx.machine(&[
        "job".to_owned(),
        "status".to_owned(),
        UNKNOWN.to_owned(),
    ])));
    let not_found = error(contract, &unknown).is_some_and(|(code, _)| code == "JOB_NOT_FOUND");
    if !not_found || unknown.code != Some(exit_of(contract, "JOB_NOT_FOUND")) {
        return Verdict::fail(
            "an unknown job id is not JOB_NOT_FOUND with its exit code",
            &[&unknown],
        );
    }
    Verdict::pass(&[&started, &first, &last, &unknown])
}
