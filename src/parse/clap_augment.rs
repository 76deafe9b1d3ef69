//! What the runtime adds to a tool's clap command, however it was built (registry face or
//! derive): the name and version text from the registry, the runtime's flags for `--help`, the
//! examples after human help, and `--format` on list commands.
//!
//! Two builds of the same command: the documented one (everything above: what `--help`, parse
//! errors, completions and man pages show) and the parsing one, which leaves out what only the
//! documented one shows (the version text, the runtime's flags, which the argv pre-scan takes out
//! before clap parses, and the examples). A call parses with the parsing one; whatever it refuses
//! (help, version, any error) is parsed again with the documented one, so every text a person or
//! agent sees comes from the documented command. The runtime's flags are `global(true)` args
//! that clap otherwise builds, matches (with their default values) and drops on every call.

use clap::{Arg, ArgAction};
use pas_spec::{Example, OutputKind, ParamKind, ParamType, Parameter, Registry};

// Still named here by the files that add a flag at a command's path; it lives in `clap_face`
// so that `input_file`, which `augment` calls, can use it without naming this file back.
pub(crate) use crate::parse::clap_face::at_path;
use crate::parse::level;

/// The id of the runtime's `--format` arg.
pub(crate) const FORMAT_ID: &str = "pas_format";

/// `verbs` are the level 3/4 verb commands the app synthesised from the resources; `documented`
/// says which of the two builds (see the module docs).
pub(crate) fn augment(
    cmd: clap::Command,
    registry: &Registry,
    verbs: &[std::sync::Arc<pas_spec::Command>],
    documented: bool,
) -> clap::Command {
    let mut cmd = cmd
        .name(registry.name.clone())
        .bin_name(registry.name.clone());
    // `--version` is clap's own text where the tool's command has one (a derive's
    // `#[command(version)]`), else the registry's version: `NAME VERSION`, nothing added. The
    // PAS level is told in machine mode (`--agent --version`, see `version_line`).
    if documented && cmd.get_version().is_none() {
        cmd = cmd.version(registry.version.clone());
    }
    // The profile's surface table says which runtime flags exist (the faces read the same
    // table), so a flag no face documents is a flag clap refuses.
    let surface = pas_spec::surface::of(registry.profile);
    // The table's rows the pre-scan takes out of argv before clap parses (`--agent`,
    // `--config`, `--output-id`, ..., `--timeout` where the tool does not own the name): the
    // documented command declares them from the table, so `--help`, completions and man pages
    // list what the faces list; the parsing command never sees them.
    if documented {
        let timeout = pas_spec::surface::runtime_timeout_flag(registry)
            .then_some(&pas_spec::surface::TIMEOUT);
        for flag in surface.flags.iter().chain(timeout) {
            if crate::parse::argv::TAKEN_OUT.contains(&flag.long) && !has_long(&cmd, flag.long) {
                let help = pas_spec::surface::meaning_in(flag, registry);
                let id = format!("pas_{}", flag.long.replace('-', "_"));
                cmd = cmd.arg(crate::parse::flag_args::arg(id, flag, help).global(true));
            }
        }
    }
    cmd = crate::parse::fields::augment(cmd, registry);
    cmd = crate::parse::input_file::augment(cmd, registry, verbs);
    // Examples follow clap's help where the help is the agent's too (compose, robot); a
    // person's `-h` of a `pas` tool is the tool's own (`crate::builtins::person_help`).
    let examples_shown = documented && !person_help_applies(registry);
    // A command at the root (a one-command tool) shares the root's help with the tool: its
    // examples join the tool's in one block, each command line once.
    if examples_shown {
        let mut root_examples = registry.examples.clone();
        for command in registry
            .commands
            .iter()
            .filter(|c| c.argv_path().is_empty())
        {
            for example in &command.examples {
                if !root_examples.iter().any(|e| e.command == example.command) {
                    root_examples.push(example.clone());
                }
            }
        }
        if !root_examples.is_empty() {
            cmd = with_examples(cmd, &root_examples);
        }
    }
    cmd = negative_numbers(cmd, &registry.global_flags);
    // The level 3/4 verbs too: `ls` is a list, and the verbs have examples.
    for command in registry.commands.iter().chain(verbs.iter().map(|v| &**v)) {
        let path = command.argv_path();
        let list = command.output == OutputKind::List && surface.list_format_flag;
        let examples: &[Example] = if path.is_empty() || !examples_shown {
            &[]
        } else {
            &command.examples
        };
        if has_numbers(&command.parameters) {
            cmd = at_path(cmd, &path, &mut |sub| {
                negative_numbers(sub, &command.parameters)
            });
        }
        if !list && examples.is_empty() {
            continue;
        }
        cmd = at_path(cmd, &path, &mut |mut sub| {
            // robot's `--format json|md` is global (see robot/flags.rs).
            let robot = registry.profile == pas_spec::Profile::Robot;
            if list && !robot && !has_long(&sub, "format") {
                sub = sub.arg(
                    Arg::new(FORMAT_ID)
                        .long("format")
                        .value_name("FORMAT")
                        .value_parser(["ndjson", "array"])
                        .action(ArgAction::Set)
                        .help("ndjson: one JSON value per line (the default with --agent); array: one JSON array"),
                );
            }
            if !examples.is_empty() {
                sub = with_examples(sub, examples);
            }
            sub
        });
    }
    cmd
}

