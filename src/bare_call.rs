//! A bare invocation (the tool's name, nothing else) is a first-contact probe: it answers what
//! the tool can do and exits 0 (CLI Agent Spec failure mode 21), whatever a real call requires.
//!
//! `pas` and `compose` answer the root help (the agent help in machine mode). The robot
//! profile answers every call with one envelope (robot 3.1), so its bare call is
//! `capabilities` (robot 5.8): a success envelope saying what the tool can do here, exit 0.

use std::ffi::OsString;

use pas_spec::{Profile, Registry};

use crate::argv::Prescan;

/// Rewrites a bare call's argv into the call that answers it.
pub(crate) fn answer(registry: &Registry, pre: &mut Prescan) {
    if registry.profile == Profile::Robot {
        pre.argv
            .push(OsString::from(pas_spec::surface::CAPABILITIES_WORD));
    } else {
        pre.help = true;
        pre.argv.push(OsString::from("--help"));
    }
}
