//! What a changed spec asks of the handlers: the difference between the registry the generated
//! code was last made from and the new one, in the terms a handler's author acts on (a new flag
//! to read, a parameter whose type changed, a result with another shape, an error code to raise
//! or no longer raise). `generate` reports each one; nothing in it is applied to user code.

use pas_spec::{Command, ExitCode, ParamKind, Parameter, Registry};
use serde::Serialize;

/// One change a handler's author must follow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The command it concerns, or `None` for the whole tool (global flags, exit codes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// A stable word for the kind of change (`parameterAdded`, `outputChanged`, ...).
    pub change: &'static str,
    /// One sentence for people.
    pub text: String,
}

/// Every change from `old` to `new`, commands in the new spec's order.
pub fn changes(old: &Registry, new: &Registry) -> Vec<Change> {
    let mut out = Vec::new();
    let tool = |change, text| Change {
        command: None,
        change,
        text,
    };
    parameters(
        &old.global_flags,
        &new.global_flags,
        "global flag",
        &mut |c, t| out.push(tool(c, t)),
    );
    exit_codes(&old.exit_codes, &new.exit_codes, &mut |c, t| {
        out.push(tool(c, t))
    });
    for command in &new.commands {
        let name = command.name.clone();
        let mut push = |change, text| {
            out.push(Change {
                command: Some(name.clone()),
                change,
                text,
            })
        };
        match old.commands.iter().find(|c| c.name == command.name) {
            None => push(
                "commandAdded",
                format!("new command `{}`: write its handler", command.name),
            ),
            Some(before) => self::command(before, command, &mut push),
        }
    }
    for command in &old.commands {
        if !new.commands.iter().any(|c| c.name == command.name) {
            out.push(Change {
                command: Some(command.name.clone()),
                change: "commandRemoved",
                text: format!(
                    "the command `{}` left the spec: remove its handler",
                    command.name
                ),
            });
        }
    }
    out
}

