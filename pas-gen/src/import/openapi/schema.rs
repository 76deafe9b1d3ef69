//! OpenAPI schemas to standalone JSON Schemas (draft 2020-12, what pas's `outputSchema` and
//! `inputSchema` speak).
//!
//! Each command's schema carries the components it uses under its own `$defs` (referenced as
//! `#/$defs/Name`), so it stands alone, recursive schemas stay finite, and a person reads the
//! component names of the document rather than one inlined tree. 3.0's dialect is ported:
//! `nullable` becomes a `null` type, boolean `exclusiveMinimum`/`exclusiveMaximum` numbers,
//! `example` `examples`, `type: file` a binary string.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use super::load::Version;
use super::refs;

/// Keywords whose value is a map of schemas.
const SCHEMA_MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is one schema.
const SCHEMA_ONE: [&str; 11] = [
    "additionalProperties",
    "additionalItems",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
];
/// Keywords whose value is a list of schemas.
const SCHEMA_LISTS: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];

const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// One conversion: the schema, and what did not carry over.
pub struct Converted {
    pub schema: Value,
    pub notes: Vec<String>,
}

/// `schema` (found at a node of `root`) as a standalone draft 2020-12 schema.
pub fn standalone(root: &Value, version: Version, schema: &Value) -> Converted {
    let mut converter = Converter {
        root,
        v30: version == Version::V30,
        defs: Map::new(),
        names: HashMap::new(),
        taken: HashSet::new(),
        in_progress: HashSet::new(),
        notes: Vec::new(),
    };
    // A schema that is only a reference is inlined at the root: the command's schema reads as
    // the component itself, and only what it refers to goes to `$defs`.
    let mut out = match pure_ref(schema) {
        Some(reference) => {
            let pointer = refs::pointer_of(reference);
            let target = refs::resolve(root, reference).unwrap_or(&Value::Bool(true));
            converter.in_progress.insert(pointer.clone());
            let converted = converter.node(target);
            converter.in_progress.remove(&pointer);
            // A recursive root was referred to from inside: it needs its `$defs` entry too.
            if let Some(name) = converter.names.get(&pointer).cloned() {
                converter.defs.insert(name, converted.clone());
            }
            converted
        }
        None => converter.node(schema),
    };
    if !converter.defs.is_empty() {
        let defs = Value::Object(std::mem::take(&mut converter.defs));
        out = match out {
            Value::Object(mut map) => {
                map.insert("$defs".to_owned(), defs);
                Value::Object(map)
            }
            Value::Bool(true) => json!({ "$defs": defs }),
            other => json!({ "allOf": [other], "$defs": defs }),
        };
    }
    Converted {
        schema: out,
        notes: converter.notes,
    }
}

/// Whether a schema is a bare `$ref`, and its reference.
pub fn pure_ref(schema: &Value) -> Option<&str> {
    let map = schema.as_object()?;
    (map.len() == 1).then(|| map.get("$ref")?.as_str())?
}

struct Converter<'a> {
    root: &'a Value,
    v30: bool,
    defs: Map<String, Value>,
    /// Pointer of a referenced node to its `$defs` name.
    names: HashMap<String, String>,
    taken: HashSet<String>,
    in_progress: HashSet<String>,
    notes: Vec<String>,
}

