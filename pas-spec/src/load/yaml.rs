//! YAML to registry with serde-saphyr, under a budget sized for specs, and its errors as
//! diagnostics.

use serde::Deserialize;
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::granit_parser::ErrorKind;
use serde_saphyr::{
    Budget, DuplicateKeyPolicy, Error, ExternalMessageSource, MessageFormatter, Options,
    UserMessageFormatter,
};

use super::report::{self, Problem};
use super::{Format, MAX_DEPTH, MAX_NODES, MAX_SPEC_BYTES, Source};
use crate::source_map::{self, Indexed, SourceMap};
use crate::{Diagnostic, Location, Registry};

/// Parse a YAML source (see [`super::parse`]).
pub(super) fn parse(source: &Source) -> Result<Registry, Diagnostic> {
    let mut track = serde_path_to_error::Track::new();
    let result =
        serde_saphyr::with_deserializer_from_str_with_options(&source.text, options(), |de| {
            Registry::deserialize(serde_path_to_error::Deserializer::new(de, &mut track))
        });
    result.map_err(|error| diagnose(source, &error, report::pointer(&track.path())))
}

/// The document as a generic JSON value (for collecting every shape problem), or None when it
/// is not one (a syntax error, a budget, a key that is not a string).
pub(super) fn generic(text: &str) -> Option<serde_json::Value> {
    serde_saphyr::from_str_with_options(text, options()).ok()
}

/// Parser options: duplicate keys rejected, no snippets (messages stay one line), and a budget
/// that a real spec never meets but that stops deep nesting, node floods and alias bombs early.
fn options() -> Options {
    let size = usize::try_from(MAX_SPEC_BYTES).unwrap_or(usize::MAX);
    let mut budget = Budget::default();
    budget.max_reader_input_bytes = Some(size);
    budget.max_depth = MAX_DEPTH;
    // The scanner counts flow nesting ahead of the events the budget sees; keep it at our limit.
    budget.flow_nesting_limit = MAX_DEPTH + 1;
    budget.max_nodes = MAX_NODES;
    // Every node has one event, every collection a second one for its end, plus a few per document.
    budget.max_events = MAX_NODES * 2 + 16;
    // Two, so a second document is reported as such rather than as a budget breach.
    budget.max_documents = 2;
    budget.max_total_scalar_bytes = size * 2;
    // Specs have little use for anchors; these allow some, and stop a billion laughs at once.
    budget.max_aliases = 10_000;
    budget.max_anchors = 10_000;
    budget.max_recorded_anchor_events = 200_000;
    budget.max_recorded_anchor_bytes = size;
    budget.max_merge_keys = 10_000;

    let mut options = Options::default();
    options.budget = Some(budget);
    options.duplicate_keys = DuplicateKeyPolicy::Error;
    options.with_snippet = false;
    // Read scalars as YAML 1.2 does (and as editors validating with the schema do): `no`, `on`
    // and `0755` stay strings and numbers as written instead of YAML 1.1 booleans and octals.
    options.strict_booleans = true;
    options.legacy_octal_numbers = false;
    options.alias_limits.max_total_replayed_events = 200_000;
    options.alias_limits.max_replay_stack_depth = MAX_DEPTH;
    options
}

/// The diagnostic for a serde-saphyr error, `pointer` being where serde was in the document.
fn diagnose(source: &Source, error: &Error, pointer: String) -> Diagnostic {
    let position = error.location().filter(|l| l.line() > 0).map(|l| {
        let line = u32::try_from(l.line()).unwrap_or(u32::MAX);
        let column = u32::try_from(l.column()).unwrap_or(u32::MAX).max(1);
        (line, column)
    });
    let found = || position.and_then(|(line, column)| found_at(&source.text, line, column));
    let (problem, pointer) = problem(innermost(error), pointer, found);
    let position = match (&problem, position) {
        // serde-saphyr places a missing key at the end of its mapping; the mapping's start (its
        // key, or the item's first key) reads better, and matches the JSON path.
        (Problem::MissingKey(_), _) | (_, None) => SourceMap::build(source).nearest(&pointer),
        (_, Some(position)) => position,
    };
    if let Problem::DuplicateKey { key, .. } = &problem {
        return duplicate(source, key, pointer, position);
    }
    let location = Location {
        file: source.name.clone(),
        line: position.0,
        column: position.1,
    };
    report::diagnostic(problem, pointer, location)
}

