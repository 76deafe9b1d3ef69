//! A command that declares an `inputSchema` and reads stdin has its stdin read and checked by
//! the runtime before the handler runs (failure modes 46 and 67): JSON an agent wrote a little
//! loosely (a trailing comma, a comment, single quotes, bare keys, a code fence) is corrected
//! and each correction reported as an `INPUT_CORRECTED` warning; JSON that breaks the schema,
//! or text that is not JSON even after the safe corrections, is refused with one
//! `INVALID_VALUE` error that lists every problem (`details.violations`), the corrections
//! made (`details.corrections`) and the corrected input (`details.corrected_input`).
//!
//! The handler then reads the checked JSON from [`Context::stdin`](crate::handler::context::Context::stdin) as
//! it would have read stdin. Reading the whole input before the handler writes anything also
//! means such a command can never deadlock on a caller that writes all of stdin before it
//! reads stdout (failure mode 61). Over MCP the `input` argument is checked by the MCP server.
//!
//! Stdin is read when it is meant (issue 27, item 5), in every mode:
//! - `--input-file -` asks for it explicitly: it is read to its end, however long it takes;
//! - otherwise it is read only when the call needs it: the command line gives none of the
//!   inputSchema's fields as flags, or leaves one of its required fields unset. A call whose
//!   flags already give every required field does not read stdin (whatever is piped in, and
//!   whenever it arrives): the flags are the input;
//! - a needed stdin that is a pipe waits up to `PAS_STDIN_WAIT` (10 s by default; 0: no limit)
//!   for its first byte or its end; silent that long, the call ends with `MISSING_INPUT` saying
//!   no input arrived in that time (not that a field is missing). Once input has begun it is
//!   read to its end however slowly it comes. A terminal is left to the handler.

use std::io::{self, IsTerminal, Read};
use std::sync::Arc;

use pas_spec::{Command, StdinMode};
use serde_json::{Value, json};

use crate::codes;
use crate::error::Error;
use crate::guards::forgiving_json::{self, Correction};
use crate::guards::input::{self, Bounded};
use crate::guards::schema_check;
use crate::warning::Warning;

/// The warning constant of a correction made to stdin's JSON.
pub const INPUT_CORRECTED: &str = "INPUT_CORRECTED";

/// Stdin, read and checked: what the handler reads instead.
#[derive(Debug)]
pub(crate) struct Body {
    /// The bytes the handler reads (the corrected JSON when something was corrected).
    pub bytes: Arc<[u8]>,
    /// What was corrected, each reported as a warning.
    pub corrections: Vec<Correction>,
}

impl Body {
    /// One `INPUT_CORRECTED` warning per correction.
    pub(crate) fn warnings(&self) -> impl Iterator<Item = Warning> + '_ {
        self.corrections.iter().map(|c| {
            Warning::new(
                INPUT_CORRECTED,
                format!("stdin was not strict JSON; {}", c.describe()),
            )
            .severity(crate::warning::Severity::Info)
            .affects(["stdin"])
        })
    }
}

/// [`check`]'s signature: what [`InputRoom`] holds.
pub(crate) type CheckBody = fn(&str, &Value, Vec<u8>) -> Result<Body, Error>;

/// [`prepare`] for the command a call selected: its input schema is the full registry's (a
/// derive-built tool makes it on first use, and only a command that reads stdin asks).
pub(crate) fn for_call(
    shared: &crate::end::call_state::Shared,
    selected: &crate::handler::context::Selected,
    command: &Command,
    leaf: &clap::ArgMatches,
    check: Option<CheckBody>,
) -> Result<Option<Body>, Error> {
    // A binary built without input schema checks has no command that declares a schema.
    let Some(check) = check else {
        return Ok(None);
    };
    if command.stdin == StdinMode::None {
        return Ok(None);
    }
    let schema = match selected {
        crate::handler::context::Selected::Declared(index) => {
            shared.registry.commands[*index].input_schema.as_ref()
        }
        crate::handler::context::Selected::Verb(verb) => verb.input_schema.as_ref(),
    };
    let explicit = leaf
        .try_get_one::<String>(crate::parse::input_file::INPUT_FILE_ID)
        .ok()
        .flatten()
        .is_some_and(|value| value == "-");
    if shared.mcp.is_some() || !(explicit || schema.is_some_and(|s| needed(s, command, leaf))) {
        return Ok(None);
    }
    prepare(command, schema, explicit, &shared.registry.name, check)
}

