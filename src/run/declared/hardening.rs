//! Declared string formats at run time (CLI Agent Spec 34, 35). A parameter's name decides
//! nothing; what it declares does:
//!
//! - `format: id` (or `agentHardening: true`): in machine mode, a value the caller typed that
//!   holds a spelling agents hallucinate (`%XX`, `?`, `#`, `..`, shell metacharacters, control
//!   characters, `null`) is refused, every refused value at once, before the handler runs. A
//!   person's call (no `--agent`, `pas` profile) is not checked: the declaration is about what
//!   agents invent. No other value is offered in its place: `report` is not what `report#1`
//!   names, so there is no `corrected_input`.
//! - `format: resource-path` on a declared command's parameter: refused in every mode, as the
//!   resource verbs refuse their own paths (which they check themselves).
//! - `format: path` and free text: taken exactly as given.

use clap::ArgMatches;
use clap::parser::ValueSource;
use pas_spec::hardening;
use pas_spec::{Command, Parameter, Registry, StringFormat};
use serde_json::{Value, json};

use crate::codes;
use crate::error::Error;
use crate::parse::clap_face::arg_id;

pub(crate) fn check(
    registry: &Registry,
    command: &Command,
    leaf: &ArgMatches,
    agent: bool,
) -> Result<(), Error> {
    let params = || command.parameters.iter().chain(&registry.global_flags);
    // The resource verbs resolve (and refuse) their own paths; a declared command's
    // `resource-path` parameter gets the same rules here.
    let declared = registry.commands.iter().any(|c| c.name == command.name);
    if declared {
        for param in params().filter(|p| p.format == Some(StringFormat::ResourcePath)) {
            for value in typed(leaf, param) {
                crate::resources::path::normalise(&value)?;
            }
        }
    }
    if !agent {
        return Ok(());
    }
    let mut found: Vec<(&Parameter, String, hardening::Refusal)> = Vec::new();
    for param in params().filter(|p| hardening::is_hardened(p)) {
        for value in typed(leaf, param) {
            if let Some(refusal) = hardening::refuse(&value) {
                found.push((param, value, refusal));
            }
        }
    }
    let Some((first_param, first_value, first)) = found.first() else {
        return Ok(());
    };
    let flag = pas_spec::declare::display_name(first_param);
    let violations: Vec<Value> = found
        .iter()
        .map(|(param, value, refusal)| {
            json!({
                "parameter": param.name,
                "constraint": "agentHardening",
                "limit": refusal.pattern,
                "value": value,
                "message": message(param, value, refusal),
            })
        })
        .collect();
    let messages: Vec<String> = found
        .iter()
        .map(|(param, value, refusal)| message(param, value, refusal))
        .collect();
    let suggestion = if first.pattern == "null_literal" {
        format!("leave {flag} out to give no value; nothing was run")
    } else {
        format!(
            "{flag} is declared an identifier ({}); give the identifier itself, as the tool names it (every refused value is in details.violations); nothing was run",
            declared_as(first_param)
        )
    };
    Err(Error::new(codes::INVALID_VALUE, messages.join("; "))
        .with_suggestion(suggestion)
        .with_details(json!({
            "violations": violations,
            "input": first_value,
            "rejected_pattern": first.pattern,
        })))
}

/// What the caller typed for `param` (argv, or an MCP call's arguments): not defaults or files.
fn typed(leaf: &ArgMatches, param: &Parameter) -> Vec<String> {
    let id = arg_id(param);
    if super::constraints::source(leaf, &id) != Some(ValueSource::CommandLine) {
        return Vec::new();
    }
    let Ok(Some(values)) = leaf.try_get_raw(&id) else {
        return Vec::new();
    };
    values
        .map(|value| value.to_string_lossy().into_owned())
        .collect()
}

/// The declaration that made `param` checked, as the spec spells it.
fn declared_as(param: &Parameter) -> &'static str {
    if param.agent_hardening == Some(true) {
        "agentHardening: true"
    } else {
        "format: id"
    }
}

fn message(param: &Parameter, value: &str, refusal: &hardening::Refusal) -> String {
    format!(
        "{} {value:?} {} (the parameter is declared `{}`)",
        pas_spec::declare::display_name(param),
        refusal.why,
        declared_as(param)
    )
}
