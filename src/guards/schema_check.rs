//! A command's declared `inputSchema`, checked against the JSON a call gives on stdin before
//! the handler runs (failure mode 46), every problem at once.
//!
//! This is the part of JSON Schema that input schemas use (spec-written or made by schemars):
//! `type`, `enum`, `const`, `properties`, `required`, `additionalProperties`, `items`,
//! `minItems`/`maxItems`, `minimum`/`maximum` (and their exclusive forms), `minLength`/
//! `maxLength`, `pattern`, local `$ref`s, `allOf`/`anyOf`/`oneOf`. A keyword outside that set
//! is not checked (the handler still sees the value). A full validator (the `jsonschema`
//! crate, which `TOOL mcp` links behind the `mcp` feature) would add most of a megabyte to
//! every tool: the lean default runtime keeps this subset instead.

use serde_json::{Map, Value, json};

/// One way the value breaks the schema.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Problem {
    /// JSON Pointer of the value in the input (`""` for the whole input, `/tags/0`).
    pub path: String,
    /// The keyword it breaks (`required`, `type`, `enum`...).
    pub keyword: &'static str,
    /// What is wrong, in words.
    pub message: String,
}

impl Problem {
    /// `{path, keyword, message}`.
    pub(crate) fn to_json(&self) -> Value {
        json!({ "path": self.path, "keyword": self.keyword, "message": self.message })
    }
}

/// Every problem of `value` against `schema` (empty: it conforms).
pub(crate) fn check(schema: &Value, value: &Value) -> Vec<Problem> {
    let mut found = Vec::new();
    Check {
        root: schema,
        depth: 0,
    }
    .value(schema, value, "", &mut found);
    found
}

struct Check<'a> {
    root: &'a Value,
    depth: usize,
}

fn problem(found: &mut Vec<Problem>, path: &str, keyword: &'static str, message: String) {
    found.push(Problem {
        path: path.to_owned(),
        keyword,
        message,
    });
}

fn type_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn is_type(value: &Value, name: &str) -> bool {
    let actual = type_of(value);
    actual == name || (name == "number" && actual == "integer")
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        format!("{}...", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

impl Check<'_> {
    fn value(&mut self, schema: &Value, value: &Value, path: &str, found: &mut Vec<Problem>) {
        let Some(schema) = schema.as_object() else {
            if schema == &Value::Bool(false) {
                problem(found, path, "false", "no value is allowed here".to_owned());
            }
            return;
        };
        // A schema that refers to itself without end stops here rather than overflowing.
        if self.depth > 64 {
            return;
        }
        self.depth += 1;
        if let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|pointer| self.root.pointer(pointer))
        {
            self.value(target, value, path, found);
        }
        self.combinators(schema, value, path, found);
        if !self.types(schema, value, path, found) {
            self.depth -= 1;
            return;
        }
        if let Some(options) = schema.get("enum").and_then(Value::as_array)
            && !options.contains(value)
        {
            let listed: Vec<String> = options.iter().map(Value::to_string).collect();
            problem(
                found,
                path,
                "enum",
                format!("{} is not one of {}", short(value), listed.join(", ")),
            );
        }
        if let Some(constant) = schema.get("const")
            && constant != value
        {
            problem(
                found,
                path,
                "const",
                format!("{} must be {}", short(value), constant),
            );
        }
        match value {
            Value::Object(object) => self.object(schema, object, path, found),
            Value::Array(items) => self.array(schema, items, path, found),
            Value::String(text) => string(schema, text, path, found),
            Value::Number(_) => number(schema, value, path, found),
            _ => {}
        }
        self.depth -= 1;
    }

    fn combinators(
        &mut self,
        schema: &Map<String, Value>,
        value: &Value,
        path: &str,
        found: &mut Vec<Problem>,
    ) {
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            for sub in all {
                self.value(sub, value, path, found);
            }
        }
        for (keyword, exactly_one) in [("anyOf", false), ("oneOf", true)] {
            let Some(options) = schema.get(keyword).and_then(Value::as_array) else {
                continue;
            };
            let passing = options
                .iter()
                .filter(|sub| {
                    let mut inner = Vec::new();
                    self.value(sub, value, path, &mut inner);
                    inner.is_empty()
                })
                .count();
            let ok = if exactly_one {
                passing == 1
            } else {
                passing >= 1
            };
            if !ok {
                problem(
                    found,
                    path,
                    if exactly_one { "oneOf" } else { "anyOf" },
                    format!(
                        "{} matches {passing} of the {} allowed forms{}",
                        short(value),
                        options.len(),
                        if exactly_one {
                            " (exactly one needed)"
                        } else {
                            ""
                        }
                    ),
                );
            }
        }
    }

    /// `type`; false when the value has the wrong type (its other keywords do not apply).
    fn types(
        &mut self,
        schema: &Map<String, Value>,
        value: &Value,
        path: &str,
        found: &mut Vec<Problem>,
    ) -> bool {
        let allowed: Vec<&str> = match schema.get("type") {
            Some(Value::String(name)) => vec![name.as_str()],
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => return true,
        };
        if allowed.iter().any(|name| is_type(value, name)) {
            return true;
        }
        problem(
            found,
            path,
            "type",
            format!(
                "{} is {}, not {}",
                short(value),
                type_of(value),
                allowed.join(" or ")
            ),
        );
        false
    }

    fn object(
        &mut self,
        schema: &Map<String, Value>,
        object: &Map<String, Value>,
        path: &str,
        found: &mut Vec<Problem>,
    ) {
        for name in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !object.contains_key(name) {
                problem(
                    found,
                    &format!("{path}/{}", pointer_escape(name)),
                    "required",
                    format!("`{name}` is required"),
                );
            }
        }
        let properties = schema.get("properties").and_then(Value::as_object);
        for (name, value) in object {
            let at = format!("{path}/{}", pointer_escape(name));
            match properties.and_then(|p| p.get(name)) {
                Some(sub) => self.value(sub, value, &at, found),
                None => match schema.get("additionalProperties") {
                    Some(Value::Bool(false)) => {
                        let known: Vec<&str> = properties
                            .map(|p| p.keys().map(String::as_str).collect())
                            .unwrap_or_default();
                        problem(
                            found,
                            &at,
                            "additionalProperties",
                            format!(
                                "`{name}` is not a field of this input (known: {})",
                                known.join(", ")
                            ),
                        );
                    }
                    Some(sub @ Value::Object(_)) => self.value(sub, value, &at, found),
                    _ => {}
                },
            }
        }
    }

    fn array(
        &mut self,
        schema: &Map<String, Value>,
        items: &[Value],
        path: &str,
        found: &mut Vec<Problem>,
    ) {
        if let Some(sub) = schema.get("items").filter(|s| s.is_object()) {
            for (index, item) in items.iter().enumerate() {
                self.value(sub, item, &format!("{path}/{index}"), found);
            }
        }
        let len = items.len() as u64;
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64)
            && len < min
        {
            problem(
                found,
                path,
                "minItems",
                format!("has {len} items, fewer than {min}"),
            );
        }
        if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
            && len > max
        {
            problem(
                found,
                path,
                "maxItems",
                format!("has {len} items, more than {max}"),
            );
        }
    }
}

