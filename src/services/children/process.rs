//! Child processes a handler starts, ended with the call (failure mode 17).
//!
//! [`spawn`] starts a command as the leader of a process group of its own and records the
//! group; whatever ends the call (its normal end, an error, a signal, the time limit) kills
//! every recorded group with SIGKILL, so nothing a handler started (nor what that started in
//! turn) outlives the call or writes after its last line. Dropping the [`GroupChild`] does the
//! same for its group earlier.
//!
//! On Linux the runtime goes further for every tool: a child started any other way
//! (`std::process::Command`, a library, a daemon that double-forks) is adopted and ended with
//! the call too (SIGTERM, then SIGKILL). A command that starts a process meant to outlive the
//! call says so with [`keep_children`].

use std::io;
use std::ops::{Deref, DerefMut};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicI32, Ordering};

/// How many groups may be alive at once; [`spawn`] refuses more.
const SLOTS: usize = 64;

/// The live groups (0: a free slot). Atomics, so the signal handler may read them.
static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

/// A child that leads its own process group, killed with the group when dropped or when the
/// call ends. Derefs to [`Child`].
#[derive(Debug)]
pub struct GroupChild {
    child: Child,
    slot: usize,
}

/// Starts `command` in a new process group, recorded so that the call's end kills the group.
pub fn spawn(command: &mut Command) -> io::Result<GroupChild> {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let child = command.spawn()?;
    let pgid = i32::try_from(child.id()).unwrap_or(0);
    let slot = GROUPS.iter().position(|g| {
        g.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    });
    match slot {
        Some(slot) => Ok(GroupChild { child, slot }),
        None => {
            let mut child = child;
            kill_group(pgid);
            let _ = child.wait();
            Err(io::Error::other(format!(
                "more than {SLOTS} child process groups at once"
            )))
        }
    }
}

impl Deref for GroupChild {
    type Target = Child;

    fn deref(&self) -> &Child {
        &self.child
    }
}

impl DerefMut for GroupChild {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.child
    }
}

impl Drop for GroupChild {
    fn drop(&mut self) {
        let pgid = GROUPS[self.slot].swap(0, Ordering::SeqCst);
        if pgid != 0 {
            kill_group(pgid);
        }
        let _ = self.child.wait();
    }
}

/// The processes this call starts outlive it: the runtime does not end the children left
/// when the call ends (a command that launches a server, say). Groups started with [`spawn`]
/// still end with their handles.
pub fn keep_children() {
    crate::services::children::descendants::keep();
}

/// Kills every recorded group. Async-signal-safe (atomic loads and kill(2)): the signal
/// handler calls it before `_exit`.
pub(crate) fn kill_all() {
    for group in &GROUPS {
        let pgid = group.swap(0, Ordering::SeqCst);
        if pgid != 0 {
            kill_group(pgid);
        }
    }
}

fn kill_group(pgid: i32) {
    #[cfg(unix)]
    if pgid > 0 {
        // SAFETY: kill(2) with a negative pid signals that process group; it touches no
        // memory of ours and is async-signal-safe.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pgid;
}