fn command(old: &Command, new: &Command, push: &mut dyn FnMut(&'static str, String)) {
    parameters(&old.parameters, &new.parameters, "parameter", push);
    if old.output != new.output {
        push(
            "outputChanged",
            format!(
                "the output is now `{}` (was `{}`): return the new result type",
                new.output.as_str(),
                old.output.as_str()
            ),
        );
    } else if old.output_schema != new.output_schema {
        output_fields(old, new, push);
    }
    if old.input_schema != new.input_schema {
        push(
            "inputChanged",
            "the inputSchema changed: check what the handler reads from stdin".to_owned(),
        );
    }
    for code in new.errors.iter().filter(|c| !old.errors.contains(c)) {
        push(
            "errorAdded",
            format!("may now fail with `{code}`: raise it where the spec says"),
        );
    }
    for code in old.errors.iter().filter(|c| !new.errors.contains(c)) {
        push(
            "errorRemoved",
            format!("no longer fails with `{code}`: stop raising it"),
        );
    }
    if old.effect != new.effect {
        push(
            "effectChanged",
            format!(
                "the effect is now `{}` (was `{}`)",
                new.effect.as_str(),
                old.effect.as_str()
            ),
        );
    }
    if old.dry_run != new.dry_run {
        let text = match new.dry_run {
            true => "now offers --dry-run: change nothing when `ctx.dry_run()` is true",
            false => "no longer offers --dry-run",
        };
        push("dryRunChanged", text.to_owned());
    }
    if old.paging != new.paging {
        push(
            "pagingChanged",
            "its paging changed: check how the handler pages".to_owned(),
        );
    }
}

/// The result's fields added, removed, retyped or made required or optional, one change each;
/// a schema that changed elsewhere (descriptions, constraints, a shape that is not an object of
/// properties) is one `outputChanged` that says so.
fn output_fields(old: &Command, new: &Command, push: &mut dyn FnMut(&'static str, String)) {
    let (Some(before), Some(after)) = (fields(old), fields(new)) else {
        push(
            "outputChanged",
            "the outputSchema changed: build the result as it now describes".to_owned(),
        );
        return;
    };
    let mut any = false;
    for (name, now) in &after {
        match before.iter().find(|(n, _)| n == name) {
            None => push(
                "outputFieldAdded",
                format!("new result field `{name}` ({now}): set it"),
            ),
            Some((_, was)) if was != now => push(
                "outputFieldChanged",
                format!("the result field `{name}` is now {now} (was {was})"),
            ),
            Some(_) => continue,
        }
        any = true;
    }
    for (name, _) in &before {
        if !after.iter().any(|(n, _)| n == name) {
            push(
                "outputFieldRemoved",
                format!("the result field `{name}` is gone: stop setting it"),
            );
            any = true;
        }
    }
    if !any {
        push(
            "outputChanged",
            "the outputSchema changed, its fields and their types did not: check the values against its descriptions and constraints".to_owned(),
        );
    }
}

/// The fields of a command's result as the generated struct has them: (name, `integer,
/// required`), in the schema's order; `None` when the schema is no object of properties.
fn fields(command: &Command) -> Option<Vec<(String, String)>> {
    let schema = command.output_schema.as_ref()?;
    let properties = schema.get("properties")?.as_object()?;
    let required: Vec<&str> = schema
        .get("required")
        .and_then(serde_json::Value::as_array)
        .map(|names| names.iter().filter_map(serde_json::Value::as_str).collect())
        .unwrap_or_default();
    Some(
        properties
            .iter()
            .map(|(name, property)| {
                let presence = match required.contains(&name.as_str()) {
                    true => "required",
                    false => "optional",
                };
                (name.clone(), format!("{}, {presence}", json_type(property)))
            })
            .collect(),
    )
}

/// A property's JSON type in a few words: `integer`, `a list of string`, `any JSON`.
fn json_type(property: &serde_json::Value) -> String {
    match property.get("type") {
        Some(serde_json::Value::String(ty)) if ty == "array" => match property.get("items") {
            Some(items) => format!("a list of {}", json_type(items)),
            None => "a list".to_owned(),
        },
        Some(serde_json::Value::String(ty)) => ty.clone(),
        Some(serde_json::Value::Array(types)) => types
            .iter()
            .filter_map(serde_json::Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ if property.get("enum").is_some() => "one of its enum".to_owned(),
        _ => "any JSON".to_owned(),
    }
}

/// Parameters (or global flags) added, removed and changed in a way the handler sees.
fn parameters(
    old: &[Parameter],
    new: &[Parameter],
    what: &str,
    push: &mut dyn FnMut(&'static str, String),
) {
    for param in new {
        match old.iter().find(|p| p.name == param.name) {
            None => push(
                "parameterAdded",
                format!("new {what} {}: read it in the handler", describe(param)),
            ),
            Some(before) => {
                let (was, now) = (shape(before), shape(param));
                if was != now {
                    push(
                        "parameterChanged",
                        format!("the {what} {} is now {now} (was {was})", spelt(param)),
                    );
                }
            }
        }
    }
    for param in old {
        if !new.iter().any(|p| p.name == param.name) {
            push(
                "parameterRemoved",
                format!("the {what} {} is gone: stop reading it", spelt(param)),
            );
        }
    }
}

fn exit_codes(old: &[ExitCode], new: &[ExitCode], push: &mut dyn FnMut(&'static str, String)) {
    for code in new {
        match old.iter().find(|c| c.name == code.name) {
            None => push(
                "exitCodeAdded",
                format!(
                    "new error code `{}` (exit {}): ErrorCode has a variant for it",
                    code.name, code.code
                ),
            ),
            Some(before) if before.code != code.code => push(
                "exitCodeChanged",
                format!(
                    "the error code `{}` now exits {} (was {})",
                    code.name, code.code, before.code
                ),
            ),
            Some(_) => {}
        }
    }
    for code in old {
        if !new.iter().any(|c| c.name == code.name) {
            push(
                "exitCodeRemoved",
                format!(
                    "the error code `{}` is gone: its ErrorCode variant no longer exists",
                    code.name
                ),
            );
        }
    }
}

/// How the parameter is written on the command line: `--untagged`, `<id>`, `<paths>...`.
fn spelt(param: &Parameter) -> String {
    match param.kind {
        ParamKind::Flag => format!("--{}", param.name),
        ParamKind::Positional => format!("<{}>", param.name),
        ParamKind::Variadic => format!("<{}>...", param.name),
    }
}

/// `--untagged (boolean)`, `<id> (integer, required)`.
fn describe(param: &Parameter) -> String {
    format!("{} ({})", spelt(param), shape(param))
}

/// What the handler receives: the type, and whether it may be absent.
fn shape(param: &Parameter) -> String {
    let ty = match (param.kind, param.is_many()) {
        (ParamKind::Variadic, _) | (_, true) => {
            format!("a list of {}", param.element_type().as_str())
        }
        _ => param.ty.as_str().to_owned(),
    };
    let mut parts = vec![ty];
    if param.required {
        parts.push("required".to_owned());
    }
    if let Some(values) = &param.values {
        parts.push(format!("one of {}", values.join("|")));
    }
    if param.kind == ParamKind::Positional {
        parts.push("positional".to_owned());
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(schema: serde_json::Value) -> Registry {
        serde_json::from_value(serde_json::json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "s",
            "commands": [{"name": "get", "description": "d", "output": "object", "outputSchema": schema}]
        }))
        .unwrap()
    }

    /// Regression (issue 29): one field changing type was "the outputSchema changed: build the
    /// result with the new fields".
    #[test]
    fn each_result_field_change_is_named() {
        let old = registry(
            serde_json::json!({"type": "object", "required": ["id"], "properties": {
                "id": {"type": "integer"}, "size": {"type": "integer"}, "gone": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}
            }}),
        );
        let new = registry(
            serde_json::json!({"type": "object", "required": ["id", "tags"], "properties": {
                "id": {"type": "integer"}, "size": {"type": "number"}, "tags": {"type": "array", "items": {"type": "string"}}, "added": {"type": "boolean"}
            }}),
        );
        let found: Vec<(&str, String)> = changes(&old, &new)
            .into_iter()
            .map(|c| (c.change, c.text))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "outputFieldChanged",
                    "the result field `size` is now number, optional (was integer, optional)".to_owned()
                ),
                (
                    "outputFieldChanged",
                    "the result field `tags` is now a list of string, required (was a list of string, optional)".to_owned()
                ),
                ("outputFieldAdded", "new result field `added` (boolean, optional): set it".to_owned()),
                ("outputFieldRemoved", "the result field `gone` is gone: stop setting it".to_owned()),
            ]
        );
    }

    #[test]
    fn a_schema_changed_beside_its_fields_says_so() {
        let old = registry(
            serde_json::json!({"type": "object", "properties": {"id": {"type": "integer"}}}),
        );
        let new = registry(
            serde_json::json!({"type": "object", "properties": {"id": {"type": "integer", "minimum": 1}}}),
        );
        let found = changes(&old, &new);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].change, "outputChanged");
        assert!(found[0].text.contains("did not"), "{found:?}");
    }
}
