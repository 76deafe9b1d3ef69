//! The commands and flags the runtime adds to every tool, whatever its handlers.
//!
//! - compose: `tools [NAME]`, `health`, `config show` (subcommands, so clap parses global flags
//!   around them) and the global `--toon`; they render through the profile like any command.
//! - every profile: `--dry-run` on commands whose spec says `dryRun`, the profile's confirm flag
//!   (`--force`) on destructive commands (enforced before the handler runs, see [`guard`]), and
//!   `tools` outside compose (answered before clap, see `doc_commands`). Which flags and words
//!   exist is the profile's surface table (`pas_spec::surface`), which every face reads too.

pub(crate) mod cleanup;
pub(crate) mod config;
pub(crate) mod doc_commands;
pub(crate) mod doctor;
pub(crate) mod features;
pub(crate) mod health;
pub(crate) mod jobs;
#[cfg(feature = "mcp")]
pub(crate) mod mcp_config;
pub(crate) mod person_help;
pub(crate) mod plugin_package;
pub(crate) mod robot;
pub(crate) mod tools;
pub(crate) mod validate_pas;
pub(crate) mod versions;

use clap::Arg;
use pas_spec::{Profile, Registry};

use crate::error::Error;
use crate::handler::args::Args;
use crate::parse::clap_face::at_path;
use crate::parse::config_file::ConfigFile;
use crate::reply::Reply;

/// The clap id of the runtime's `--dry-run` (clap derive's id for a `dry_run` field too).
pub(crate) const DRY_RUN_ID: &str = "dry_run";
const TOON_ID: &str = "pas_toon";

/// A built-in command argv selected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    Tools,
    Health,
    ConfigShow,
    /// `doctor`, in every profile (`crate::builtins::doctor`).
    Doctor,
    /// `changelog`, in every profile (`crate::builtins::versions`).
    Changelog,
    /// `mcp --print-config CLIENT [--install]`, in every profile
    /// (`crate::builtins::mcp_config`).
    McpConfig,
}

impl Builtin {
    /// The name `meta.tool` carries.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Builtin::Tools => "tools",
            Builtin::Health => "health",
            Builtin::ConfigShow => "config.show",
            Builtin::Doctor => "doctor",
            Builtin::Changelog => "changelog",
            Builtin::McpConfig => "mcp",
        }
    }
}

/// Whether the compose built-ins are subcommands: in the compose profile, unless a one-command
/// tool takes positionals at its root (the validator refuses that shape, E084).
fn has_builtins(registry: &Registry) -> bool {
    registry.profile == Profile::Compose
        && registry.commands.iter().all(|c| {
            !c.argv_path().is_empty()
                || c.parameters
                    .iter()
                    .all(|p| p.kind == pas_spec::ParamKind::Flag)
        })
}

/// Adds the built-in commands and flags to the tool's clap command.
/// `verbs` are the level 3/4 verb commands the app synthesised from the resources.
pub(crate) fn augment(
    mut cmd: clap::Command,
    registry: &Registry,
    verbs: &[std::sync::Arc<pas_spec::Command>],
) -> clap::Command {
    let declared = registry.commands.iter();
    for command in declared.chain(verbs.iter().map(|v| &**v)) {
        let dry_run = command.dry_run;
        // The profile's confirm flag (`--force`, robot's `--yes`) on every command that needs
        // it (`Surface::needs_confirm`): the faces list it (`pas_spec::faces::command_switches`),
        // so the binary must take it. Its clap id is its long name, which handlers may read.
        let surface = pas_spec::surface::of(registry.profile);
        let confirm = surface.confirm_flag;
        let force = surface.needs_confirm(command);
        if !dry_run && !force {
            continue;
        }
        // Both from the rows the faces list for this command.
        let flag = crate::parse::flag_args::command_arg;
        cmd = at_path(cmd, &command.argv_path(), &mut |mut sub| {
            if dry_run && !has_long(&sub, "dry-run") {
                sub = sub.args(flag(DRY_RUN_ID, registry, command, "dry-run"));
            }
            if force && !has_long(&sub, confirm) {
                sub = sub.args(flag(confirm, registry, command, confirm));
            }
            sub
        });
    }
    cmd
}

