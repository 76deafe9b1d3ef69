//! `--stable-output` (CLI Agent Spec failure mode 7): the same call on the same state prints
//! the same bytes, in every profile.
//!
//! The data: object keys sorted, arrays (a list's items too) sorted by their canonical JSON,
//! and the fields the `outputSchema` marks `"x-volatile": true` (a timestamp, a duration, a
//! random preview id) dropped (see `crate::data_pass`). The envelope: compose leaves out
//! `meta.elapsed` and `meta.requestId`, robot fixes `duration_ms` at 0 and `generated_at` at the
//! epoch (its contract requires both keys), and the `pas` profile's meta line (`PAS_META`)
//! leaves out `duration_ms` and `request_id`.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

/// The schema keyword that marks a field volatile.
pub(crate) const VOLATILE_KEYWORD: &str = "x-volatile";

/// The `generated_at` of a stable robot envelope.
pub(crate) const FIXED_TIME: &str = "1970-01-01T00:00:00.000Z";

static ON: AtomicBool = AtomicBool::new(false);

/// Turns the mode on for this process's call (from the pre-scan; never for `TOOL mcp`).
pub(crate) fn set(on: bool) {
    ON.store(on, Ordering::Relaxed);
}

/// Whether the call asked for stable output.
pub(crate) fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

/// Sorts every object's keys and every array's elements (by their canonical JSON), deep.
pub(crate) fn canonical(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.values_mut().for_each(canonical);
            // Through the shared sort rather than the map's own (`sort_keys`), which would be
            // one more copy of the standard library's sort in every binary.
            let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
            pas_spec::sorting::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
            map.extend(entries);
        }
        Value::Array(items) => {
            items.iter_mut().for_each(canonical);
            sort_canonical(items);
        }
        _ => {}
    }
}

/// Sorts already canonical values by their compact JSON.
pub(crate) fn sort_canonical(items: &mut [Value]) {
    pas_spec::sorting::sort_by_cached_key(items, Value::to_string);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_and_arrays_are_sorted_deep() {
        let mut value = json!({"b": [3, 1, {"z": 1, "a": 2}], "a": ["y", "x"]});
        canonical(&mut value);
        assert_eq!(
            value.to_string(),
            r#"{"a":["x","y"],"b":[1,3,{"a":2,"z":1}]}"#
        );
    }
}
