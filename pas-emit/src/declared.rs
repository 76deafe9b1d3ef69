//! The declarations the runtime enforces before a handler runs that the derive's keys cannot
//! carry yet: the constraints and relations of global flags (the tool's `auth` and
//! `requirements` and each command's declarations travel in `declared = "..."` keys). A spec that declares one is refused
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

/// Every declaration the derive cannot carry, as (JSON pointer, spec key): the constraints and
/// relations of global flags (a command's travel in its `declared` key, which names its own
/// parameters).
fn undeclarable(registry: &Registry) -> Vec<(String, &'static str)> {
    let mut found = Vec::new();
    for (index, flag) in registry.global_flags.iter().enumerate() {
        parameter(&format!("/globalFlags/{index}"), flag, &mut found);
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
