//! Agent hardening at run time (CLI Agent Spec 34, 35): in machine mode, every value the
//! caller typed for a hardened parameter ([`pas_spec::hardening::is_hardened`]: declared
//! `agentHardening`, else a string parameter named like an id, a name or a path) is refused
//! when it holds a spelling agents hallucinate (`%XX`, `?`, `#`, `..`, shell metacharacters,
//! control characters, `null`). Every refused value is listed at once, each with the value the
//! call most likely meant, before the handler runs. A person's call (no `--agent`, `pas`
//! profile) is not checked: they type `../notes.txt` on purpose.

use clap::ArgMatches;
use clap::parser::ValueSource;
use pas_spec::hardening;
use pas_spec::{Command, Parameter, Registry};
use serde_json::{Value, json};

use crate::clap_face::arg_id;
use crate::codes;
use crate::error::Error;

pub(crate) fn check(
    registry: &Registry,
    command: &Command,
    leaf: &ArgMatches,
) -> Result<(), Error> {
    let mut found: Vec<(&Parameter, String, hardening::Refusal)> = Vec::new();
    let hardened = command
        .parameters
        .iter()
        .chain(&registry.global_flags)
        .filter(|p| hardening::is_hardened(p));
    for param in hardened {
        let id = arg_id(param);
        // What the caller typed (argv, or an MCP call's arguments): not defaults or files.
        if super::constraints::source(leaf, &id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let Ok(Some(values)) = leaf.try_get_raw(&id) else {
            continue;
        };
        for value in values {
            let value = value.to_string_lossy();
            if let Some(refusal) = hardening::refuse(&value) {
                found.push((param, value.into_owned(), refusal));
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
                "corrected_input": refusal.corrected,
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
            "call again with {flag} {:?} (details.corrected_input; every refused value is in details.violations); nothing was run",
            first.corrected
        )
    };
    Err(Error::new(codes::INVALID_VALUE, messages.join("; "))
        .with_suggestion(suggestion)
        .with_details(json!({
            "violations": violations,
            "input": first_value,
            "rejected_pattern": first.pattern,
            "corrected_input": first.corrected,
        })))
}

fn message(param: &Parameter, value: &str, refusal: &hardening::Refusal) -> String {
    format!(
        "{} {value:?} {}",
        pas_spec::declare::display_name(param),
        refusal.why
    )
}
