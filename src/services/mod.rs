//! What a handler may call: the confined store, sessions, jobs, child processes, idempotency
//! records, the declared lock and the network's proxy settings. Services take plain values (a
//! path, a redactor, a registry); they never see the call's state, a profile or a `Context`.

pub(crate) mod atomic_file;
pub(crate) mod children;
pub(crate) mod idempotency;
pub(crate) mod jobs;
pub mod lock;
pub mod net;
pub(crate) mod sessions;
#[cfg(test)]
mod state_file_props;
pub mod store;
