//! The runtime's environment variables (`PAS_*`, and the tool's own `<TOOL>_TRACE_ID`), parsed
//! strictly: a value the runtime cannot use is a `CONFIG_INVALID` error (exit 2 in the pas
//! profile) naming the variable and the forms it accepts, checked once at the start of every
//! call, before anything acts on it. Never a panic (`PAS_TIMEOUT=1e300`), never silently
//! ignored (`PAS_TIMEOUT=garbage` used to remove the limit).
//!
//! One meaning of each value across the family:
//! - unset or empty: the runtime's default (as if not set);
//! - a number: `0` means **no limit** for every numeric variable (`PAS_TIMEOUT`,
//!   `PAS_OUTPUT_LIMIT`, `PAS_INPUT_LIMIT`, `PAS_STDIN_WAIT`, `PAS_LOCK_WAIT`), where a
//!   command's declared limit stands (the caller may only lower it);
//! - a switch: `1`, `true`, `yes`, `on` (any case) turn it on; `0`, `false`, `no`, `off` off.
//!
//! The modules that read a variable parse it with the functions here, so a value that passed
//! the check means the same thing everywhere.

use std::time::Duration;

use serde_json::json;

use crate::codes;
use crate::error::Error;

/// The form a variable's value takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// On or off.
    Switch,
    /// Seconds, decimals allowed; 0: no limit.
    Seconds,
    /// Whole bytes; 0: no limit.
    Bytes,
    /// Whole milliseconds; 0: no limit.
    Millis,
    /// A positive whole number (the caller's attempt, from 1).
    Attempt,
    /// Printable text of at most [`TRACE_MAX`] characters.
    TraceId,
    /// A job id the runtime made (set by the runtime for a job's detached run).
    JobId,
}

impl Form {
    /// The accepted forms, as the error and the docs say them.
    pub(crate) fn accepted(self) -> &'static str {
        match self {
            Form::Switch => "1, true, yes or on (on); 0, false, no or off (off); empty: unset",
            Form::Seconds => {
                "a number of seconds, decimals allowed, at most 1000000000 (0: no limit); \
                 empty: unset"
            }
            Form::Bytes => "a whole number of bytes (0: no limit); empty: unset",
            Form::Millis => "a whole number of milliseconds (0: no limit); empty: unset",
            Form::Attempt => "a whole number from 1 (the caller's attempt); empty: unset",
            Form::TraceId => "printable text of at most 128 characters; empty: unset",
            Form::JobId => "a job id the runtime made (set by the runtime only)",
        }
    }
}

/// The longest trace id a caller may give.
pub(crate) const TRACE_MAX: usize = 128;

/// The largest number of seconds a time limit takes (about 31 years): larger values are
/// refused rather than overflowing a `Duration` or the timer.
pub(crate) const MAX_SECONDS: f64 = 1_000_000_000.0;

/// Every variable the runtime reads, with its form.
pub(crate) const VARIABLES: &[(&str, Form)] = &[
    (crate::parse::argv::AGENT_ENV, Form::Switch),
    (crate::parse::names::META_ENV, Form::Switch),
    (crate::parse::names::UNMASK_ENV, Form::Switch),
    (crate::parse::names::INJECTION_CHECK_OFF_ENV, Form::Switch),
    (crate::parse::names::TIMEOUT_ENV, Form::Seconds),
    (crate::parse::names::OUTPUT_LIMIT_ENV, Form::Bytes),
    (crate::parse::names::INPUT_LIMIT_ENV, Form::Bytes),
    (crate::parse::names::STDIN_WAIT_ENV, Form::Millis),
    (crate::parse::names::LOCK_WAIT_ENV, Form::Millis),
    (crate::retry::ATTEMPT_ENV, Form::Attempt),
    (crate::parse::names::TRACE_ENV, Form::TraceId),
    (crate::parse::names::JOB_RUN_ENV, Form::JobId),
];

/// A numeric setting: unset, `0` (no limit), or a limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Setting<T> {
    /// Unset or empty: the default.
    Unset,
    /// `0`: no limit (a declared limit still stands).
    NoLimit,
    /// A limit.
    Limit(T),
}

