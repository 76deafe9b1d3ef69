//! The shape of a job id, apart from the job store: the runtime checks `PAS_JOB_RUN` on every
//! call, and a tool without job commands must not link the store for it.

/// An id: this prefix, then [`SUFFIX_LEN`] base32 characters.
pub(crate) const PREFIX: &str = "job-";
pub(crate) const SUFFIX_LEN: usize = 12;
pub(crate) const BASE32: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// Whether `id` has the shape of a job id (so it names no other path).
pub(crate) fn is_id(id: &str) -> bool {
    id.strip_prefix(PREFIX)
        .is_some_and(|s| s.len() == SUFFIX_LEN && s.bytes().all(|b| BASE32.contains(&b)))
}

/// The id [`JOB_RUN_ENV`](crate::parse::names::JOB_RUN_ENV) names, when it is one: this process may be that job's detached run.
pub(crate) fn running_job() -> Option<&'static str> {
    static ID: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        std::env::var(crate::parse::names::JOB_RUN_ENV)
            .ok()
            .filter(|id| is_id(id))
    })
    .as_deref()
}
