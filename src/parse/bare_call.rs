//! A bare invocation (the tool's name, nothing else) is a first-contact probe: it answers what
//! the tool can do and exits 0 (CLI Agent Spec failure mode 21), whatever a real call requires.
//!
//! `pas` and `compose` answer the root help (the agent help in machine mode). Not the robot
//! profile: every call of it answers one envelope (robot 3.1), and a call without its
//! subcommand is the spec's argument error (`ERR_ARGS`, exit 10), as issue 16 asks of a
//! missing subcommand.

use std::ffi::OsString;

use pas_spec::{Profile, Registry};

use crate::parse::argv::Prescan;

/// Rewrites a bare call's argv into the call that answers it (robot: left as it is).
pub(crate) fn answer(registry: &Registry, pre: &mut Prescan) {
    if registry.profile != Profile::Robot {
        pre.help = true;
        pre.argv.push(OsString::from("--help"));
    }
}
