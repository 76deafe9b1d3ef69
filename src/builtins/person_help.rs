//! What a person's `-h` shows of a `pas`-profile tool: the tool's own help, as its clap command
//! has it, and one line saying where the agent contract is (PAS: adding the agent flag "MUST NOT
//! change existing behavior when the flag is absent").
//!
//! The runtime's flags (`--agent`, `--output-id`, `--max-output`, `--idempotency-key`, ...) stay
//! declared on the documented command, hidden (clap's `hide`: `hide_short_help` would switch
//! clap's `-h` to its two-level form, which the tool's own help did not have). An agent reads
//! them in `--agent --help`, whose text the registry's faces make; completions and man pages
//! list them as before ([`with_runtime_flags`]). Profiles whose output is machine output always (compose,
//! robot) answer `--help` with the agent help, so their clap command is left as it is.

pub(crate) use crate::parse::clap_augment::person_help_applies as applies;
use pas_spec::Registry;

/// The clap ids the runtime gives its own args start with this (`pas_agent`, `pas_fields`, ...).
const RUNTIME_ID_PREFIX: &str = "pas_";

/// Args with the prefix that belong to a command the tool declared rather than to the runtime:
/// `cleanup --dry-run` is that built-in command's own switch.
const DECLARED_IDS: [&str; 1] = ["pas_cleanup_dry_run"];

/// The one line a person's `-h` gains.
pub(crate) fn agent_line(registry: &Registry) -> String {
    format!(
        "Agents: add --agent for JSON output and JSON errors; `{} --agent --help` describes the contract.",
        registry.name
    )
}

/// The documented command as a person's `-h` shows it: the runtime's flags hidden from help at
/// every level, the agent line after the root's own text.
pub(crate) fn apply(cmd: clap::Command, registry: &Registry) -> clap::Command {
    if !applies(registry) {
        return cmd;
    }
    let line = agent_line(registry);
    let after = match cmd.get_after_help() {
        Some(existing) => format!("{existing}\n\n{line}"),
        None => line.clone(),
    };
    let after_long = cmd
        .get_after_long_help()
        .map(|existing| format!("{existing}\n\n{line}"));
    let mut cmd = hide_runtime_flags(cmd).after_help(after);
    if let Some(after_long) = after_long {
        cmd = cmd.after_long_help(after_long);
    }
    cmd
}

fn hide_runtime_flags(cmd: clap::Command) -> clap::Command {
    set_hidden(cmd, true)
}

/// The documented command with the runtime's flags shown again: what completions and man pages
/// are made from (so only a tool built with either feature, or this module's tests, uses it).
#[cfg(any(feature = "completions", feature = "man", test))]
pub(crate) fn with_runtime_flags(cmd: clap::Command) -> clap::Command {
    set_hidden(cmd, false)
}

fn set_hidden(mut cmd: clap::Command, hidden: bool) -> clap::Command {
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().as_str())
        .filter(|id| id.starts_with(RUNTIME_ID_PREFIX) && !DECLARED_IDS.contains(id))
        .map(str::to_owned)
        .collect();
    for id in ids {
        cmd = cmd.mut_arg(id, |arg| arg.hide(hidden));
    }
    for sub in cmd.get_subcommands_mut() {
        let taken = std::mem::take(sub);
        *sub = set_hidden(taken, hidden);
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(profile: &str) -> Registry {
        let spec = format!(
            r#"
specVersion: 1
name: t
version: 1.0.0
summary: s
profile: {profile}
commands:
  - name: get
    description: one
    output: list
    parameters:
      - {{name: id, kind: positional, type: integer, required: true, description: which}}
"#
        );
        let source = pas_spec::Source::new("t.yaml", &spec, pas_spec::Format::Yaml);
        pas_spec::load::parse(&source).unwrap()
    }

    fn help(cmd: &clap::Command, words: &[&str]) -> String {
        let err = cmd.clone().try_get_matches_from(words).unwrap_err();
        err.render().to_string()
    }

    #[test]
    fn the_runtime_flags_leave_a_persons_help_and_stay_parsed() {
        let registry = registry("pas");
        let base = crate::parse::clap_face::command_from_registry(&registry);
        let documented = crate::parse::clap_augment::augment(base, &registry, &[], true);
        let cmd = apply(documented, &registry);
        for words in [&["t", "-h"][..], &["t", "--help"], &["t", "get", "--help"]] {
            let text = help(&cmd, words);
            for runtime in [
                "--validate-only",
                "--output-id",
                "--max-output",
                "--format",
                "--config",
            ] {
                assert!(!text.contains(runtime), "{runtime} in {words:?}: {text}");
            }
        }
        assert!(help(&cmd, &["t", "-h"]).contains(&agent_line(&registry)));
        // Completions and man pages list them as before.
        let docs = with_runtime_flags(cmd.clone());
        assert!(
            docs.get_arguments()
                .filter(|a| a.get_id().as_str().starts_with(RUNTIME_ID_PREFIX))
                .all(|a| !a.is_hide_set())
        );
        // Still declared: clap takes them (the pre-scan usually has them out of argv first).
        let matches = cmd
            .clone()
            .try_get_matches_from(["t", "get", "1", "--format", "array"])
            .unwrap();
        let (_, leaf) = matches.subcommand().unwrap();
        assert_eq!(
            leaf.get_one::<String>(crate::parse::clap_augment::FORMAT_ID)
                .unwrap(),
            "array"
        );
    }

    #[test]
    fn machine_output_profiles_are_left_alone() {
        let registry = registry("compose");
        assert!(!applies(&registry));
        let cmd = clap::Command::new("t").arg(clap::Arg::new("pas_x").long("x"));
        let same = apply(cmd.clone(), &registry);
        assert!(same.get_after_help().is_none());
        assert!(!same.get_arguments().any(|a| a.is_hide_set()));
    }
}
