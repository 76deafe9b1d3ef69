//! Children kept on purpose (CLI Agent Spec failure mode 17), on Linux: a command that calls
//! [`crate::services::children::process::keep_children`] leaves its processes running, and the runtime records
//! each of them (and each of their descendants) in the tool's session PID file,
//! `$XDG_STATE_HOME/<tool>/children.json`, so that `TOOL cleanup` can list them later and end
//! them when confirmed.
//!
//! A process is named by its pid *and* its start time (field 22 of `/proc/PID/stat`, clock
//! ticks since boot): once the process is gone its pid may be reused by an unrelated one,
//! whose start time differs, so a stale entry never leads to signalling a stranger. Entries
//! whose process is gone are pruned whenever the file is written.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

// Still named from here by the `job` built-in. They live with the descendants, which starting a
// job names too, so that this file and the job's start each ask them and not each other.
pub(crate) use crate::services::children::descendants::{Stat, start_time, stat};

/// The file, under the tool's state directory.
const FILE: &str = "children.json";

/// The tool's name and the recorder, set before a handler runs (where the record goes at the
/// call's end). Only [`prepare`] names the recorder, and only a tool that offers `cleanup`
/// reaches `prepare` (`crate::run::rooms`), so no other binary links the record or its store.
static TOOL: OnceLock<(String, Recorder)> = OnceLock::new();

/// Records the kept children of the named tool's call (the tool, the command).
type Recorder = fn(&str, Option<&str>);

/// One recorded process.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Kept {
    pub(crate) pid: i32,
    /// Its start time in clock ticks since boot: with the pid, what names it.
    pub(crate) start_time: u64,
    pub(crate) command_line: String,
    /// The tool's command whose call kept it.
    pub(crate) command: String,
    /// When it was recorded, in seconds since the Unix epoch.
    pub(crate) recorded_at: u64,
}

#[derive(Default, Serialize, Deserialize)]
struct File {
    children: Vec<Kept>,
}

/// Remembers the tool's name for [`record`] (called before a handler runs).
pub(crate) fn prepare(tool: &str) {
    let _ = TOOL.set((tool.to_owned(), record_in));
}

/// At the call's end, when the command kept its children: records every live descendant of
/// this process in the PID file (best effort: a failure to write never fails the call). Does
/// nothing unless [`prepare`] ran.
pub(crate) fn record(command: Option<&str>) {
    if let Some((tool, record_in)) = TOOL.get() {
        record_in(tool, command);
    }
}

