//! `corrected_input` for a refused argument (CLI Agent Spec 35): the value, flag or command word
//! the call most likely meant, so an agent retries with it instead of guessing again. An enum
//! value in the wrong case (`OPEN` for `open`) is corrected to the declared spelling; otherwise
//! clap's own did-you-mean (a close spelling of a value, a flag or a subcommand) is the
//! correction. Nothing is corrected when no single candidate is close: a guess is not a fix.

use clap::error::{ContextKind, ContextValue};

/// Strings of one kind of clap's error context.
fn strings(err: &clap::Error, kind: ContextKind) -> Vec<String> {
    match err.get(kind) {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(v)) => v.clone(),
        Some(ContextValue::StyledStr(s)) => vec![s.to_string()],
        Some(ContextValue::StyledStrs(v)) => v.iter().map(ToString::to_string).collect(),
        _ => Vec::new(),
    }
}

/// The one valid spelling that differs from `given` only in case, if there is exactly one.
fn same_but_case(given: &str, valid: &[String]) -> Option<String> {
    let mut found = valid.iter().filter(|v| v.eq_ignore_ascii_case(given));
    let first = found.next()?;
    found.next().is_none().then(|| first.clone())
}

/// The correction of a clap parse error, when one candidate stands out.
pub(crate) fn of_parse_error(err: &clap::Error) -> Option<String> {
    let given = strings(err, ContextKind::InvalidValue)
        .into_iter()
        .chain(strings(err, ContextKind::InvalidSubcommand))
        .next();
    for valid in [ContextKind::ValidValue, ContextKind::ValidSubcommand] {
        if let Some(given) = &given
            && let Some(fixed) = same_but_case(given, &strings(err, valid))
        {
            return Some(fixed);
        }
    }
    for kind in [
        ContextKind::SuggestedValue,
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedArg,
    ] {
        let suggested = strings(err, kind);
        if let [one] = suggested.as_slice() {
            return Some(one.clone());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> clap::Error {
        clap::Command::new("t")
            .subcommand(
                clap::Command::new("list").arg(
                    clap::Arg::new("status")
                        .long("status")
                        .value_parser(["open", "closed", "Open-ish"]),
                ),
            )
            .subcommand(clap::Command::new("create"))
            .try_get_matches_from(args)
            .unwrap_err()
    }

    #[test]
    fn a_value_in_the_wrong_case_is_corrected_to_the_declared_spelling() {
        let err = parse(&["t", "list", "--status", "CLOSED"]);
        assert_eq!(of_parse_error(&err).as_deref(), Some("closed"));
    }

    #[test]
    fn a_close_spelling_is_corrected_by_did_you_mean() {
        let err = parse(&["t", "list", "--status", "opne"]);
        assert_eq!(of_parse_error(&err).as_deref(), Some("open"));
        let err = parse(&["t", "lst"]);
        assert_eq!(of_parse_error(&err).as_deref(), Some("list"));
        let err = parse(&["t", "list", "--stauts", "open"]);
        assert_eq!(of_parse_error(&err).as_deref(), Some("--status"));
    }

    #[test]
    fn nothing_close_is_no_correction() {
        let err = parse(&["t", "list", "--status", "zzzzzz"]);
        assert_eq!(of_parse_error(&err), None);
    }
}
