//! Panics in handlers: a structured `INTERNAL_ERROR`, never panic text on an agent's stderr.
//!
//! The default hook prints before unwinding starts, so in agent mode the hook is replaced by
//! one that only remembers the message and location; `catch` then turns the unwind into an
//! error that the profile renders like any other. People keep the default report (useful in a
//! bug report) followed by the same error. A tool built with `panic = "abort"` cannot be caught.

use std::any::Any;
use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};

use serde_json::json;

use crate::error::Error;

thread_local! {
    /// Message and location of the last panic on this thread, kept by the hook for `catch`
    /// (the hook runs on the panicking thread; `TOOL mcp` runs calls on several at once).
    static LAST_PANIC: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// Installs the hook for this process.
pub(crate) fn install(agent: bool) {
    let default = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        let message = payload_text(info.payload());
        let location = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        // try_with: a panic while the thread's locals are torn down is still reported.
        let _ = LAST_PANIC.try_with(|last| *last.borrow_mut() = Some((message, location)));
        if !agent {
            default(info);
        }
    }));
}

/// Runs `f`, turning a panic into `INTERNAL_ERROR`.
pub(crate) fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Error> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let (message, location) = LAST_PANIC
            .try_with(|last| last.borrow_mut().take())
            .ok()
            .flatten()
            .unwrap_or_else(|| (payload_text(payload.as_ref()), String::new()));
        Error::internal(format!("the command failed unexpectedly: {message}"))
            .with_suggestion("this is a bug in the tool; report it with the command line")
            .with_details(json!({ "panic": message, "location": location }))
    })
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with no message".to_owned()
    }
}
