//! No process of a call outlives it, however it left (issue 27): a tool that daemonises
//! (`setsid`, a double fork) puts its descendants in a session and group of their own, and once
//! their parent exits they no longer descend from the call's process in the process table, so
//! neither a signal to the call's group nor a walk of its tree finds them.
//!
//! On Linux the engine's process becomes a *child subreaper* before its first call
//! (`prctl(PR_SET_CHILD_SUBREAPER)`): a descendant whose parent dies is handed to this process
//! instead of to init. After each call, every child of this process that the engine did not
//! start itself ([`started`], until [`reaped`]) is such an orphan: it is killed and waited for,
//! and its own children, handed over in turn, go in the next round, until none is left. The
//! engine runs one call at a time, so an adopted child is always the last call's.
//!
//! Elsewhere there is no subreaper: the call's process group and tree are killed as before.
//! Safe code only (rustix).

use std::sync::{Mutex, MutexGuard};

/// The children the engine started and has not reaped yet: never taken for orphans.
static OWN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// At most this many rounds, each ending one generation of adopted descendants.
#[cfg(target_os = "linux")]
const ROUNDS: usize = 64;

fn own() -> MutexGuard<'static, Vec<u32>> {
    // A panic while the list was held leaves it as it was: still the best knowledge there is.
    OWN.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Makes this process adopt the orphans of the calls it starts (once; Linux only).
pub(crate) fn adopt() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
        });
    }
}

/// The engine started this child (a call's process).
pub(crate) fn started(pid: u32) {
    own().push(pid);
}

/// The engine reaped this child: from now on a child with its pid is an orphan.
pub(crate) fn reaped(pid: u32) {
    own().retain(|p| *p != pid);
}

/// Kills and reaps every adopted child, generation after generation: what a call left behind.
pub(crate) fn end_adopted() {
    #[cfg(target_os = "linux")]
    for _ in 0..ROUNDS {
        let me = std::process::id();
        let own = own().clone();
        let adopted: Vec<u32> = crate::processes::process_table()
            .into_iter()
            .filter(|(pid, ppid, _)| *ppid == me && !own.contains(pid))
            .map(|(pid, _, _)| pid)
            .collect();
        if adopted.is_empty() {
            return;
        }
        for &pid in &adopted {
            crate::processes::signal(pid, "KILL");
        }
        // Once a child is reaped, the kernel has handed its children to this process already:
        // the next round sees them. An exited one (a zombie) is reaped the same way.
        for pid in adopted {
            if let Some(pid) = i32::try_from(pid)
                .ok()
                .and_then(rustix::process::Pid::from_raw)
            {
                let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty());
            }
        }
    }
}
