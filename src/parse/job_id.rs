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
