//! What a tool masks in its output, and how a caller gets the raw values (CLI Agent Spec
//! failure mode 59, declared): the values an outputSchema marks `"x-sensitive": true` or
//! `"format": "password"`, and, when the tool declares `maskHighEntropy`, high-entropy strings
//! (JWTs, API keys, long base64 runs). The runtime masks exactly these; every face names them
//! and `--unmask` / `PAS_UNMASK=1` wherever the tool masks anything.

use serde_json::Value;

use crate::{Command, Registry};

/// The caller's flag that shows every masked value raw.
pub const UNMASK_FLAG: &str = "--unmask";
/// The variable that does what [`UNMASK_FLAG`] does.
pub const UNMASK_ENV: &str = "PAS_UNMASK";

/// Whether `schema` (one property's) marks its value sensitive.
pub fn marks_sensitive(schema: &Value) -> bool {
    schema.get("x-sensitive").and_then(Value::as_bool) == Some(true)
        || schema.get("format").and_then(Value::as_str) == Some("password")
}

/// The sensitive fields `schema` marks, as dotted paths (`password`, `keys[].secret`,
/// `env.*`), in schema order. The path of a marked root is `.`.
pub fn sensitive_fields(schema: &Value) -> Vec<String> {
    let mut fields = Vec::new();
    walk(schema, String::new(), &mut fields);
    fields
}

fn walk(schema: &Value, path: String, fields: &mut Vec<String>) {
    if marks_sensitive(schema) {
        fields.push(if path.is_empty() {
            ".".to_owned()
        } else {
            path
        });
        return;
    }
    let join = |tail: &str| match path.is_empty() {
        true => tail.to_owned(),
        false if tail.starts_with('[') => format!("{path}{tail}"),
        false => format!("{path}.{tail}"),
    };
    if let Some(Value::Object(properties)) = schema.get("properties") {
        for (name, sub) in properties {
            walk(sub, join(name), fields);
        }
    }
    if let Some(sub @ Value::Object(_)) = schema.get("additionalProperties") {
        walk(sub, join("*"), fields);
    }
    if let Some(sub) = schema.get("items") {
        walk(sub, join("[]"), fields);
    }
}

/// The fields of `command`'s output its schema marks sensitive.
pub fn command_sensitive_fields(command: &Command) -> Vec<String> {
    command
        .output_schema
        .as_ref()
        .map(sensitive_fields)
        .unwrap_or_default()
}

/// Whether the tool masks anything in any command's output.
pub fn tool_masks(registry: &Registry) -> bool {
    registry.mask_high_entropy
        || registry
            .commands
            .iter()
            .any(|c| !command_sensitive_fields(c).is_empty())
}

/// What `command`'s output masks and how to see it raw, one sentence, or nothing when it masks
/// nothing: for agent help, `.llm`, the catalog and the MCP export.
pub fn note(registry: &Registry, command: &Command) -> Option<String> {
    let fields = command_sensitive_fields(command);
    let mut what = Vec::new();
    if !fields.is_empty() {
        what.push(format!(
            "the sensitive fields {} (as \"[sensitive; raw with --unmask]\")",
            fields.join(", ")
        ));
    }
    if registry.mask_high_entropy {
        what.push(
            "high-entropy strings (JWTs, API keys, long base64 runs) not given in the call's own arguments"
                .to_owned(),
        );
    }
    if what.is_empty() {
        return None;
    }
    Some(format!(
        "Masks {} in its output; {UNMASK_FLAG} (or {UNMASK_ENV}=1) returns them raw.",
        what.join(" and ")
    ))
}

/// The tool-wide sentence (`.llm`, SKILL.md) when the tool masks anything.
pub fn tool_note(registry: &Registry) -> Option<String> {
    if !tool_masks(registry) {
        return None;
    }
    let what = match registry.mask_high_entropy {
        true => {
            "high-entropy strings (JWTs, API keys, long base64 runs) and the output fields its schemas mark sensitive"
        }
        false => "the output fields its schemas mark sensitive",
    };
    Some(format!(
        "It masks {what}, each mask saying how to get the raw value: add {UNMASK_FLAG} (or set {UNMASK_ENV}=1) to a call that needs them; a value given in the call's own arguments is never masked."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn marked_fields_are_named_by_path() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string"},
            "password": {"type": "string", "format": "password"},
            "keys": {"type": "array", "items": {"properties": {"secret": {"x-sensitive": true}}}},
            "env": {"type": "object", "additionalProperties": {"x-sensitive": true}}
        }});
        assert_eq!(
            sensitive_fields(&schema),
            ["password", "keys[].secret", "env.*"]
        );
        assert!(sensitive_fields(&json!({"type": "object"})).is_empty());
        assert_eq!(
            sensitive_fields(
                &json!({"type": "array", "items": {"properties": {"t": {"x-sensitive": true}}}})
            ),
            ["[].t"]
        );
    }
}
