//! The flags and built-in commands the robot profile adds to a tool's clap command, and how
//! they are read back from the matches.

use clap::{Arg, ArgAction, ArgMatches};
use pas_spec::robot::SessionUse;
use pas_spec::{Profile, Registry};

use crate::parse::clap_augment::at_path;

pub(crate) const COMPACT_ID: &str = "pas_robot_compact";
pub(crate) const FIELDS_ID: &str = "pas_robot_fields";
pub(crate) const FORMAT_ID: &str = "pas_robot_format";
pub(crate) const INCLUDE_PROSE_ID: &str = "pas_robot_include_prose";
pub(crate) const PROSE_STYLE_ID: &str = "pas_robot_prose_style";
/// Ids a handler may read too (`args.get::<String>("session")`; the confirm flag's id is its
/// long name, `args.flag("yes")`).
pub(crate) const SESSION_ID: &str = "session";
pub(crate) const RESUME_ID: &str = "resume";
pub(crate) const CHECK_ACTION_ID: &str = "check_action";
pub(crate) const DETAIL_ID: &str = "detail";
pub(crate) const LIMIT_ID: &str = "limit";

/// The robot built-in commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    Sessions,
    Capabilities,
}

impl Builtin {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Builtin::Sessions => "sessions",
            Builtin::Capabilities => "capabilities",
        }
    }
}

/// Whether the built-ins can be subcommands (a one-command tool keeps its root positionals).
fn has_builtins(registry: &Registry) -> bool {
    registry.profile == Profile::Robot
        && registry.commands.iter().all(|c| !c.argv_path().is_empty())
}

/// The built-in that clap's matched path names, if any.
pub(crate) fn builtin(registry: &Registry, path: &[String]) -> Option<Builtin> {
    if !has_builtins(registry) {
        return None;
    }
    match path {
        [w] if w == "sessions" => Some(Builtin::Sessions),
        [w] if w == "capabilities" => Some(Builtin::Capabilities),
        _ => None,
    }
}

fn switch(id: &'static str, long: &'static str, help: &'static str) -> Arg {
    Arg::new(id)
        .long(long)
        .action(ArgAction::SetTrue)
        .help(help)
}

/// What a robot flag does, from the profile's surface table (the faces print the same words).
fn meaning(long: &str) -> &'static str {
    pas_spec::surface::ROBOT
        .flag(long)
        .map_or("", |flag| flag.meaning)
}

fn has_long(cmd: &clap::Command, long: &str) -> bool {
    cmd.get_arguments().any(|a| a.get_long() == Some(long))
}

