//! SIGINT, SIGTERM, SIGHUP and SIGQUIT: end promptly, with a structured error, leaving only
//! whole lines (and a `--format array` closed with its `]`, so stdout stays valid JSON).
//! SIGHUP and SIGQUIT end a call as SIGTERM does (`TERMINATED`, exit 143, the message naming
//! the signal): a hung-up terminal or a quit key must not leave half a line either.
//!
//! The handlers are installed at start, so a signal is recorded, never the default death. Once
//! the call reaches code that may block (a handler, a built-in, validation: [`Watch::start`]),
//! a signal ends it promptly in one of two ways:
//!
//! - Direct (the `pas` and `robot` profiles, without `--audit-log`): the error report of each
//!   signal is rendered by the profile ahead of time, and the signal handler itself ends the
//!   call when the output is idle: it takes the output lock (one compare-exchange; it never
//!   waits), writes the whole lines still buffered and the report with write(2), and calls
//!   `_exit`. When the lock is held, a line is being written: the handler only records the
//!   signal, and the writer ends the call (through the profile, as usual) as soon as it
//!   releases the lock ([`crate::end::call_state::OutputGuard`]). No thread: spawning one and reaping it
//!   at exit cost a one-shot call more than its own work on a loaded machine.
//! - Watcher thread (the compose profile, whose report is an envelope on stdout that depends
//!   on the call; an audit log, whose record has the call's duration; a tool with secret
//!   parameters, whose redaction may change once argv is parsed): a thread waits for the
//!   signal, takes the output lock (held by the main thread only while it writes one whole
//!   line) and ends the call through the profile.
//!
//! Either way the call exits with 130 or 143 and stdout ends on a line boundary (or an open
//! array's closing bracket), even when the
//! handler is blocked and would never reach the next item. A signal that lands before
//! [`Watch::start`] (help, the spec) is picked up at the end of the call ([`Watch::pending`]).

use std::sync::Arc;

use crate::end::call_state::{Shared, end};
use crate::end::signal_error::error_for;
use crate::error::Error;

/// The signals that end a call with a structured error (SIGALRM: the call's time limit, see
/// `deadline`).
#[cfg(unix)]
const HANDLED: [i32; 5] = {
    use signal_hook::consts::{SIGALRM, SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM]
};

/// The process's signal handling (see the module docs).
pub(crate) struct Watch {
    shared: Arc<Shared>,
    started: bool,
}

/// The call's shared state, for the signal handler: a pointer made by `Arc::into_raw` and never
/// released (the handler may read it at any moment until the process ends).
#[cfg(unix)]
static WATCHED: std::sync::atomic::AtomicPtr<Shared> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

/// Installs the handlers, which only record a signal until [`Watch::start`]. Failing to install
/// them only loses the structured report, so it is not an error.
///
/// One `sigaction` per signal with one plain handler that finds the call in [`WATCHED`]: what
/// `signal_hook`'s registry did here cost a short call a visible share of its start-up (it
/// copies its table of actions on every registration). A later registration through
/// `signal_hook` (the watcher thread's `Signals`) keeps this handler as the previous action and
/// calls it before its own, so the signal is recorded either way.
#[cfg(unix)]
pub(crate) fn install(shared: Arc<Shared>) -> Watch {
    // A second call in one process (a test) points the handler at the new call; the previous
    // call's state stays alive, since a handler may be reading it.
    WATCHED.store(
        Arc::into_raw(shared.clone()).cast_mut(),
        std::sync::atomic::Ordering::Release,
    );
    for signal in HANDLED {
        // SAFETY: `action` is a zeroed `sigaction` (valid: an empty mask, no flags) given the
        // address of `handle`, an `extern "C" fn(c_int, *mut siginfo_t, *mut c_void)` as
        // SA_SIGINFO requires; `sigaction` only reads it, and a null old action is allowed.
        // `handle` is async-signal-safe (see there).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handle as *const () as usize;
            action.sa_flags = libc::SA_RESTART | libc::SA_SIGINFO;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
    Watch {
        shared,
        started: false,
    }
}

/// The signal handler the kernel calls: `on_signal` for the call [`WATCHED`] points at, with
/// `errno` kept as the interrupted code left it. Async-signal-safe: an atomic load, `errno`'s
/// location (a plain function of the thread), and `on_signal`.
#[cfg(unix)]
extern "C" fn handle(
    signal: libc::c_int,
    _info: *mut libc::siginfo_t,
    _context: *mut libc::c_void,
) {
    let errno = errno_location();
    // SAFETY: `errno_location` gives this thread's errno, valid for the thread's lifetime.
    let saved = unsafe { errno.as_ref().copied() };
    let shared = WATCHED.load(std::sync::atomic::Ordering::Acquire);
    // SAFETY: a non-null `WATCHED` came from `Arc::into_raw` and is never released, so it points
    // at a live `Shared` for the rest of the process.
    if let Some(shared) = unsafe { shared.as_ref() } {
        on_signal(shared, signal);
    }
    if let Some(saved) = saved {
        // SAFETY: as above; the handler restores the value it read.
        unsafe { *errno = saved };
    }
}

/// This thread's `errno`, where the platform names it (null elsewhere: not restored there).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn errno_location() -> *mut libc::c_int {
    // SAFETY: `__errno_location` has no preconditions and is async-signal-safe.
    unsafe { libc::__errno_location() }
}

