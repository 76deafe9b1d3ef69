//! `--stable-output` (CLI Agent Spec failure mode 7): the same call on the same state prints
//! the same bytes, in every profile.
//!
//! The data: object keys sorted, and the fields the `outputSchema` marks `"x-volatile": true`
//! (a timestamp, a duration, a random preview id) dropped (see `crate::run::data_pass`). An array's
//! order is data (`["flour","water","salt"]`, files "in the order given") and is kept: only an
//! array whose schema says it is a set, `"uniqueItems": true` (a list command's items when its
//! `outputSchema` is such an array), is sorted by its elements' canonical JSON, so that the
//! same set prints the same bytes. The envelope: compose leaves out
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

/// The schema keyword that makes an array a set, whose order `--stable-output` may fix.
pub(crate) const SET_KEYWORD: &str = "uniqueItems";

/// Whether `schema` declares a set: `"uniqueItems": true`.
pub(crate) fn is_set(schema: Option<&Value>) -> bool {
    schema.and_then(|s| s.get(SET_KEYWORD)) == Some(&Value::Bool(true))
}

/// The schema of an object's property `name`: its `properties` entry, else an object-valued
/// `additionalProperties`.
fn property<'a>(schema: Option<&'a Value>, name: &str) -> Option<&'a Value> {
    let schema = schema?;
    schema
        .get("properties")
        .and_then(|props| props.get(name))
        .or_else(|| schema.get("additionalProperties").filter(|v| v.is_object()))
}

/// Sorts every object's keys, deep; an array keeps its order unless `schema` (the value's
/// schema, if known) declares it a set, whose elements are then sorted by canonical JSON.
pub(crate) fn canonical(value: &mut Value, schema: Option<&Value>) {
    match value {
        Value::Object(map) => {
            for (name, field) in map.iter_mut() {
                canonical(field, property(schema, name));
            }
            // Through the shared sort rather than the map's own (`sort_keys`), which would be
            // one more copy of the standard library's sort in every binary.
            let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
            pas_spec::sorting::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
            map.extend(entries);
        }
        Value::Array(items) => {
            let item = schema.and_then(|s| s.get("items"));
            items.iter_mut().for_each(|v| canonical(v, item));
            if is_set(schema) {
                sort_canonical(items);
            }
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
    fn keys_are_sorted_deep_and_arrays_keep_their_order() {
        let mut value = json!({"b": [3, 1, {"z": 1, "a": 2}], "a": ["flour", "water", "salt"]});
        canonical(&mut value, None);
        assert_eq!(
            value.to_string(),
            r#"{"a":["flour","water","salt"],"b":[3,1,{"a":2,"z":1}]}"#
        );
    }

    #[test]
    fn only_an_array_the_schema_calls_a_set_is_sorted() {
        let schema = json!({"type": "object", "properties": {
            "tags": {"type": "array", "uniqueItems": true, "items": {"type": "string"}},
            "steps": {"type": "array", "items": {"type": "string"}},
            "by_name": {"type": "object", "additionalProperties":
                {"type": "array", "uniqueItems": true}}
        }});
        let mut value = json!({
            "tags": ["b", "a"], "steps": ["b", "a"], "by_name": {"x": [2, 1]}, "other": [2, 1]
        });
        canonical(&mut value, Some(&schema));
        assert_eq!(
            value.to_string(),
            r#"{"by_name":{"x":[1,2]},"other":[2,1],"steps":["b","a"],"tags":["a","b"]}"#
        );
        // `uniqueItems: false` is no set.
        let mut value = json!([2, 1]);
        canonical(&mut value, Some(&json!({"uniqueItems": false})));
        assert_eq!(value, json!([2, 1]));
    }
}
