//! Session ids: `PREFIX-YYYYMMDD-HHMMSS-xxxx`, the suffix four base32 characters (a-z, 2-7).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::SystemTime;

const BASE32: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// A fresh id for `now`; `attempt` varies the suffix when an id is taken.
pub(crate) fn new_id(prefix: &str, now: SystemTime, attempt: u32) -> String {
    // std's RandomState is seeded from the OS's randomness once per process and varies per
    // instance: unpredictable enough for a collision-avoiding suffix (ids are not secrets).
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.write_u32(attempt);
    hasher.write_u128(
        now.duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    let mut bits = hasher.finish();
    let mut suffix = String::with_capacity(4);
    for _ in 0..4 {
        suffix.push(char::from(BASE32[(bits & 31) as usize]));
        bits >>= 5;
    }
    format!("{prefix}-{}-{suffix}", crate::time::compact_stamp(now))
}

/// Whether `id` has the shape of an id with this prefix (and so names no other path).
pub(crate) fn is_id(id: &str, prefix: &str) -> bool {
    let Some(rest) = id.strip_prefix(prefix).and_then(|r| r.strip_prefix('-')) else {
        return false;
    };
    let parts: Vec<&str> = rest.split('-').collect();
    matches!(parts.as_slice(), [date, time, suffix]
        if date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit())
        && time.len() == 6 && time.bytes().all(|b| b.is_ascii_digit())
        && suffix.len() == 4 && suffix.bytes().all(|b| BASE32.contains(&b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_the_contract_shape() {
        let id = new_id("pt", SystemTime::now(), 0);
        assert!(is_id(&id, "pt"), "{id}");
        assert!(!is_id(&id, "p"));
        assert!(!is_id("pt-20260115-143022-a7b", "pt"));
        assert!(!is_id("pt-20260115-143022-a7b1", "pt"));
        assert!(!is_id("pt-../../etc-143022-a7b3", "pt"));
    }
}
