//! What a key stands for: the whole effective input of a call, hashed.
//!
//! Two calls with one key are "the same call" only when the handler would see the same thing:
//! the command, the value of every argument as clap resolved it (given as a flag, from the
//! environment, from the configuration file or by default: `--db`, `TODO_DB` and the db of a
//! config file all end up as the one value of `db`), stdin (or the MCP `input` argument), the
//! working directory (a relative path names another file elsewhere) and the tool's data
//! directory (where a tool keeps its store when no argument names one). The runtime's own
//! switches (`pas_*` ids: `--agent`, `--format`, `--fields`, `--idempotency-key` itself, ...)
//! change the form of a call, never its meaning, so they are left out: a repeat in machine mode
//! replays a first call made by a person.

use std::ffi::OsStr;
use std::path::Path;

use sha2::{Digest, Sha256};

/// The effective input of one call, as the record keeps it (SHA-256, hex).
pub(crate) struct Input<'a> {
    /// The command's name (`task.create`).
    pub(crate) command: &'a str,
    /// The matches of the whole call, from the tool's root down to the command.
    pub(crate) matches: &'a clap::ArgMatches,
    /// What the handler reads as stdin, when the command reads it.
    pub(crate) stdin: Option<&'a [u8]>,
    /// The working directory the call runs in.
    pub(crate) cwd: Option<&'a Path>,
    /// The tool's data directory (`$XDG_DATA_HOME/<tool>`).
    pub(crate) data: Option<&'a Path>,
}

impl Input<'_> {
    /// The hash of everything above, each part tagged and length-prefixed so that no two
    /// different inputs run together into the same bytes.
    pub(crate) fn hash(&self) -> String {
        let mut hasher = Sha256::new();
        part(&mut hasher, b'c', self.command.as_bytes());
        let mut level = Some(self.matches);
        while let Some(matches) = level {
            arguments(&mut hasher, matches);
            level = matches.subcommand().map(|(name, sub)| {
                part(&mut hasher, b's', name.as_bytes());
                sub
            });
        }
        if let Some(stdin) = self.stdin {
            part(&mut hasher, b'i', stdin);
        }
        if let Some(cwd) = self.cwd {
            part(&mut hasher, b'w', cwd.as_os_str().as_encoded_bytes());
        }
        if let Some(data) = self.data {
            part(&mut hasher, b'd', data.as_os_str().as_encoded_bytes());
        }
        super::hex(&hasher.finalize())
    }
}

/// Every argument of one level with its values, by id (clap's order is not the argv order,
/// and the order flags were given in changes nothing).
fn arguments(hasher: &mut Sha256, matches: &clap::ArgMatches) {
    let mut ids: Vec<&str> = matches
        .ids()
        .map(|id| id.as_str())
        .filter(|id| !id.starts_with("pas_"))
        .collect();
    ids.sort_unstable();
    for id in ids {
        let Ok(Some(values)) = matches.try_get_raw(id) else {
            // A group id, or an argument without a value.
            continue;
        };
        part(hasher, b'a', id.as_bytes());
        for value in values {
            part(hasher, b'v', OsStr::as_encoded_bytes(value));
        }
    }
}

fn part(hasher: &mut Sha256, tag: u8, bytes: &[u8]) {
    hasher.update([tag]);
    hasher.update((bytes.len() as u64).to_le_bytes());
    hasher.update(bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parser() -> clap::Command {
        clap::Command::new("todo")
            .arg(
                clap::Arg::new("db")
                    .long("db")
                    .global(true)
                    .env("IDENTITY_TEST_DB")
                    .default_value("/default.db"),
            )
            .arg(clap::Arg::new("pas_format").long("format").global(true))
            .subcommand(
                clap::Command::new("add")
                    .arg(clap::Arg::new("title"))
                    .arg(
                        clap::Arg::new("tag")
                            .long("tag")
                            .action(clap::ArgAction::Append),
                    )
                    .arg(
                        clap::Arg::new(crate::services::idempotency::KEY_ID)
                            .long("idempotency-key"),
                    ),
            )
    }

    fn hash(args: &[&str], stdin: Option<&[u8]>) -> String {
        let matches = parser().try_get_matches_from(args).unwrap();
        Input {
            command: "add",
            matches: &matches,
            stdin,
            cwd: Some(Path::new("/here")),
            data: Some(Path::new("/data/todo")),
        }
        .hash()
    }

    #[test]
    fn the_key_and_the_runtime_switches_are_form_not_input() {
        let plain = hash(&["todo", "add", "milk"], None);
        assert_eq!(
            plain,
            hash(&["todo", "add", "milk", "--idempotency-key", "k"], None)
        );
        assert_eq!(
            plain,
            hash(&["todo", "--format", "ndjson", "add", "milk"], None)
        );
        // The default is a value like any other: naming it changes nothing.
        assert_eq!(
            plain,
            hash(&["todo", "--db", "/default.db", "add", "milk"], None)
        );
    }

    #[test]
    fn every_value_the_handler_sees_is_input() {
        let plain = hash(&["todo", "add", "milk"], None);
        for other in [
            hash(&["todo", "add", "eggs"], None),
            hash(&["todo", "--db", "/b.db", "add", "milk"], None),
            hash(&["todo", "add", "milk", "--tag", "x"], None),
            hash(&["todo", "add", "milk"], Some(b"{}")),
            hash(&["todo", "add"], None),
        ] {
            assert_ne!(plain, other);
        }
        // Repeated values keep their order and their boundaries.
        assert_ne!(
            hash(&["todo", "add", "--tag", "a", "--tag", "bc"], None),
            hash(&["todo", "add", "--tag", "ab", "--tag", "c"], None)
        );
    }

    #[test]
    fn the_working_and_data_directories_are_input() {
        let matches = parser()
            .try_get_matches_from(["todo", "add", "milk"])
            .unwrap();
        let at = |cwd: &str, data: &str| {
            Input {
                command: "add",
                matches: &matches,
                stdin: None,
                cwd: Some(Path::new(cwd)),
                data: Some(Path::new(data)),
            }
            .hash()
        };
        assert_ne!(at("/a", "/d"), at("/b", "/d"));
        assert_ne!(at("/a", "/d"), at("/a", "/e"));
        assert_eq!(at("/a", "/d"), at("/a", "/d"));
    }
}
