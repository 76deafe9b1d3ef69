//! The tool's exit codes (names, numbers, the profile's ranges) and the `errors` commands name.
//!
//! PAS fixes 0 (success), 1 (general error) and 2 (invalid arguments), keeps 64-78 for sysexits
//! and gives tools 100-125; compose exits 0, 1 or 2 and keeps the same table for its codes. Robot
//! tools own the whole 0-255 range, success codes included.

use std::collections::HashMap;

use crate::{ExitCode, Profile};

use super::casing::{is_upper_snake, suggestion};
use super::context::Context;
use super::report::{self, Pointer, Report};

pub fn check(context: &Context, report: &mut Report) {
    let mut names: HashMap<&str, usize> = HashMap::new();
    let mut codes: HashMap<u16, usize> = HashMap::new();
    for (index, exit_code) in context.registry.exit_codes.iter().enumerate() {
        let pointer = Pointer::root().at("exitCodes").at(index);
        check_name(context, exit_code, &pointer, index, &mut names, report);
        check_code(context, exit_code, &pointer, index, &mut codes, report);
        check_flags(context, exit_code, &pointer, report);
    }
    check_errors(context, &names, report);
}

fn check_name<'a>(
    context: &Context,
    exit_code: &'a ExitCode,
    pointer: &Pointer,
    index: usize,
    names: &mut HashMap<&'a str, usize>,
    report: &mut Report,
) {
    let name = exit_code.name.as_str();
    let pointer = pointer.at("name");
    if !is_upper_snake(name) {
        report.error(
            "E022",
            &pointer,
            format!("The exit code name `{name}` is not UPPER_SNAKE_CASE."),
            "Use uppercase letters, digits and single underscores, e.g. `FILE_NOT_FOUND`; agents match on it.",
        );
    }
    if let Some((_, code)) = context
        .implicit_exit_codes()
        .iter()
        .find(|(n, _)| *n == name)
    {
        report.error(
            "E023",
            &pointer,
            format!(
                "`{name}` is the implicit exit code {code} of the {} profile.",
                context.profile().as_str()
            ),
            "Give the tool's own code another name; commands may list the implicit one in `errors` without declaring it.",
        );
    } else if context.profile() != Profile::Robot && crate::runtime_codes::owned_by_runtime(name) {
        // robot 11 reports a runtime error under its role's constant and the spec's table wins
        // for every name, so only pas and compose would print one meaning and run another.
        report.error(
            "E095",
            &pointer,
            format!("`{name}` is an error constant the runtime raises itself, with its own meaning{}.", match crate::builtin_codes::builtin(name) {
                Some(builtin) if context.profile() == Profile::Pas => format!(" and exit code {}", builtin.exit),
                _ => String::new(),
            }),
            format!(
                "Give the tool's own failure a name of its own, e.g. `{}`, and use it in the commands' `errors`; the runtime raises and documents `{name}` by itself.",
                own_name(name)
            ),
        );
        // Declared all the same: the commands that name it are not wrong a second time.
        names.entry(name).or_insert(index);
    } else if let Some(first) = names.get(name) {
        report.error(
            "E023",
            &pointer,
            format!(
                "The exit code name `{name}` is already used by exit code {} (item {first} of `exitCodes`).",
                context.registry.exit_codes[*first].code
            ),
            "Give each exit code its own name.",
        );
    } else {
        names.insert(name, index);
    }
}