/// [`record`] for the tool named `tool`.
fn record_in(tool: &str, command: Option<&str>) {
    #[cfg(target_os = "linux")]
    {
        // A started job is not a kept child: `job cancel` ends it, not `cleanup`.
        if !crate::services::children::descendants::kept()
            || crate::services::children::descendants::started()
        {
            return;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let mut fresh = Vec::new();
        let mut stack = vec![std::process::id() as i32];
        while let Some(parent) = stack.pop() {
            for pid in children_of(parent) {
                if fresh.len() >= 4096 {
                    break;
                }
                stack.push(pid);
                if let Some(start_time) = start_time(pid) {
                    fresh.push(Kept {
                        pid,
                        start_time,
                        command_line: command_line(pid),
                        command: command.unwrap_or_default().to_owned(),
                        recorded_at: now,
                    });
                }
            }
        }
        if fresh.is_empty() {
            return;
        }
        // A file that cannot be read is left as it is (the record is best effort).
        let Ok(mut all) = load(tool) else {
            return;
        };
        all.retain(alive);
        all.extend(fresh);
        let _ = save(tool, &all);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (tool, command);
}

/// The recorded processes (gone ones included), or none when nothing was recorded. A file
/// that is not a regular file, is past [`crate::stdio::state_file::KEPT_CHILDREN`]'s limit or does
/// not parse is an error naming it (and is left as it is).
pub(crate) fn load(tool: &str) -> Result<Vec<Kept>, crate::error::Error> {
    let Some(root) = state_root(tool, false) else {
        return Ok(Vec::new());
    };
    let Some(bytes) = root.read_as(
        std::path::Path::new(FILE),
        crate::stdio::state_file::KEPT_CHILDREN,
    )?
    else {
        return Ok(Vec::new());
    };
    parse(&bytes).map_err(|err| {
        let path = root.path().join(FILE);
        crate::error::Error::general(format!(
            "the kept-children file {} is corrupt: {err}",
            path.display()
        ))
        .with_suggestion(format!(
            "remove {} after ending the processes it lists yourself",
            path.display()
        ))
        .with_details(serde_json::json!({ "path": path.display().to_string() }))
    })
}

/// The entries of a kept-children file's bytes.
pub(crate) fn parse(bytes: &[u8]) -> Result<Vec<Kept>, serde_json::Error> {
    serde_json::from_slice::<File>(bytes).map(|file| file.children)
}

/// Replaces the PID file with `children`, atomically (the store's write).
pub(crate) fn save(tool: &str, children: &[Kept]) -> Result<(), crate::error::Error> {
    let Some(root) = state_root(tool, true) else {
        return Ok(());
    };
    let file = File {
        children: children.to_vec(),
    };
    let bytes = serde_json::to_vec_pretty(&file).unwrap_or_default();
    root.write(FILE, &bytes).map(|_| ())
}

fn state_root(tool: &str, create: bool) -> Option<crate::services::store::Root> {
    let dir = crate::xdg::state_home()?.join(tool);
    match create {
        true => crate::services::store::Root::open(dir).ok(),
        false => crate::services::store::Root::open_existing(dir)
            .ok()
            .flatten(),
    }
}

/// Whether the recorded process still runs: its pid exists, is not a zombie, and started
/// when the record says (a reused pid has another start time).
pub(crate) fn alive(kept: &Kept) -> bool {
    start_time(kept.pid) == Some(kept.start_time)
}

/// Ends the recorded process, only if it is still the one recorded: SIGTERM, up to 500 ms to
/// exit, then SIGKILL. Whether it was signalled.
pub(crate) fn end(kept: &Kept) -> bool {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Pid, Signal, kill_process};
        // The file is data: the pid it names is checked again against what `cleanup` may
        // end (never pid 1 nor this process, only the user's own, still the one recorded).
        if !signallable(kept.pid) || !same_user(kept.pid) {
            return false;
        }
        let Some(pid) = Pid::from_raw(kept.pid) else {
            return false;
        };
        if !alive(kept) {
            return false;
        }
        let _ = kill_process(pid, Signal::TERM);
        let started = std::time::Instant::now();
        while started.elapsed() < std::time::Duration::from_millis(500) {
            if !alive(kept) {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        // Checked again just before: the pid is ours to signal only while it names the
        // process recorded.
        if alive(kept) {
            let _ = kill_process(pid, Signal::KILL);
        }
        true
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = kept;
        false
    }
}

/// Whether a recorded pid may be signalled at all: never pid 1 (init), 0 or a negative pid
/// (which kill(2) reads as a whole group, or every process), nor this process.
pub(crate) fn signallable(pid: i32) -> bool {
    pid > 1 && u32::try_from(pid).is_ok_and(|p| p != std::process::id())
}

/// Whether the process runs as the same user as this one (a record names only processes the
/// tool's own calls started, which run as its user).
#[cfg(target_os = "linux")]
fn same_user(pid: i32) -> bool {
    use std::os::unix::fs::MetadataExt;
    let mine = rustix::process::geteuid().as_raw();
    std::fs::metadata(format!("/proc/{pid}")).is_ok_and(|m| m.uid() == mine)
}

#[cfg(target_os = "linux")]
fn children_of(pid: i32) -> Vec<i32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut pids = Vec::new();
    for task in tasks.flatten() {
        let path = task.path().join("children");
        if let Ok(text) = std::fs::read_to_string(path) {
            pids.extend(
                text.split_ascii_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
    }
    pids
}

#[cfg(target_os = "linux")]
fn command_line(pid: i32) -> String {
    let bytes = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    text.trim_end_matches('\0').replace('\0', " ")
}
