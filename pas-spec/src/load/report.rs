//! The wording of loader diagnostics, shared by the YAML and JSON paths.
//!
//! Each parser's error is first reduced to a [`Problem`] (the structured facts: which key, what
//! was expected, what was found), then worded here once, so both formats say the same thing
//! in the same way. Text that comes from the user or from a parser is cut to one short line.

use serde_path_to_error::{Path, Segment};

use super::{Format, MAX_DEPTH, MAX_NODES};
use crate::diagnostic::pointer_token;
use crate::{Diagnostic, Location};

/// What went wrong, before it is worded.
#[derive(Debug)]
pub(super) enum Problem {
    /// The text is not YAML or JSON; the parser's own description.
    Syntax(Format, String),
    /// More than one YAML document in the file.
    MultipleDocuments,
    /// A document with no content (e.g. only `---`).
    Empty,
    /// A value of the wrong type (and what it is, when known).
    WrongType {
        expected: String,
        found: Option<String>,
    },
    /// A value of the right type that is not allowed (e.g. out of range).
    InvalidValue { expected: String, found: String },
    /// A required key is absent (the pointer is the mapping's).
    MissingKey(String),
    /// A key the format does not have (the pointer is the key's).
    UnknownKey { key: String, expected: Vec<String> },
    /// An enum value the format does not have.
    UnknownValue {
        value: String,
        expected: Vec<String>,
    },
    /// A key repeated in one mapping, and where it first appears when known.
    DuplicateKey {
        key: String,
        first: Option<(u32, u32)>,
    },
    /// Nesting deeper than [`MAX_DEPTH`].
    TooDeep,
    /// More than [`MAX_NODES`] nodes.
    TooManyNodes,
    /// YAML aliases expand past the budget (an alias bomb, or just too many).
    Aliases,
    /// Another budget (scalar bytes, documents, merge keys); the parser's description.
    Budget(String),
    /// Any other shape problem; the parser's description.
    Shape(String),
}

/// Word a problem as a diagnostic at `pointer`, located at `location`.
pub(super) fn diagnostic(problem: Problem, pointer: String, location: Location) -> Diagnostic {
    let (code, message, hint) = word(problem, &pointer);
    let mut diagnostic = Diagnostic::error(code, pointer, one_line(&message, 300)).at(location);
    if let Some(hint) = hint {
        diagnostic = diagnostic.with_hint(one_line(&hint, 300));
    }
    diagnostic
}

/// What a spec needs at least (for hints about empty or incomplete specs).
const MINIMAL: &str = "`specVersion`, `name`, `version`, `summary` and `commands`";

