//! What identifies one call in its output: a request id made for it, the caller's trace id
//! from the environment (echoed, so an agent can correlate a call with its own logs), and the
//! working directory it ran in (relative paths in the call meant that directory).
//!
//! Made on first use, once per process: a call whose output shows none of them (a `pas`
//! profile success, which is raw data) pays nothing.

pub use crate::parse::names::TRACE_ENV;
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// The call's identity.
pub(crate) struct CallMeta {
    /// `req_` and 16 hex digits, different for every call.
    pub(crate) request_id: String,
    /// The caller's trace id, when the environment gave one.
    pub(crate) trace_id: Option<String>,
    /// The absolute working directory, when it can be read.
    pub(crate) cwd: Option<String>,
    /// The caller's attempt number (`PAS_ATTEMPT`), when it retries and says so.
    pub(crate) attempt: Option<u32>,
}

static META: OnceLock<CallMeta> = OnceLock::new();
static TRACE: OnceLock<Option<String>> = OnceLock::new();

/// The call's identity (made on first use, for the tool named `tool`).
pub(crate) fn get(tool: &str) -> &'static CallMeta {
    META.get_or_init(|| CallMeta {
        request_id: request_id(),
        trace_id: trace(tool).map(str::to_owned),
        cwd: std::env::current_dir()
            .ok()
            .map(|dir| dir.display().to_string()),
        attempt: crate::parse::env_values::attempt(crate::retry::ATTEMPT_ENV),
    })
}

/// The caller's trace id alone (the same as [`get`]'s): what a `pas` error line needs, without
/// making the request id and reading the working directory (the signal reports are rendered at
/// the start of every call).
pub(crate) fn trace(tool: &str) -> Option<&'static str> {
    TRACE.get_or_init(|| trace_id(tool)).as_deref()
}

/// A fresh id: std's per-process random hash keys (seeded from the OS) over the process id
/// and the time, so two calls in the same nanosecond still differ.
fn request_id() -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    if let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        hasher.write_u128(now.as_nanos());
    }
    format!("req_{:016x}", hasher.finish())
}

/// `PAS_TRACE_ID`, else `<TOOL>_TRACE_ID`: printable text of at most 128 characters, echoed as
/// it is (a value it cannot echo whole is refused at the start of the call,
/// `crate::parse::env_values::check`).
fn trace_id(tool: &str) -> Option<String> {
    crate::parse::env_values::trace_id(TRACE_ENV).or_else(|| {
        crate::parse::env_values::trace_id(&crate::parse::env_values::own_trace_env(tool))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_ids_differ_and_have_one_shape() {
        let (a, b) = (request_id(), request_id());
        assert_ne!(a, b);
        assert_eq!(a.len(), 20);
        assert!(a.starts_with("req_"));
    }
}
