//! SIGINT and SIGTERM: end promptly, with a structured error, leaving only whole lines.
//!
//! A watcher thread waits for the signal, records it (the render loop checks between items and
//! stops cleanly), then takes the output lock itself: the main thread holds that lock only while
//! it writes one whole line, so once the watcher has it, stdout ends on a line boundary. It then
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

/// Starts the watcher. Failing to install it only loses the structured report, so it is not
/// an error.
#[cfg(unix)]
pub(crate) fn install(shared: Arc<Shared>) {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    use crate::output::Outcome;

    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
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
pub(crate) fn install(shared: Arc<Shared>) {
    let _ = shared;
}