fn string(schema: &Map<String, Value>, text: &str, path: &str, found: &mut Vec<Problem>) {
    let len = text.chars().count() as u64;
    if let Some(min) = schema.get("minLength").and_then(Value::as_u64)
        && len < min
    {
        problem(
            found,
            path,
            "minLength",
            format!("is {len} characters long, shorter than {min}"),
        );
    }
    if let Some(max) = schema.get("maxLength").and_then(Value::as_u64)
        && len > max
    {
        problem(
            found,
            path,
            "maxLength",
            format!("is {len} characters long, longer than {max}"),
        );
    }
    if let Some(pattern) = schema.get("pattern").and_then(Value::as_str)
        && !regex_lite::Regex::new(pattern).is_ok_and(|re| re.is_match(text))
    {
        problem(
            found,
            path,
            "pattern",
            format!(
                "{} does not match the pattern {pattern}",
                short(&json!(text))
            ),
        );
    }
}

fn number(schema: &Map<String, Value>, value: &Value, path: &str, found: &mut Vec<Problem>) {
    let Some(n) = value.as_f64() else {
        return;
    };
    let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
    let checks: [(&'static str, bool, &str); 4] = [
        (
            "minimum",
            bound("minimum").is_some_and(|b| n < b),
            "less than",
        ),
        (
            "maximum",
            bound("maximum").is_some_and(|b| n > b),
            "greater than",
        ),
        (
            "exclusiveMinimum",
            bound("exclusiveMinimum").is_some_and(|b| n <= b),
            "not greater than",
        ),
        (
            "exclusiveMaximum",
            bound("exclusiveMaximum").is_some_and(|b| n >= b),
            "not less than",
        ),
    ];
    for (keyword, broken, words) in checks {
        if broken {
            problem(
                found,
                path,
                keyword,
                format!("{value} is {words} {}", schema[keyword]),
            );
        }
    }
}

fn pointer_escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Value {
        json!({
            "type": "object",
            "required": ["title"],
            "additionalProperties": false,
            "properties": {
                "title": {"type": "string", "minLength": 1, "maxLength": 5},
                "priority": {"$ref": "#/$defs/priority"},
                "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}, "maxItems": 2},
                "due": {"type": ["string", "null"]},
                "count": {"type": "integer", "minimum": 1, "exclusiveMaximum": 10},
                "kind": {"oneOf": [{"const": "a"}, {"const": "b"}]}
            },
            "$defs": {"priority": {"enum": ["low", "high"]}}
        })
    }

    #[test]
    fn a_conforming_value_has_no_problem() {
        let value = json!({"title": "ok", "priority": "low", "tags": ["a,b".replace(',', "")], "due": null, "count": 3, "kind": "a"});
        assert_eq!(check(&schema(), &value), []);
    }

    #[test]
    fn every_problem_is_found_at_once_with_its_path() {
        let value = json!({
            "priority": "urgent",
            "tags": ["A", "b", "c"],
            "due": 3,
            "count": 10.0,
            "kind": "c",
            "colour": "red"
        });
        let found: Vec<(String, &str)> = check(&schema(), &value)
            .into_iter()
            .map(|p| (p.path, p.keyword))
            .collect();
        let expected = [
            ("/title", "required"),
            ("/colour", "additionalProperties"),
            ("/count", "exclusiveMaximum"),
            ("/due", "type"),
            ("/kind", "oneOf"),
            ("/priority", "enum"),
            ("/tags/0", "pattern"),
            ("/tags", "maxItems"),
        ];
        let mut found = found;
        found.sort();
        let mut expected: Vec<(String, &str)> = expected
            .iter()
            .map(|(p, k)| ((*p).to_owned(), *k))
            .collect();
        expected.sort();
        assert_eq!(found, expected);
    }

    #[test]
    fn a_self_referring_schema_ends() {
        let schema = json!({"$ref": "#"});
        assert_eq!(check(&schema, &json!(1)), []);
    }
}
