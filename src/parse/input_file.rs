//! `--input-file PATH` on every command that reads stdin (failure mode 61): a caller that would
//! write a large payload into a pipe while the tool writes into another (and both wait on a
//! full pipe buffer) gives the payload as a file instead. The runtime reads the file whole,
//! bounded by the input limit (`PAS_INPUT_LIMIT`, not the command's stdin cap), and hands it to
//! the handler as its stdin, after the same `inputSchema` check stdin gets. `-` is stdin.
//!
//! A command with a flag of its own named `input-file` keeps it (the tool's wins), as the
//! faces say (`pas_spec::faces::has_input_file`).

use std::path::PathBuf;
use std::sync::Arc;

use clap::{Arg, ArgAction};
use pas_spec::faces::{INPUT_FILE_FLAG, has_input_file};
use pas_spec::{Command, Registry};

/// The id of the runtime's `--input-file` arg.
pub(crate) const INPUT_FILE_ID: &str = "pas_input_file";

/// Adds `--input-file` to each command that reads stdin.
pub(crate) fn augment(
    mut cmd: clap::Command,
    registry: &Registry,
    verbs: &[Arc<Command>],
) -> clap::Command {
    for command in registry.commands.iter().chain(verbs.iter().map(|v| &**v)) {
        if !has_input_file(command) {
            continue;
        }
        cmd = crate::parse::clap_face::at_path(cmd, &command.argv_path(), &mut |sub| {
            if sub
                .get_arguments()
                .any(|a| a.get_long() == Some(INPUT_FILE_FLAG))
            {
                return sub;
            }
            sub.arg(
                Arg::new(INPUT_FILE_ID)
                    .long(INPUT_FILE_FLAG)
                    .value_name("PATH")
                    .action(ArgAction::Set)
                    .help("Read the input from this file instead of stdin (-: stdin)"),
            )
        });
    }
    cmd
}

/// The file `--input-file` names (`None` when absent or `-`).
pub(crate) fn given(leaf: &clap::ArgMatches) -> Option<PathBuf> {
    let value = leaf.try_get_one::<String>(INPUT_FILE_ID).ok().flatten()?;
    (value != "-").then(|| PathBuf::from(value))
}