impl<T: Copy> Setting<T> {
    /// The caller's limit, or `None` (unset, or no limit).
    pub(crate) fn limit(self) -> Option<T> {
        match self {
            Setting::Limit(value) => Some(value),
            _ => None,
        }
    }
}

/// The error of variable `name` holding a value of the wrong form.
pub(crate) fn invalid(name: &str, form: Form) -> Error {
    Error::new(
        codes::CONFIG_INVALID,
        format!("the environment variable {name} holds a value the runtime cannot use"),
    )
    .with_suggestion(format!("set {name} to {}, or unset it", form.accepted()))
    .with_details(json!({ "variable": name, "accepted": form.accepted() }))
}

/// The variable's text: `Ok(None)` when unset or empty (after trimming).
fn text(name: &str, form: Form) -> Result<Option<String>, Error> {
    match std::env::var_os(name) {
        None => Ok(None),
        Some(value) => match value.into_string() {
            Ok(text) if text.trim().is_empty() => Ok(None),
            Ok(text) => Ok(Some(text.trim().to_owned())),
            Err(_) => Err(invalid(name, form)),
        },
    }
}

/// A switch's value from its text.
pub(crate) fn parse_switch(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "" | "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// Seconds from text: a plain decimal number (no sign, exponent, `inf` or `nan`) from 0 to
/// [`MAX_SECONDS`].
pub(crate) fn parse_seconds(text: &str) -> Option<Setting<Duration>> {
    let text = text.trim();
    let plain = !text.is_empty()
        && text.chars().all(|c| c.is_ascii_digit() || c == '.')
        && text.chars().filter(|&c| c == '.').count() <= 1
        && text.chars().any(|c| c.is_ascii_digit());
    if !plain {
        return None;
    }
    let seconds: f64 = text.parse().ok()?;
    if !(0.0..=MAX_SECONDS).contains(&seconds) {
        return None;
    }
    if seconds == 0.0 {
        return Some(Setting::NoLimit);
    }
    // A positive value below a millisecond is still a limit: one millisecond.
    Some(Setting::Limit(
        Duration::from_secs_f64(seconds).max(Duration::from_millis(1)),
    ))
}

/// A whole number from text (digits only).
fn parse_whole(text: &str) -> Option<u64> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A whole-number setting from text: `0` is no limit.
pub(crate) fn parse_limit(text: &str) -> Option<Setting<u64>> {
    parse_whole(text).map(|n| match n {
        0 => Setting::NoLimit,
        n => Setting::Limit(n),
    })
}

/// Whether `text` is a trace id the runtime can echo.
fn trace_ok(text: &str) -> bool {
    text.chars().count() <= TRACE_MAX && !text.chars().any(char::is_control)
}

/// Checks that `text` has `form`.
fn well_formed(text: &str, form: Form) -> bool {
    match form {
        Form::Switch => parse_switch(text).is_some(),
        Form::Seconds => parse_seconds(text).is_some(),
        Form::Bytes | Form::Millis => parse_limit(text).is_some(),
        Form::Attempt => parse_whole(text).is_some_and(|n| (1..=u64::from(u32::MAX)).contains(&n)),
        Form::TraceId => trace_ok(text),
        Form::JobId => crate::parse::job_id::is_id(text),
    }
}

/// The tool's own trace variable (`<TOOL>_TRACE_ID`, `-` as `_`).
pub(crate) fn own_trace_env(tool: &str) -> String {
    format!("{}_TRACE_ID", tool.to_uppercase().replace('-', "_"))
}

/// Checks every variable the runtime reads for tool `tool`: the first one holding a value the
/// runtime cannot use, as its `CONFIG_INVALID` error.
pub(crate) fn check(tool: &str) -> Option<Error> {
    let own = own_trace_env(tool);
    let all = VARIABLES
        .iter()
        .map(|&(name, form)| (name, form))
        .chain(std::iter::once((own.as_str(), Form::TraceId)));
    for (name, form) in all {
        match text(name, form) {
            Err(error) => return Some(error),
            Ok(Some(text)) if !well_formed(&text, form) => return Some(invalid(name, form)),
            Ok(_) => {}
        }
    }
    None
}

/// The seconds setting `name` (an unusable value, which [`check`] refuses, reads as unset).
pub(crate) fn seconds(name: &str) -> Setting<Duration> {
    text(name, Form::Seconds)
        .ok()
        .flatten()
        .and_then(|t| parse_seconds(&t))
        .unwrap_or(Setting::Unset)
}

/// The whole-number setting `name` (bytes or milliseconds; an unusable value, which [`check`]
/// refuses, reads as unset).
pub(crate) fn whole(name: &str) -> Setting<u64> {
    text(name, Form::Bytes)
        .ok()
        .flatten()
        .and_then(|t| parse_limit(&t))
        .unwrap_or(Setting::Unset)
}

/// The caller's attempt (`PAS_ATTEMPT`), when usable.
pub(crate) fn attempt(name: &str) -> Option<u32> {
    text(name, Form::Attempt)
        .ok()
        .flatten()
        .and_then(|t| parse_whole(&t))
        .and_then(|n| u32::try_from(n).ok())
        .filter(|&n| n > 0)
}

/// The trace id in `name`, when usable.
pub(crate) fn trace_id(name: &str) -> Option<String> {
    text(name, Form::TraceId)
        .ok()
        .flatten()
        .filter(|t| trace_ok(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_take_plain_decimals_and_refuse_the_rest() {
        assert_eq!(parse_seconds("0"), Some(Setting::NoLimit));
        assert_eq!(parse_seconds("0.0"), Some(Setting::NoLimit));
        assert_eq!(
            parse_seconds("2.5"),
            Some(Setting::Limit(Duration::from_millis(2500)))
        );
        assert_eq!(
            parse_seconds(" 30 "),
            Some(Setting::Limit(Duration::from_secs(30)))
        );
        assert_eq!(
            parse_seconds("0.0001"),
            Some(Setting::Limit(Duration::from_millis(1)))
        );
        assert_eq!(
            parse_seconds("1000000000"),
            Some(Setting::Limit(Duration::from_secs(1_000_000_000)))
        );
        for bad in [
            "1e300",
            "1e3",
            "garbage",
            "-1",
            "+1",
            "inf",
            "NaN",
            "1.2.3",
            ".",
            "1000000001",
            "5s",
        ] {
            assert_eq!(parse_seconds(bad), None, "{bad}");
        }
    }

    #[test]
    fn whole_numbers_take_digits_only_and_zero_is_no_limit() {
        assert_eq!(parse_limit("0"), Some(Setting::NoLimit));
        assert_eq!(parse_limit("65536"), Some(Setting::Limit(65536)));
        for bad in ["-1", "1.5", "1e3", "64MiB", "18446744073709551616", "x"] {
            assert_eq!(parse_limit(bad), None, "{bad}");
        }
    }

    #[test]
    fn switches_take_the_usual_words_only() {
        for on in ["1", "true", "TRUE", "yes", "on"] {
            assert_eq!(parse_switch(on), Some(true), "{on}");
        }
        for off in ["0", "false", "no", "off", ""] {
            assert_eq!(parse_switch(off), Some(false), "{off}");
        }
        assert_eq!(parse_switch("maybe"), None);
        assert_eq!(parse_switch("2"), None);
    }

    #[test]
    fn every_form_names_what_it_accepts_and_the_error_says_it() {
        let error = invalid("PAS_TIMEOUT", Form::Seconds);
        assert_eq!(error.code(), codes::CONFIG_INVALID);
        assert!(error.message().contains("PAS_TIMEOUT"));
        assert!(error.suggestion().unwrap().contains("0: no limit"));
        for (_, form) in VARIABLES {
            assert!(!form.accepted().is_empty());
        }
        assert!(well_formed("7", Form::Attempt));
        assert!(!well_formed("0", Form::Attempt));
        assert!(well_formed("abc-123", Form::TraceId));
        assert!(!well_formed("a\nb", Form::TraceId));
        assert!(!well_formed(&"x".repeat(129), Form::TraceId));
    }
}
