//! What the runtime enforces before a handler runs, from the registry alone: in every profile a
//! destructive command needs `--force` (or `--dry-run`, which changes nothing). Nothing ever
//! prompts: a confirmation is a flag, so an agent learns it from the error's hint and the
//! catalog. The handler of a command refused here never runs.
//!
//! The flag is found by its clap id `force`: the runtime's own switch (added to every
//! destructive command that has no `--force` of its own, see [`crate::builtins::augment`]), the emitter's
//! `force` field, and a derive author's `force: bool` field all have it. The synthesised `rm`
//! verb of levels 3 and 4 is not guarded here: it needs `--force` for a wildcard and for a
//! container, which its route checks (`resources/rm_guard.rs`).

use clap::ArgMatches;
use pas_spec::surface::ErrorChannel;
use pas_spec::{Command, ParamKind, Profile, Registry};

use crate::builtins::DRY_RUN_ID;
use crate::error::Error;
use crate::parse::argv::AGENT_FLAG;
pub(crate) use crate::parse::argv::quote;
use crate::parse::clap_face::arg_id;

/// The constant of a destructive command run without `--force`.
pub use pas_spec::runtime_codes::FORCE_REQUIRED;

/// Whether the call asked for a dry run.
pub(crate) fn dry_run(command: &Command, leaf: &ArgMatches) -> bool {
    command.dry_run && switch(leaf, DRY_RUN_ID)
}

/// The error that stops a destructive command without `--force`, if it must stop. `agent`:
/// the call was in agent mode (the hint then repeats `--agent` in the `pas` profile).
pub(crate) fn check(
    registry: &Registry,
    command: &Command,
    leaf: &ArgMatches,
    agent: bool,
) -> Result<(), Error> {
    // Which commands need it, and the flag, are the profile's surface table's (robot confirms
    // with `--yes`, also what the spec marks `confirm`); the flag's clap id is its long name.
    let surface = pas_spec::surface::of(registry.profile);
    if !surface.needs_confirm(command)
        || switch(leaf, surface.confirm_flag)
        || dry_run(command, leaf)
    {
        return Ok(());
    }
    if surface.errors == ErrorChannel::RobotEnvelope {
        // robot 6.4: the spec's confirmation code, with what to run once reviewed.
        let code = surface.confirm_error_in(registry).to_owned();
        let flag = surface.confirm_long();
        return Err(Error::new(
            code,
            format!("`{}` acts only when confirmed with {flag}", command.name),
        )
        .with_suggestion(format!(
            "review what it will do, then run it again with {flag}: {} {} ... {flag}",
            registry.name,
            command.argv_path().join(" ")
        ))
        .with_details(serde_json::json!({ "requires_confirmation": true, "flag": flag })));
    }
    let mut words = vec![registry.name.clone()];
    if agent && registry.profile != Profile::Compose {
        words.push(AGENT_FLAG.to_owned());
    }
    words.extend(command.argv_path());
    words.push(surface.confirm_long());
    // The positional values as given, so the hint is the call to make (other flags are left
    // out); after `--` when one looks like a flag, so the hint parses as it reads.
    let mut values = Vec::new();
    for param in command
        .parameters
        .iter()
        .filter(|p| p.kind != ParamKind::Flag)
    {
        let given = leaf
            .try_get_raw(&arg_id(param))
            .ok()
            .flatten()
            .into_iter()
            .flatten();
        values.extend(given.map(|v| v.to_string_lossy().into_owned()));
    }
    if values.iter().any(|v| v.starts_with('-')) {
        words.push("--".to_owned());
    }
    words.extend(values.into_iter().map(|v| quote(&v)));
    let mut hint = format!("add --force to confirm: `{}`", words.join(" "));
    if command.dry_run {
        hint.push_str(", or --dry-run to see what it would do");
    }
    Err(Error::new(
        FORCE_REQUIRED,
        format!("{} is destructive and needs --force", command.name),
    )
    .with_suggestion(hint))
}

fn switch(leaf: &ArgMatches, id: &str) -> bool {
    matches!(leaf.try_get_one::<bool>(id), Ok(Some(true)))
}

#[cfg(test)]
mod tests {
    use super::quote;

    #[test]
    fn hint_values_are_shell_words() {
        assert_eq!(quote("42"), "42");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }
}
