//! The job store: one directory per job under `$XDG_STATE_HOME/TOOL/jobs/ID/`, holding its
//! manifest (`manifest.json`, replaced atomically: write, fsync, rename), the stdin the call
//! was given, and the detached run's stdout and stderr.
//!
//! A manifest that does not parse is reported naming its file and never rewritten: the store
//! only replaces manifests it could read.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Error;
use crate::services::store::Root;

pub(crate) use crate::parse::job_id::is_id;
use crate::parse::job_id::{BASE32, PREFIX, SUFFIX_LEN};

/// The manifest's file name inside a job's directory.
const MANIFEST: &str = "manifest.json";

/// Where a job is in its life. Terminal: succeeded, failed, cancelled, timed_out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    /// Recorded, its process not started yet.
    Queued,
    /// Its process runs.
    Running,
    /// The handler returned its result.
    Succeeded,
    /// The handler failed (or the process vanished: `JOB_LOST`).
    Failed,
    /// `job cancel` ended it.
    Cancelled,
    /// It ran past its time limit and was ended.
    TimedOut,
}

impl Status {
    /// Whether the job has ended (its status no longer changes).
    pub(crate) fn terminal(self) -> bool {
        !matches!(self, Status::Queued | Status::Running)
    }
}

/// What the store keeps of one job.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Manifest {
    pub(crate) id: String,
    /// The dotted command name.
    pub(crate) command: String,
    /// The call's argv (program name first), as the detached run re-executes it.
    pub(crate) argv: Vec<String>,
    /// The detached run's pid and start time (`/proc/PID/stat` field 22): a reused pid has
    /// another start time, so it is never mistaken for the job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pid: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pid_start: Option<u64>,
    /// The process group the runtime started the run in (its own: the run's pid), recorded
    /// at start; `job cancel` signals this group only while `/proc` still says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pgid: Option<i32>,
    pub(crate) status: Status,
    pub(crate) started_at: String,
    /// `started_at` in milliseconds since the epoch (for the time limit).
    pub(crate) started_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) ended_at: Option<String>,
    pub(crate) poll_interval_ms: u64,
    pub(crate) timeout_ms: u64,
    pub(crate) status_command: String,
    pub(crate) cancel_command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) progress_pct: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) result: Option<Value>,
    /// The structured error of a failed job: `{code, message, suggestion?, details?}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<Value>,
}

/// The tool's jobs directory, created when `create`.
pub(crate) fn root(tool: &str, create: bool) -> Result<Option<Root>, Error> {
    let Some(state) = crate::xdg::state_home() else {
        return match create {
            true => Err(Error::general(
                "cannot start a job: no state directory (set XDG_STATE_HOME or HOME)",
            )
            .with_suggestion("set XDG_STATE_HOME to a writable directory, or add --wait")),
            false => Ok(None),
        };
    };
    let dir = state.join(tool).join("jobs");
    match create {
        true => Root::open(dir).map(Some),
        false => Root::open_existing(dir),
    }
}

/// A fresh job id: `job-` and twelve base32 characters (60 random bits).
pub(crate) fn new_id() -> String {
    // std's RandomState is seeded from the OS's randomness: enough to keep ids apart (an id
    // is a name, not a secret).
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.write_u128(now_ms().into());
    let mut bits = hasher.finish();
    let mut id = String::from(PREFIX);
    for _ in 0..SUFFIX_LEN {
        id.push(char::from(BASE32[(bits & 31) as usize]));
        bits >>= 5;
    }
    id
}

/// Milliseconds since the epoch, now.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The manifest of job `id`: `Ok(None)` when no job has this id (or it is not an id), an
/// error naming the file when it cannot be read or parsed.
pub(crate) fn read(root: &Root, id: &str) -> Result<Option<Manifest>, Error> {
    if !is_id(id) {
        return Ok(None);
    }
    let path = format!("{id}/{MANIFEST}");
    let Some(bytes) = root.read_as(
        std::path::Path::new(&path),
        crate::stdio::state_file::JOB_MANIFEST,
    )?
    else {
        return Ok(None);
    };
    serde_json::from_slice(&bytes).map(Some).map_err(|err| {
        Error::general(format!(
            "the job manifest {} is corrupt: {err}",
            root.path().join(&path).display()
        ))
        .with_suggestion(
            "remove that job's directory; the store never rewrites a manifest it cannot read",
        )
    })
}

/// Replaces the manifest of `manifest.id` atomically.
pub(crate) fn write(root: &Root, manifest: &Manifest) -> Result<(), Error> {
    let bytes = serde_json::to_vec_pretty(manifest).map_err(crate::error::serialise_error)?;
    root.write(format!("{}/{MANIFEST}", manifest.id), &bytes)
        .map(|_| ())
}

/// How long a finished job is kept (its id answers `JOB_NOT_FOUND` after): seven days.
pub(crate) const KEPT_MS: u64 = 7 * 24 * 3600 * 1000;

/// Removes the jobs that ended more than [`KEPT_MS`] ago (counted from their start), best
/// effort: a manifest that cannot be read is left for a person to look at.
pub(crate) fn prune(root: &Root) {
    let now = now_ms();
    for id in ids(root).unwrap_or_default() {
        if let Ok(Some(manifest)) = read(root, &id)
            && manifest.status.terminal()
            && now.saturating_sub(manifest.started_ms) > KEPT_MS
        {
            let _ = root.remove_dir_all(&id);
        }
    }
}

/// Every job's id, sorted (directories whose name is not an id are left out).
pub(crate) fn ids(root: &Root) -> Result<Vec<String>, Error> {
    let mut ids: Vec<String> = root
        .list("")?
        .unwrap_or_default()
        .into_iter()
        .map(|entry| entry.name)
        .filter(|name| is_id(name))
        .collect();
    pas_spec::sorting::sort(&mut ids);
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_fresh_and_recognised() {
        let (a, b) = (new_id(), new_id());
        assert!(is_id(&a) && is_id(&b), "{a} {b}");
        assert_ne!(a, b);
        for bad in [
            "",
            "job-",
            "job-../../etc",
            "job-ABCDEFGHIJKL",
            "x-abcdefghijkl",
        ] {
            assert!(!is_id(bad), "{bad}");
        }
    }

    #[test]
    fn terminal_states() {
        assert!(!Status::Queued.terminal() && !Status::Running.terminal());
        for s in [
            Status::Succeeded,
            Status::Failed,
            Status::Cancelled,
            Status::TimedOut,
        ] {
            assert!(s.terminal());
        }
    }
}
