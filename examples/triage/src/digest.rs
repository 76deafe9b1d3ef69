//! A plan's digest: SHA-256 of its JSON as the session keeps it, in hex.
//!
//! `plan` prints it (`plan_digest`, and in `apply_command`); `apply --plan DIGEST` computes it
//! again from the session file and refuses a plan that is not the one the caller confirmed.
//! No secret is needed: the digest reaches `apply` through the caller, never through the
//! state directory a rewritten file comes from.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The digest of `plan` (its compact JSON, which reads back to the same bytes).
pub fn of(plan: &Value) -> String {
    let bytes = serde_json::to_vec(plan).unwrap_or_default();
    Sha256::digest(&bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}
