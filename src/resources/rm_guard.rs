//! What `rm` refuses without the profile's confirm flag (`--force`; robot's `--yes`; over MCP
//! the argument of that name), before the handler runs: a wildcard path (PAS 6.1), which could
//! delete more than meant, and a container, a path whose resource has children
//! ([`pas_spec::verbs::is_container`]: a notebook with its notes), which deletes everything in
//! it. Every face says so from the same registry ([`pas_spec::verbs::rm_containers`]). An `rm`
//! of a leaf (one note) runs as it is.

use pas_spec::surface::ErrorChannel;
use pas_spec::{Profile, Registry};
use serde_json::json;

use super::path::ResourcePath;
use crate::error::Error;
use crate::handler::args::Args;
use crate::handler::context::Context;
use crate::parse::argv::AGENT_FLAG;
use crate::parse::argv::quote;

/// The refusal of an unconfirmed `rm` of `path`, if it must stop.
pub(super) fn check(path: &ResourcePath, args: &Args, ctx: &Context) -> Result<(), Error> {
    let registry = ctx.registry();
    let surface = pas_spec::surface::of(registry.profile);
    if args.flag(surface.confirm_flag) {
        return Ok(());
    }
    let confirm = surface.confirm_long();
    let again = call(registry, ctx, path, &confirm);
    let refusal = if path.is_pattern() {
        Error::new(
            surface.confirm_error_in(registry).to_owned(),
            format!("{path} is a wildcard, which could delete more than meant"),
        )
        .with_suggestion(format!(
            "remove explicit paths (list them with `{} ls`), or confirm with `{again}`",
            prefix(registry, ctx)
        ))
    } else if let Some(template) = container(registry, path) {
        // Starts with `rm `: the MCP server finds the command a refusal names by its first word.
        Error::new(
            surface.confirm_error_in(registry).to_owned(),
            format!(
                "rm {path} deletes a container ({template}) with everything in it, which needs \
                 {confirm}"
            ),
        )
        .with_suggestion(format!(
            "see what it holds with `{} ls {}`, then confirm with `{again}`",
            prefix(registry, ctx),
            quote(path.as_str())
        ))
    } else {
        return Ok(());
    };
    // robot 6.4: the refusal says it wants confirming, and with which flag.
    Err(if surface.errors == ErrorChannel::RobotEnvelope {
        refusal.with_details(json!({ "requires_confirmation": true, "flag": confirm }))
    } else {
        refusal
    })
}

/// The container template `path` matched, when its `rm` deletes a container (a path whose
/// resource does not offer `rm` is left for the route to refuse as such).
fn container<'a>(registry: &'a Registry, path: &ResourcePath) -> Option<&'a str> {
    let resource = path.resource(registry)?;
    (resource.verbs.contains(&pas_spec::Verb::Rm)
        && pas_spec::verbs::is_container(registry, &resource.path))
    .then_some(resource.path.as_str())
}

/// The tool's name, with `--agent` when the call was in agent mode in the `pas` profile.
fn prefix(registry: &Registry, ctx: &Context) -> String {
    if ctx.agent() && registry.profile == Profile::Pas {
        format!("{} {AGENT_FLAG}", registry.name)
    } else {
        registry.name.clone()
    }
}

/// The same `rm` of this one path, confirmed: what to run once sure.
fn call(registry: &Registry, ctx: &Context, path: &ResourcePath, confirm: &str) -> String {
    format!(
        "{} rm {} {confirm}",
        prefix(registry, ctx),
        quote(path.as_str())
    )
}
