//! The declarations the runtime enforces before a handler runs (`auth`, `requirements`, a
//! command's `auth`/`scopes`/`needs`/`sideEffects`/`untrusted`, a parameter's constraints and
//! relations) that the derive's keys cannot carry yet. A spec that declares one is refused
//! rather than emitted without it: a generated tool that silently skips a declared check would
//! run its handler where the spec promises a refusal.

use pas_spec::{Parameter, Registry};

use crate::error::EmitError;

/// Refuses `registry` if it declares anything in [`undeclarable`]'s list.
pub(crate) fn refuse_uncarried(registry: &Registry) -> Result<(), EmitError> {
    let found = undeclarable(registry);
    let Some((pointer, _)) = found.first() else {
        return Ok(());
    };
    let listed: Vec<String> = found
        .iter()
        .take(8)
        .map(|(pointer, key)| format!("`{key}` at {pointer}"))
        .collect();
    let more = found
        .len()
        .checked_sub(8)
        .filter(|n| *n > 0)
        .map(|n| format!(" and {n} more"))
        .unwrap_or_default();
    Err(EmitError::unsupported(
        pointer.clone(),
        format!(
            "the spec declares what the derive cannot carry yet, so a generated tool would not enforce it: {}{more}",
            listed.join(", ")
        ),
        "serve the spec at run time instead: `pas::App::new(registry)` with the registry from `pas::spec::load` (pas's feature `load`) enforces every declaration",
    ))
}

/// Every declaration the derive cannot carry, as (JSON pointer, spec key).
fn undeclarable(registry: &Registry) -> Vec<(String, &'static str)> {
    let mut found = Vec::new();
    if registry.auth.is_some() {
        found.push(("/auth".to_owned(), "auth"));
    }
    if !registry.requirements.is_empty() {
        found.push(("/requirements".to_owned(), "requirements"));
    }
    for (index, flag) in registry.global_flags.iter().enumerate() {
        parameter(&format!("/globalFlags/{index}"), flag, &mut found);
    }
    for (index, command) in registry.commands.iter().enumerate() {
        let at = |key: &'static str| (format!("/commands/{index}/{key}"), key);
        if command.auth {
            found.push(at("auth"));
        }
        if !command.scopes.is_empty() {
            found.push(at("scopes"));
        }
        if !command.needs.is_empty() {
            found.push(at("needs"));
        }
        if !command.side_effects.is_empty() {
            found.push(at("sideEffects"));
        }
        if !command.untrusted.is_empty() {
            found.push(at("untrusted"));
        }
        for (p, param) in command.parameters.iter().enumerate() {
            parameter(
                &format!("/commands/{index}/parameters/{p}"),
                param,
                &mut found,
            );
        }
    }
    found
}

fn parameter(base: &str, param: &Parameter, found: &mut Vec<(String, &'static str)>) {
    let keys = [
        ("minimum", param.minimum.is_some()),
        ("maximum", param.maximum.is_some()),
        ("minLength", param.min_length.is_some()),
        ("maxLength", param.max_length.is_some()),
        ("pattern", param.pattern.is_some()),
        ("requires", !param.requires.is_empty()),
        ("conflicts", !param.conflicts.is_empty()),
    ];
    for (key, present) in keys {
        if present {
            found.push((format!("{base}/{key}"), key));
        }
    }
}