#[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
fn errno_location() -> *mut libc::c_int {
    // SAFETY: `__error` has no preconditions and is async-signal-safe.
    unsafe { libc::__error() }
}

#[cfg(all(
    unix,
    not(any(
        target_os = "linux",
        target_os = "android",
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd"
    ))
))]
fn errno_location() -> *mut libc::c_int {
    std::ptr::null_mut()
}

#[cfg(not(unix))]
pub(crate) fn install(shared: Arc<Shared>) -> Watch {
    Watch {
        shared,
        started: false,
    }
}

/// The signal handler. Async-signal-safe:
/// - `set_signal`, `is_direct` and `signal` are lock-free atomic operations;
/// - `try_lock` is one compare-exchange on the mutex word (std's futex mutex), never waits, and
///   fails when any thread holds the lock, including the thread this handler interrupted (the
///   mutex is not reentrant), so the handler never sees an `Output` half-way through a change;
/// - once it holds the lock, it only reads `Output` (no allocation, no drop of anything but the
///   guard, whose unlock is an atomic swap and at most a futex wake system call);
/// - the bytes go out with `libc::write` and the process ends with `libc::_exit`, both
///   async-signal-safe (POSIX), unlike std's stderr (a reentrant lock) or `process::exit`
///   (atexit handlers, std's stdout flush).
#[cfg(unix)]
fn on_signal(shared: &Shared, signal: i32) {
    shared.set_signal(signal);
    shared.count_signal();
    if shared.signal_waits() {
        // The handler returned: its result is written first, and the call ends as it would.
        return;
    }
    if !shared.is_direct() {
        // Before `start`, or the watcher thread's mode: recording it is all.
        return;
    }
    let Some(output) = shared.try_lock() else {
        // A line is being written: its writer ends the call when it releases the lock.
        return;
    };
    if output.is_finished() {
        return;
    }
    let Some(lines) = &output.signal_lines else {
        return;
    };
    let recorded = shared.signal();
    // While a handler that may change state runs, the reports that say its outcome is unknown.
    let lines = match (&lines.running, shared.in_handler()) {
        (Some(running), true) => running,
        _ => &lines.lines,
    };
    let Some((_, line, code)) = lines.iter().find(|(s, _, _)| *s == recorded) else {
        return;
    };
    // What `finish` does for an error: the whole lines still buffered first, and the end of an
    // open document (`]`), then the report.
    // The real stdout: fd 1 may point at the capture of a library's prints (`stdout_capture`).
    let stdout = crate::stdio::stdout_capture::real_fd();
    write_all(stdout, output.sinks.stdout.buffered());
    // The whole lines of a batch not handed over yet (a stream to a file): what the pas
    // profile's `stream_lines` would write.
    // (its first byte is the batch's spare byte, no line's).
    if let Some((lines, _)) = shared.pending.lines() {
        write_all(stdout, &lines[1..]);
    }
    write_all(stdout, output.sinks.stdout.closing());
    write_all(2, line);
    // What the handler started ends with the call.
    crate::services::children::process::kill_all();
    crate::services::children::descendants::end_now();
    // SAFETY: `_exit` is async-signal-safe and ends the process at once: nothing runs after
    // it, so the lock held here is never released and no other thread writes again.
    unsafe { libc::_exit(i32::from(*code)) }
}

/// Writes all of `bytes` to `fd` with write(2), retrying after a partial write or EINTR, and
/// giving up on any other error (a closed pipe: there is nobody left to tell).
#[cfg(unix)]
fn write_all(fd: i32, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: `bytes` is a valid, initialised slice for its whole length, which is what
        // write(2) reads; write(2) is async-signal-safe.
        let written = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        match usize::try_from(written) {
            Ok(0) => return,
            Ok(n) => bytes = &bytes[n.min(bytes.len())..],
            Err(_) => {
                if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                    return;
                }
            }
        }
    }
}

impl Watch {
    /// From now on a signal ends the call promptly even if the main thread is blocked: directly
    /// from the signal handler when the profile's report can be rendered ahead of time, else
    /// from a watcher thread. Only the first call has an effect.
    #[cfg(unix)]
    pub(crate) fn start(&mut self) {
        if std::mem::replace(&mut self.started, true) {
            return;
        }
        if let Some(limit) = crate::guards::deadline::limit() {
            crate::guards::deadline::arm(limit);
        }
        let direct = {
            let mut output = self.shared.lock_plain();
            let registry = self.shared.registry.light();
            // The profiles whose report is one stderr write that depends on the error alone
            // (both run on `PasProfile`); compose's is an envelope on stdout.
            // robot's report is an envelope on stdout, and a session to leave resumable.
            let direct = registry.profile == pas_spec::Profile::Pas
                && output.audit.is_none()
                && !has_secrets(registry);
            if direct {
                let lines = reports(&mut output, &error_for);
                output.signal_lines = Some(crate::end::call_state::SignalLines {
                    lines,
                    running: None,
                });
            }
            direct
        };
        if direct {
            self.shared.set_direct();
            // A signal that landed before found no direct mode and was only recorded.
            if self.shared.signal() != 0 {
                end(&self.shared);
            }
        } else {
            start_watcher(self.shared.clone());
        }
    }

