//! SIGINT and SIGTERM: end promptly, with a structured error, leaving only whole lines.
//!
//! A watcher thread (started before anything that may block, see [`Watch`]) waits for the
//! signal, records it (the render loop checks between items and stops cleanly), then takes the
//! output lock itself: the main thread holds that lock only while it writes one whole line (or
//! a run of whole lines), so once the watcher has it, stdout ends on a line boundary. It then
//! reports the error through the profile and exits with 130 or 143, even when the handler is
//! blocked and would never reach the next item.

use std::sync::Arc;

use crate::codes;
use crate::error::Error;
use crate::output::Shared;

/// The error a signal ends the call with.
pub(crate) fn error_for(signal: i32) -> Error {
    #[cfg(unix)]
    if signal == signal_hook::consts::SIGINT {
        return Error::new(codes::INTERRUPTED, "interrupted by SIGINT")
            .with_suggestion("the output so far is whole lines; run again to get the rest");
    }
    let _ = signal;
    Error::new(codes::TERMINATED, "terminated by SIGTERM")
        .with_suggestion("the output so far is whole lines; run again to get the rest")
}

/// The process's SIGINT/SIGTERM handling: handlers installed at start (a signal is queued,
/// never the default death), and the watcher thread started only when the call reaches code
/// that may block (a handler, a built-in, validation). Help, the spec, parse errors and the
/// other faces the runtime writes itself never block, so they skip the thread: spawning it and
/// reaping it at exit cost a one-shot call more than its own work on a loaded machine. A
/// signal that lands while no watcher runs is picked up at the end of the call ([`Watch::pending`]).
pub(crate) struct Watch {
    #[cfg(unix)]
    signals: Option<signal_hook::iterator::Signals>,
    shared: Arc<Shared>,
}

/// Installs the handlers. Failing to install them only loses the structured report, so it is
/// not an error.
#[cfg(unix)]
pub(crate) fn install(shared: Arc<Shared>) -> Watch {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]).ok();
    Watch { signals, shared }
}

#[cfg(not(unix))]
pub(crate) fn install(shared: Arc<Shared>) -> Watch {
    Watch { shared }
}

impl Watch {
    /// Starts the watcher thread (once): from now on a signal ends the call promptly even if
    /// the main thread is blocked.
    #[cfg(unix)]
    pub(crate) fn start(&mut self) {
        use crate::output::Outcome;

        let Some(mut signals) = self.signals.take() else {
            return;
        };
        let shared = self.shared.clone();
        let watcher = move || {
            let Some(signal) = signals.forever().next() else {
                return;
            };
            shared.set_signal(signal);
            let mut output = shared.lock();
            if output.is_finished() {
                // The call ended on its own; the main thread is returning its status.
                return;
            }
            let code = output.finish(Outcome::Failed(error_for(signal)));
            // Exits while holding the lock, so the main thread cannot start another line.
            std::process::exit(i32::from(code));
        };
        let _ = std::thread::Builder::new()
            .name("pas-signals".to_owned())
            .spawn(watcher);
    }

    #[cfg(not(unix))]
    pub(crate) fn start(&mut self) {}

    /// The error of a signal that arrived while no watcher ran (the call then ends with it, its
    /// output so far being whole lines).
    #[cfg(unix)]
    pub(crate) fn pending(&mut self) -> Option<Error> {
        let signal = self.signals.as_mut()?.pending().next()?;
        Some(error_for(signal))
    }

    #[cfg(not(unix))]
    pub(crate) fn pending(&mut self) -> Option<Error> {
        None
    }
}
