//! Which command argv names: from clap's matches after a parse, or by walking argv over clap's
//! command tree when `--agent --help` must be answered without a full parse (required
//! arguments may be missing; help must still work).

use std::ffi::OsString;

use clap::ArgMatches;

/// The subcommand words clap matched, and the innermost matches.
pub(crate) fn matched(matches: &ArgMatches) -> (Vec<String>, &ArgMatches) {
    let mut path = Vec::new();
    let mut current = matches;
    while let Some((name, sub)) = current.subcommand() {
        path.push(name.to_owned());
        current = sub;
    }
    (path, current)
}

/// The command path argv points at, for help: subcommand words (aliases resolved) in order,
/// skipping flags and their values, ignoring positionals and clap's `help` word.
pub(crate) fn help_path(root: &clap::Command, argv: &[OsString]) -> Vec<String> {
    // A single-command tool has no path to find: skip the copy and build of the whole command.
    if !root.has_subcommands() {
        return Vec::new();
    }
    let mut root = root.clone();
    root.build();
    let mut current = &root;
    let mut path = Vec::new();
    let mut words = argv
        .iter()
        .skip(1)
        .map(|w| w.to_string_lossy().into_owned());
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        if let Some(long) = word.strip_prefix("--") {
            let takes = !long.contains('=')
                && current.get_arguments().any(|a| {
                    a.get_long_and_visible_aliases()
                        .is_some_and(|names| names.contains(&long))
                        && a.get_action().takes_values()
                });
            if takes {
                words.next();
            }
        } else if let Some(shorts) = word.strip_prefix('-').filter(|s| !s.is_empty()) {
            // In a cluster (`-vn 5`), the first short that takes a value takes the rest of the
            // word, or the next word when it is last.
            let chars: Vec<char> = shorts.chars().collect();
            for (i, c) in chars.iter().enumerate() {
                let takes = current.get_arguments().any(|a| {
                    a.get_short_and_visible_aliases()
                        .is_some_and(|s| s.contains(c))
                        && a.get_action().takes_values()
                });
                if takes {
                    if i + 1 == chars.len() {
                        words.next();
                    }
                    break;
                }
            }
        } else if word == "help" && current.has_subcommands() {
            // clap's `help <command>`: the words after it are the path.
        } else if let Some(sub) = current.find_subcommand(&word) {
            path.push(sub.get_name().to_owned());
            current = sub;
        }
    }
    path
}
