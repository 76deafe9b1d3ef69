//! A plain, readable text rendering of any serialisable value, for human mode.
//!
//! The value goes through JSON into a small ordered tree (serde_json's own `Value` sorts keys
//! unless a crate-wide feature is turned on, and people expect the struct's field order). Objects
//! print as `key: value` lines; a list item prints as one `key=value key=value` line so lists
//! still stream. No colour, no table: a table needs every row before the first is printed.

use std::fmt;

use serde::Serialize;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::error::Error;
use crate::error::serialise_error;

/// A JSON value that keeps object keys in document order.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Number(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        // Non-finite floats never come out of JSON; null is the honest fallback anyway.
        Ok(serde_json::Number::from_f64(v).map_or(Node::Null, Node::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::String(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Node>()? {
            entries.push((key, value));
        }
        Ok(Node::Object(entries))
    }
}

fn parse(json: &[u8]) -> Result<Node, Error> {
    serde_json::from_slice(json).map_err(serialise_error)
}

/// One list item as one line of text (no newline), appended to `out`.
pub(crate) fn item_line<T: Serialize + ?Sized>(
    item: &T,
    line: &mut crate::reply::ItemOut<'_>,
) -> Result<(), Error> {
    let json = serde_json::to_vec(item).map_err(serialise_error)?;
    let node = parse(&json)?;
    // Made apart, then appended: the line's buffer only grows at its end (`ItemOut`).
    let mut out = Vec::with_capacity(json.len());
    let out = &mut out;
    match &node {
        Node::Object(entries) => {
            for (i, (key, value)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                out.extend_from_slice(key.as_bytes());
                out.push(b'=');
                inline(value, true, out);
            }
        }
        other => inline(other, false, out),
    }
    line.extend_from_slice(out);
    Ok(())
}

/// A whole object as `key: value` lines, each ending with a newline.
pub(crate) fn object_text(json: &[u8]) -> Result<String, Error> {
    let node = parse(json)?;
    let mut out = Vec::new();
    block(&node, 0, &mut out);
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn block(node: &Node, indent: usize, out: &mut Vec<u8>) {
    let pad = "  ".repeat(indent);
    match node {
        Node::Object(entries) if !entries.is_empty() => {
            for (key, value) in entries {
                out.extend_from_slice(pad.as_bytes());
                out.extend_from_slice(key.as_bytes());
                out.push(b':');
                if is_nested(value) {
                    out.push(b'\n');
                    block(value, indent + 1, out);
                } else {
                    out.push(b' ');
                    inline(value, false, out);
                    out.push(b'\n');
                }
            }
        }
        Node::Array(items) if items.iter().any(is_nested) => {
            for item in items {
                out.extend_from_slice(pad.as_bytes());
                out.extend_from_slice(b"-\n");
                block(item, indent + 1, out);
            }
        }
        other => {
            out.extend_from_slice(pad.as_bytes());
            inline(other, false, out);
            out.push(b'\n');
        }
    }
}

fn is_nested(node: &Node) -> bool {
    match node {
        Node::Object(entries) => !entries.is_empty(),
        Node::Array(items) => items
            .iter()
            .any(|i| matches!(i, Node::Object(_) | Node::Array(_))),
        _ => false,
    }
}

/// A value on one line. `quote` puts strings with spaces (or empty) in JSON quotes so that
/// `key=value` pairs stay unambiguous.
fn inline(node: &Node, quote: bool, out: &mut Vec<u8>) {
    match node {
        Node::Null => out.extend_from_slice(b"-"),
        Node::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Node::Number(n) => out.extend_from_slice(n.to_string().as_bytes()),
        Node::String(s) => {
            let needs_quotes = quote && (s.is_empty() || s.contains(char::is_whitespace));
            if needs_quotes || s.contains(['\n', '\r']) {
                let quoted = serde_json::to_string(s).unwrap_or_default();
                out.extend_from_slice(quoted.as_bytes());
            } else {
                out.extend_from_slice(s.as_bytes());
            }
        }
        Node::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                inline(item, quote, out);
            }
        }
        Node::Object(entries) => {
            out.push(b'{');
            for (i, (key, value)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                out.extend_from_slice(key.as_bytes());
                out.push(b'=');
                inline(value, true, out);
            }
            out.push(b'}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Item {
        zeta: u32,
        alpha: &'static str,
        tags: Vec<&'static str>,
    }

    #[test]
    fn item_line_keeps_field_order_and_quotes_spaces() {
        let mut out = Vec::new();
        item_line(
            &Item {
                zeta: 1,
                alpha: "a b",
                tags: vec!["x", "y"],
            },
            &mut crate::reply::ItemOut::new(&mut out),
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"zeta=1 alpha="a b" tags=x,y"#
        );
    }

    #[test]
    fn object_text_is_key_value_lines() {
        let json = br#"{"b":1,"a":{"c":null},"d":[{"e":true}]}"#;
        assert_eq!(
            object_text(json).unwrap(),
            "b: 1\na:\n  c: -\nd:\n  -\n    e: true\n"
        );
    }
}