/// Whether the call needs its input from stdin: the command line gives none of the
/// inputSchema's fields as flags, or leaves one of its required fields unset.
pub(crate) fn needed(schema: &Value, command: &Command, leaf: &clap::ArgMatches) -> bool {
    let Some(fields) = schema.get("properties").and_then(Value::as_object) else {
        return true;
    };
    let given: Vec<&str> = command
        .parameters
        .iter()
        .filter(|p| p.kind == pas_spec::ParamKind::Flag && fields.contains_key(&p.name))
        .filter(|p| {
            let id = crate::parse::clap_face::arg_id(p);
            leaf.ids().any(|known| known.as_str() == id)
                && leaf.value_source(&id) == Some(clap::parser::ValueSource::CommandLine)
        })
        .map(|p| p.name.as_str())
        .collect();
    if given.is_empty() {
        return true;
    }
    schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|required| {
            required
                .iter()
                .filter_map(Value::as_str)
                .any(|field| !given.contains(&field))
        })
}

/// Reads and checks stdin for `command`, when it declares an input schema; `schema` is that
/// schema (the registry's, made on first use for a derive-built tool). `explicit`: the caller
/// asked for stdin (`--input-file -`), which is read to its end however long it takes; else
/// a pipe silent for the documented wait is `MISSING_INPUT` (never a hang, never "a field is
/// missing").
pub(crate) fn prepare(
    command: &Command,
    schema: Option<&Value>,
    explicit: bool,
    tool: &str,
    check: CheckBody,
) -> Result<Option<Body>, Error> {
    let Some(schema) = schema else {
        return Ok(None);
    };
    if command.stdin == StdinMode::None || io::stdin().is_terminal() {
        return Ok(None);
    }
    if !explicit && input::stdin_wait().is_some_and(|wait| !input::stdin_ready(wait)) {
        return Err(crate::handler::context::idle_input(tool));
    }
    let mut bytes = Vec::new();
    Bounded::new(io::stdin().lock(), "stdin", input::stdin_limit())
        .read_to_end(&mut bytes)
        .map_err(|err| {
            input::too_large(&err)
                .unwrap_or_else(|| Error::general(format!("cannot read stdin: {err}")))
        })?;
    check(&command.name, schema, bytes).map(Some)
}

/// The checks of [`prepare`] on bytes already read.
pub(crate) fn check(command: &str, schema: &Value, bytes: Vec<u8>) -> Result<Body, Error> {
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return Err(refused(
            "stdin is not UTF-8 text",
            json!({ "input": "stdin" }),
        ));
    };
    if text.trim().is_empty() {
        return Ok(Body {
            bytes: bytes.into(),
            corrections: Vec::new(),
        });
    }
    let read = forgiving_json::read(text).map_err(|unreadable| {
        refused(
            format!("stdin is not JSON: {}", unreadable.error),
            json!({
                "input": "stdin",
                "line": unreadable.error.line(),
                "column": unreadable.error.column(),
                "corrections": unreadable.corrections.iter().map(Correction::to_json).collect::<Vec<_>>(),
            }),
        )
    })?;
    let problems = schema_check::check(schema, &read.value);
    if !problems.is_empty() {
        let message = problems
            .iter()
            .map(|p| match p.path.as_str() {
                "" => format!("stdin: {}", p.message),
                path => format!("stdin {path}: {}", p.message),
            })
            .collect::<Vec<_>>()
            .join("; ");
        let mut details = json!({
            "input": "stdin",
            "violations": problems.iter().map(schema_check::Problem::to_json).collect::<Vec<_>>(),
        });
        if !read.corrections.is_empty() {
            details["corrections"] = read
                .corrections
                .iter()
                .map(Correction::to_json)
                .collect::<Vec<_>>()
                .into();
            details["corrected_input"] = read.value.clone();
        }
        return Err(refused(message, details).with_suggestion(format!(
            "fix every value listed in details.violations and call again; nothing was run \
             (`tools {command}` shows the inputSchema)"
        )));
    }
    let bytes: Arc<[u8]> = if read.corrections.is_empty() {
        bytes.into()
    } else {
        serde_json::to_vec(&read.value)
            .map_err(|e| Error::internal(format!("cannot write the corrected input: {e}")))?
            .into()
    };
    Ok(Body {
        bytes,
        corrections: read.corrections,
    })
}

