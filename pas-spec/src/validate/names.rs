//! Command names and the argv words that select commands: spelling, clashes, and words the
//! built CLI keeps for itself.
//!
//! A command is reached by a *route*: its argv path, or the path with the last word replaced by
//! one of its aliases (clap's alias semantics). Two routes must differ, and no route may be a
//! strict prefix of another command's route: clap cannot make `task` both a command that takes
//! arguments and a group with subcommands.

use std::collections::HashMap;

use super::casing::is_kebab;
use super::context::Context;
use super::report::{self, Pointer, Report};

pub fn check(context: &Context, report: &mut Report) {
    let commands = &context.registry.commands;
    let mut routes: Vec<(usize, Vec<String>, Pointer)> = Vec::with_capacity(commands.len());
    for (index, command) in commands.iter().enumerate() {
        let pointer = report::command(index);
        let name_ok = check_name(context, index, report);
        let path = &context.paths[index];
        if command.path.is_some() {
            for (position, word) in path.iter().enumerate() {
                check_word(word, &pointer.at("path").at(position), report);
            }
        }
        if path.is_empty() && commands.len() == 1 {
            check_root_positionals(context, index, report);
        }
        if path.is_empty() && commands.len() > 1 {
            report.error(
                "E035",
                &pointer.at("path"),
                format!("The command `{}` has an empty argv path, but the tool has other commands.", command.name),
                "An empty path makes a single-command tool; give this command a path, or make it the only command.",
            );
        } else if command.path.is_some() || name_ok {
            check_reserved(context, path, &context.path_pointer(index), report);
            routes.push((index, path.clone(), context.path_pointer(index)));
        }
        for (position, alias) in command.aliases.iter().enumerate() {
            let alias_pointer = pointer.at("aliases").at(position);
            check_word(alias, &alias_pointer, report);
            let Some((_, parent)) = path.split_last() else {
                report.error(
                    "E033",
                    &alias_pointer,
                    format!("The command `{}` has an empty argv path, so its alias `{alias}` selects nothing.", command.name),
                    "Remove the alias: a single-command tool runs its command without any word.",
                );
                continue;
            };
            let mut route = parent.to_vec();
            route.push(alias.clone());
            check_reserved(context, &route, &alias_pointer, report);
            routes.push((index, route, alias_pointer));
        }
    }
    check_routes(context, &routes, report);
}

/// Dotted `group.action`, each segment kebab-case; one command per name. Whether the name is
/// well formed and unique, so that a path derived from it is worth checking (else the same
/// mistake would be reported twice).
fn check_name(context: &Context, index: usize, report: &mut Report) -> bool {
    let name = context.registry.commands[index].name.as_str();
    let pointer = report::command(index).at("name");
    let well_formed = name.split('.').all(is_kebab);
    if !well_formed {
        report.error(
            "E030",
            &pointer,
            format!("The command name `{name}` is not a dotted kebab-case name."),
            "Write `group.action` with kebab-case segments (lowercase letters, digits, single hyphens), e.g. `task.create` or `report`.",
        );
    }
    let unique = context.by_name.get(name) == Some(&index);
    if !unique {
        report.error(
            "E031",
            &pointer,
            format!(
                "The command name `{name}` is already used by item {} of `commands`.",
                context.by_name[name]
            ),
            "Give each command its own dotted name.",
        );
    }
    well_formed && unique
}

fn check_word(word: &str, pointer: &Pointer, report: &mut Report) {
    if !is_kebab(word) {
        report.error(
            "E032",
            pointer,
            format!("The argv word `{word}` is not kebab-case."),
            "Use lowercase letters, digits and single hyphens, starting with a letter, e.g. `create` or `list-all`.",
        );
    }
}

/// A compose tool's built-ins (`tools`, `health`, `config show`) are subcommands: a one-command
/// compose tool that takes positionals at its root would read `tools` as a value, so its
/// built-ins would be unreachable. (The other profiles answer their built-in words before
/// parsing, so a value spelled like one is written `./tools` there.)
fn check_root_positionals(context: &Context, index: usize, report: &mut Report) {
    if context.profile() != crate::Profile::Compose {
        return;
    }
    let command = &context.registry.commands[index];
    let Some(position) = command
        .parameters
        .iter()
        .position(|p| p.kind != crate::ParamKind::Flag)
    else {
        return;
    };
    report.error(
        "E084",
        &report::command(index).at("parameters").at(position),
        format!(
            "The one-command compose tool takes the positional `{}` at its root, where the built-in words (`tools`, `health`, `config show`) would be read as its value.",
            command.parameters[position].name
        ),
        "Give the command a word (`path: [count]`) so the built-ins stay reachable, or make the parameter a flag (`kind: flag`).",
    );
}

/// `help` is clap's at every level of the tree; the other built-in words only at the top.
fn check_reserved(context: &Context, route: &[String], pointer: &Pointer, report: &mut Report) {
    for (position, word) in route.iter().enumerate() {
        let taken = match context.reserved_word(word) {
            Some(why) if position == 0 || word == "help" => why,
            _ => continue,
        };
        report.error(
            "E036",
            pointer,
            format!("The argv word `{word}` is taken by {taken}."),
            "Choose another word for this command (an explicit `path` keeps its dotted name).",
        );
    }
}

fn check_routes(context: &Context, routes: &[(usize, Vec<String>, Pointer)], report: &mut Report) {
    let mut owners: HashMap<&[String], usize> = HashMap::with_capacity(routes.len());
    let mut prefixes: HashMap<&[String], usize> = HashMap::new();
    for (index, route, _) in routes {
        for length in 1..route.len() {
            prefixes.entry(&route[..length]).or_insert(*index);
        }
    }
    for (index, route, pointer) in routes {
        let words = route.join(" ");
        match owners.get(route.as_slice()) {
            Some(owner) => report.error(
                "E033",
                pointer,
                if owner == index {
                    format!(
                        "`{words}` selects the command `{}` twice.",
                        context.registry.commands[*index].name
                    )
                } else {
                    format!(
                        "`{words}` already selects the command `{}` (/commands/{owner}).",
                        context.registry.commands[*owner].name
                    )
                },
                "Give each command its own argv path, and each alias its own word.",
            ),
            None => {
                owners.insert(route, *index);
            }
        }
        if let Some(&longer) = prefixes
            .get(route.as_slice())
            .filter(|&&other| other != *index)
        {
            report.error(
                "E034",
                pointer,
                format!(
                    "`{words}` selects the command `{}` but is also the start of `{}`'s path.",
                    context.registry.commands[*index].name,
                    context.paths[longer].join(" ")
                ),
                "A command cannot also be a group: move one of them, e.g. `task` to `task show`.",
            );
        }
    }
}
