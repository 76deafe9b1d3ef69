//! The runtime's `job` word (CLI Agent Spec failure mode 49), in every tool with a job
//! command: `job status ID`, `job cancel ID` and `job list`, answered through the profile.
//!
//! `job status` says the job's state by its exit code as well as its data: 0 once it
//! succeeded (data: the descriptor with `result`); otherwise an error whose code is the state
//! (`JOB_RUNNING` 75, retryable with `retry_after_ms` = the poll interval, not a failure;
//! `JOB_FAILED` 76 with the handler's `error`; `JOB_CANCELLED` 77; `JOB_TIMED_OUT` 78;
//! `JOB_NOT_FOUND` 74), its `details` the descriptor.

use std::time::Duration;

use pas_spec::Registry;
use pas_spec::builtin_codes::{
    JOB_CANCELLED, JOB_FAILED, JOB_LOST, JOB_NOT_FOUND, JOB_RUNNING, JOB_TIMED_OUT,
};
use serde_json::{Value, json};

use crate::error::Error;
use crate::reply::Reply;
pub(crate) use crate::services::jobs::run::descriptor;
use crate::services::jobs::store::{self, Manifest, Status};

/// The clap id of a job's id argument.
const ID_ARG: &str = "pas_job_id";
/// The clap id of `--wait` on a job command.
pub(crate) const WAIT_ID: &str = "pas_job_wait";
/// How long `job cancel` waits after SIGTERM before SIGKILL.
const GRACE: Duration = Duration::from_secs(2);
/// How long a job may stay queued (its process not started) before it counts as lost.
const QUEUED_GRACE_MS: u64 = 10_000;

/// Adds `job status|cancel|list` and each job command's `--wait` to the clap command.
pub(crate) fn augment(mut cmd: clap::Command, registry: &Registry) -> clap::Command {
    if !registry.offers_jobs() {
        return cmd;
    }
    for command in registry.commands.iter().filter(|c| c.is_job()) {
        // From the row the faces list for the command.
        let wait = crate::parse::flag_args::command_arg(
            WAIT_ID,
            registry,
            command,
            pas_spec::job::WAIT_FLAG,
        );
        cmd = crate::parse::clap_augment::at_path(cmd, &command.argv_path(), &mut |sub| {
            sub.args(wait.clone())
        });
    }
    let id = || {
        clap::Arg::new(ID_ARG)
            .value_name("ID")
            .required(true)
            .help("The job's id (job_id of the descriptor)")
    };
    cmd.subcommand(
        clap::Command::new(pas_spec::job::JOB_WORD)
            .about("Async jobs: status, cancel, list")
            .subcommand_required(true)
            .subcommand(
                clap::Command::new("status")
                    .about("The job's state: exit 0 once it succeeded, else its JOB_* code")
                    .arg(id()),
            )
            .subcommand(
                clap::Command::new("cancel")
                    .about("End a running job (SIGTERM, then SIGKILL)")
                    .arg(id()),
            )
            .subcommand(clap::Command::new("list").about("Every job with its status")),
    )
}

/// Runs `job status|cancel|list` (the matched subcommand is `action`).
pub(crate) fn run(
    registry: &Registry,
    action: &str,
    leaf: &clap::ArgMatches,
) -> Result<Reply, Error> {
    let id = leaf
        .try_get_one::<String>(ID_ARG)
        .ok()
        .flatten()
        .cloned()
        .unwrap_or_default();
    match action {
        "status" => status(registry, &id),
        "cancel" => cancel(registry, &id),
        _ => list(registry),
    }
}

fn not_found(registry: &Registry, id: &str) -> Error {
    let why = match store::is_id(id) {
        true => "no job has this id (it never existed here, or its directory was removed)",
        false => "this is not a job id (job- and twelve characters a-z, 2-7)",
    };
    let prefix = pas_spec::surface::of(registry.profile).invocation_prefix(registry);
    Error::new(JOB_NOT_FOUND, format!("job `{id}`: {why}"))
        .with_suggestion(format!("{} job list", prefix.join(" ")))
        .with_retryable(false)
}

/// The manifest of `id`, with a vanished process recorded as `failed` (`JOB_LOST`).
fn load(registry: &Registry, id: &str) -> Result<(crate::services::store::Root, Manifest), Error> {
    let root = store::root(&registry.name, false)?.ok_or_else(|| not_found(registry, id))?;
    let manifest = store::read(&root, id)?.ok_or_else(|| not_found(registry, id))?;
    let manifest = refresh(&root, manifest)?;
    Ok((root, manifest))
}

/// Whether the job's recorded process still runs (same pid and start time).
fn alive(manifest: &Manifest) -> bool {
    match (manifest.pid, manifest.pid_start) {
        (Some(pid), Some(start)) => {
            crate::services::children::kept_children::start_time(pid) == Some(start)
        }
        _ => false,
    }
}

