//! Every process a handler started, however it started it, ends with the call (failure mode
//! 17), on Linux.
//!
//! `pas::process::spawn` covers a child started through it; a handler (or a library it calls)
//! that uses `std::process::Command` directly, or a child that daemonises (double fork,
//! `setsid`), is covered here: before a tool's handler runs, the process becomes a *child
//! subreaper* (`prctl(PR_SET_CHILD_SUBREAPER)`), so a descendant whose parent dies is adopted
//! by the tool instead of by init. Whatever ends the call (its normal end, an error, a signal,
//! the time limit) then ends every child left: SIGTERM, a grace of [`GRACE`] for it to exit,
//! then SIGKILL (on a signal: SIGKILL at once, the call must end promptly); each death hands
//! its own children to the tool, which ends them in the next round, until none is left.
//!
//! A tool whose command starts a process meant to outlive the call (a server it launches)
//! says so with [`crate::services::children::process::keep_children`].
//!
//! Elsewhere (macOS, BSD, Windows) there is no subreaper: only `pas::process::spawn` ends
//! children with the call, as docs/guarantees.md says. Safe code only (rustix).
//!
//! What else is asked of the call's processes lives here too, below both askers: whether the
//! call started a job (whose child is not a kept child), and what `/proc/PID/stat` says of a
//! pid. The kept-children record and a job's start each read them, so neither names the other.

use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(target_os = "linux")]
use std::time::Duration;

/// Set once the process adopts orphans (a handler is about to run).
static ADOPTING: AtomicBool = AtomicBool::new(false);
/// Set by [`crate::services::children::process::keep_children`]: the call's children outlive it.
static KEEP: AtomicBool = AtomicBool::new(false);

/// Set once this process started a job: its child is the job, which outlives the call and
/// is not one of the "kept children" `cleanup` lists.
pub(crate) static STARTED: AtomicBool = AtomicBool::new(false);

/// Whether this call started a job (its child must outlive it).
pub(crate) fn started() -> bool {
    STARTED.load(Ordering::SeqCst)
}

/// How long children get to exit after SIGTERM at a call's normal end.
#[cfg(target_os = "linux")]
const GRACE: Duration = Duration::from_millis(100);

/// At most this many children are ended per round (the rest in the next rounds).
#[cfg(target_os = "linux")]
const PER_ROUND: usize = 512;

/// At most this many rounds (each round ends one generation of adopted descendants).
#[cfg(target_os = "linux")]
const ROUNDS: usize = 32;

/// Makes the process adopt its orphaned descendants from now on (before a handler runs).
pub(crate) fn adopt() {
    #[cfg(target_os = "linux")]
    if rustix::process::set_child_subreaper(Some(rustix::process::getpid())).is_ok() {
        ADOPTING.store(true, Ordering::SeqCst);
    }
}

/// Leaves the call's children running when it ends.
pub(crate) fn keep() {
    KEEP.store(true, Ordering::SeqCst);
}

/// Whether the call's command keeps its children ([`crate::services::children::process::keep_children`]).
pub(crate) fn kept() -> bool {
    KEEP.load(Ordering::SeqCst)
}

/// Field 22 of `/proc/PID/stat` (start time); `None` when the process is gone or a zombie.
pub(crate) fn start_time(pid: i32) -> Option<u64> {
    stat(pid).map(|s| s.start_time)
}

/// What `/proc/PID/stat` says of a live process (not a zombie).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stat {
    /// Field 5: its process group.
    pub(crate) pgrp: i32,
    /// Field 22: its start time in clock ticks since boot.
    pub(crate) start_time: u64,
}

