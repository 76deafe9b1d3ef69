//! Output values the command's `outputSchema` marks sensitive (`"x-sensitive": true`, or
//! `"format": "password"`), masked in the JSON data of every profile and on both transports
//! (CLI Agent Spec failure mode 59, declared): each such value (when not null) becomes
//! [`MASK`], which says how to get it raw (`--unmask`, or `PAS_UNMASK=1`).
//!
//! The treatment follows the schema, not the value: a marked property is always masked, an
//! unmarked one never (a high-entropy value in an unmarked property is masked only when the tool
//! declares `maskHighEntropy`, see `crate::guards::entropy`). A value the caller gave in the call's own
//! arguments comes back as given. The schema is followed through `properties`,
//! `additionalProperties` and `items`.
//!
//! A command whose schema marks nothing, or a call with `--unmask`, is handed on untouched, with
//! no parse: the cost is one look at the schema per call.

use pas_spec::faces::masking::marks_sensitive as marks;
use pas_spec::{Command, OutputKind};
use serde_json::Value;

use crate::reply::{Body, Encoding, Reply, Stream, StreamKind};

/// What replaces a sensitive value.
pub(crate) const MASK: &str = "[sensitive; raw with --unmask]";

/// Whether `schema` marks any value sensitive, anywhere in it.
pub(crate) fn declares(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => marks(schema) || map.values().any(declares),
        Value::Array(items) => items.iter().any(declares),
        _ => false,
    }
}

/// The command's data with its sensitive values masked, unless the caller said `--unmask`.
/// `arguments` gives the call's secret arguments, asked only when the command declares a
/// sensitive output.
pub(crate) fn apply(
    command: &Command,
    arguments: impl FnOnce() -> Vec<String>,
    reply: Reply,
) -> Reply {
    let Some(schema) = command
        .output_schema
        .as_ref()
        .filter(|schema| declares(schema) && crate::guards::entropy::masking())
    else {
        return reply;
    };
    let arguments = arguments();
    match reply.body {
        Body::Object(mut object) => {
            if let Ok(json) = &mut object.json
                && let Ok(mut value) = serde_json::from_slice::<Value>(json)
                && mask(&mut value, schema, &arguments)
                && let Ok(bytes) = serde_json::to_vec(&value)
            {
                *json = bytes;
            }
            Reply {
                body: Body::Object(object),
            }
        }
        Body::Stream(stream) if stream.kind == StreamKind::List => {
            let item = match (&command.list_field, command.output) {
                (None, OutputKind::List) => schema.get("items").unwrap_or(schema),
                _ => schema,
            };
            Reply {
                body: Body::Stream(items(stream, item.clone(), arguments)),
            }
        }
        body => Reply { body },
    }
}

/// The list's items, each masked as it is made.
fn items(stream: Stream, schema: Value, arguments: Vec<String>) -> Stream {
    let Stream {
        kind,
        mut next,
        page,
    } = stream;
    // The item is appended to the buffer (which may hold earlier lines, or the spare byte):
    // only the bytes after `start` are this item's.
    let masked = move |encoding: Encoding, buffer: &mut crate::reply::ItemOut<'_>| {
        let start = buffer.len();
        let result = next(encoding, buffer)?;
        if encoding == Encoding::Json
            && result.is_ok()
            && let Ok(mut value) = serde_json::from_slice::<Value>(&buffer.bytes()[start..])
            && mask(&mut value, &schema, &arguments)
        {
            buffer.truncate(start);
            let _ = serde_json::to_writer(&mut *buffer, &value);
        }
        Some(result)
    };
    Stream {
        kind,
        next: Box::new(masked),
        page,
    }
}

/// Masks the values of `value` that `schema` marks; whether any changed.
fn mask(value: &mut Value, schema: &Value, arguments: &[String]) -> bool {
    if marks(schema) {
        let given = value
            .as_str()
            .is_some_and(|text| arguments.iter().any(|a| a == text));
        if value.is_null() || given || value.as_str() == Some(MASK) {
            return false;
        }
        *value = Value::String(MASK.to_owned());
        return true;
    }
    match value {
        Value::Object(map) => {
            let properties = schema.get("properties");
            let additional = schema.get("additionalProperties");
            let mut any = false;
            for (key, inner) in map.iter_mut() {
                if let Some(sub) = properties.and_then(|p| p.get(key)).or(additional) {
                    any |= mask(inner, sub, arguments);
                }
            }
            any
        }
        Value::Array(items) => match schema.get("items") {
            Some(sub) => items
                .iter_mut()
                .fold(false, |any, item| mask(item, sub, arguments) | any),
            None => false,
        },
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "password": {"type": "string", "format": "password"},
                "token": {"type": "string", "x-sensitive": true},
                "keys": {"type": "array", "items": {"type": "object", "properties": {
                    "id": {"type": "string"},
                    "secret": {"type": "string", "x-sensitive": true}
                }}},
                "env": {"type": "object", "additionalProperties": {"type": "string", "x-sensitive": true}}
            }
        })
    }

    #[test]
    fn marked_values_are_masked_and_the_rest_left_as_it_is() {
        let mut value = json!({
            "name": "AKIAIOSFODNN7EXAMPLE",
            "password": "hunter2hunter2",
            "token": "abc",
            "keys": [{"id": "k1", "secret": "s1"}, {"id": "k2", "secret": null}],
            "env": {"HOME": "/home/u"}
        });
        assert!(mask(&mut value, &schema(), &[]));
        assert_eq!(
            value,
            json!({
                "name": "AKIAIOSFODNN7EXAMPLE",
                "password": MASK,
                "token": MASK,
                "keys": [{"id": "k1", "secret": MASK}, {"id": "k2", "secret": null}],
                "env": {"HOME": MASK}
            })
        );
        // The same value, the same treatment: masking again changes nothing.
        let again = value.clone();
        assert!(!mask(&mut value, &schema(), &[]));
        assert_eq!(value, again);
    }

    #[test]
    fn the_callers_own_value_comes_back_as_given() {
        let mut value = json!({"password": "the-callers-password", "token": "other"});
        assert!(mask(
            &mut value,
            &schema(),
            &["the-callers-password".to_owned()]
        ));
        assert_eq!(value["password"], "the-callers-password");
        assert_eq!(value["token"], MASK);
    }

    #[test]
    fn a_schema_that_marks_nothing_declares_nothing() {
        assert!(declares(&schema()));
        assert!(!declares(
            &json!({"type": "object", "properties": {"format": {"type": "string"}}})
        ));
    }
}
