//! How an MCP session ends, in a file of its own: the server sets it (from a signal) and reads
//! the exit status, the transport waits on it, and the transport must not depend on the server.

use std::sync::atomic::Ordering;

/// How the session ends: the exit status (0 at the end of input, 128 + a signal's number), and
/// the signal's wake-up for the transport.
#[derive(Default)]
pub(crate) struct Ending {
    pub(crate) status: std::sync::atomic::AtomicI32,
    pub(crate) signalled: tokio::sync::Notify,
}

impl Ending {
    pub(crate) fn status(&self) -> i32 {
        self.status.load(Ordering::SeqCst)
    }
}