/// What `--version` answers in machine mode (`--agent --version`, and every call of a profile
/// whose output is machine output always): `NAME VERSION (PAS Level N Compliant)`, the level
/// the registry backs.
pub(crate) fn version_line(registry: &Registry) -> String {
    format!(
        "{} {} (PAS Level {} Compliant)\n",
        registry.name,
        registry.version,
        level::backed_level(registry)
    )
}

fn has_numbers(params: &[Parameter]) -> bool {
    params
        .iter()
        .any(|p| matches!(p.element_type(), ParamType::Integer | ParamType::Number))
}

/// Numeric parameters take negative values as agents write them (`--limit -1`, `move -- -3`
/// aside): the value is parsed, then validated like any other, instead of being read as a flag.
fn negative_numbers(mut cmd: clap::Command, params: &[Parameter]) -> clap::Command {
    if !has_numbers(params) {
        return cmd;
    }
    let ids: Vec<String> = cmd
        .get_arguments()
        .filter(|arg| {
            params.iter().any(|p| {
                let numeric = matches!(p.element_type(), ParamType::Integer | ParamType::Number);
                let same = match p.kind {
                    ParamKind::Flag => arg.get_long() == Some(p.name.as_str()),
                    _ => {
                        arg.is_positional()
                            && (arg.get_id() == p.name.as_str()
                                || arg.get_id() == p.name.replace('-', "_").as_str()
                                || p.rust_name.as_deref() == Some(arg.get_id().as_str()))
                    }
                };
                numeric && same
            })
        })
        .map(|arg| arg.get_id().to_string())
        .collect();
    for id in ids {
        cmd = cmd.mut_arg(id, |arg| arg.allow_negative_numbers(true));
    }
    cmd
}

fn has_long(cmd: &clap::Command, long: &str) -> bool {
    cmd.get_arguments().any(|a| a.get_long() == Some(long))
}

/// Examples after clap's help, aligned like agent help's COMMON PATTERNS.
fn with_examples(cmd: clap::Command, examples: &[Example]) -> clap::Command {
    let width = examples
        .iter()
        .map(|e| e.command.chars().count())
        .max()
        .unwrap_or(0);
    let mut text = String::from("Examples:\n");
    for example in examples {
        match &example.description {
            Some(description) => {
                let pad = width - example.command.chars().count();
                text.push_str(&format!(
                    "  {}{}  # {description}\n",
                    example.command,
                    " ".repeat(pad)
                ));
            }
            None => text.push_str(&format!("  {}\n", example.command)),
        }
    }
    let text = text.trim_end().to_owned();
    let combined = match cmd.get_after_help() {
        Some(existing) => format!("{existing}\n\n{text}"),
        None => text,
    };
    cmd.after_help(combined)
}

