//! What a command says about its own behaviour: paging, deprecation, dry runs, and the words
//! agents read (descriptions, anti-patterns).

use crate::{AntiPattern, Command, Effect, OutputKind, ParamType};

use super::casing::suggestion;
use super::context::Context;
use super::report::{self, Pointer, Report};

pub fn check(context: &Context, report: &mut Report) {
    check_anti_patterns(&context.registry.anti_patterns, &Pointer::root(), report);
    for (index, command) in context.registry.commands.iter().enumerate() {
        let pointer = report::command(index);
        if command.description.trim().is_empty() {
            report.warning(
                "W016",
                &pointer.at("description"),
                format!("The command `{}` has no description.", command.name),
                "Say in one or two sentences what the command does; agents pick commands by it.",
            );
        }
        if command.dry_run && command.effect == Effect::Read {
            report.warning(
                "W015",
                &pointer.at("dryRun"),
                format!(
                    "The read command `{}` offers `--dry-run`, but it changes nothing anyway.",
                    command.name
                ),
                "Remove `dryRun`, or set the command's `effect` to write or destructive.",
            );
        }
        check_paging(command, &pointer, report);
        check_deprecation(context, command, &pointer, report);
        check_anti_patterns(&command.anti_patterns, &pointer, report);
    }
}

/// The page size and cursor are parameters of the command, and only lists page.
fn check_paging(command: &Command, pointer: &Pointer, report: &mut Report) {
    let Some(paging) = &command.paging else {
        return;
    };
    let pointer = pointer.at("paging");
    if command.output != OutputKind::List {
        report.error(
            "E066",
            &pointer,
            format!(
                "The command `{}` pages, but its output is `{}`, not `list`.",
                command.name,
                command.output.as_str()
            ),
            "Set `output: list`, or remove `paging`.",
        );
    }
    let names = || command.parameters.iter().map(|p| p.name.as_str());
    for (field, name) in [("limit", &paging.limit), ("cursor", &paging.cursor)] {
        match command.parameters.iter().find(|p| &p.name == name) {
            None => report.error(
                "E065",
                &pointer.at(field),
                format!(
                    "paging.{field} names `{name}`, which is not a parameter of `{}`.",
                    command.name
                ),
                format!(
                    "Name one of the command's parameters, or add `{name}`.{}",
                    suggestion(name, names())
                ),
            ),
            Some(parameter) if field == "limit" && parameter.ty != ParamType::Integer => report
                .warning(
                    "W018",
                    &pointer.at(field),
                    format!(
                        "The page-size parameter `{name}` is of type `{}`, not integer.",
                        parameter.ty.as_str()
                    ),
                    format!("Set `type: integer` on `{name}`."),
                ),
            Some(_) => {}
        }
    }
    if paging.limit == paging.cursor {
        report.error(
            "E065",
            &pointer.at("cursor"),
            format!(
                "paging.limit and paging.cursor both name `{}`.",
                paging.cursor
            ),
            "Use two parameters: one for the page size, one for the cursor.",
        );
    }
}

fn check_deprecation(context: &Context, command: &Command, pointer: &Pointer, report: &mut Report) {
    let Some(replacement) = command
        .deprecated
        .as_ref()
        .and_then(|d| d.replacement.as_ref())
    else {
        return;
    };
    let pointer = pointer.at("deprecated").at("replacement");
    if replacement == &command.name {
        report.error(
            "E067",
            &pointer,
            format!(
                "The command `{}` names itself as its replacement.",
                command.name
            ),
            "Name the command callers should use instead, or remove `replacement`.",
        );
    } else if !context.by_name.contains_key(replacement.as_str())
        && context.reserved_word(replacement).is_none()
    {
        let names = context.registry.commands.iter().map(|c| c.name.as_str());
        report.error(
            "E067",
            &pointer,
            format!(
                "The replacement `{replacement}` of `{}` is not a command of this tool.",
                command.name
            ),
            format!(
                "Name an existing command by its dotted name.{}",
                suggestion(replacement, names)
            ),
        );
    }
}

fn check_anti_patterns(anti_patterns: &[AntiPattern], pointer: &Pointer, report: &mut Report) {
    for (index, anti_pattern) in anti_patterns.iter().enumerate() {
        let pointer = pointer.at("antiPatterns").at(index);
        for (field, text) in [
            ("pattern", &anti_pattern.pattern),
            ("instead", &anti_pattern.instead),
        ] {
            if text.trim().is_empty() {
                report.warning(
                    "W017",
                    &pointer.at(field),
                    format!("An anti-pattern has an empty `{field}`."),
                    "Write the mistake in `pattern` and what to do instead in `instead`, or remove the entry.",
                );
            }
        }
    }
}
