//! The clap arg of one row of the surface table (`pas_spec::surface`): the runtime declares
//! each of its flags from the row every face reads, so `--help`, completions and man pages say
//! what agent help, `.llm`, the catalog and the validator say, in the same words.

use clap::{Arg, ArgAction};
use pas_spec::surface::{CommandFlag, RuntimeFlag};
use pas_spec::{Command, Registry};

/// The arg of `flag` with id `id`: its long, a value placeholder where it takes a value, and
/// `help` (the row's meaning, or the tool's sentence for it, see `pas_spec::surface::meaning_in`).
pub(crate) fn arg(id: impl Into<clap::Id>, flag: &RuntimeFlag, help: impl Into<String>) -> Arg {
    let arg = Arg::new(id).long(flag.long).help(help.into());
    match flag.value {
        Some(placeholder) => arg
            .value_name(value_name(flag.long, placeholder))
            .action(ArgAction::Set),
        None => arg.action(ArgAction::SetTrue),
    }
}

/// The arg of the runtime's flag `long` on `command` (`--dry-run`, the confirm flag,
/// `--session`, `--resume`, `--wait`, `--idempotency-key`), from the row the faces list for
/// that command (`pas_spec::faces::command_switches`); `None` where the command has no such
/// flag.
pub(crate) fn command_arg(
    id: impl Into<clap::Id>,
    registry: &Registry,
    command: &Command,
    long: &str,
) -> Option<Arg> {
    let switches = pas_spec::faces::command_switches(registry, command);
    let row: &CommandFlag = switches.iter().find(|f| f.long == long)?;
    let arg = Arg::new(id)
        .long(row.long)
        .help(row.meaning.clone())
        .required(row.required);
    Some(match row.value {
        Some(placeholder) => arg
            .value_name(value_name(row.long, placeholder))
            .action(ArgAction::Set),
        None => arg.action(ArgAction::SetTrue),
    })
}

/// A row's placeholder as clap shows it: upper case (`<PATH>`, `<A,B,...>`), or the flag's
/// name where the placeholder lists the values (`json|md`), which clap's
/// `[possible values: ...]` then says.
fn value_name(long: &str, placeholder: &str) -> String {
    match placeholder.contains('|') {
        true => long.to_uppercase().replace('-', "_"),
        false => placeholder.to_uppercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_becomes_its_arg() {
        let cwd = arg("pas_cwd", &pas_spec::surface::CWD, "here");
        assert_eq!(cwd.get_long(), Some("cwd"));
        assert_eq!(
            cwd.get_value_names().unwrap().first().map(|n| n.as_str()),
            Some("DIR")
        );
        assert!(cwd.get_action().takes_values());
        let id = arg("pas_output_id", &pas_spec::surface::OUTPUT_ID, "ids");
        assert!(!id.get_action().takes_values());
        assert_eq!(value_name("prose-style", "terse|formal"), "PROSE_STYLE");
    }
}
