//! What a spec declares and the runtime enforces before a handler runs: the constraints and
//! relations of parameter values, the requirements a command `needs`, and credentials for
//! commands marked `auth`. The checks read only the registry model and clap's matches (never
//! the spec validator), so a tool built from a derive or a compiled spec enforces them alike.

pub(crate) mod auth;
pub(crate) mod constraints;
pub(crate) mod hardening;
pub(crate) mod home;
pub(crate) mod required_versions;
pub(crate) mod requirements;
pub(crate) mod untrusted;

use clap::ArgMatches;
use pas_spec::{Command, Registry};

use crate::error::Error;

pub(crate) use auth::decorate as decorate_error;
pub(crate) use hardening::check as harden;
pub(crate) use requirements::health_entries;

pub(crate) use untrusted::separate as separate_untrusted;

/// Every check, in the order an agent fixes things: the call's own values first (all of their
/// problems at once), then the machine (requirements), then credentials.
pub(crate) fn check(
    registry: &Registry,
    command: &Command,
    leaf: &ArgMatches,
) -> Result<(), Error> {
    constraints::check(registry, command, leaf)?;
    requirements::check(registry, command)?;
    auth::check(registry, command, leaf)
}