fn check_code(
    context: &Context,
    exit_code: &ExitCode,
    pointer: &Pointer,
    index: usize,
    codes: &mut HashMap<u16, usize>,
    report: &mut Report,
) {
    let code = exit_code.code;
    let pointer = pointer.at("code");
    if code > 255 {
        report.error(
            "E025",
            &pointer,
            format!("The exit code {code} does not fit in a process exit status (0-255)."),
            tool_range_hint(context.profile()),
        );
        return;
    }
    if let Some(first) = codes.get(&code) {
        report.error(
            "E024",
            &pointer,
            format!(
                "The exit code {code} is already used by `{}`.",
                context.registry.exit_codes[*first].name
            ),
            "Give each exit code its own number, so agents can tell the failures apart.",
        );
    } else {
        codes.insert(code, index);
    }
    if context.profile() == Profile::Robot {
        return;
    }
    if context.profile() == Profile::Pas
        && let Some(runtime) = crate::runtime_codes::runtime_exit_in_tool_range(code)
    {
        report.error(
            "E096",
            &pointer,
            format!("Exit code {code} is the runtime's `{runtime}` in the pas profile."),
            "Pick another number from 100 to 125, so an agent can tell the tool's failure from the runtime's.",
        );
    }
    let profile = context.profile().as_str();
    if code <= 2 {
        report.error(
            "E026",
            &pointer,
            format!("Exit code {code} is built into the {profile} profile and cannot be declared."),
            "Remove it: 0 is success, 1 GENERAL_ERROR and 2 INVALID_ARGUMENT, and `errors` may name those without declaring them.",
        );
    } else if (64..=78).contains(&code) {
        report.error(
            "E027",
            &pointer,
            format!("Exit code {code} is in the range 64-78 that PAS reserves for sysexits."),
            tool_range_hint(context.profile()),
        );
    } else if !(100..=125).contains(&code) {
        report.error(
            "E028",
            &pointer,
            format!(
                "Exit code {code} is outside the range 100-125 the {profile} profile gives tools."
            ),
            tool_range_hint(context.profile()),
        );
    }
}

/// A name for a tool's own code beside the runtime's: `TIMEOUT` -> `UPSTREAM_TIMEOUT`.
fn own_name(name: &str) -> String {
    format!("UPSTREAM_{name}")
}

fn tool_range_hint(profile: Profile) -> &'static str {
    match profile {
        Profile::Robot => "Pick a number from 0 to 255.",
        Profile::Pas | Profile::Compose => {
            "Pick a number from 100 to 125 for the tool's own errors."
        }
    }
}

/// `blocking` means something in compose only, `success` in robot only.
fn check_flags(context: &Context, exit_code: &ExitCode, pointer: &Pointer, report: &mut Report) {
    let profile = context.profile();
    if exit_code.blocking && profile != Profile::Compose {
        report.warning(
            "W003",
            &pointer.at("blocking"),
            format!(
                "`blocking` only changes the exit status in the compose profile, not in {}.",
                profile.as_str()
            ),
            "Remove `blocking`, or set `profile: compose`.",
        );
    }
    if exit_code.success && profile != Profile::Robot {
        report.warning(
            "W004",
            &pointer.at("success"),
            format!(
                "`success` only marks a success code in the robot profile, not in {}.",
                profile.as_str()
            ),
            "Remove `success`, or set `profile: robot`.",
        );
    }
    if exit_code.meaning.trim().is_empty() {
        report.warning(
            "W005",
            &pointer.at("meaning"),
            format!("The exit code `{}` has no meaning.", exit_code.name),
            "Say in a few words what the code means; it is printed in agent help.",
        );
    }
}

/// Each command's `errors` must name a declared (or implicit) exit code, each once.
fn check_errors(context: &Context, declared: &HashMap<&str, usize>, report: &mut Report) {
    let implicit = context.implicit_exit_codes();
    let known = || {
        declared
            .keys()
            .copied()
            .chain(implicit.iter().map(|(name, _)| *name))
    };
    for (index, command) in context.registry.commands.iter().enumerate() {
        for (position, name) in command.errors.iter().enumerate() {
            let pointer = report::command(index).at("errors").at(position);
            let name = name.as_str();
            if !declared.contains_key(name)
                && !implicit.iter().any(|(n, _)| *n == name)
                && !crate::declare::declared_code_in(context.registry, name)
            {
                report.error(
                    "E029",
                    &pointer,
                    format!(
                        "The command `{}` names the exit code `{name}`, which is not declared.",
                        command.name
                    ),
                    format!(
                        "Declare `{name}` under `exitCodes`, or name one that is.{}",
                        suggestion(name, known())
                    ),
                );
            } else if command.errors[..position]
                .iter()
                .any(|earlier| earlier == name)
            {
                report.warning(
                    "W006",
                    &pointer,
                    format!(
                        "The command `{}` lists the exit code `{name}` twice.",
                        command.name
                    ),
                    "List each exit code once.",
                );
            }
        }
    }
}