fn refused(message: impl Into<String>, details: Value) -> Error {
    Error::new(codes::INVALID_VALUE, message)
        .with_suggestion(
            "give one JSON value that matches the command's inputSchema on stdin; nothing was run",
        )
        .with_details(details)
}

/// The input the handler reads: the file `--input-file` names, checked against the command's
/// `inputSchema` as stdin would be; else stdin's own (see [`for_call`]).
pub(crate) fn body_for_call(
    shared: &crate::end::call_state::Shared,
    selected: &crate::handler::context::Selected,
    command: &Command,
    leaf: &clap::ArgMatches,
    input: Option<&InputRoom>,
) -> Result<Option<Body>, Error> {
    use pas_spec::faces::INPUT_FILE_FLAG;
    let check = input.map(|input| input.check);
    let Some(path) = crate::parse::input_file::given(leaf).filter(|_| shared.mcp.is_none()) else {
        return for_call(shared, selected, command, leaf, check);
    };
    let bytes = crate::guards::input::read_file(&path).map_err(|error| match error.code() {
        // A file that cannot be read is a wrong argument, not the tool's failure.
        crate::codes::GENERAL_ERROR => Error::new(
            crate::codes::INVALID_ARGUMENT,
            format!("--{INPUT_FILE_FLAG}: {}", error.message()),
        )
        .with_suggestion(format!(
            "name a readable file, or `--{INPUT_FILE_FLAG} -` for stdin"
        )),
        _ => error,
    })?;
    let schema = match selected {
        crate::handler::context::Selected::Declared(index) => {
            shared.registry.commands[*index].input_schema.as_ref()
        }
        crate::handler::context::Selected::Verb(verb) => verb.input_schema.as_ref(),
    };
    // A binary built without input schema checks has no command that declares a schema.
    match schema.zip(check) {
        Some((schema, check)) => check(&command.name, schema, bytes).map(Some),
        None => Ok(Some(Body {
            bytes: bytes.into(),
            corrections: Vec::new(),
        })),
    }
}

/// Checks a command's stdin (or `--input-file`) against its declared `inputSchema` (failure
/// modes 46 and 67, `crate::run::stdin_body`): only a command that declares one reads it so.
pub(crate) struct InputRoom {
    /// Corrects and checks the bytes read (command name, schema, bytes).
    pub(crate) check: CheckBody,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Value {
        json!({"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}})
    }

    #[test]
    fn corrected_json_reaches_the_handler_as_strict_json() {
        let body = check("task.create", &schema(), b"{title: 'x',}".to_vec()).unwrap();
        assert_eq!(&*body.bytes, br#"{"title":"x"}"#);
        assert_eq!(body.warnings().count(), 3);
    }

    #[test]
    fn strict_json_is_passed_byte_for_byte() {
        let given = b"{ \"title\" : \"x\" }\n".to_vec();
        let body = check("task.create", &schema(), given.clone()).unwrap();
        assert_eq!(&*body.bytes, &given[..]);
        assert!(body.corrections.is_empty());
    }

    #[test]
    fn a_refusal_lists_violations_corrections_and_the_corrected_input() {
        let error = check("task.create", &schema(), b"{title: 3,}".to_vec()).unwrap_err();
        assert_eq!(error.code(), codes::INVALID_VALUE);
        let details = error.details().unwrap();
        assert_eq!(details["violations"][0]["path"], "/title");
        assert_eq!(details["corrections"][0]["kind"], "unquoted_key");
        assert_eq!(details["corrected_input"], json!({"title": 3}));
    }
}