/// Whether argv (after the pre-scan) names one of the runtime's flags that only the documented
/// command declares: a word the pre-scan leaves in argv (`--agent=maybe`, `--output-id=1`) or a
/// prefix of one (a parser that infers long flags). Such a call parses with the documented
/// command from the start, so that its answer is the one that command gives.
pub(crate) fn names_runtime_flag(argv: &[std::ffi::OsString]) -> bool {
    let longs = || crate::parse::argv::TAKEN_OUT.into_iter();
    argv.iter()
        .skip(1)
        .map(|word| word.as_encoded_bytes())
        .take_while(|word| *word != b"--")
        .filter_map(|word| word.strip_prefix(b"--"))
        .map(|name| name.split(|b| *b == b'=').next().unwrap_or(name))
        .any(|name| !name.is_empty() && longs().any(|long| long.as_bytes().starts_with(name)))
}

/// Whether a person's `-h` is the tool's own (the profile has a machine switch: `pas`).
pub(crate) fn person_help_applies(registry: &Registry) -> bool {
    pas_spec::surface::of(registry.profile)
        .machine_switch
        .is_some()
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use super::*;

    fn registry() -> Registry {
        let spec = r#"
specVersion: 1
name: t
version: 1.0.0
summary: s
examples:
  - {command: "t --agent get 1", description: one}
commands:
  - name: get
    description: one
    output: list
    parameters:
      - {name: id, kind: positional, type: integer, required: true, description: which}
"#;
        let source = pas_spec::Source::new("t.yaml", spec, pas_spec::Format::Yaml);
        pas_spec::load::parse(&source).unwrap()
    }

    fn longs(cmd: &clap::Command) -> Vec<String> {
        let mut cmd = cmd.clone();
        cmd.build();
        let sub = cmd.find_subcommand("get").unwrap();
        cmd.get_arguments()
            .chain(sub.get_arguments())
            .filter_map(|a| a.get_long().map(str::to_owned))
            .collect()
    }

    fn argv(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_parsing_command_leaves_out_what_only_help_shows() {
        let registry = registry();
        let base = crate::parse::clap_face::command_from_registry(&registry);
        let documented = augment(base.clone(), &registry, &[], true);
        let parsing = augment(base, &registry, &[], false);
        let (shown, parsed) = (longs(&documented), longs(&parsing));
        for runtime in [
            "agent",
            "audit-log",
            "config",
            "validate-only",
            "output-id",
            "cwd",
        ] {
            assert!(shown.iter().any(|l| l == runtime), "{runtime} documented");
            assert!(!parsed.iter().any(|l| l == runtime), "{runtime} not parsed");
        }
        // What a handler reads stays in both.
        assert!(parsed.iter().any(|l| l == "format"));
        // A `pas` tool's person help is the tool's own: no examples (`crate::builtins::person_help`).
        assert!(documented.get_after_help().is_none());
        assert!(parsing.get_after_help().is_none());
        assert!(documented.get_version().is_some());
        // Whatever the pre-scan left, both parse to the same values.
        for words in [
            &["t", "get", "1"][..],
            &["t", "get", "-3", "--format", "array"],
        ] {
            let a = documented
                .clone()
                .try_get_matches_from(argv(words))
                .unwrap();
            let b = parsing.clone().try_get_matches_from(argv(words)).unwrap();
            let (a, b) = (a.subcommand().unwrap().1, b.subcommand().unwrap().1);
            assert_eq!(a.get_one::<i64>("id"), b.get_one::<i64>("id"));
            assert_eq!(
                a.get_one::<String>(FORMAT_ID),
                b.get_one::<String>(FORMAT_ID)
            );
        }
    }

    #[test]
    fn a_runtime_flag_left_in_argv_asks_for_the_documented_command() {
        assert!(!names_runtime_flag(&argv(&["t", "get", "1"])));
        assert!(!names_runtime_flag(&argv(&[
            "t", "get", "--format", "array"
        ])));
        // Values the pre-scan leaves for clap to refuse, and prefixes of the runtime's flags.
        assert!(names_runtime_flag(&argv(&["t", "--agent=maybe", "get"])));
        assert!(names_runtime_flag(&argv(&["t", "get", "--output-id=1"])));
        assert!(names_runtime_flag(&argv(&["t", "--stable", "get"])));
        // After `--` a word is data.
        assert!(!names_runtime_flag(&argv(&["t", "get", "--", "--agent=x"])));
        // `--` alone names nothing.
        assert!(!names_runtime_flag(&argv(&["t", "--", "x"])));
    }
}