impl Converter<'_> {
    fn node(&mut self, schema: &Value) -> Value {
        let Value::Object(map) = schema else {
            return schema.clone();
        };
        let mut out = Map::new();
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            out.insert("$ref".to_owned(), Value::String(self.reference(reference)));
        }
        for (key, value) in map {
            match key.as_str() {
                "$ref" => {}
                "nullable" if self.v30 => {}
                "example" if !map.contains_key("examples") => {
                    out.insert("examples".to_owned(), Value::Array(vec![value.clone()]));
                }
                "example" => {}
                "$schema" => {
                    if value.as_str().map(|s| s.trim_end_matches('#')) != Some(DRAFT_2020_12) {
                        self.notes.push(format!("a schema's `$schema` `{value}` is left out: pas speaks draft 2020-12 only"));
                    }
                }
                "exclusiveMinimum" | "exclusiveMaximum" if value.is_boolean() => {
                    let bound = if key == "exclusiveMinimum" {
                        "minimum"
                    } else {
                        "maximum"
                    };
                    if value == &Value::Bool(true)
                        && let Some(limit) = map.get(bound)
                    {
                        out.insert(key.clone(), limit.clone());
                    }
                }
                "minimum" | "maximum" if self.v30 => {
                    let exclusive = if key == "minimum" {
                        "exclusiveMinimum"
                    } else {
                        "exclusiveMaximum"
                    };
                    if map.get(exclusive) != Some(&Value::Bool(true)) {
                        out.insert(key.clone(), value.clone());
                    }
                }
                "type" if value == "file" => {
                    out.insert(key.clone(), Value::String("string".to_owned()));
                    out.entry("format")
                        .or_insert_with(|| Value::String("binary".to_owned()));
                }
                "items" if value.is_array() => {
                    // 3.0 never allowed tuple `items`; a 2019 one means `prefixItems` now.
                    let list = value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|v| self.node(v))
                        .collect();
                    out.insert("prefixItems".to_owned(), Value::Array(list));
                }
                "items" => {
                    let converted = self.node(value);
                    out.insert(key.clone(), converted);
                }
                key if SCHEMA_MAPS.contains(&key) && value.is_object() => {
                    let mut converted = Map::new();
                    for (name, schema) in value.as_object().into_iter().flatten() {
                        converted.insert(name.clone(), self.node(schema));
                    }
                    out.insert(key.to_owned(), Value::Object(converted));
                }
                key if SCHEMA_ONE.contains(&key) => {
                    let converted = self.node(value);
                    out.insert(key.to_owned(), converted);
                }
                key if SCHEMA_LISTS.contains(&key) && value.is_array() => {
                    let list = value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|v| self.node(v))
                        .collect();
                    out.insert(key.to_owned(), Value::Array(list));
                }
                _ => {
                    out.entry(key.clone()).or_insert_with(|| value.clone());
                }
            }
        }
        if self.v30 && map.get("nullable") == Some(&Value::Bool(true)) {
            add_null(&mut out);
        }
        Value::Object(out)
    }

    /// The `$defs` reference for a document `$ref`, converting its target once.
    fn reference(&mut self, reference: &str) -> String {
        let pointer = refs::pointer_of(reference);
        let name = match self.names.get(&pointer) {
            Some(name) => name.clone(),
            None => {
                let name = self.fresh_name(&pointer);
                self.names.insert(pointer.clone(), name.clone());
                name
            }
        };
        if !self.defs.contains_key(&name) && !self.in_progress.contains(&pointer) {
            let target = refs::resolve(self.root, reference).unwrap_or(&Value::Bool(true));
            self.in_progress.insert(pointer.clone());
            let converted = self.node(target);
            self.in_progress.remove(&pointer);
            self.defs.insert(name.clone(), converted);
        }
        format!("#/$defs/{name}")
    }

    fn fresh_name(&mut self, pointer: &str) -> String {
        let base = def_name(pointer);
        let mut name = base.clone();
        let mut n = 2;
        while !self.taken.insert(name.clone()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }
}

/// A component's name (`/components/schemas/pet` is `pet`), else the pointer made one word.
fn def_name(pointer: &str) -> String {
    let tail = pointer
        .strip_prefix("/components/schemas/")
        .unwrap_or(pointer);
    let word: String = tail
        .replace("~1", "/")
        .replace("~0", "~")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let word = word.trim_matches('_').to_owned();
    if word.is_empty() {
        "schema".to_owned()
    } else {
        word
    }
}

/// 3.0's `nullable: true`: `null` joins the types (and an enum's values).
fn add_null(out: &mut Map<String, Value>) {
    match out.get_mut("type") {
        Some(Value::String(ty)) if ty != "null" => {
            let ty = ty.clone();
            out.insert("type".to_owned(), json!([ty, "null"]));
        }
        Some(Value::Array(types)) if !types.contains(&json!("null")) => types.push(json!("null")),
        _ => {}
    }
    if let Some(Value::Array(values)) = out.get_mut("enum")
        && !values.contains(&Value::Null)
    {
        values.push(Value::Null);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn convert(root: &Value, version: Version, schema: Value) -> Value {
        standalone(root, version, &schema).schema
    }

    #[test]
    fn openapi_3_0_nullable_exclusive_bounds_and_example_are_ported() {
        let root = json!({});
        let schema = json!({"type": "integer", "nullable": true, "minimum": 0, "exclusiveMinimum": true, "maximum": 9, "example": 3});
        assert_eq!(
            convert(&root, Version::V30, schema),
            json!({"type": ["integer", "null"], "exclusiveMinimum": 0, "maximum": 9, "examples": [3]})
        );
    }

    #[test]
    fn references_become_defs_and_a_root_reference_is_inlined() {
        let root = json!({"components": {"schemas": {
            "Pet": {"type": "object", "properties": {"owner": {"$ref": "#/components/schemas/User"}}},
            "User": {"type": "object", "properties": {"name": {"type": "string"}}}
        }}});
        let out = convert(
            &root,
            Version::V31,
            json!({"$ref": "#/components/schemas/Pet"}),
        );
        assert_eq!(
            out,
            json!({"type": "object", "properties": {"owner": {"$ref": "#/$defs/User"}},
                   "$defs": {"User": {"type": "object", "properties": {"name": {"type": "string"}}}}})
        );
    }

    #[test]
    fn a_recursive_schema_stays_finite() {
        let root = json!({"components": {"schemas": {
            "Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}}
        }}});
        let out = convert(
            &root,
            Version::V31,
            json!({"$ref": "#/components/schemas/Node"}),
        );
        assert_eq!(
            out["properties"]["children"]["items"],
            json!({"$ref": "#/$defs/Node"})
        );
        assert_eq!(out["$defs"]["Node"]["type"], json!("object"));
        assert!(jsonschema::draft202012::options().build(&out).is_ok());
    }
}
