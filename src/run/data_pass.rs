//! What the runtime does to a command's data before any profile renders it, from what the
//! command's `outputSchema` declares, in every profile and on both transports:
//!
//! - a string property marked `"format": "path"` comes back absolute, resolved against the
//!   directory the call ran in (CLI Agent Spec failure mode 29: a path a handler echoes as the
//!   caller gave it, `notes/a.md`, stays right after the caller moves);
//! - with `--stable-output` (failure mode 7, `crate::stable`), properties marked
//!   `"x-volatile": true` are dropped and keys sorted; arrays keep their order unless their
//!   schema declares a set (`"uniqueItems": true`), and so do a list's items (a list whose
//!   `outputSchema` is such an array is gathered and sorted: the one case a list does not
//!   stream).
//!
//! A command whose schema declares neither, called without `--stable-output`, is handed on
//! untouched, with no parse.

use std::path::Path;

use pas_spec::{Command, OutputKind};
use serde_json::Value;

use crate::reply::{Body, Encoding, Reply, Stream, StreamKind};
use crate::stable;

/// The schema `format` of a path the runtime makes absolute.
pub(crate) const PATH_FORMAT: &str = "path";

/// The command's data as every profile receives it.
pub(crate) fn apply(command: &Command, reply: Reply) -> Reply {
    let stable = stable::on();
    let Some(schema) = command
        .output_schema
        .as_ref()
        .filter(|_| stable || declares_paths(command))
    else {
        if stable {
            return pass(reply, None, None, true, false);
        }
        return reply;
    };
    let (item, set) = match (&command.list_field, command.output) {
        (None, OutputKind::List) => (
            schema.get("items").or(Some(schema)),
            stable::is_set(Some(schema)),
        ),
        _ => (None, false),
    };
    pass(reply, Some(schema), item, stable, set)
}

/// Whether the schema marks any property `"format": "path"`.
fn declares_paths(command: &Command) -> bool {
    fn walk(schema: &Value) -> bool {
        match schema {
            Value::Object(map) => {
                map.get("format").and_then(Value::as_str) == Some(PATH_FORMAT)
                    || map.values().any(walk)
            }
            Value::Array(items) => items.iter().any(walk),
            _ => false,
        }
    }
    command.output_schema.as_ref().is_some_and(walk)
}

/// `set`: the reply is a list whose schema declares a set (its items are sorted when `stable`).
fn pass(
    reply: Reply,
    schema: Option<&Value>,
    item: Option<&Value>,
    stable: bool,
    set: bool,
) -> Reply {
    let cwd = std::env::current_dir().ok();
    let cwd = cwd.as_deref();
    match reply.body {
        Body::Object(mut object) => {
            if let Ok(json) = &mut object.json
                && let Ok(mut value) = serde_json::from_slice::<Value>(json)
            {
                fix(&mut value, schema, cwd, stable);
                if let Ok(bytes) = serde_json::to_vec(&value) {
                    *json = bytes;
                }
            }
            Reply {
                body: Body::Object(object),
            }
        }
        Body::Stream(stream) if stream.kind == StreamKind::List => Reply {
            body: Body::Stream(items(
                stream,
                item.cloned(),
                cwd.map(Path::to_path_buf),
                stable,
                stable && set,
            )),
        },
        body => Reply { body },
    }
}

