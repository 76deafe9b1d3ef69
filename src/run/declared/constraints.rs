//! `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `requires` and `conflicts`: every
//! value of every parameter is checked, and every violation is reported in one error
//! (`details.violations`), so an agent fixes the whole call in one retry.

use clap::ArgMatches;
use clap::parser::ValueSource;
use pas_spec::declare::{self, Violation};
use pas_spec::{Command, Parameter, Registry};
use serde_json::json;

use crate::codes;
use crate::error::Error;
use crate::parse::clap_face::arg_id;

pub(crate) fn check(
    registry: &Registry,
    command: &Command,
    leaf: &ArgMatches,
) -> Result<(), Error> {
    let params: Vec<&Parameter> = command
        .parameters
        .iter()
        .chain(&registry.global_flags)
        .collect();
    let mut found: Vec<Violation> = Vec::new();
    for param in params.iter().filter(|p| p.has_constraints()) {
        // Raw values: the registry parser's typed values and a derive's own types alike.
        let Ok(Some(values)) = leaf.try_get_raw(&arg_id(param)) else {
            continue;
        };
        for value in values {
            let value = value.to_string_lossy();
            found.extend(declare::check_value(param, &value, &matches_pattern));
        }
    }
    let given = |name: &str| {
        params.iter().find(|p| p.name == name).is_some_and(|p| {
            matches!(
                source(leaf, &arg_id(p)),
                Some(ValueSource::CommandLine | ValueSource::EnvVariable)
            )
        })
    };
    found.extend(declare::check_relations(params.iter().copied(), &given));
    if found.is_empty() {
        return Ok(());
    }
    Err(error_of(&found))
}

/// Where a value came from; `None` for an id the matches do not know (clap's `value_source`
/// panics on those in debug builds).
pub(crate) fn source(leaf: &ArgMatches, id: &str) -> Option<ValueSource> {
    leaf.try_contains_id(id).ok()?;
    leaf.value_source(id)
}

/// `pattern` as JSON Schema reads it: a match anywhere in the value. A pattern the engine
/// cannot compile (the validator refuses those) matches nothing rather than everything.
fn matches_pattern(pattern: &str, value: &str) -> bool {
    regex_lite::Regex::new(pattern).is_ok_and(|re| re.is_match(value))
}

/// One error for all violations: `MISSING_ARGUMENT` when every one is a missing co-required
/// parameter, `ARGUMENT_CONFLICT` when every one is a conflict, else `INVALID_VALUE`.
fn error_of(found: &[Violation]) -> Error {
    let all = |kind: &str| found.iter().all(|v| v.constraint == kind);
    let code = if all("requires") {
        codes::MISSING_ARGUMENT
    } else if all("conflicts") {
        codes::ARGUMENT_CONFLICT
    } else {
        codes::INVALID_VALUE
    };
    let messages: Vec<&str> = found.iter().map(|v| v.message.as_str()).collect();
    let mut missing: Vec<String> = found
        .iter()
        .filter(|v| v.constraint == "requires")
        .flat_map(|v| v.limit.as_array().cloned().unwrap_or_default())
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    missing.dedup();
    let mut details = json!({
        "violations": found.iter().map(Violation::to_json).collect::<Vec<_>>(),
    });
    if !missing.is_empty() {
        details["missing_args"] = missing.into();
    }
    Error::new(code, messages.join("; "))
        .with_suggestion(
            "fix every value listed in details.violations and call again; nothing was run",
        )
        .with_details(details)
}
