//! A task's fields from flags or from one JSON object on stdin, checked against the command's
//! `inputSchema` in the registry: the same schema `todo tools` shows is the one enforced.

use std::io::Read;

use pas::{Args, Context, Error};
use serde_json::{Map, Value};

use crate::task::Fields;

pub const INVALID_INPUT: &str = "INVALID_INPUT";

/// The flags that carry fields (`tag` is repeatable; it maps to `tags`).
const FIELD_FLAGS: [&str; 5] = ["title", "notes", "due", "priority", "tag"];

/// The fields of this call: from flags when any field flag is given, else from stdin.
pub fn read(args: &Args, ctx: &Context) -> Result<Fields, Error> {
    let given: Vec<&str> = FIELD_FLAGS
        .into_iter()
        .filter(|name| {
            args.matches().value_source(name) == Some(clap::parser::ValueSource::CommandLine)
        })
        .collect();
    let object = if given.is_empty() {
        from_stdin(ctx)?
    } else {
        from_flags(args)?
    };
    validate(ctx, &object)?;
    Ok(fields(object))
}

fn from_flags(args: &Args) -> Result<Map<String, Value>, Error> {
    let mut object = Map::new();
    for name in ["title", "notes", "due", "priority"] {
        let given =
            args.matches().value_source(name) == Some(clap::parser::ValueSource::CommandLine);
        if let (true, Some(value)) = (given, args.get::<String>(name)?) {
            // An empty --due clears the date (null); an empty --notes clears the notes.
            let value = if name == "due" && value.is_empty() {
                Value::Null
            } else {
                Value::String(value)
            };
            object.insert(name.to_owned(), value);
        }
    }
    let tags = args.many::<String>("tag")?;
    if !tags.is_empty() {
        object.insert(
            "tags".to_owned(),
            tags.into_iter().map(Value::String).collect(),
        );
    }
    Ok(object)
}

fn from_stdin(ctx: &Context) -> Result<Map<String, Value>, Error> {
    let mut text = String::new();
    if let Some(mut stdin) = ctx.stdin()? {
        stdin.read_to_string(&mut text).map_err(|e| {
            // Past the runtime's input limit (`< /dev/zero`): its structured error.
            pas::input::too_large(&e)
                .unwrap_or_else(|| invalid(format!("stdin cannot be read: {e}")))
        })?;
    }
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(object)) => Ok(object),
        Ok(_) => Err(invalid("stdin must hold one JSON object")),
        Err(e) => Err(invalid(format!("stdin is not JSON: {e}"))),
    }
}

fn validate(ctx: &Context, object: &Map<String, Value>) -> Result<(), Error> {
    let Some(schema) = &ctx.command().input_schema else {
        return Ok(());
    };
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| Error::internal(format!("the inputSchema is invalid: {e}")))?;
    let instance = Value::Object(object.clone());
    let problems: Vec<Value> = validator
        .iter_errors(&instance)
        .map(|e| serde_json::json!({ "path": e.instance_path().to_string(), "message": e.to_string() }))
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    let first = problems[0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    Err(invalid(format!("the task fields are invalid: {first}"))
        .with_details(serde_json::json!({ "problems": problems })))
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(INVALID_INPUT, message).with_suggestion(
        "give the fields as flags, or one JSON object on stdin; `todo tools task.create` shows the inputSchema",
    )
}

fn fields(object: Map<String, Value>) -> Fields {
    let text = |v: &Value| v.as_str().map(str::to_owned);
    // Empty strings clear optional fields.
    let clearable = |v: &Value| text(v).filter(|s| !s.is_empty());
    Fields {
        title: object.get("title").and_then(text),
        notes: object.get("notes").map(clearable),
        due: object.get("due").map(clearable),
        priority: object.get("priority").and_then(text),
        tags: object
            .get("tags")
            .and_then(Value::as_array)
            .map(|tags| tags.iter().filter_map(text).collect()),
    }
}