/// Adds the compose built-ins (`tools`, `health`, `config show`, `--toon`) to the tool's clap
/// command, when it has them; reached only through the compose room (`crate::run::rooms`).
pub(crate) fn augment_compose(mut cmd: clap::Command, registry: &Registry) -> clap::Command {
    if !has_builtins(registry) {
        return cmd;
    }
    // `--toon`, from compose's row of the surface table.
    if let Some(row) = pas_spec::surface::COMPOSE.flag("toon") {
        cmd = cmd.arg(crate::parse::flag_args::arg(TOON_ID, row, row.meaning).global(true));
    }
    cmd.subcommand(
        clap::Command::new("tools")
            .about("The catalog of every command (or one, by dotted name), from the registry")
            .arg(
                Arg::new("name")
                    .value_name("NAME")
                    .help("A dotted command name, e.g. task.create"),
            ),
    )
    .subcommand(
        clap::Command::new("health")
            .about("Whether the tool can work now: ready, degraded or blocked, with fixes"),
    )
    .subcommand(
        clap::Command::new("config")
            .about("Configuration introspection")
            .subcommand_required(true)
            .subcommand(
                clap::Command::new("show")
                    .about("Each global flag's effective value and where it came from"),
            ),
    )
}

fn has_long(cmd: &clap::Command, long: &str) -> bool {
    cmd.get_arguments().any(|a| a.get_long() == Some(long))
}

/// The built-in that clap's matched path names, if any.
pub(crate) fn matched(registry: &Registry, path: &[String]) -> Option<Builtin> {
    if !has_builtins(registry) {
        return None;
    }
    match path {
        [w] if w == "tools" => Some(Builtin::Tools),
        [w] if w == "health" => Some(Builtin::Health),
        [a, b] if a == "config" && b == "show" => Some(Builtin::ConfigShow),
        _ => None,
    }
}

/// Runs a built-in command of every profile (`doctor`, `changelog`, `--show-config`); the
/// compose built-ins go through [`run_compose`].
pub(crate) fn run(
    builtin: Builtin,
    registry: &Registry,
    args: &Args,
    file: Option<&ConfigFile>,
    health: Option<crate::builtins::health::HealthEntries>,
) -> Result<Reply, Error> {
    match builtin {
        Builtin::ConfigShow => Ok(config::run(registry, args, file)),
        Builtin::Doctor => Ok(doctor::run(registry, file, health)),
        Builtin::Changelog => Ok(versions::changelog(registry)),
        #[cfg(feature = "mcp")]
        Builtin::McpConfig => mcp_config::run(registry, args),
        // No server to configure: the error `TOOL mcp` gives.
        #[cfg(not(feature = "mcp"))]
        Builtin::McpConfig => Err(crate::parse::mcp_options::not_built(registry)),
        Builtin::Tools | Builtin::Health => Err(Error::internal(format!(
            "the built-in `{}` is the compose profile's, which this binary does not carry",
            builtin.name()
        ))),
    }
}

/// Runs a compose built-in command (`tools`, `health`; `config show` as [`run`] does); reached
/// only through the compose room (`crate::run::rooms`).
pub(crate) fn run_compose(
    builtin: Builtin,
    registry: &Registry,
    checks: &[health::Registered],
    args: &Args,
    file: Option<&ConfigFile>,
    declared: Option<crate::builtins::health::HealthEntries>,
) -> Result<Reply, Error> {
    match builtin {
        Builtin::Tools => tools::run(registry, args),
        Builtin::Health => Ok(health::run(registry, checks, args, declared)),
        _ => run(builtin, registry, args, file, declared),
    }
}