/// `/proc/PID/stat` of a live process; `None` when it is gone, a zombie, or `pid` names no
/// single process (0 or less).
pub(crate) fn stat(pid: i32) -> Option<Stat> {
    if pid <= 0 {
        return None;
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: split after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace();
    let state = fields.next()?;
    if state == "Z" || state == "X" {
        return None;
    }
    // `rest` starts at field 3 (the state, just read): field 5 is two further on, field 22
    // sixteen after that.
    let pgrp = fields.nth(1)?.parse().ok()?;
    let start_time = fields.nth(16)?.parse().ok()?;
    Some(Stat { pgrp, start_time })
}

fn armed() -> bool {
    ADOPTING.load(Ordering::SeqCst) && !KEEP.load(Ordering::SeqCst)
}

/// Ends every child left at the call's normal end (an error included): SIGTERM, up to
/// [`GRACE`] to exit, then SIGKILL, generation after generation.
pub(crate) fn end_gracefully() {
    #[cfg(target_os = "linux")]
    {
        if !armed() {
            return;
        }
        let mut pids = [0i32; PER_ROUND];
        let mut termed = false;
        for _ in 0..ROUNDS {
            if !reap_exited() {
                return;
            }
            let n = children_of_every_thread(&mut pids);
            if n == 0 {
                return;
            }
            if !termed {
                termed = true;
                signal(&pids[..n], rustix::process::Signal::TERM);
                let started = std::time::Instant::now();
                while started.elapsed() < GRACE {
                    std::thread::sleep(Duration::from_millis(5));
                    if !reap_exited() || children_of_every_thread(&mut pids) == 0 {
                        break;
                    }
                }
                continue;
            }
            kill_and_wait(&pids[..n]);
        }
    }
}

/// Ends every child left with SIGKILL, at once. Async-signal-safe (the signal handler calls
/// it before `_exit`): open(2), read(2), close(2), kill(2) and waitpid(2) through rustix, on a
/// path made before, into a buffer on the stack; no allocation, no lock.
pub(crate) fn end_now() {
    #[cfg(target_os = "linux")]
    {
        if !armed() {
            return;
        }
        let Some(path) = MAIN_CHILDREN.get() else {
            return;
        };
        let mut pids = [0i32; PER_ROUND];
        for _ in 0..ROUNDS {
            let n = children_listed(path, &mut pids);
            if n == 0 {
                return;
            }
            kill_and_wait(&pids[..n]);
        }
    }
}

/// `/proc/self/task/<pid>/children`: the main thread's children, where orphans are adopted
/// (made in [`prepare`], read by the signal handler).
#[cfg(target_os = "linux")]
static MAIN_CHILDREN: std::sync::OnceLock<std::ffi::CString> = std::sync::OnceLock::new();

/// Makes what [`end_now`] needs ahead of time (it may run in a signal handler).
pub(crate) fn prepare() {
    #[cfg(target_os = "linux")]
    {
        let pid = std::process::id();
        if let Ok(path) = std::ffi::CString::new(format!("/proc/self/task/{pid}/children")) {
            let _ = MAIN_CHILDREN.set(path);
        }
    }
}

#[cfg(target_os = "linux")]
fn signal(pids: &[i32], signal: rustix::process::Signal) {
    for &pid in pids {
        if let Some(pid) = rustix::process::Pid::from_raw(pid) {
            let _ = rustix::process::kill_process(pid, signal);
        }
    }
}

/// SIGKILL to each, then waits for each: once a child is reaped, its own children have
/// been handed to this process (the kernel reparents them before the parent can be waited
/// for), so the next round sees them.
#[cfg(target_os = "linux")]
fn kill_and_wait(pids: &[i32]) {
    signal(pids, rustix::process::Signal::KILL);
    for &pid in pids {
        if let Some(pid) = rustix::process::Pid::from_raw(pid) {
            let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty());
        }
    }
}

/// Reaps every child that exited (a zombie stays listed as a child until it is); whether any
/// child is left (waitpid's ECHILD says none, so a call that started nothing pays one system
/// call here).
#[cfg(target_os = "linux")]
fn reap_exited() -> bool {
    loop {
        match rustix::process::waitpid(None, rustix::process::WaitOptions::NOHANG) {
            Ok(Some(_)) => continue,
            Ok(None) => return true,
            Err(_) => return false,
        }
    }
}

/// The children of every thread of the process, into `pids`; how many.
#[cfg(target_os = "linux")]
fn children_of_every_thread(pids: &mut [i32]) -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return MAIN_CHILDREN
            .get()
            .map_or(0, |path| children_listed(path, pids));
    };
    let mut n = 0;
    for task in tasks.flatten() {
        let Ok(path) = std::ffi::CString::new(format!(
            "/proc/self/task/{}/children",
            task.file_name().to_string_lossy()
        )) else {
            continue;
        };
        n += children_listed(&path, &mut pids[n..]);
        if n == pids.len() {
            break;
        }
    }
    n
}

/// The pids a `children` file lists (space-separated decimals), into `pids`; how many.
#[cfg(target_os = "linux")]
fn children_listed(path: &std::ffi::CStr, pids: &mut [i32]) -> usize {
    use rustix::fs::{Mode, OFlags};
    let Ok(fd) = rustix::fs::open(path, OFlags::RDONLY | OFlags::CLOEXEC, Mode::empty()) else {
        return 0;
    };
    let mut buf = [0u8; 4096];
    let mut n = 0;
    let mut current: i32 = 0;
    let mut in_number = false;
    loop {
        let read = match rustix::io::read(&fd, &mut buf[..]) {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        for &byte in &buf[..read] {
            if byte.is_ascii_digit() {
                current = current
                    .saturating_mul(10)
                    .saturating_add(i32::from(byte - b'0'));
                in_number = true;
            } else if in_number {
                if n < pids.len() {
                    pids[n] = current;
                    n += 1;
                }
                current = 0;
                in_number = false;
            }
        }
    }
    if in_number && n < pids.len() {
        pids[n] = current;
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(target_os = "linux")]
    fn the_start_time_of_this_process_is_read_and_stable() {
        let pid = std::process::id() as i32;
        let first = super::start_time(pid).expect("this process runs");
        assert_eq!(super::start_time(pid), Some(first));
    }
}
