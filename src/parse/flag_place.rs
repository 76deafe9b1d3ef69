//! A command's own flag written before its subcommand word (`todo --force task delete 3`, as
//! `--agent` may be): clap refuses it at the level where it stands, which does not have it. When
//! exactly one place can be meant (a later subcommand word of the same call names a command that
//! has the flag, and the flag takes no separate value), the call is read with the flag moved
//! right after that word; nothing else about the call changes. Looked at only after clap refused
//! the call, so calls that parse never pay for it.

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// argv with the refused flag moved after the subcommand word that has it, or `None` when the
/// error is not an unknown flag or no single place is meant.
pub(crate) fn moved(
    cmd: &clap::Command,
    argv: &[OsString],
    err: &clap::Error,
) -> Option<Vec<OsString>> {
    if err.kind() != ErrorKind::UnknownArgument || !cmd.has_subcommands() {
        return None;
    }
    let refused = match err.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => arg.clone(),
        _ => return None,
    };
    // clap names the flag without its `=value`; argv has the word as written.
    let name = refused.strip_prefix("--")?.to_owned();
    let written = |w: &OsString| {
        let w = w.to_string_lossy();
        w == refused
            || w.strip_prefix(refused.as_str())
                .is_some_and(|v| v.starts_with('='))
    };
    let at = argv.iter().take_while(|w| *w != "--").position(written)?;
    let inline_value = argv[at].to_string_lossy().contains('=');
    let mut root = cmd.clone();
    root.build();
    let mut current = &root;
    let mut words = argv.iter().enumerate().skip(1);
    while let Some((index, word)) = words.next() {
        let text = word.to_string_lossy();
        if text == "--" {
            return None;
        }
        if index == at {
            continue;
        }
        if let Some(long) = text.strip_prefix("--") {
            if !long.contains('=') && takes_value(current, |a| long_is(a, long)) {
                words.next();
            }
        } else if let Some(shorts) = text.strip_prefix('-').filter(|s| !s.is_empty()) {
            let chars: Vec<char> = shorts.chars().collect();
            for (i, c) in chars.iter().enumerate() {
                let short = |a: &clap::Arg| {
                    a.get_short_and_visible_aliases()
                        .is_some_and(|s| s.contains(c))
                };
                if takes_value(current, short) {
                    if i + 1 == chars.len() {
                        words.next();
                    }
                    break;
                }
            }
        } else if let Some(sub) = current.find_subcommand(text.as_ref()) {
            current = sub;
            if index < at {
                continue;
            }
            let Some(arg) = sub.get_arguments().find(|a| long_is(a, &name)) else {
                continue;
            };
            // A flag with a separate value (`--limit 5`) leaves its value where it stood: moving
            // the flag alone would change what the value means.
            if arg.get_action().takes_values() && !inline_value {
                return None;
            }
            let mut placed: Vec<OsString> = argv.to_vec();
            let flag = placed.remove(at);
            placed.insert(index, flag);
            return Some(placed);
        }
    }
    None
}

fn long_is(arg: &clap::Arg, long: &str) -> bool {
    arg.get_long_and_visible_aliases()
        .is_some_and(|names| names.contains(&long))
}

fn takes_value(cmd: &clap::Command, which: impl Fn(&clap::Arg) -> bool) -> bool {
    cmd.get_arguments()
        .any(|a| which(a) && a.get_action().takes_values())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Arg, ArgAction, Command};

    fn tool() -> Command {
        Command::new("t")
            .subcommand_required(true)
            .arg(Arg::new("db").long("db").global(true))
            .subcommand(
                Command::new("task")
                    .subcommand(
                        Command::new("delete")
                            .arg(Arg::new("id").required(true))
                            .arg(Arg::new("force").long("force").action(ArgAction::SetTrue))
                            .arg(Arg::new("limit").long("limit")),
                    )
                    .subcommand(Command::new("list")),
            )
    }

    fn placed(words: &[&str]) -> Option<Vec<String>> {
        let argv: Vec<OsString> = words.iter().map(OsString::from).collect();
        let err = tool().try_get_matches_from(&argv).unwrap_err();
        moved(&tool(), &argv, &err).map(|v| {
            v.into_iter()
                .map(|w| w.into_string().unwrap())
                .collect::<Vec<_>>()
        })
    }

    #[test]
    fn a_switch_before_its_subcommand_moves_after_it() {
        assert_eq!(
            placed(&["t", "--force", "task", "delete", "3"]).unwrap(),
            ["t", "task", "delete", "--force", "3"]
        );
        assert_eq!(
            placed(&["t", "task", "--force", "--db", "x", "delete", "3"]).unwrap(),
            ["t", "task", "--db", "x", "delete", "--force", "3"]
        );
        assert_eq!(
            placed(&["t", "--limit=2", "task", "delete", "3"]).unwrap(),
            ["t", "task", "delete", "--limit=2", "3"]
        );
        let argv: Vec<OsString> = ["t", "task", "delete", "--force", "3"]
            .iter()
            .map(OsString::from)
            .collect();
        assert!(tool().try_get_matches_from(argv).is_ok());
    }

    #[test]
    fn nothing_moves_where_the_meaning_is_in_doubt() {
        // Its value stays where it stood: not moved.
        assert_eq!(placed(&["t", "--limit", "2", "task", "delete", "3"]), None);
        // No later command has it.
        assert_eq!(placed(&["t", "--force", "task", "list"]), None);
        assert_eq!(placed(&["t", "--nope", "task", "delete", "3"]), None);
        // After `--` it is data.
        assert_eq!(placed(&["t", "task", "delete", "3", "--", "--force"]), None);
    }
}
