//! What the runtime enforces before a handler runs, from the registry alone: in the compose
//! profile a destructive command needs `--force` (or `--dry-run`, which changes nothing). The
//! `pas` profile does not enforce it yet: its derive-built tools declare their own flags. Nothing ever prompts: a
//! confirmation is a flag, so an agent learns it from the error's hint and the catalog.

use clap::ArgMatches;
use pas_spec::{Command, Effect, ParamKind, Profile, Registry};

use super::{DRY_RUN_ID, FORCE_ID};
use crate::clap_face::arg_id;
use crate::error::Error;

/// The constant of a destructive command run without `--force`.
pub const FORCE_REQUIRED: &str = "FORCE_REQUIRED";

/// Whether the call asked for a dry run.
pub(crate) fn dry_run(command: &Command, leaf: &ArgMatches) -> bool {
    command.dry_run && switch(leaf, DRY_RUN_ID)
}

/// The error that stops a destructive command without `--force`, if it must stop.
pub(crate) fn check(
    registry: &Registry,
    command: &Command,
    leaf: &ArgMatches,
) -> Result<(), Error> {
    let profile = registry.profile;
    if profile != Profile::Compose
        || command.effect != Effect::Destructive
        || switch(leaf, FORCE_ID)
        || dry_run(command, leaf)
    {
        return Ok(());
    }
    let mut words = vec![registry.name.clone()];
    words.extend(command.argv_path());
    // The positional values as given, so the hint is the call to make (flags are left out).
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
        words.extend(given.map(|v| v.to_string_lossy().into_owned()));
    }
    let mut hint = format!("add --force to confirm: `{} --force`", words.join(" "));
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
