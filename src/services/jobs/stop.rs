//! Ending a running job (`TOOL job cancel ID`, MCP's `tasks/cancel`): its process group,
//! checked against what the runtime recorded when it started the job, gets SIGTERM, then
//! SIGKILL after [`GRACE`]; the manifest records `cancelled`.

use std::time::Duration;

use pas_spec::Registry;
use pas_spec::builtin_codes::JOB_CANCELLED;
use serde_json::json;

use super::follow::{alive, load, not_found};
use super::store::{self, Manifest, Status};
use crate::error::Error;

/// How long a cancel waits after SIGTERM before SIGKILL.
const GRACE: Duration = Duration::from_secs(2);

/// What a cancel found and left.
pub(crate) struct Cancelled {
    /// The job's manifest afterwards.
    pub(crate) manifest: Manifest,
    /// Whether the job had ended before the cancel (nothing was done).
    pub(crate) ended_before: bool,
}

/// Cancels job `id` (`by` names who asked, for the manifest's error) and answers its manifest
/// afterwards: `cancelled`, unless it had ended before or its run recorded its end first. An
/// unknown id is `JOB_NOT_FOUND`; a manifest that names a process the runtime did not start is
/// refused and nothing is signalled.
pub(crate) fn cancel(registry: &Registry, id: &str, by: &str) -> Result<Cancelled, Error> {
    let (root, manifest) = load(registry, id)?;
    if manifest.status.terminal() {
        return Ok(Cancelled {
            manifest,
            ended_before: true,
        });
    }
    if manifest.status == Status::Running && alive(&manifest) {
        let group = group_to_signal(&manifest, crate::services::children::kept_children::stat)
            .map_err(|why| refused_cancel(&manifest, why))?;
        end_process(&manifest, group);
    }
    let error = json!({ "code": JOB_CANCELLED, "message": format!("cancelled by {by}") });
    super::run::end(&root, id, Status::Cancelled, None, Some(error))?;
    let manifest = store::read(&root, id)?.ok_or_else(|| not_found(registry, id))?;
    Ok(Cancelled {
        manifest,
        ended_before: false,
    })
}

/// [`cancel`] for a caller that needs no more than whether it went through (MCP's
/// `tasks/cancel`, whose acknowledgement is empty).
pub(crate) fn cancel_quietly(registry: &Registry, id: &str, by: &str) -> Result<(), Error> {
    cancel(registry, id, by).map(|_| ())
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