fn refresh(root: &crate::services::store::Root, manifest: Manifest) -> Result<Manifest, Error> {
    let lost = match manifest.status {
        Status::Running => !alive(&manifest),
        Status::Queued => store::now_ms().saturating_sub(manifest.started_ms) > QUEUED_GRACE_MS,
        _ => false,
    };
    if !lost {
        return Ok(manifest);
    }
    let error = json!({
        "code": JOB_LOST,
        "message": "the job's process ended without recording a result (killed from outside, or the machine restarted)",
    });
    crate::services::jobs::run::end(root, &manifest.id, Status::Failed, None, Some(error))?;
    // Read again: the run may have recorded its end just before.
    store::read(root, &manifest.id)?.ok_or_else(|| Error::general("the job's manifest vanished"))
}

fn status(registry: &Registry, id: &str) -> Result<Reply, Error> {
    let (_, manifest) = load(registry, id)?;
    let mut data = descriptor(&manifest);
    let id = &manifest.id;
    let (code, message) = match manifest.status {
        Status::Succeeded => {
            data["result"] = manifest.result.clone().unwrap_or(Value::Null);
            let text = format!("job {id} succeeded");
            return Ok(Reply::object_with_text(&data, text));
        }
        Status::Queued | Status::Running => {
            let error = Error::new(
                JOB_RUNNING,
                format!(
                    "job {id} is still {}; poll again",
                    status_word(manifest.status)
                ),
            )
            .with_suggestion(manifest.status_command.clone())
            .with_details(data)
            .with_retryable(true)
            .with_retry_after_ms(manifest.poll_interval_ms)
            // Poll at the same pace until the job's time limit, not a few times.
            .with_retry_strategy(crate::retry::RetryStrategy::LinearBackoff)
            .with_max_retries(polls_left(&manifest));
            return Err(error);
        }
        Status::Failed => (JOB_FAILED, format!("job {id} failed")),
        Status::Cancelled => (JOB_CANCELLED, format!("job {id} was cancelled")),
        Status::TimedOut => (
            JOB_TIMED_OUT,
            format!(
                "job {id} ran past its time limit of {} ms",
                manifest.timeout_ms
            ),
        ),
    };
    if let Some(error) = &manifest.error {
        data["error"] = error.clone();
    }
    let message = match manifest.error.as_ref().and_then(|e| e["message"].as_str()) {
        Some(why) if manifest.status == Status::Failed => format!("{message}: {why}"),
        _ => message,
    };
    Err(Error::new(code, message)
        .with_details(data)
        .with_retryable(false))
}

/// How many polls the job's time limit leaves (at least one).
fn polls_left(manifest: &Manifest) -> u32 {
    let left = (manifest.started_ms + manifest.timeout_ms).saturating_sub(store::now_ms());
    u32::try_from(left.div_ceil(manifest.poll_interval_ms.max(1)).max(1)).unwrap_or(u32::MAX)
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Queued => "queued",
        _ => "running",
    }
}

fn cancel(registry: &Registry, id: &str) -> Result<Reply, Error> {
    let (root, manifest) = load(registry, id)?;
    if manifest.status.terminal() {
        let mut data = descriptor(&manifest);
        data["cancelled"] = json!(false);
        let text = format!("job {id} had already ended");
        return Ok(Reply::object_with_text(&data, text));
    }
    if manifest.status == Status::Running && alive(&manifest) {
        let group = group_to_signal(&manifest, crate::services::children::kept_children::stat)
            .map_err(|why| refused_cancel(&manifest, why))?;
        end_process(&manifest, group);
    }
    let error = json!({ "code": JOB_CANCELLED, "message": "cancelled by `job cancel`" });
    crate::services::jobs::run::end(&root, id, Status::Cancelled, None, Some(error))?;
    let manifest = store::read(&root, id)?.ok_or_else(|| not_found(registry, id))?;
    let mut data = descriptor(&manifest);
    data["cancelled"] = json!(manifest.status == Status::Cancelled);
    let text = format!("job {id}: {}", data["status"].as_str().unwrap_or(""));
    Ok(Reply::object_with_text(&data, text))
}

/// The process group `job cancel` may signal for this manifest, checked against what the
/// runtime recorded when it started the job and what `/proc` says now (`seen`): the group the
/// run leads (pgid = pid, both recorded), never pid 0 or 1 nor this call's own group, with the
/// recorded start time, and still that group's leader. A manifest is data: one edited to name
/// another process (pid 1 with pid 1's start time) is refused here, and nothing is signalled.
fn group_to_signal(
    manifest: &Manifest,
    seen: impl Fn(i32) -> Option<crate::services::children::kept_children::Stat>,
) -> Result<i32, &'static str> {
    let (Some(pid), Some(start), Some(pgid)) = (manifest.pid, manifest.pid_start, manifest.pgid)
    else {
        return Err("the manifest records no process group this runtime started");
    };
    if !crate::services::children::kept_children::signallable(pid) || pgid != pid {
        return Err("the manifest names a process that is not a job's own process group");
    }
    #[cfg(unix)]
    if rustix::process::getpgrp().as_raw_nonzero().get() == pgid {
        return Err("the manifest names this call's own process group");
    }
    match seen(pid) {
        Some(now) if now.start_time == start && now.pgrp == pgid => Ok(pgid),
        Some(now) if now.start_time == start => {
            Err("the job's process no longer leads the process group recorded")
        }
        _ => Err("the job's process is not the one recorded"),
    }
}

