//! The wall-clock limit of a call: an agent that forgot to bound a call gets a `TIMEOUT` error
//! (exit 124, whole lines of partial output kept) instead of a process that hangs forever on a
//! network or a lock.
//!
//! In agent mode (and in the compose and robot profiles, machine output always) a call is
//! limited to [`DEFAULT_SECONDS`] unless `PAS_TIMEOUT` says otherwise; people at a terminal get
//! a limit only when they set it. `PAS_TIMEOUT=0` turns the limit off. The limit is one
//! `setitimer(2)` whose SIGALRM ends the call through the signal machinery (see `signals`), so
//! arming it costs one system call and a blocked handler still ends on time. `TOOL mcp` (a
//! server that runs as long as its client) is never limited.
//!
//! A command may declare its own limit (`timeout` in the spec, `timeout = SECONDS` in the
//! derive): in machine mode it replaces the default once argv has selected the command, and the
//! caller's `PAS_TIMEOUT` may only lower it (a larger value, or 0, leaves the declared one).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// The environment variable that sets the limit, in seconds (decimals allowed; 0: no limit).
pub const TIMEOUT_ENV: &str = "PAS_TIMEOUT";

/// The limit of an agent-mode call when `PAS_TIMEOUT` is unset, in seconds.
pub const DEFAULT_SECONDS: u64 = 300;

/// The limit armed for this call, in milliseconds (0: none), for the error's message.
static ARMED_MS: AtomicU64 = AtomicU64::new(0);
/// Whether the armed limit is the command's declared one (the caller cannot raise it).
static DECLARED: AtomicBool = AtomicBool::new(false);

/// The limit for this call: `PAS_TIMEOUT`, else [`DEFAULT_SECONDS`] in machine mode.
pub(crate) fn limit(machine: bool) -> Option<Duration> {
    match std::env::var(TIMEOUT_ENV) {
        Ok(text) => {
            let seconds: f64 = text.trim().parse().ok()?;
            (seconds.is_finite() && seconds > 0.0).then(|| Duration::from_secs_f64(seconds))
        }
        Err(_) => machine.then(|| Duration::from_secs(DEFAULT_SECONDS)),
    }
}

/// The limit of a call to a command that declares `declared`: the caller's `PAS_TIMEOUT` when
/// it is lower, else the declared one.
pub(crate) fn declared_limit(declared: Duration) -> Duration {
    let caller = std::env::var(TIMEOUT_ENV)
        .ok()
        .and_then(|text| text.trim().parse::<f64>().ok())
        .filter(|seconds| seconds.is_finite() && *seconds > 0.0)
        .map(Duration::from_secs_f64);
    caller.map_or(declared, |caller| caller.min(declared))
}

/// Arms `limit` (from now) in place of the default, for a command that declares a limit;
/// `declared` when it is the declared one (not the caller's lower `PAS_TIMEOUT`).
pub(crate) fn arm_declared(limit: Duration, declared: bool) {
    DECLARED.store(declared, Ordering::Relaxed);
    arm(limit);
}

/// Whether the armed limit is the command's declared one (the caller cannot raise it).
pub(crate) fn is_declared() -> bool {
    DECLARED.load(Ordering::Relaxed)
}

/// Starts the clock: SIGALRM arrives after `limit`.
#[cfg(unix)]
pub(crate) fn arm(limit: Duration) {
    let ms = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX).max(1);
    ARMED_MS.store(ms, Ordering::Relaxed);
    let value = libc::timeval {
        tv_sec: libc::time_t::try_from(ms / 1000).unwrap_or(libc::time_t::MAX),
        tv_usec: libc::suseconds_t::try_from((ms % 1000) * 1000).unwrap_or(0),
    };
    let timer = libc::itimerval {
        it_interval: libc::timeval {
            tv_sec: 0,
            tv_usec: 0,
        },
        it_value: value,
    };
    // SAFETY: setitimer reads the `itimerval` we pass (valid for the call) and, with a null
    // old-value pointer, writes nothing; it only changes this process's ITIMER_REAL.
    unsafe {
        libc::setitimer(libc::ITIMER_REAL, &timer, std::ptr::null_mut());
    }
}

#[cfg(not(unix))]
pub(crate) fn arm(_limit: Duration) {}

/// The armed limit in milliseconds (0 when none was armed).
pub(crate) fn armed_ms() -> u64 {
    ARMED_MS.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_applies_to_machine_calls_only() {
        // The test process does not set PAS_TIMEOUT.
        if std::env::var_os(TIMEOUT_ENV).is_none() {
            assert_eq!(limit(true), Some(Duration::from_secs(DEFAULT_SECONDS)));
            assert_eq!(limit(false), None);
        }
    }

    #[test]
    fn the_caller_may_lower_a_declared_limit_but_not_raise_it() {
        // The test process does not set PAS_TIMEOUT: the declared limit stands.
        if std::env::var_os(TIMEOUT_ENV).is_none() {
            let declared = Duration::from_secs(30);
            assert_eq!(declared_limit(declared), declared);
        }
    }
}
