//! The structured error a signal ends a call with (`INTERRUPTED`, `TERMINATED`, or `TIMEOUT`
//! for the call's time limit), shared by the signal handling and the output lock that ends a
//! call when a signal landed while a line was being written.

use crate::codes;
use crate::error::Error;

/// The error a signal ends the call with.
#[cold]
pub(crate) fn error_for(signal: i32) -> Error {
    #[cfg(unix)]
    if signal == signal_hook::consts::SIGALRM {
        let ms = crate::guards::deadline::armed_ms();
        // A declared limit is the command's own: the caller cannot raise it.
        let (suggestion, declared) = match crate::guards::deadline::is_declared() {
            true => (
                "the output so far is whole lines; narrow the call: the command declares this limit".to_owned(),
                true,
            ),
            false => (
                format!(
                    "the output so far is whole lines; narrow the call, or raise the limit with {}=SECONDS",
                    crate::guards::deadline::TIMEOUT_ENV
                ),
                false,
            ),
        };
        let details = match declared {
            true => serde_json::json!({ "limit_ms": ms, "declared": true }),
            false => serde_json::json!({ "limit_ms": ms }),
        };
        return Error::new(
            codes::TIMEOUT,
            format!("the call ran past its time limit of {ms} ms"),
        )
        .with_suggestion(suggestion)
        .with_details(details);
    }
    #[cfg(unix)]
    if signal == signal_hook::consts::SIGINT {
        return Error::new(codes::INTERRUPTED, "interrupted by SIGINT")
            .with_suggestion("the output so far is whole lines; run again to get the rest");
    }
    Error::new(codes::TERMINATED, format!("terminated by {}", name(signal)))
        .with_suggestion("the output so far is whole lines; run again to get the rest")
}

/// The signal's name in reports.
pub(crate) fn name(signal: i32) -> &'static str {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGALRM, SIGHUP, SIGINT, SIGQUIT};
        match signal {
            SIGALRM => "SIGALRM",
            SIGINT => "SIGINT",
            SIGHUP => "SIGHUP",
            SIGQUIT => "SIGQUIT",
            _ => "SIGTERM",
        }
    }
    #[cfg(not(unix))]
    {
        let _ = signal;
        "SIGTERM"
    }
}
