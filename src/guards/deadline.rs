//! The wall-clock limit of a call, declared or asked for: a command's declared `timeout` (spec
//! key, `timeout = SECONDS` in the derive) and the caller's `--timeout SECONDS` flag or
//! `PAS_TIMEOUT` variable. Past it the call ends as a `TIMEOUT` error (exit 124, whole lines of
//! partial output kept). Without either there is no limit, in every mode: machine mode changes
//! the form of a call, never how long it may run.
//!
//! The caller's limit is the flag's, else the variable's (`0`: no limit of the caller's); a
//! command's declared limit applies in every mode once argv has selected the command, and the
//! caller may only lower it (a larger value, or 0, leaves the declared one). The flag exists
//! when the tool declares no flag of its own named `timeout` (the tool's wins; the variable
//! always works). The limit is one `setitimer(2)` whose SIGALRM ends the call through the
//! signal machinery (see `signals`), so arming it costs one system call and a blocked handler
//! still ends on time. `TOOL mcp` (a server that runs as long as its client) is never limited
//! as a whole; `call_limit` is the limit of one of its calls.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use pas_spec::{Command, Registry};

use crate::codes;
use crate::error::Error;
use crate::parse::env_values::{self, Setting};
pub use crate::parse::names::TIMEOUT_ENV;

/// The caller's flag that sets the limit, in seconds (the same forms as [`TIMEOUT_ENV`]).
pub const TIMEOUT_FLAG: &str = "--timeout";

/// The limit armed for this call, in milliseconds (0: none), for the error's message.
static ARMED_MS: AtomicU64 = AtomicU64::new(0);
/// Whether the armed limit is the command's declared one (the caller cannot raise it).
static DECLARED: AtomicBool = AtomicBool::new(false);

/// The caller's `--timeout`, in milliseconds: [`FLAG_UNSET`] when not given, 0 for no limit.
static FLAG_MS: AtomicU64 = AtomicU64::new(FLAG_UNSET);
const FLAG_UNSET: u64 = u64::MAX;

/// Whether the runtime takes `--timeout` in this tool: the tool declares no flag of its own of
/// that name (a global flag, or any command's).
pub(crate) fn flag_is_runtimes(registry: &Registry) -> bool {
    pas_spec::surface::runtime_timeout_flag(registry)
}

/// Records the caller's `--timeout` for this call (see [`caller`]).
pub(crate) fn set_flag(setting: Setting<Duration>) {
    let ms = match setting {
        Setting::Unset => FLAG_UNSET,
        Setting::NoLimit => 0,
        Setting::Limit(limit) => u64::try_from(limit.as_millis())
            .unwrap_or(FLAG_UNSET - 1)
            .clamp(1, FLAG_UNSET - 1),
    };
    FLAG_MS.store(ms, Ordering::Relaxed);
}

/// The caller's limit: `--timeout`, else `PAS_TIMEOUT`. A job's detached run has none of the
/// caller's: its own `timeoutMs` bounds it.
pub(crate) fn caller() -> Setting<Duration> {
    if crate::parse::job_id::running_job().is_some() {
        return Setting::Unset;
    }
    match FLAG_MS.load(Ordering::Relaxed) {
        FLAG_UNSET => env_values::seconds(TIMEOUT_ENV),
        0 => Setting::NoLimit,
        ms => Setting::Limit(Duration::from_millis(ms)),
    }
}