    #[cfg(not(unix))]
    pub(crate) fn start(&mut self) {}

    /// The error of a signal that arrived and has not ended the call yet (the call then ends
    /// with it, its output so far being whole lines). None once the handler returned a whole
    /// result: it was written, and it is the call's outcome.
    pub(crate) fn pending(&mut self) -> Option<Error> {
        match self.shared.signal() {
            0 => None,
            _ if self.shared.returned() => None,
            signal => Some(self.shared.signal_error(signal)),
        }
    }
}

/// The handler starts (see [`crate::end::outcome`]): from now on a signal says what is known of its
/// effect. Where the signal handler ends the call itself, the reports that say so are
/// rendered now, for a command that may change state.
pub(crate) fn handler_starts(shared: &Shared, running: crate::end::outcome::Running) {
    #[cfg(unix)]
    if !running.idempotent() && shared.is_direct() {
        let mut output = shared.lock_plain();
        if output.signal_lines.is_some() {
            let lines = reports(&mut output, &|signal| {
                running.interrupted(error_for(signal))
            });
            if let Some(signal_lines) = &mut output.signal_lines {
                signal_lines.running = Some(lines);
            }
        }
    }
    shared.handler_starts(running);
}

/// The report of each handled signal, rendered by the profile. SIGHUP's and SIGQUIT's differ
/// from SIGTERM's only by the signal's name in the message, so they are SIGTERM's with the name
/// replaced (rendering is a visible share of a short call's start-up); debug builds check that
/// against rendering them.
#[cfg(unix)]
fn reports(
    output: &mut crate::end::call_state::Output,
    error_for: &dyn Fn(i32) -> Error,
) -> Vec<(i32, Vec<u8>, u8)> {
    use signal_hook::consts::{SIGHUP, SIGQUIT, SIGTERM};
    let mut lines: Vec<(i32, Vec<u8>, u8)> = Vec::with_capacity(HANDLED.len());
    for signal in HANDLED {
        let renamed = matches!(signal, SIGHUP | SIGQUIT)
            .then(|| lines.iter().find(|(s, _, _)| *s == SIGTERM))
            .flatten()
            .and_then(|(_, line, code)| Some((renamed(line, signal)?, *code)));
        let (line, code) = match renamed {
            Some(report) => {
                debug_assert_eq!(report, output.render_error(error_for(signal)));
                report
            }
            None => output.render_error(error_for(signal)),
        };
        lines.push((signal, line, code));
    }
    lines
}

/// SIGTERM's report with `signal`'s name in place of SIGTERM's, when the name occurs once.
#[cfg(unix)]
fn renamed(line: &[u8], signal: i32) -> Option<Vec<u8>> {
    let from = crate::end::signal_error::name(signal_hook::consts::SIGTERM);
    // A report is UTF-8 (JSON, or text made of strings), so std's substring search applies: a
    // byte-by-byte comparison at every offset cost more than a third of a render.
    let text = std::str::from_utf8(line).ok()?;
    let mut at = text.match_indices(from).map(|(start, _)| start);
    let (Some(start), None) = (at.next(), at.next()) else {
        return None;
    };
    let to = crate::end::signal_error::name(signal);
    Some(
        [&text[..start], to, &text[start + from.len()..]]
            .concat()
            .into_bytes(),
    )
}

/// Whether any parameter is secret: its values are redacted from errors, and argv parsing may
/// still add some after [`Watch::start`], so a report rendered ahead of time could be wrong.
#[cfg(unix)]
fn has_secrets(registry: &pas_spec::Registry) -> bool {
    registry
        .global_flags
        .iter()
        .chain(registry.commands.iter().flat_map(|c| &c.parameters))
        .any(|p| p.secret)
}

/// The watcher thread: waits for a signal (or takes the one already recorded) and ends the
/// call through the profile.
#[cfg(unix)]
fn start_watcher(shared: Arc<Shared>) {
    // Registered before the recorded signal is read, so none falls between the two.
    let Ok(mut signals) = signal_hook::iterator::Signals::new(HANDLED) else {
        return;
    };
    let watcher = move || {
        let mut signals = signals.forever();
        if shared.signal() == 0 {
            let Some(signal) = signals.next() else {
                return;
            };
            shared.set_signal(signal);
        }
        // After the handler returned, the first signal waits for the result to be written (the
        // call then ends as it would); another one ends it.
        while shared.signal_waits() {
            if signals.next().is_none() {
                return;
            }
        }
        end(&shared);
    };
    let _ = std::thread::Builder::new()
        .name("pas-signals".to_owned())
        .spawn(watcher);
}
