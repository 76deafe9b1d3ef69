//! The flags and built-in commands the robot profile adds to a tool's clap command, and how
//! they are read back from the matches.

use clap::ArgMatches;
use pas_spec::robot::SessionUse;
use pas_spec::{Profile, Registry};

use crate::parse::clap_augment::at_path;
use crate::parse::flag_args;

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

/// The id of a robot token control's arg (`pas_robot_compact`).
fn robot_id(long: &'static str) -> &'static str {
    match long {
        "compact" => COMPACT_ID,
        "fields" => FIELDS_ID,
        "format" => FORMAT_ID,
        "include-prose" => INCLUDE_PROSE_ID,
        "prose-style" => PROSE_STYLE_ID,
        other => other,
    }
}

/// The id of a robot word's flag, as its handler reads it.
fn word_flag_id(long: &'static str) -> &'static str {
    match long {
        "session" => SESSION_ID,
        "detail" => DETAIL_ID,
        "limit" => LIMIT_ID,
        "check-action" => CHECK_ACTION_ID,
        other => other,
    }
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
            // `--session` and `--resume`, from the rows the faces list for the command.
            if matches!(session, Some(SessionUse::Continue | SessionUse::Read))
                && !has_long(&sub, "session")
            {
                sub = sub.args(flag_args::command_arg(
                    SESSION_ID, registry, command, "session",
                ));
            }
            if session == Some(SessionUse::Continue) && !has_long(&sub, "resume") {
                sub = sub.args(flag_args::command_arg(
                    RESUME_ID, registry, command, "resume",
                ));
            }
            sub
        });
    }
    if registry.profile != Profile::Robot {
        return cmd;
    }
    // The token controls (robot 8), from the surface table's rows: global, so they reach
    // every command; `--format` and `--prose-style` name the values clap accepts.
    let row = |long: &'static str| {
        let flag = pas_spec::surface::ROBOT
            .flag(long)
            .expect("robot's surface row lists its token controls");
        flag_args::arg(robot_id(long), flag, flag.meaning).global(true)
    };
    cmd = cmd
        .arg(row("compact"))
        .arg(row("fields"))
        .arg(row("format").value_parser(["json", "md"]))
        .arg(row("include-prose"))
        .arg(row("prose-style").value_parser(ProseStyle::NAMES));
    if !has_builtins(registry) {
        return cmd;
    }
    // The robot words and their flags, from their rows of `surface::BUILTIN_WORDS`.
    for builtin in [Builtin::Sessions, Builtin::Capabilities] {
        let word = builtin.name();
        let offered = match builtin {
            Builtin::Sessions => registry.sessions().is_some(),
            Builtin::Capabilities => true,
        };
        if !offered || cmd.get_subcommands().any(|s| s.get_name() == word) {
            continue;
        }
        let Some(row) = pas_spec::surface::BUILTIN_WORDS
            .iter()
            .find(|b| b.word == word)
        else {
            continue;
        };
        let mut sub = clap::Command::new(word).about(row.meaning.trim_end_matches('.').to_owned());
        for flag in row.flags {
            let mut arg = flag_args::arg(word_flag_id(flag.long), flag, flag.meaning);
            arg = match (builtin, flag.long) {
                (Builtin::Sessions, "session") => arg.visible_aliases(["status", "show"]),
                (Builtin::Sessions, "limit") => arg
                    .value_parser(clap::value_parser!(u64))
                    .default_value("50"),
                _ => arg,
            };
            sub = sub.arg(arg);
        }
        cmd = cmd.subcommand(sub);
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