/// Adds the robot flags, per-command `--session`/`--resume`, flag aliases, and the
/// `sessions` and `capabilities` built-ins. A tool of another profile gets only its aliases.
pub(crate) fn augment(mut cmd: clap::Command, registry: &Registry) -> clap::Command {
    for command in &registry.commands {
        let aliased: Vec<&pas_spec::Parameter> = command
            .parameters
            .iter()
            .filter(|p| !p.aliases.is_empty() || !p.deprecated_aliases.is_empty())
            .collect();
        let robot = registry.profile == Profile::Robot;
        // The confirm flag (`--yes`) is `builtins::augment`'s, from the surface table.
        let session = if robot { command.session } else { None };
        if aliased.is_empty() && session.is_none() {
            continue;
        }
        cmd = at_path(cmd, &command.argv_path(), &mut |mut sub| {
            for parameter in &aliased {
                let id = parameter.name.replace('-', "_");
                let Some(arg) = sub.get_arguments().find(|a| a.get_id() == id.as_str()) else {
                    continue;
                };
                // A derive-built parser has them already (they came from it).
                let present: Vec<String> = arg
                    .get_all_aliases()
                    .unwrap_or_default()
                    .into_iter()
                    .map(str::to_owned)
                    .collect();
                let missing = |names: &[String]| -> Vec<String> {
                    names
                        .iter()
                        .filter(|n| !present.contains(n))
                        .cloned()
                        .collect()
                };
                let (visible, hidden) = (
                    missing(&parameter.aliases),
                    missing(&parameter.deprecated_aliases),
                );
                if !visible.is_empty() || !hidden.is_empty() {
                    sub = sub.mut_arg(id, |arg| arg.visible_aliases(visible).aliases(hidden));
                }
            }
            if matches!(session, Some(SessionUse::Continue | SessionUse::Read))
                && !has_long(&sub, "session")
            {
                sub = sub.arg(
                    Arg::new(SESSION_ID)
                        .long("session")
                        .value_name("ID")
                        .required(true)
                        .action(ArgAction::Set)
                        .help("The session to continue (see the `sessions` command)"),
                );
            }
            if session == Some(SessionUse::Continue) && !has_long(&sub, "resume") {
                sub = sub.arg(switch(
                    RESUME_ID,
                    "resume",
                    "Resume an interrupted session: completed actions are not redone",
                ));
            }
            sub
        });
    }
    if registry.profile != Profile::Robot {
        return cmd;
    }
    cmd = cmd
        .arg(switch(COMPACT_ID, "compact", meaning("compact")).global(true))
        .arg(
            Arg::new(FIELDS_ID)
                .long("fields")
                .value_name("A,B,...")
                .global(true)
                .action(ArgAction::Set)
                .help(meaning("fields")),
        )
        .arg(
            Arg::new(FORMAT_ID)
                .long("format")
                .value_name("FORMAT")
                .global(true)
                .value_parser(["json", "md"])
                .action(ArgAction::Set)
                .help(meaning("format")),
        )
        .arg(switch(INCLUDE_PROSE_ID, "include-prose", meaning("include-prose")).global(true))
        .arg(
            Arg::new(PROSE_STYLE_ID)
                .long("prose-style")
                .value_name("STYLE")
                .global(true)
                .value_parser(ProseStyle::NAMES)
                .action(ArgAction::Set)
                .help(meaning("prose-style")),
        );
    if !has_builtins(registry) {
        return cmd;
    }
    if registry.sessions().is_some() && !cmd.get_subcommands().any(|s| s.get_name() == "sessions") {
        cmd = cmd.subcommand(
            clap::Command::new("sessions")
                .about("The stored sessions (total, resumable_count), or one with --session ID")
                .arg(
                    Arg::new(SESSION_ID)
                        .long("session")
                        .visible_aliases(["status", "show"])
                        .value_name("ID")
                        .action(ArgAction::Set)
                        .help("One session in detail"),
                )
                .arg(switch(
                    DETAIL_ID,
                    "detail",
                    "Include the session's data and artifacts",
                ))
                .arg(
                    Arg::new(LIMIT_ID)
                        .long("limit")
                        .value_name("N")
                        .value_parser(clap::value_parser!(u64))
                        .default_value("50")
                        .action(ArgAction::Set)
                        .help("How many sessions to list, newest first"),
                ),
        );
    }
    if !cmd
        .get_subcommands()
        .any(|s| s.get_name() == "capabilities")
    {
        cmd = cmd.subcommand(
            clap::Command::new("capabilities")
                .about(
                    "What this tool can do here: OS, privileges, storage, limits, probes, actions",
                )
                .arg(
                    Arg::new(CHECK_ACTION_ID)
                        .long("check-action")
                        .value_name("ACTION")
                        .action(ArgAction::Set)
                        .help("Check one action's availability"),
                ),
        );
    }
    cmd
}

/// The token controls from the matched command's args (global flags reach every level).
pub(crate) fn options(leaf: &ArgMatches) -> (Options, Option<String>) {
    let flag = |id: &str| {
        leaf.try_get_one::<bool>(id)
            .ok()
            .flatten()
            .copied()
            .unwrap_or(false)
    };
    let text = |id: &str| leaf.try_get_one::<String>(id).ok().flatten().cloned();
    let fields = text(FIELDS_ID);
    let options = Options {
        compact: flag(COMPACT_ID),
        fields: fields.as_ref().map(|f| {
            f.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        }),
        markdown: text(FORMAT_ID).as_deref() == Some("md"),
        prose: if flag(INCLUDE_PROSE_ID) {
            Some(
                text(PROSE_STYLE_ID)
                    .as_deref()
                    .and_then(ProseStyle::parse)
                    .unwrap_or(ProseStyle::Terse),
            )
        } else {
            None
        },
        list_field: None,
        compact_omit: Vec::new(),
    };
    (options, fields)
}

/// `--prose-style`: the voice of `data.prose_summary`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProseStyle {
    /// `terse`: minimal, bullet-like ("3 kills: node(2), python(1).").
    Terse,
    /// `conversational`: friendly, complete sentences.
    Conversational,
    /// `formal`: precise and impersonal.
    Formal,
    /// `technical`: the most detail: figures, probabilities, units.
    Technical,
}

impl ProseStyle {
    pub(crate) const NAMES: [&'static str; 4] = ["terse", "conversational", "formal", "technical"];

    pub(crate) fn parse(name: &str) -> Option<ProseStyle> {
        match name {
            "terse" => Some(ProseStyle::Terse),
            "conversational" => Some(ProseStyle::Conversational),
            "formal" => Some(ProseStyle::Formal),
            "technical" => Some(ProseStyle::Technical),
            _ => None,
        }
    }
}

/// The token controls of this call (robot 8).
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    pub(crate) compact: bool,
    pub(crate) fields: Option<Vec<String>>,
    pub(crate) markdown: bool,
    pub(crate) prose: Option<ProseStyle>,
    /// The command's principal list (`listField`), `None` for a list command's items.
    pub(crate) list_field: Option<String>,
    pub(crate) compact_omit: Vec<String>,
}