/// The list's items through [`fix`] (with `stable`, keys sorted and volatile fields dropped);
/// with `sort` (a declared set), gathered and sorted first.
fn items(
    stream: Stream,
    schema: Option<Value>,
    cwd: Option<std::path::PathBuf>,
    stable: bool,
    sort: bool,
) -> Stream {
    let Stream {
        kind,
        mut next,
        page,
    } = stream;
    // Gathered items (sorted, in reverse to pop) and the error that ended the list, if any.
    let mut gathered: Option<(Vec<Value>, Option<crate::error::Error>)> = None;
    // The item is appended to the buffer (which may hold earlier lines of a batch, or the spare
    // byte `stream_lines` takes): only the bytes after `start` are this item's.
    let fixed = move |encoding: Encoding, buffer: &mut crate::reply::ItemOut<'_>| {
        let start = buffer.len();
        // People's text is the handler's own: left as it is.
        if encoding == Encoding::Human {
            return next(encoding, buffer);
        }
        if !sort {
            let result = next(encoding, buffer)?;
            if result.is_ok()
                && let Ok(mut value) = serde_json::from_slice::<Value>(&buffer.bytes()[start..])
            {
                fix(&mut value, schema.as_ref(), cwd.as_deref(), stable);
                buffer.truncate(start);
                let _ = serde_json::to_writer(&mut *buffer, &value);
            }
            return Some(result);
        }
        let (items, error) = gathered.get_or_insert_with(|| {
            let mut items = Vec::new();
            let mut error = None;
            let mut one = Vec::with_capacity(256);
            loop {
                one.clear();
                match next(Encoding::Json, &mut crate::reply::ItemOut::new(&mut one)) {
                    None => break,
                    Some(Err(e)) => {
                        error = Some(e);
                        break;
                    }
                    Some(Ok(())) => {
                        if let Ok(mut value) = serde_json::from_slice::<Value>(&one) {
                            fix(&mut value, schema.as_ref(), cwd.as_deref(), true);
                            items.push(value);
                        }
                    }
                }
            }
            stable::sort_canonical(&mut items);
            items.reverse();
            (items, error)
        });
        match items.pop() {
            Some(value) => Some(
                serde_json::to_writer(&mut *buffer, &value).map_err(crate::error::serialise_error),
            ),
            None => error.take().map(Err),
        }
    };
    Stream {
        kind,
        next: Box::new(fixed),
        page,
    }
}

/// Makes declared paths absolute and, when `stable`, drops volatile fields, sorts keys and
/// the arrays the schema declares sets.
fn fix(value: &mut Value, schema: Option<&Value>, cwd: Option<&Path>, stable: bool) {
    if let Some(schema) = schema {
        declared(value, schema, cwd, stable);
    }
    if stable {
        stable::canonical(value, schema);
    }
}

fn declared(value: &mut Value, schema: &Value, cwd: Option<&Path>, stable: bool) {
    match value {
        Value::String(text) => {
            if schema.get("format").and_then(Value::as_str) == Some(PATH_FORMAT)
                && let Some(cwd) = cwd
                && !Path::new(text.as_str()).is_absolute()
                && !text.is_empty()
            {
                *text = cwd.join(text.as_str()).to_string_lossy().into_owned();
            }
        }
        Value::Object(map) => {
            let Some(props) = schema.get("properties").and_then(Value::as_object) else {
                return;
            };
            for (name, prop) in props {
                if stable && prop.get(stable::VOLATILE_KEYWORD) == Some(&Value::Bool(true)) {
                    map.shift_remove(name);
                } else if let Some(field) = map.get_mut(name) {
                    declared(field, prop, cwd, stable);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for value in items {
                    declared(value, item, cwd, stable);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn declared_paths_become_absolute_and_volatile_fields_go() {
        let schema = json!({"type": "object", "properties": {
            "file": {"type": "string", "format": "path"},
            "at": {"type": "string", "x-volatile": true},
            "rows": {"type": "array", "items": {"properties": {"p": {"format": "path"}}}}
        }});
        let mut value = json!({"file": "a/b.md", "at": "now", "rows": [{"p": "/abs"}, {"p": "c"}]});
        fix(&mut value, Some(&schema), Some(Path::new("/w")), false);
        assert_eq!(value["file"], "/w/a/b.md");
        assert_eq!(value["rows"][0]["p"], "/abs");
        assert_eq!(value["rows"][1]["p"], "/w/c");
        assert_eq!(value["at"], "now");
        fix(&mut value, Some(&schema), Some(Path::new("/w")), true);
        assert!(value.get("at").is_none());
    }
}