fn refused_cancel(manifest: &Manifest, why: &str) -> Error {
    Error::general(format!(
        "job {}: nothing was signalled: {why}",
        manifest.id
    ))
    .with_suggestion("the job's manifest was changed after the runtime wrote it: end the process yourself, then remove the job's directory")
    .with_details(json!({ "job_id": manifest.id, "pid": manifest.pid, "pgid": manifest.pgid }))
    .with_retryable(false)
}

/// Ends the job's process group `group` (checked by [`group_to_signal`]), only while its
/// leader is still the process recorded: SIGTERM, up to [`GRACE`] to exit, then SIGKILL.
fn end_process(manifest: &Manifest, group: i32) {
    #[cfg(unix)]
    {
        use rustix::process::{Pid, Signal, kill_process_group};
        let Some(pid) = Pid::from_raw(group) else {
            return;
        };
        let _ = kill_process_group(pid, Signal::TERM);
        let started = std::time::Instant::now();
        while started.elapsed() < GRACE {
            if !alive(manifest) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Checked again just before: the group is ours to signal only while it is the job's.
        if group_to_signal(manifest, crate::services::children::kept_children::stat) == Ok(group) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
    #[cfg(not(unix))]
    let _ = (manifest, group);
}

fn list(registry: &Registry) -> Result<Reply, Error> {
    let Some(root) = store::root(&registry.name, false)? else {
        return Ok(Reply::list(Vec::<Result<Value, Error>>::new()));
    };
    let mut jobs = Vec::new();
    for id in store::ids(&root)? {
        let item = match store::read(&root, &id) {
            Ok(Some(manifest)) => refresh(&root, manifest).map(|m| descriptor(&m)),
            Ok(None) => continue,
            Err(error) => Err(error),
        };
        jobs.push(item);
    }
    Ok(Reply::list(jobs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::children::kept_children::Stat;

    fn manifest(pid: i32, start: u64, pgid: Option<i32>) -> Manifest {
        serde_json::from_value(json!({
            "id": "job-aaaaaaaaaaaa", "command": "build", "argv": ["t", "build"],
            "pid": pid, "pid_start": start, "pgid": pgid, "status": "running",
            "started_at": "2026-01-01T00:00:00Z", "started_ms": 0, "poll_interval_ms": 1000,
            "timeout_ms": 1000, "status_command": "t job status", "cancel_command": "t job cancel",
        }))
        .unwrap()
    }

    /// `/proc` as a test says it is: `pid` with this start time, leading `pgrp`.
    fn seen(pid: i32, start: u64, pgrp: i32) -> impl Fn(i32) -> Option<Stat> {
        move |asked| {
            (asked == pid).then_some(Stat {
                pgrp,
                start_time: start,
            })
        }
    }

    #[test]
    fn a_manifest_naming_pid_1_with_its_true_start_time_is_refused() {
        // What /proc says of init: pid 1, leading group 1, started at tick 5.
        let init = seen(1, 5, 1);
        for (pid, pgid) in [(1, Some(1)), (1, None), (0, Some(0)), (-1, Some(-1))] {
            let refused = group_to_signal(&manifest(pid, 5, pgid), &init);
            assert!(refused.is_err(), "pid {pid} pgid {pgid:?}: {refused:?}");
        }
        // The real init too (read from this machine's /proc, never signalled).
        if let Some(real) = crate::services::children::kept_children::stat(1) {
            let forged = manifest(1, real.start_time, Some(real.pgrp));
            assert!(
                group_to_signal(&forged, crate::services::children::kept_children::stat).is_err()
            );
        }
    }

    #[test]
    fn only_the_recorded_group_of_the_recorded_process_is_signalled() {
        assert_eq!(
            group_to_signal(&manifest(4242, 7, Some(4242)), seen(4242, 7, 4242)),
            Ok(4242)
        );
        // No group recorded (a manifest written by hand, or before groups were recorded).
        assert!(group_to_signal(&manifest(4242, 7, None), seen(4242, 7, 4242)).is_err());
        // A group other than the run's own.
        assert!(group_to_signal(&manifest(4242, 7, Some(99)), seen(4242, 7, 99)).is_err());
        // The pid was reused (another start time), or left its group.
        assert!(group_to_signal(&manifest(4242, 7, Some(4242)), seen(4242, 8, 4242)).is_err());
        assert!(group_to_signal(&manifest(4242, 7, Some(4242)), seen(4242, 7, 17)).is_err());
        // Gone.
        assert!(group_to_signal(&manifest(4242, 7, Some(4242)), |_| None).is_err());
    }

    #[test]
    #[cfg(unix)]
    fn this_calls_own_group_is_never_signalled() {
        let me = rustix::process::getpgrp().as_raw_nonzero().get();
        let leader = crate::services::children::kept_children::stat(me);
        if let Some(leader) = leader {
            let own = manifest(me, leader.start_time, Some(me));
            assert!(group_to_signal(&own, crate::services::children::kept_children::stat).is_err());
        }
    }
}
