//! `--output-id` (CLI Agent Spec failure mode 6): a call prints only the ids of its results,
//! one per line, whatever the profile, so that `tool get --output-id | tool use --id -` needs no
//! JSON extraction in between (the next command reads `-` from stdin: `crate::parse::stdin_ids`).
//!
//! Which field is the id is said once, in the command's `outputSchema` (the item schema of a
//! list): the property marked `"x-id": true`, else the one named `id`. The flag is checked
//! before the handler runs: a command with no results (a document, events, nothing) or whose
//! schema has no id field refuses it as an argument error naming the fields it has. An id is
//! printed as its text (a string unquoted, a number as is); a result without one ends the call
//! with an error after the ids already printed.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use pas_spec::{Command, OutputKind, Registry};
use serde_json::Value;

use crate::codes;
use crate::end::call_state::{Shared, Stop};
use crate::error::Error;
use crate::reply::{Body, Encoding, Reply, StreamKind};

/// The schema keyword that names a result's id field.
pub(crate) const ID_KEYWORD: &str = "x-id";

static ON: AtomicBool = AtomicBool::new(false);

/// Turns the mode on for this process's call (from the pre-scan; never for `TOOL mcp`).
pub(crate) fn set(on: bool) {
    ON.store(on, Ordering::Relaxed);
}

/// Whether the call asked for ids only.
pub(crate) fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

/// The schema of one result of `command`: the item schema of a list (or of the object's
/// `listField`), the object's own schema otherwise.
fn item_schema(command: &Command) -> Option<&Value> {
    let schema = command.output_schema.as_ref()?;
    match (&command.list_field, command.output) {
        (Some(field), _) => schema.pointer(&format!("/properties/{field}/items")),
        (None, OutputKind::List) => schema.get("items").or(Some(schema)),
        (None, _) => Some(schema),
    }
}

/// The id field of `command`'s results: the property marked `"x-id": true`, else `id`.
pub(crate) fn id_field(command: &Command) -> String {
    item_schema(command)
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .and_then(|props| {
            props
                .iter()
                .find(|(_, p)| p.get(ID_KEYWORD) == Some(&Value::Bool(true)))
                .map(|(name, _)| name.clone())
        })
        .unwrap_or_else(|| "id".to_owned())
}

/// Refuses `--output-id` before the handler when `command` cannot answer it.
pub(crate) fn check(command: &Command) -> Result<(), Error> {
    if !on() {
        return Ok(());
    }
    let results = matches!(command.output, OutputKind::Object | OutputKind::List);
    if !results {
        return Err(Error::new(
            codes::INVALID_ARGUMENT,
            format!("--output-id: `{}` prints no results with ids", command.name),
        )
        .with_suggestion("leave out --output-id"));
    }
    let field = id_field(command);
    let Some(props) = item_schema(command)
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
    else {
        // No declared fields: the results are looked at as they come.
        return Ok(());
    };
    if props.contains_key(&field) {
        return Ok(());
    }
    let known: Vec<&str> = props.keys().map(String::as_str).collect();
    Err(Error::new(
        codes::INVALID_ARGUMENT,
        format!(
            "--output-id: the results of `{}` have no `{field}` field",
            command.name
        ),
    )
    .with_suggestion(format!(
        "leave out --output-id, or mark the id among {} with \"x-id\": true in the outputSchema",
        known.join(", ")
    ))
    .with_details(serde_json::json!({ "known": known })))
}

/// One id as a line of text: a string unquoted, anything else as compact JSON.
fn id_text(value: &Value, field: &str, index: usize) -> Result<String, Error> {
    match value.get(field) {
        Some(Value::String(text)) => Ok(text.clone()),
        Some(Value::Null) | None => Err(Error::new(
            codes::INVALID_ARGUMENT,
            format!("--output-id: result {index} has no `{field}`"),
        )
        .with_suggestion("leave out --output-id to see the whole results")),
        Some(other) => Ok(other.to_string()),
    }
}

/// Writes the reply's ids, one per line, instead of the profile's rendering.
pub(crate) fn write(shared: &Arc<Shared>, reply: Reply) -> Result<(), Stop> {
    let (field, list_field) = {
        let output = shared.lock();
        let registry: &Registry = &shared.registry;
        let command = output
            .command
            .as_deref()
            .and_then(|name| registry.commands.iter().find(|c| c.name == name));
        (
            command.map_or_else(|| "id".to_owned(), id_field),
            command.and_then(|c| c.list_field.clone()),
        )
    };
    let line = |id: String| -> Result<(), Stop> {
        if let Some(error) = shared.stop_requested() {
            return Err(Stop::Failed(error));
        }
        let mut output = shared.lock();
        let output = &mut *output;
        let id = match output.redactor.has_values() {
            true => output.redactor.text(&id),
            false => id,
        };
        output.sinks.stdout.write(id.as_bytes())?;
        output.sinks.stdout.write(b"\n")?;
        Ok(output.sinks.stdout.end_line()?)
    };
    match reply.body {
        Body::Object(object) => {
            let json = object.json.map_err(Stop::Failed)?;
            let value: Value = serde_json::from_slice(&json)
                .map_err(|e| Stop::Failed(Error::internal(e.to_string())))?;
            match list_field.as_deref().and_then(|f| value.get(f)) {
                Some(Value::Array(items)) => {
                    for (index, item) in items.iter().enumerate() {
                        line(id_text(item, &field, index).map_err(Stop::Failed)?)?;
                    }
                    Ok(())
                }
                _ => line(id_text(&value, &field, 0).map_err(Stop::Failed)?),
            }
        }
        Body::Stream(mut stream) if stream.kind == StreamKind::List => {
            let mut buffer = Vec::with_capacity(256);
            let mut index = 0;
            loop {
                buffer.clear();
                match (stream.next)(Encoding::Json, &mut crate::reply::ItemOut::new(&mut buffer)) {
                    None => return Ok(()),
                    Some(Err(error)) => return Err(Stop::Failed(error)),
                    Some(Ok(())) => {}
                }
                let item: Value = serde_json::from_slice(&buffer)
                    .map_err(|e| Stop::Failed(Error::internal(e.to_string())))?;
                line(id_text(&item, &field, index).map_err(Stop::Failed)?)?;
                index += 1;
            }
        }
        // Refused before the handler ran (`check`); a verb's reply of another kind prints as usual.
        body => crate::render::drive::reply(shared, Reply { body }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_id_is_its_text_and_a_missing_one_is_an_error() {
        assert_eq!(id_text(&json!({"id": "a b"}), "id", 0).unwrap(), "a b");
        assert_eq!(id_text(&json!({"id": 42}), "id", 0).unwrap(), "42");
        let error = id_text(&json!({"name": "x"}), "id", 3).unwrap_err();
        assert_eq!(error.code(), codes::INVALID_ARGUMENT);
        assert!(error.message().contains("result 3"));
    }
}
