//! How a call confirms a command that needs it, over MCP: the one place the server reads the
//! profile's rule (the MCP face reads the same row of [`pas_spec::surface`], so `tools/list`
//! and the guard agree). A destructive command takes the profile's confirmation flag as a
//! boolean argument of the same name: `force` (`--force` on the command line), or `yes` in the
//! robot profile (`--yes`), where a command marked `confirm` needs it too.

use pas_spec::{Command, Effect, Profile, Registry};
use serde_json::Value;

use crate::error::Error;

/// The argument that confirms a call: the profile's confirmation flag without its dashes.
pub(crate) fn argument(registry: &Registry) -> &'static str {
    pas_spec::surface::of(registry.profile).confirm_flag
}

/// Whether the command acts only when confirmed.
pub(crate) fn needed(registry: &Registry, command: &Command) -> bool {
    command.effect == Effect::Destructive || (registry.profile == Profile::Robot && command.confirm)
}

/// The error constant of a call refused for want of its confirmation.
pub(crate) fn error_code(registry: &Registry) -> &str {
    pas_spec::surface::of(registry.profile).confirm_error_in(registry)
}

/// What to do instead, in MCP's terms (the CLI's hint names the flag).
pub(crate) fn hint(registry: &Registry, command: &Command) -> String {
    let mut hint = format!(
        "call {} again with `{}: true` to confirm",
        pas_spec::faces::mcp::tool_name(command),
        argument(registry)
    );
    if command.dry_run {
        hint.push_str(", or `dry-run: true` to see what it would do");
    }
    hint
}

/// Whether the error is the runtime's refusal of an unconfirmed call: the profile's constant
/// (`FORCE_REQUIRED`), or a robot refusal, which carries `requires_confirmation` in its details
/// since its constant is the spec's own.
pub(crate) fn is_refusal(registry: &Registry, error: &Error) -> bool {
    error.code() == error_code(registry)
        && (registry.profile != Profile::Robot
            || error
                .details()
                .is_some_and(|d| d["requires_confirmation"] == Value::Bool(true)))
}