/// A duplicate key, as the source map's walk sees it: the same repeat serde-saphyr stopped at
/// (both read in document order), with an exact pointer and where the key first appears.
fn duplicate(source: &Source, key: &str, pointer: String, at: (u32, u32)) -> Diagnostic {
    let indexed = source_map::index(&source.text).ok();
    let (pointer, at, first) = match indexed {
        // (Keys equal only as numbers, `0x1F` and `31`, are duplicates to serde-saphyr alone.)
        Some(Indexed {
            duplicate: Some(duplicate),
            ..
        }) if duplicate.key == key => (duplicate.pointer, duplicate.at, Some(duplicate.first)),
        Some(indexed) => {
            let first = indexed.map.position(&pointer);
            (pointer, at, first)
        }
        None => (pointer, at, None),
    };
    let problem = Problem::DuplicateKey {
        key: key.to_owned(),
        first,
    };
    let location = Location {
        file: source.name.clone(),
        line: at.0,
        column: at.1,
    };
    report::diagnostic(problem, pointer, location)
}

/// The error itself, without the wrappers that add a snippet or an alias's second location.
fn innermost(error: &Error) -> &Error {
    match error {
        Error::WithSnippet { error, .. } | Error::AliasError { error, .. } => innermost(error),
        other => other,
    }
}

/// The problem an error reports, and the pointer of the node it is about. `found` describes the
/// text at the error's position, for errors that do not carry the offending value.
fn problem(
    error: &Error,
    pointer: String,
    found: impl Fn() -> Option<String>,
) -> (Problem, String) {
    let problem = match error {
        Error::ExternalMessage { source, msg, .. } => match &**source {
            ExternalMessageSource::Parser(scan)
                if matches!(scan.kind(), ErrorKind::RecursionLimitExceeded) =>
            {
                Problem::TooDeep
            }
            _ => Problem::Syntax(Format::Yaml, msg.clone()),
        },
        Error::Eof { .. } => Problem::Empty,
        Error::UnknownAnchor { .. } => Problem::Syntax(
            Format::Yaml,
            "an alias (`*name`) refers to an anchor (`&name`) not defined before it".to_owned(),
        ),
        Error::MultipleDocuments { .. } => Problem::MultipleDocuments,
        Error::SerdeInvalidType {
            unexpected,
            expected,
            ..
        } => Problem::WrongType {
            expected: expected.clone(),
            found: Some(unexpected.clone()),
        },
        Error::SerdeInvalidValue {
            unexpected,
            expected,
            ..
        } => Problem::InvalidValue {
            expected: expected.clone(),
            found: unexpected.clone(),
        },
        Error::Unexpected { expected, .. } => Problem::WrongType {
            expected: (*expected).to_owned(),
            found: found(),
        },
        // A scalar that does not convert: out of range when it is a number, else the wrong type.
        Error::InvalidScalar { ty, .. } => match found() {
            Some(text) if text.trim_matches('`').parse::<f64>().is_ok() => Problem::InvalidValue {
                expected: (*ty).to_owned(),
                found: text,
            },
            text => Problem::WrongType {
                expected: (*ty).to_owned(),
                found: text,
            },
        },
        Error::NullIntoString { .. } => Problem::WrongType {
            expected: "a string".to_owned(),
            found: Some("null".to_owned()),
        },
        Error::InvalidCharNull { .. } | Error::InvalidCharNotSingleScalar { .. } => {
            Problem::WrongType {
                expected: "a character".to_owned(),
                found: found(),
            }
        }
        Error::SerdeMissingField { field, .. } => Problem::MissingKey((*field).to_owned()),
        Error::SerdeUnknownField {
            field, expected, ..
        } => {
            let pointer = report::with_last(pointer, field);
            let expected = expected.iter().map(|&k| k.to_owned()).collect();
            let key = field.clone();
            return (Problem::UnknownKey { key, expected }, pointer);
        }
        Error::SerdeUnknownVariant {
            variant, expected, ..
        } => Problem::UnknownValue {
            value: variant.clone(),
            expected: expected.iter().map(|&v| v.to_owned()).collect(),
        },
        Error::DuplicateMappingKey { key, .. } => {
            let key = key.clone().unwrap_or_default();
            let pointer = match key.is_empty() {
                true => pointer,
                false => report::with_last(pointer, &key),
            };
            return (Problem::DuplicateKey { key, first: None }, pointer);
        }
        Error::Budget { breach, .. } => budget_problem(breach, error),
        Error::AliasReplayCounterOverflow { .. }
        | Error::AliasReplayLimitExceeded { .. }
        | Error::AliasExpansionLimitExceeded { .. }
        | Error::AliasReplayStackDepthExceeded { .. } => Problem::Aliases,
        Error::InvalidBooleanStrict { .. }
        | Error::NonFiniteFloat { .. }
        | Error::SerdeInvalidLength { .. }
        | Error::UnexpectedValueForUnit { .. }
        | Error::QuotingRequired { .. }
        | Error::TaggedScalarCannotDeserializeIntoString { .. }
        | Error::Message { .. } => Problem::Shape(message(error)),
        // Everything else is about the document's structure (unknown anchors, bad merges,
        // tags): a syntax problem as far as a spec's author is concerned.
        _ => Problem::Syntax(Format::Yaml, message(error)),
    };
    (problem, pointer)
}

