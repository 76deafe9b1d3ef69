//! One object past the output cap (`crate::output_limit`): its JSON stays whole and valid, and
//! its longest strings are shortened, all to one length, the largest that brings the object
//! under the cap; an object at the top gets `"_truncated": true` (CLI Agent Spec failure mode
//! 43). Numbers, keys and the shape are never touched: an object whose structure alone is past
//! the cap is left as it is.

use serde_json::Value;

/// The marker key an object whose strings were shortened carries.
pub(crate) const MARKER: &str = "_truncated";

/// `json` (one serialized value) cut to at most `cap` bytes by shortening its strings, and the
/// bytes it has then; `None` when it fits, is not JSON, or cannot be brought under the cap.
pub(crate) fn cut(json: &[u8], cap: u64) -> Option<(Vec<u8>, u64)> {
    let cap = usize::try_from(cap).unwrap_or(usize::MAX);
    if json.len() <= cap {
        return None;
    }
    let value: Value = serde_json::from_slice(json).ok()?;
    let longest = longest_string(&value);
    // The largest length every string may keep so that the whole fits: `fits` only grows as
    // the length shrinks, so a binary search finds it.
    let fits = |keep: usize| -> Option<Vec<u8>> {
        let bytes = serde_json::to_vec(&shortened(&value, keep)).ok()?;
        (bytes.len() <= cap).then_some(bytes)
    };
    let mut best = fits(0)?;
    let (mut low, mut high) = (0, longest);
    while low < high {
        let mid = low + (high - low).div_ceil(2);
        match fits(mid) {
            Some(bytes) => {
                best = bytes;
                low = mid;
            }
            None => high = mid - 1,
        }
    }
    let kept = best.len() as u64;
    Some((best, kept))
}

/// The length in characters of the longest string in `value`.
fn longest_string(value: &Value) -> usize {
    match value {
        Value::String(text) => text.chars().count(),
        Value::Array(items) => items.iter().map(longest_string).max().unwrap_or(0),
        Value::Object(map) => map.values().map(longest_string).max().unwrap_or(0),
        _ => 0,
    }
}

/// `value` with every string cut to `keep` characters, and the marker on a top object.
fn shortened(value: &Value, keep: usize) -> Value {
    let mut cut = shorten(value, keep);
    if let Value::Object(map) = &mut cut {
        map.insert(MARKER.to_owned(), Value::Bool(true));
    }
    cut
}

fn shorten(value: &Value, keep: usize) -> Value {
    match value {
        Value::String(text) => match text.char_indices().nth(keep) {
            Some((at, _)) => Value::String(text[..at].to_owned()),
            None => value.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(|v| shorten(v, keep)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, v)| (key.clone(), shorten(v, keep)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_object_that_fits_is_left_alone() {
        assert_eq!(cut(br#"{"a":"b"}"#, 100), None);
    }

    #[test]
    fn the_longest_strings_are_shortened_and_the_object_marked() {
        let object =
            json!({"id": "t-1", "size": 12, "body": "x".repeat(500), "note": "é".repeat(50)});
        let bytes = serde_json::to_vec(&object).unwrap();
        let (cut, kept) = cut(&bytes, 200).unwrap();
        assert!(cut.len() <= 200 && kept == cut.len() as u64);
        let value: Value = serde_json::from_slice(&cut).unwrap();
        assert_eq!(value["_truncated"], true);
        // Short strings and numbers stay; the long ones are cut to one length, whole chars.
        assert_eq!(value["id"], "t-1");
        assert_eq!(value["size"], 12);
        let body = value["body"].as_str().unwrap();
        let note = value["note"].as_str().unwrap();
        assert!(body.len() < 500 && body.chars().all(|c| c == 'x'));
        assert_eq!(body.chars().count(), note.chars().count());
        // As long as fits: one more character each would not.
        assert!(
            serde_json::to_vec(&shortened(&object, body.len() + 1))
                .unwrap()
                .len()
                > 200
        );
    }

    #[test]
    fn a_structure_past_the_cap_on_its_own_is_not_cut() {
        let many: Vec<u32> = (0..100).collect();
        let bytes = serde_json::to_vec(&json!({ "n": many })).unwrap();
        assert_eq!(cut(&bytes, 50), None);
        assert_eq!(cut(b"not json", 2), None);
    }
}