/// (code, message, hint) of a problem at `pointer`.
fn word(problem: Problem, pointer: &str) -> (&'static str, String, Option<String>) {
    match problem {
        Problem::Syntax(format, message) => {
            let format = match format {
                Format::Yaml => "YAML",
                Format::Json => "JSON",
            };
            ("E005", format!("invalid {format}: {message}"), None)
        }
        Problem::MultipleDocuments => (
            "E005",
            "the file holds more than one YAML document".to_owned(),
            Some("a spec is one document; remove the `---` that starts the second".to_owned()),
        ),
        Problem::Empty => (
            "E004",
            "the spec is empty (the document has no content)".to_owned(),
            Some(format!("a spec is a mapping with at least {MINIMAL}")),
        ),
        Problem::WrongType { expected, found } => wrong_type(pointer, &expected, found),
        Problem::InvalidValue { expected, found } => {
            let (expected, found) = (expected_text(&expected), found_text(&found));
            let what = node_name(pointer);
            let message = format!("invalid value for {what}: expected {expected}, found {found}");
            ("E006", message, None)
        }
        Problem::MissingKey(key) => {
            let key = quote(&key);
            let owner = owner(pointer);
            let hint = format!("add `{key}` to {owner}");
            (
                "E006",
                format!("missing required key `{key}` in {owner}"),
                Some(hint),
            )
        }
        Problem::UnknownKey { key, expected } => {
            let owner = owner(parent(pointer));
            let hint = match did_you_mean(&key, &expected) {
                Some(known) => format!("did you mean `{known}`?"),
                None => format!("the keys of {owner} are {}", list(&expected)),
            };
            let message = format!("unknown key `{}` in {owner}", quote(&key));
            ("E007", message, Some(hint))
        }
        Problem::UnknownValue { value, expected } => {
            let hint =
                did_you_mean(&value, &expected).map(|known| format!("did you mean `{known}`?"));
            let (value, what, known) = (quote(&value), node_name(pointer), list(&expected));
            (
                "E006",
                format!("unknown value `{value}` for {what}: expected {known}"),
                hint,
            )
        }
        Problem::DuplicateKey { key, first } => {
            let (key, owner) = (quote(&key), owner(parent(pointer)));
            let once = "a key may appear once per mapping";
            let hint = match first {
                Some((line, column)) => {
                    format!("`{key}` first appears at line {line}, column {column}; {once}")
                }
                None => format!("{once}; remove or rename one"),
            };
            (
                "E008",
                format!("duplicate key `{key}` in {owner}"),
                Some(hint),
            )
        }
        Problem::TooDeep => (
            "E009",
            format!("the document nests deeper than {MAX_DEPTH} levels"),
            Some("flatten it; no spec (JSON Schemas included) needs that depth".to_owned()),
        ),
        Problem::TooManyNodes => (
            "E009",
            format!("the document has more than {MAX_NODES} values"),
            Some("a spec describes one tool; check that this is the right file".to_owned()),
        ),
        Problem::Aliases => (
            "E009",
            "YAML aliases expand past the loader's budget (a possible alias bomb)".to_owned(),
            Some("write the repeated values out, or use fewer `*alias` references".to_owned()),
        ),
        Problem::Budget(message) => {
            let message = format!("the document exceeds the parsing budget: {message}");
            ("E009", message, None)
        }
        Problem::Shape(message) => ("E006", message, None),
    }
}

/// A wrong type, with a hint to quote a number or boolean meant as a string.
fn wrong_type(
    pointer: &str,
    expected: &str,
    found: Option<String>,
) -> (&'static str, String, Option<String>) {
    let expected = expected_text(expected);
    let what = node_name(pointer);
    let Some(found) = found.as_deref().map(found_text) else {
        return (
            "E006",
            format!("wrong type for {what}: expected {expected}"),
            None,
        );
    };
    let hint = (expected == "a string" && is_plain_scalar(&found))
        .then(|| "quote the value to keep it a string, e.g. \"1.0\"".to_owned());
    let message = format!("wrong type for {what}: expected {expected}, found {found}");
    ("E006", message, hint)
}

/// The JSON pointer of a serde path. Segments that name no node (an enum variant, a key that is
/// not a string) are left out, so the pointer stops at the nearest real node.
pub(super) fn pointer(path: &Path) -> String {
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                pointer.push('/');
                pointer.push_str(&index.to_string());
            }
            Segment::Map { key } => {
                pointer.push('/');
                pointer.push_str(&pointer_token(key));
            }
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    pointer
}

/// `pointer` with `key` appended, unless it already ends with it (serde paths sometimes include
/// the offending key and sometimes stop at its mapping).
pub(super) fn with_last(pointer: String, key: &str) -> String {
    let token = pointer_token(key);
    if pointer.rsplit('/').next() == Some(token.as_str()) && !pointer.is_empty() {
        pointer
    } else {
        format!("{pointer}/{token}")
    }
}

/// The pointer of the mapping or sequence holding the node at `pointer`.
fn parent(pointer: &str) -> &str {
    pointer.rfind('/').map_or("", |slash| &pointer[..slash])
}

/// The closest known word, when one is close enough to be a likely typo: the same word up to
/// case, `_` and `-` (`output_schema` for `outputSchema`), or a Jaro-Winkler similarity of 0.8.
pub(super) fn did_you_mean<'a>(word: &str, known: &'a [String]) -> Option<&'a str> {
    // Similarity is quadratic in the length; nobody mistypes a key into 100 characters.
    if word.len() > 100 {
        return None;
    }
    let word = normalize(word);
    let mut best: Option<(&str, f64)> = None;
    for candidate in known {
        let score = if normalize(candidate) == word {
            2.0
        } else {
            strsim::jaro_winkler(&word, &normalize(candidate))
        };
        if score >= 0.8 && best.is_none_or(|(_, top)| score > top) {
            best = Some((candidate, score));
        }
    }
    best.map(|(candidate, _)| candidate)
}

