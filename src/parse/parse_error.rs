//! clap's parse errors as structured errors: a precise constant, clap's message on one line, a
//! suggestion from clap's did-you-mean context, and the context itself as details.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use serde_json::{Map, Value};

use crate::codes;
use crate::error::Error;

/// The structured form of a clap error (for agent mode; people keep clap's text). `help` is
/// the invocation that shows the contract of the command argv pointed at.
pub(crate) fn map(err: &clap::Error, help: &str) -> Error {
    let code = match err.kind() {
        ErrorKind::UnknownArgument => codes::UNKNOWN_ARGUMENT,
        ErrorKind::InvalidSubcommand => codes::UNKNOWN_COMMAND,
        ErrorKind::InvalidValue
        | ErrorKind::ValueValidation
        | ErrorKind::InvalidUtf8
        | ErrorKind::TooManyValues
        | ErrorKind::TooFewValues
        | ErrorKind::WrongNumberOfValues => codes::INVALID_VALUE,
        ErrorKind::MissingRequiredArgument => codes::MISSING_ARGUMENT,
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            codes::MISSING_COMMAND
        }
        ErrorKind::ArgumentConflict => codes::ARGUMENT_CONFLICT,
        _ => codes::INVALID_ARGUMENT,
    };
    let message = if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        // clap's "error" here is the whole help text: say what is missing instead.
        "a command is required".to_owned()
    } else {
        message(err)
    };
    let mut details = details(err);
    let mut suggested = suggestion(err, help);
    // What the call most likely meant (failure mode 35).
    if let Some(fixed) = crate::parse::corrected_input::of_parse_error(err) {
        if !suggested.starts_with("did you mean") {
            suggested = format!("did you mean '{fixed}'?");
        }
        details.insert("corrected_input".to_owned(), Value::from(fixed));
    }
    let mut error = Error::new(code, message).with_suggestion(suggested);
    if !details.is_empty() {
        error = error.with_details(Value::Object(details));
    }
    error
}

/// clap's message without the `error: ` prefix, the usage and the tips, on one line.
fn message(err: &clap::Error) -> String {
    let text = err.to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    let head = text.split("\n\n").next().unwrap_or(text);
    head.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn strings(err: &clap::Error, kind: ContextKind) -> Vec<String> {
    match err.get(kind) {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(v)) => v.clone(),
        Some(ContextValue::StyledStr(s)) => vec![s.to_string()],
        Some(ContextValue::StyledStrs(v)) => v.iter().map(ToString::to_string).collect(),
        Some(ContextValue::Number(n)) => vec![n.to_string()],
        _ => Vec::new(),
    }
}

fn suggestion(err: &clap::Error, help: &str) -> String {
    for kind in [
        ContextKind::SuggestedArg,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedValue,
    ] {
        let found = strings(err, kind);
        if !found.is_empty() {
            return format!("did you mean {}?", quoted(&found));
        }
    }
    let valid = strings(err, ContextKind::ValidValue);
    if !valid.is_empty() {
        return format!("use one of: {}", valid.join(", "));
    }
    let valid = strings(err, ContextKind::ValidSubcommand);
    if !valid.is_empty() {
        return format!("use one of: {}", valid.join(", "));
    }
    format!("see `{help}`")
}

fn quoted(values: &[String]) -> String {
    values
        .iter()
        .map(|v| format!("'{v}'"))
        .collect::<Vec<_>>()
        .join(" or ")
}

fn details(err: &clap::Error) -> Map<String, Value> {
    let mut details = Map::new();
    let mut put = |key: &str, kind: ContextKind, many: bool| {
        let found = strings(err, kind);
        if found.is_empty() {
            return;
        }
        let value = if many || found.len() > 1 {
            Value::from(found)
        } else {
            Value::from(found.into_iter().next().unwrap_or_default())
        };
        details.insert(key.to_owned(), value);
    };
    put("argument", ContextKind::InvalidArg, false);
    put("value", ContextKind::InvalidValue, false);
    put("command", ContextKind::InvalidSubcommand, false);
    put("valid_values", ContextKind::ValidValue, true);
    put("valid_commands", ContextKind::ValidSubcommand, true);
    details
}
