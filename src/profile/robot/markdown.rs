//! `--format md`: the envelope as Markdown for a person (the same facts as the JSON).

use serde_json::{Map, Value};

/// The envelope (a JSON object) as a Markdown document. `list_field` names the principal list.
pub(crate) fn render(envelope: &Value, list_field: Option<&str>) -> String {
    let mut out = String::new();
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let command = envelope.get("command").map(text).unwrap_or_default();
    let status = envelope.get("status").map(text).unwrap_or_default();
    out.push_str(&format!("# {command}: {status}\n\n"));
    for key in [
        "session_id",
        "schema_version",
        "generated_at",
        "host_id",
        "duration_ms",
        "resumed",
    ] {
        if let Some(value) = envelope.get(key) {
            out.push_str(&format!("- **{key}**: {}\n", text(value)));
        }
    }
    if let Some(Value::Array(warnings)) = envelope.get("warnings")
        && !warnings.is_empty()
    {
        out.push_str("\n## Warnings\n\n");
        for w in warnings {
            out.push_str(&format!(
                "- `{}` ({}): {}\n",
                w.get("code").map(text).unwrap_or_default(),
                w.get("severity").map(text).unwrap_or_default(),
                w.get("message").map(text).unwrap_or_default()
            ));
        }
    }
    if let Some(error) = envelope.get("error") {
        out.push_str("\n## Error\n\n");
        for key in ["code", "message", "suggestion", "recoverable"] {
            if let Some(value) = error.get(key).filter(|v| !v.is_null()) {
                out.push_str(&format!("- **{key}**: {}\n", text(value)));
            }
        }
        if let Some(details) = error.get("details").filter(|v| !v.is_null()) {
            out.push_str(&format!("\n```json\n{}\n```\n", pretty(details)));
        }
    }
    if let Some(data) = envelope.get("data") {
        out.push_str("\n## Data\n\n");
        let (list, rest) = match (data, list_field) {
            (Value::Array(items), _) => (Some(items.as_slice()), None),
            (Value::Object(map), Some(field)) => match map.get(field) {
                Some(Value::Array(items)) => {
                    let mut rest = map.clone();
                    rest.remove(field);
                    (Some(items.as_slice()), Some(Value::Object(rest)))
                }
                _ => (None, Some(data.clone())),
            },
            _ => (None, Some(data.clone())),
        };
        if let Some(items) = list {
            out.push_str(&table(items));
        }
        if let Some(rest) = rest.filter(|r| r.as_object().is_none_or(|m| !m.is_empty())) {
            out.push_str(&format!("\n```json\n{}\n```\n", pretty(&rest)));
        }
    }
    out
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// A table of the items' scalar fields (columns in first-seen order).
fn table(items: &[Value]) -> String {
    if items.is_empty() {
        return "(none)\n".to_owned();
    }
    let mut columns: Vec<String> = Vec::new();
    for item in items {
        if let Value::Object(map) = item {
            for (key, value) in map {
                if !value.is_object() && !value.is_array() && !columns.contains(key) {
                    columns.push(key.clone());
                }
            }
        }
    }
    if columns.is_empty() {
        return format!("```json\n{}\n```\n", pretty(&Value::from(items.to_vec())));
    }
    let cell = |map: &Map<String, Value>, key: &str| match map.get(key) {
        Some(Value::String(s)) => s.replace('|', "\\|").replace('\n', " "),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    let mut out = format!(
        "| {} |\n|{}\n",
        columns.join(" | "),
        "---|".repeat(columns.len())
    );
    for item in items {
        let empty = Map::new();
        let map = item.as_object().unwrap_or(&empty);
        let cells: Vec<String> = columns.iter().map(|c| cell(map, c)).collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}