fn normalize(word: &str) -> String {
    word.chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// `a`, `b` or `c`, for a list of known keys or values.
fn list(words: &[String]) -> String {
    match words {
        [] => "none".to_owned(),
        [one] => format!("`{one}`"),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(|w| format!("`{w}`")).collect();
            format!("{} or `{last}`", init.join(", "))
        }
    }
}

/// How a message names the node at `pointer`: `level`, item 2 of `commands`, or the spec.
fn node_name(pointer: &str) -> String {
    let mut tokens = pointer.rsplit('/');
    let last = tokens.next().unwrap_or_default();
    if pointer.is_empty() {
        return "the spec".to_owned();
    }
    if last.bytes().all(|b| b.is_ascii_digit()) && !last.is_empty() {
        return match tokens.next().filter(|t| !t.is_empty()) {
            Some(list) => format!("item {last} of `{}`", quote(&unescape(list))),
            None => format!("item {last}"),
        };
    }
    format!("`{}`", quote(&unescape(last)))
}

/// How a message names the mapping at `pointer`: the spec, a command, a parameter, ...
fn owner(pointer: &str) -> String {
    let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
    let named = match tokens.as_slice() {
        [] => Some("the spec"),
        [.., list, index] if index.bytes().all(|b| b.is_ascii_digit()) => match *list {
            "commands" => Some("a command"),
            "parameters" | "globalFlags" => Some("a parameter"),
            "exitCodes" => Some("an exit code"),
            "antiPatterns" => Some("an anti-pattern"),
            "examples" => Some("an example"),
            "resources" => Some("a resource"),
            _ => None,
        },
        [.., "deprecated"] => Some("`deprecated`"),
        [.., "paging"] => Some("`paging`"),
        _ => None,
    };
    match named {
        Some(named) => named.to_owned(),
        None => format!("`{}`", quote(pointer)),
    }
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// serde's name for an expected type, in the spec's words.
fn expected_text(expected: &str) -> String {
    let text = match expected {
        "u8" => "an integer from 0 to 255",
        "u16" => "an integer from 0 to 65535",
        "u32" => "an integer from 0 to 4294967295",
        "bool" => "true or false",
        "f32" | "f64" => "a number",
        "string scalar" | "str" | "string" => "a string",
        "mapping start" => "a mapping",
        "sequence start" => "a list",
        "scalar" => "a single value",
        "a sequence" => "a list",
        "a map" => "a mapping",
        "a character" | "a char" => "a single character",
        "a boolean" => "true or false",
        other if other.starts_with("struct ") => "a mapping",
        other => other,
    };
    text.to_owned()
}

/// serde's description of an unexpected value, in the spec's words (a string in backticks, as
/// the YAML path shows scalars).
fn found_text(found: &str) -> String {
    if let Some(text) = found
        .strip_prefix("string \"")
        .and_then(|s| s.strip_suffix('"'))
    {
        return format!("`{text}`");
    }
    match found {
        "map" => "a mapping".to_owned(),
        "sequence" => "a list".to_owned(),
        "unit value" | "unit" => "null".to_owned(),
        other => other.to_owned(),
    }
}

/// Whether serde's description is of a number or a boolean (which YAML reads unquoted).
fn is_plain_scalar(found: &str) -> bool {
    ["integer", "floating point", "boolean"]
        .iter()
        .any(|kind| found.starts_with(kind))
}

/// User text in a message: control characters escaped, cut to 60 characters.
pub(super) fn quote(text: &str) -> String {
    one_line(text, 60)
}

/// Text on one line (control characters escaped), cut to `max` characters with an ellipsis.
pub(super) fn one_line(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == max {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}
