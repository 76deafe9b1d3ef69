//! One order for the keys of a JSON value, whatever map serde_json was built with: the faces
//! and the spec's own schema hash and print JSON that must not depend on whether
//! `preserve_order` is on somewhere in the build.

use serde_json::Value;

/// The same value with every object rebuilt in key order, so that the order does not depend on
/// how serde_json's map is built (sorted, or in insertion order with `preserve_order`).
pub(crate) fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            crate::sorting::sort_by(&mut entries, |a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sorted_orders_nested_keys() {
        let value = sorted(json!({"b": {"d": 1, "c": [{"f": 1, "e": 2}]}, "a": 0}));
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            r#"{"a":0,"b":{"c":[{"e":2,"f":1}],"d":1}}"#
        );
    }
}