/// What the text at a 1-based line and column is: a list, a mapping, or a scalar (quoted in
/// backticks). Used for errors that carry no description of the offending value.
fn found_at(text: &str, line: u32, column: u32) -> Option<String> {
    let content = text
        .split('\n')
        .nth(usize::try_from(line).ok()?.checked_sub(1)?)?;
    let start = content
        .char_indices()
        .nth(usize::try_from(column).ok()?.checked_sub(1)?)
        .map(|(index, _)| index)?;
    let rest = content[start..].trim_end_matches(['\r', ' ', '\t']);
    if rest.starts_with('[') || rest == "-" || rest.starts_with("- ") {
        return Some("a list".to_owned());
    }
    if rest.starts_with('{') || rest.ends_with(':') || rest.contains(": ") {
        return Some("a mapping".to_owned());
    }
    let scalar = rest.split(" #").next().unwrap_or(rest).trim_end();
    (!scalar.is_empty()).then(|| format!("`{}`", report::quote(scalar)))
}

/// The problem a budget breach reports.
fn budget_problem(breach: &BudgetBreach, error: &Error) -> Problem {
    match breach {
        BudgetBreach::Depth { .. } => Problem::TooDeep,
        BudgetBreach::Nodes { .. } | BudgetBreach::Events { .. } => Problem::TooManyNodes,
        BudgetBreach::Aliases { .. }
        | BudgetBreach::Anchors { .. }
        | BudgetBreach::AliasAnchorRatio { .. }
        | BudgetBreach::RecordedAnchorEvents { .. }
        | BudgetBreach::RecordedAnchorBytes { .. } => Problem::Aliases,
        BudgetBreach::Documents { .. } => Problem::MultipleDocuments,
        _ => Problem::Budget(message(error)),
    }
}

/// serde-saphyr's own one-line wording of an error, without its location.
fn message(error: &Error) -> String {
    UserMessageFormatter.format_message(error).into_owned()
}
