//! `$ref`s: every one checked before anything is mapped (remote ones refused, dangling ones
//! reported, all at once), then followed on demand. The document is never rewritten: schemas
//! keep their references (as `$defs`), parameters and responses are looked through.

use serde_json::Value;

use super::report::{Problem, escape};

/// How many `$ref`s in a row may lead to another `$ref` before the chain counts as a loop.
const MAX_CHAIN: usize = 32;

/// Every `$ref` of the document that is not a local pointer to an existing node.
pub fn check(root: &Value) -> Vec<Problem> {
    let mut problems = Vec::new();
    walk(root, root, &mut String::new(), &mut problems);
    problems
}

fn walk(root: &Value, node: &Value, pointer: &mut String, problems: &mut Vec<Problem>) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                let at = format!("{pointer}/$ref");
                if !reference.starts_with('#') {
                    let mut problem = Problem::new(
                        at,
                        format!(
                            "the `$ref` `{reference}` points outside this document, and the importer reads local files only"
                        ),
                        "bundle the document into one file first (its `$ref`s then start with `#/`), or inline the referenced part",
                    );
                    problem.code = "REMOTE_REF";
                    problems.push(problem);
                } else if resolve(root, reference).is_none() {
                    problems.push(Problem::new(
                        at,
                        format!("the `$ref` `{reference}` names no node of this document"),
                        "fix the pointer (RFC 6901: `~1` for `/`, `~0` for `~`) or add the component it names",
                    ));
                }
            }
            for (key, value) in map {
                let length = pointer.len();
                pointer.push('/');
                pointer.push_str(&escape(key));
                walk(root, value, pointer, problems);
                pointer.truncate(length);
            }
        }
        Value::Array(items) => {
            for (index, value) in items.iter().enumerate() {
                let length = pointer.len();
                pointer.push('/');
                pointer.push_str(&index.to_string());
                walk(root, value, pointer, problems);
                pointer.truncate(length);
            }
        }
        _ => {}
    }
}

/// The node a local `$ref` (`#/a/b`) names.
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    let decoded = percent_decode(fragment);
    if decoded.is_empty() {
        return Some(root);
    }
    root.pointer(&decoded)
}

/// A `$ref`'s pointer (what follows `#`), percent-decoded as URI fragments are.
pub fn pointer_of(reference: &str) -> String {
    percent_decode(reference.strip_prefix('#').unwrap_or(reference))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%'
            && index + 2 < bytes.len()
            && let Some(byte) = std::str::from_utf8(&bytes[index + 1..index + 3])
                .ok()
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// A node with its `$ref`s followed (parameters, responses, request bodies, security
/// schemes), and the pointer of the node finally reached.
pub fn follow<'a>(root: &'a Value, node: &'a Value, pointer: &str) -> (&'a Value, String) {
    let mut node = node;
    let mut pointer = pointer.to_owned();
    for _ in 0..MAX_CHAIN {
        match node.get("$ref").and_then(Value::as_str) {
            Some(reference) => match resolve(root, reference) {
                Some(target) => {
                    node = target;
                    pointer = pointer_of(reference);
                }
                None => break,
            },
            None => break,
        }
    }
    (node, pointer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn remote_and_dangling_refs_are_all_reported_with_their_pointer() {
        let doc = json!({
            "components": {"schemas": {"A": {"type": "string"}}},
            "paths": {"/a": {"get": {"responses": {
                "200": {"$ref": "other.yaml#/x"},
                "404": {"$ref": "#/components/schemas/B"},
                "500": {"$ref": "#/components/schemas/A"}
            }}}}
        });
        let problems = check(&doc);
        assert_eq!(problems.len(), 2);
        assert_eq!(problems[0].code, "REMOTE_REF");
        assert_eq!(problems[0].pointer, "/paths/~1a/get/responses/200/$ref");
        assert_eq!(problems[1].code, "OPENAPI_INVALID");
        assert!(problems[1].message.contains("names no node"));
    }

    #[test]
    fn refs_are_decoded_and_followed() {
        let doc = json!({"a/b": {"c d": {"$ref": "#/x"}}, "x": {"type": "integer"}});
        let (node, at) = follow(&doc, resolve(&doc, "#/a~1b/c%20d").unwrap(), "");
        assert_eq!(node, &json!({"type": "integer"}));
        assert_eq!(at, "/x");
    }
}
