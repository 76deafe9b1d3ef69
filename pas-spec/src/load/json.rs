//! JSON to registry with serde_json, and its errors as diagnostics.
//!
//! serde_json reports errors as text, so the facts (which key, which values were expected) are
//! read back from serde's fixed wording. Checks serde_json does not make come from the source
//! map's walk, run first: duplicate keys inside free-form maps such as `outputSchema` (serde_json
//! keeps the last), and the nesting depth and node count the YAML budget also enforces.

use serde::Deserialize;
use serde_json::error::Category;

use super::report::{self, Problem};
use super::{Format, Source};
use crate::source_map::{self, Indexed, SourceMap, WalkError};
use crate::{Diagnostic, Location, Registry};

/// Parse a JSON source (see [`super::parse`]).
pub(super) fn parse(source: &Source) -> Result<Registry, Diagnostic> {
    let text = source.text.strip_prefix('\u{FEFF}').unwrap_or(&source.text);
    let at = |(line, column): (u32, u32)| Location {
        file: source.name.clone(),
        line,
        column,
    };
    // The walk comes first: it bounds depth and size before serde_json builds anything, finds
    // duplicate keys, and its map places shape errors at their keys.
    let map = match source_map::index(text) {
        Ok(Indexed {
            duplicate: Some(duplicate),
            ..
        }) => {
            let problem = Problem::DuplicateKey {
                key: duplicate.key,
                first: Some(duplicate.first),
            };
            return Err(report::diagnostic(
                problem,
                duplicate.pointer,
                at(duplicate.at),
            ));
        }
        Ok(indexed) => indexed.map,
        Err(WalkError::TooDeep { at: position }) => {
            return Err(report::diagnostic(
                Problem::TooDeep,
                String::new(),
                at(position),
            ));
        }
        Err(WalkError::TooManyNodes { at: position }) => {
            return Err(report::diagnostic(
                Problem::TooManyNodes,
                String::new(),
                at(position),
            ));
        }
        // serde_json says what is wrong, in JSON's terms.
        Err(WalkError::Syntax) => SourceMap::default(),
    };

    let mut track = serde_path_to_error::Track::new();
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = Registry::deserialize(serde_path_to_error::Deserializer::new(&mut de, &mut track))
        .and_then(|registry| de.end().map(|()| registry));
    parsed.map_err(|error| {
        let pointer = report::pointer(&track.path());
        diagnose(source, text, &map, &error, pointer)
    })
}

/// The diagnostic for a serde_json error, `pointer` being where serde was in the document.
fn diagnose(
    source: &Source,
    text: &str,
    map: &SourceMap,
    error: &serde_json::Error,
    pointer: String,
) -> Diagnostic {
    let message = without_position(error);
    let (problem, pointer) = match error.classify() {
        Category::Data => data_problem(&message, pointer),
        // serde_json's own nesting guard (128 levels), should the walk not have run.
        Category::Syntax if message == "recursion limit exceeded" => (Problem::TooDeep, pointer),
        Category::Syntax | Category::Eof | Category::Io => {
            (Problem::Syntax(Format::Json, message), pointer)
        }
    };
    // serde_json stops after the offending value. Like the YAML path, show a wrong value where
    // it starts, an unknown or repeated key at the key, a missing key at its mapping; a syntax
    // error where serde_json stopped reading.
    let position = match &problem {
        Problem::WrongType { .. } | Problem::InvalidValue { .. } | Problem::UnknownValue { .. } => {
            map.value_position(&pointer)
        }
        Problem::Syntax(..) | Problem::TooDeep => None,
        _ => map.position(&pointer),
    };
    let position = position.unwrap_or_else(|| char_position(text, error.line(), error.column()));
    let location = Location {
        file: source.name.clone(),
        line: position.0,
        column: position.1,
    };
    report::diagnostic(problem, pointer, location)
}

/// serde_json's message without its " at line L column C" suffix.
fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    match text.strip_suffix(&suffix) {
        Some(message) => message.to_owned(),
        None => text,
    }
}

/// Read serde's fixed wording of a data error back into its facts.
pub(super) fn data_problem(message: &str, pointer: String) -> (Problem, String) {
    if let Some((key, expected)) = named_with_list(message, "unknown field `") {
        let pointer = report::with_last(pointer, &key);
        return (Problem::UnknownKey { key, expected }, pointer);
    }
    if let Some((value, expected)) = named_with_list(message, "unknown variant `") {
        return (Problem::UnknownValue { value, expected }, pointer);
    }
    if let Some(key) = backticked(message, "missing field `") {
        return (Problem::MissingKey(key), pointer);
    }
    if let Some(key) = backticked(message, "duplicate field `") {
        let pointer = report::with_last(pointer, &key);
        return (Problem::DuplicateKey { key, first: None }, pointer);
    }
    for (prefix, wrong_type) in [("invalid type: ", true), ("invalid value: ", false)] {
        let Some((found, expected)) = message
            .strip_prefix(prefix)
            .and_then(|rest| rest.rsplit_once(", expected "))
        else {
            continue;
        };
        let (expected, found) = (expected.to_owned(), found.to_owned());
        let problem = match wrong_type {
            true => Problem::WrongType {
                expected,
                found: Some(found),
            },
            false => Problem::InvalidValue { expected, found },
        };
        return (problem, pointer);
    }
    (Problem::Shape(message.to_owned()), pointer)
}

/// `prefix` + name + `` ` ``: the name (serde quotes names in backticks without escaping).
fn backticked(message: &str, prefix: &str) -> Option<String> {
    let rest = message.strip_prefix(prefix)?;
    rest.strip_suffix('`').map(str::to_owned)
}

/// "unknown field `x`, expected one of `a`, `b`": the name and the expected words. The name is
/// the user's and may hold anything, so the list is found from the end.
fn named_with_list(message: &str, prefix: &str) -> Option<(String, Vec<String>)> {
    let rest = message.strip_prefix(prefix)?;
    let (name, expected) = match rest.rfind("`, expected ") {
        Some(split) => (&rest[..split], &rest[split + "`, expected ".len()..]),
        // serde words an empty list as "there are no fields/variants".
        None => (rest.split("`, there are no").next()?, ""),
    };
    // The list alternates text and `word`s: the words are the odd pieces.
    let words = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect();
    Some((name.to_owned(), words))
}

/// serde_json's line and byte column as a 1-based line and character column.
fn char_position(text: &str, line: usize, column: usize) -> (u32, u32) {
    let line = line.max(1);
    let Some(content) = text.split('\n').nth(line - 1) else {
        return (u32::try_from(line).unwrap_or(u32::MAX), 1);
    };
    // serde_json's column is the 1-based byte column of the last byte it read.
    let mut end = column.saturating_sub(1).min(content.len());
    while !content.is_char_boundary(end) {
        end -= 1;
    }
    let chars = content[..end].chars().count() + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(chars).unwrap_or(u32::MAX),
    )
}
