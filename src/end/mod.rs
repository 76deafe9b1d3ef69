//! The end of a call: the call's state (profile, hooks, pending lines), what it wrote, its
//! signals, panics and audit record. A call ends here whichever way it goes; this folder never
//! imports the handlers, routing or the transports above it.

pub(crate) mod audit;
pub(crate) mod call_state;
pub(crate) mod hooks;
pub(crate) mod outcome;
pub(crate) mod panics;
pub(crate) mod pending;
pub(crate) mod signal_error;
pub(crate) mod signals;
pub(crate) mod third_party_stdout;
