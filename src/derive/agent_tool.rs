//! The trait `#[derive(AgentTool)]` implements, apart from the folder's `mod.rs` so that the
//! derive's probes, which ask whether a type implements it, need nothing of the module that
//! re-exports them.

use super::meta::{Node, ToolMeta};

/// What `#[derive(AgentTool)]` implements: the registry-building data of a type. Implement it
/// by hand only to describe a clap type the derive cannot.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not implement `AgentTool`",
    label = "this type has no agent metadata",
    note = "add `#[derive(AgentTool)]` to `{Self}` (a nested command group or flattened group needs it too)"
)]
pub trait AgentTool {
    /// The tool's keys (read only from the root type).
    fn agent_tool() -> ToolMeta {
        ToolMeta::default()
    }

    /// The type's commands, fields and nested groups.
    fn agent_node() -> Node;

    /// The profile `agent_tool()` names, known when the tool is compiled: the derive sets it
    /// (from `#[agent(profile = ...)]`, `pas` when absent) so that [`crate::run::app::App::from_tool`]
    /// links only that profile. `None` (a hand-written impl) links every profile.
    #[doc(hidden)]
    const PROFILE: Option<pas_spec::Profile> = None;

    /// Whether a command of the type (or of a type nested in it) is an async job
    /// (`kind = "job"`), known when the tool is compiled: the derive sets it so that
    /// [`crate::run::app::App::from_tool`] links the job runtime only for a tool that has one. `None` (a
    /// hand-written impl) links it.
    #[doc(hidden)]
    const OFFERS_JOBS: Option<bool> = None;

    /// Whether a command of the type (or of a type nested in it) changes state (`effect =
    /// "write"` or `"destructive"`) or the tool serves resources (whose state verbs do): only
    /// then does [`crate::run::app::App::from_tool`] link idempotency keys. `None` (a hand-written impl)
    /// links them.
    #[doc(hidden)]
    const CHANGES_STATE: Option<bool> = None;

    /// Whether the tool declares a value constraint (`minimum`..`pattern`, `requires`,
    /// `conflicts`), a requirement a command `needs`, credentials (`auth`, `scopes`) or
    /// `untrusted` output fields: only then does [`crate::run::app::App::from_tool`] link the declared
    /// checks, their lines in `doctor` and `health` (with regex-lite for `pattern` and semver
    /// for a requirement's version), the scope warning and the moving of untrusted fields. The
    /// derive has no key for any of them, so it says `Some(false)` unless a nested type does
    /// not know. `None` (a hand-written impl) links them.
    #[doc(hidden)]
    const DECLARES_CHECKS: Option<bool> = None;

    /// Whether a command declares an input schema (`input = Type`, `input_schema = "..."`) or
    /// the tool serves resources: only then does [`crate::run::app::App::from_tool`] link the check of
    /// stdin (or `--input-file`) against it. `None` (a hand-written impl) links it.
    #[doc(hidden)]
    const CHECKS_INPUT: Option<bool> = None;

    /// Whether a command declares a `filesystem` or `background` side effect, the only tools
    /// that offer `cleanup` and record the children their commands keep: only then does
    /// [`crate::run::app::App::from_tool`] link them. The derive has no side-effect key, so it says
    /// `Some(false)` unless a nested type does not know. `None` (a hand-written impl) links them.
    #[doc(hidden)]
    const OFFERS_CLEANUP: Option<bool> = None;

    /// Whether a command declares a `lock`: only then does [`crate::run::app::App::from_tool`] link the
    /// named locks. `None` (a hand-written impl) links them.
    #[doc(hidden)]
    const TAKES_LOCKS: Option<bool> = None;

    /// Whether a command needs confirming (`effect = "destructive"`, or robot's `confirm`):
    /// only then does [`crate::run::app::App::from_tool`] link the guard that refuses it without its
    /// confirm flag. `None` (a hand-written impl) links it.
    #[doc(hidden)]
    const CONFIRMS: Option<bool> = None;

    /// Whether the tool has global flags (the root's own args beside its subcommand), the only
    /// keys a configuration file can set: only then does [`crate::run::app::App::from_tool`] link the
    /// TOML reader; a tool without them refuses any file that sets something. `None` (a
    /// hand-written impl) links it.
    #[doc(hidden)]
    const HAS_GLOBAL_FLAGS: Option<bool> = None;
}