/// Takes the caller's `--timeout SECONDS` (or `--timeout=SECONDS`) out of argv (before `--`),
/// when the flag is the runtime's in this tool, and records it; a value it cannot use is an
/// argument error naming the accepted forms.
pub(crate) fn take_flag(registry: &Registry, argv: &mut Vec<std::ffi::OsString>) -> Option<Error> {
    if !flag_is_runtimes(registry) {
        return None;
    }
    let mut index = 1;
    let mut found: Option<Option<String>> = None;
    while index < argv.len() {
        let bytes = argv[index].as_encoded_bytes();
        if bytes == b"--" {
            break;
        }
        if bytes == TIMEOUT_FLAG.as_bytes() {
            argv.remove(index);
            let value = (index < argv.len()).then(|| argv.remove(index));
            found = Some(value.map(|v| v.to_string_lossy().into_owned()));
            continue;
        }
        if let Some(value) = bytes.strip_prefix(b"--timeout=") {
            found = Some(Some(String::from_utf8_lossy(value).into_owned()));
            argv.remove(index);
            continue;
        }
        index += 1;
    }
    let value = found?;
    let accepted = env_values::Form::Seconds.accepted();
    let Some(text) = value else {
        return Some(
            Error::new(
                codes::MISSING_ARGUMENT,
                "--timeout needs a number of seconds",
            )
            .with_suggestion(format!("--timeout SECONDS: {accepted}")),
        );
    };
    match env_values::parse_seconds(&text) {
        Some(setting) => {
            set_flag(setting);
            None
        }
        None => Some(
            Error::new(
                codes::INVALID_ARGUMENT,
                "--timeout takes a number of seconds",
            )
            .with_suggestion(format!("--timeout SECONDS: {accepted}"))
            .with_details(serde_json::json!({ "flag": TIMEOUT_FLAG, "accepted": accepted })),
        ),
    }
}

/// The limit of a call before argv has selected a command: the caller's, in every mode.
pub(crate) fn limit() -> Option<Duration> {
    caller().limit()
}

/// A command's declared limit, when it declares a usable one.
pub(crate) fn declared(command: &Command) -> Option<Duration> {
    command
        .timeout
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= env_values::MAX_SECONDS)
        .map(|s| Duration::from_secs_f64(s).max(Duration::from_millis(1)))
}

/// The effective limit of one call of `command`: the declared one (which the caller may only
/// lower), else the caller's, else none. What a CLI call arms, and what the MCP server applies
/// to each of its calls (there the caller's limit is the server's `PAS_TIMEOUT`).
pub(crate) fn call_limit(command: &Command) -> Option<Duration> {
    combine(declared(command), caller().limit())
}

/// The limit of a call from its command's declared one and its caller's: the declared one
/// (which the caller may only lower), else the caller's, else none. Mode plays no part: a
/// machine-mode call gets no limit a person's call lacks (`crate::guards::defaults` lists it).
pub(crate) fn combine(declared: Option<Duration>, caller: Option<Duration>) -> Option<Duration> {
    match (declared, caller) {
        (Some(declared), Some(caller)) => Some(declared.min(caller)),
        (declared, caller) => declared.or(caller),
    }
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

    fn command(timeout: Option<f64>) -> Command {
        let mut command: Command =
            serde_json::from_value(serde_json::json!({"name": "run", "description": "Run."}))
                .unwrap();
        command.timeout = timeout;
        command
    }

    #[test]
    fn no_limit_unless_declared_or_asked_and_the_caller_only_lowers_a_declared_one() {
        // The test process sets neither PAS_TIMEOUT nor --timeout.
        if std::env::var_os(TIMEOUT_ENV).is_none() {
            assert_eq!(limit(), None);
            assert_eq!(call_limit(&command(None)), None);
            let command = command(Some(30.0));
            assert_eq!(call_limit(&command), Some(Duration::from_secs(30)));
            // The caller may lower a declared limit, never raise it (one test: the flag is
            // the process's).
            set_flag(Setting::Limit(Duration::from_secs(5)));
            assert_eq!(call_limit(&command), Some(Duration::from_secs(5)));
            set_flag(Setting::Limit(Duration::from_secs(60)));
            assert_eq!(call_limit(&command), Some(Duration::from_secs(30)));
            set_flag(Setting::NoLimit);
            assert_eq!(call_limit(&command), Some(Duration::from_secs(30)));
            assert_eq!(limit(), None);
            set_flag(Setting::Limit(Duration::from_secs(7)));
            assert_eq!(
                call_limit(&self::command(None)),
                Some(Duration::from_secs(7))
            );
            set_flag(Setting::Unset);
        }
    }
}
