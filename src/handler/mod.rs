//! What a handler sees: its [`Context`](crate::handler::context::Context), its arguments
//! ([`Args`](crate::handler::args::Args)) and its progress reporter. Nothing here knows which
//! contract the call serves.

pub(crate) mod args;
pub(crate) mod context;
pub(crate) mod progress;
