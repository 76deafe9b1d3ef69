//! What the robot profile does after argv parsed and before the handler runs: the token
//! controls (an unknown `--fields` name is an argument error), deprecation warnings, and the
//! session (created, or loaded and locked). Confirmation (`--yes`) is `builtins::guard`'s.

use std::ffi::OsString;

use clap::ArgMatches;
use pas_spec::robot::ExitRole;
use pas_spec::{Command, OutputKind, Registry};
use serde_json::json;

use crate::error::Error;
pub(crate) use crate::parse::fields::known_fields;
use crate::parse::robot_flags::{self as flags, RESUME_ID, SESSION_ID};
use crate::profile::robot_state::CallState;
use crate::services::sessions;
use crate::warning::{Severity, Warning};

/// Runs the steps for `command`; its error ends the call before the handler.
pub(crate) fn prepare(
    registry: &Registry,
    state: &CallState,
    command: &Command,
    leaf: &ArgMatches,
    argv: &[OsString],
    validate_only: bool,
) -> Result<(), Error> {
    let (mut options, _) = flags::options(leaf);
    options.list_field = command.list_field.clone();
    options.compact_omit = command.compact_omit.clone();
    if let Some(fields) = &options.fields {
        check_fields(registry, command, fields)?;
    }
    state.lock().options = options;
    for warning in deprecations(command, argv) {
        state.lock().warnings.push(warning);
    }
    let flag = |id: &str| {
        leaf.try_get_one::<bool>(id)
            .ok()
            .flatten()
            .copied()
            .unwrap_or(false)
    };
    // Confirmation (`--yes`, robot 6.4) was checked before: `builtins::guard`, one rule for
    // every profile's confirm flag.
    let request = sessions::Request {
        registry,
        command,
        id: leaf
            .try_get_one::<String>(SESSION_ID)
            .ok()
            .flatten()
            .cloned(),
        resume: flag(RESUME_ID),
        validate_only,
    };
    if let Some(session) = sessions::open(&request)? {
        state.lock().session = Some(session);
    }
    Ok(())
}

fn check_fields(registry: &Registry, command: &Command, fields: &[String]) -> Result<(), Error> {
    let (code, _) = registry.role_code(ExitRole::Arguments);
    let Some(known) = known_fields(command) else {
        if command.list_field.is_none() && command.output != OutputKind::List {
            return Err(Error::new(
                code,
                format!("`{}` has no list for --fields to select from", command.name),
            )
            .with_suggestion("leave out --fields"));
        }
        if fields.is_empty() {
            return Err(no_field(code));
        }
        return Ok(());
    };
    if fields.is_empty() {
        return Err(no_field(code));
    }
    let unknown: Vec<&String> = fields.iter().filter(|f| !known.contains(f)).collect();
    if unknown.is_empty() {
        return Ok(());
    }
    Err(Error::new(
        code,
        format!(
            "--fields names {} that the items of `{}` do not have",
            unknown
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", "),
            command.name
        ),
    )
    .with_suggestion(format!("use some of: {}", known.join(", ")))
    .with_details(json!({ "unknown": unknown, "known": known })))
}

/// `--fields ''` (or only commas): a selection of nothing is an argument error, as in the
/// other profiles, never items emptied to `{}`.
fn no_field(code: String) -> Error {
    Error::new(code, "--fields names no field")
        .with_suggestion("--fields a,b (the fields of the items to keep), or leave it out")
}

/// A warning for a deprecated command, for a `beta` or `experimental` one (failure mode 22),
/// and for each deprecated flag alias argv used.
pub(crate) fn deprecations(command: &Command, argv: &[OsString]) -> Vec<Warning> {
    let mut warnings = Vec::new();
    if !command.stability.is_stable() {
        warnings.push(
            Warning::new(
                "UNSTABLE_COMMAND",
                format!(
                    "`{}` is {}: its output may change in any release without a deprecation",
                    command.argv_path().join(" "),
                    command.stability.as_str()
                ),
            )
            .severity(Severity::Warning)
            .affects([command.name.clone()]),
        );
    }
    if let Some(deprecation) = &command.deprecated {
        let mut message = format!("`{}` is deprecated", command.argv_path().join(" "));
        if let Some(since) = &deprecation.since {
            message.push_str(&format!(" since {since}"));
        }
        if let Some(replacement) = &deprecation.replacement {
            message.push_str(&format!("; use `{}`", replacement.replace('.', " ")));
        }
        if let Some(more) = &deprecation.message {
            message.push_str(&format!(" ({more})"));
        }
        warnings.push(
            Warning::new("DEPRECATED", message)
                .severity(Severity::Warning)
                .affects([command.name.clone()]),
        );
    }
    let words: Vec<String> = argv
        .iter()
        .skip(1)
        .map(|w| w.to_string_lossy().into_owned())
        .take_while(|w| w != "--")
        .collect();
    for parameter in &command.parameters {
        for alias in &parameter.deprecated_aliases {
            let flag = format!("--{alias}");
            let used = words
                .iter()
                .any(|w| *w == flag || w.starts_with(&format!("{flag}=")));
            if used {
                warnings.push(
                    Warning::new(
                        "DEPRECATED",
                        format!("{flag} is deprecated; use --{}", parameter.name),
                    )
                    .affects([parameter.name.clone()]),
                );
            }
        }
    }
    warnings
}
