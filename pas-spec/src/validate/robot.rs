//! The robot contract's keys: exit-code roles, sessions, gates, and the per-command keys
//! (`session`, `confirm`, `listField`, `compactOmit`), plus flag aliases.

use std::collections::HashMap;

use crate::robot::ExitRole;
use crate::{Profile, Registry};

use super::casing::{is_kebab, is_snake_identifier};
use super::context::Context;
use super::report::{self, Pointer, Report};

pub fn check(context: &Context, report: &mut Report) {
    let registry = context.registry;
    if registry.profile == Profile::Robot {
        roles(registry, report);
        if let Some(robot) = &registry.robot {
            if let Some(sessions) = &robot.sessions {
                sessions_block(sessions, report);
            }
            gates(&robot.gates, report);
        }
    } else {
        outside_robot(registry, report);
    }
    commands(registry, report);
    aliases(registry, report);
}

/// Each role once; and a role the spec leaves to its fallback must not land on a success code.
fn roles(registry: &Registry, report: &mut Report) {
    let mut seen: HashMap<ExitRole, usize> = HashMap::new();
    for (index, code) in registry.exit_codes.iter().enumerate() {
        let Some(role) = code.role else { continue };
        let pointer = Pointer::root().at("exitCodes").at(index).at("role");
        if let Some(first) = seen.get(&role) {
            report.error(
                "E078",
                &pointer,
                format!(
                    "The role `{}` is already given to /exitCodes/{first}.",
                    role.as_str()
                ),
                "Give each role to one exit code.",
            );
        } else {
            seen.insert(role, index);
        }
        if code.success {
            report.error(
                "E078",
                &pointer,
                format!(
                    "`{}` is a success code and cannot have the error role `{}`.",
                    code.name,
                    role.as_str()
                ),
                "Give the role to an error code.",
            );
        }
    }
    for role in [
        ExitRole::Arguments,
        ExitRole::Internal,
        ExitRole::Interrupted,
    ] {
        if seen.contains_key(&role) {
            continue;
        }
        let (name, number) = role.fallback();
        if let Some(index) = registry
            .exit_codes
            .iter()
            .position(|c| c.success && c.code == number)
        {
            report.error(
                "E079",
                &Pointer::root().at("exitCodes").at(index),
                format!(
                    "No exit code has the role `{}`, and its fallback exit {number} ({name}) is the success code `{}`.",
                    role.as_str(),
                    registry.exit_codes[index].name
                ),
                format!(
                    "Add `role: {}` to the exit code the runtime should use (e.g. `{name}`).",
                    role.as_str()
                ),
            );
        }
    }
}

fn sessions_block(sessions: &crate::robot::Sessions, report: &mut Report) {
    let at = Pointer::root().at("robot").at("sessions");
    if !is_kebab(&sessions.prefix) {
        report.error(
            "E080",
            &at.at("prefix"),
            format!(
                "The session prefix `{}` is not kebab-case.",
                sessions.prefix
            ),
            "Use lowercase letters, digits and single hyphens, e.g. `pt`.",
        );
    }
    if sessions.states.is_empty() {
        report.error(
            "E080",
            &at.at("states"),
            "The sessions declare no states.",
            "List the states, the first being the one a new session starts in.",
        );
    }
    let mut names: HashMap<&str, usize> = HashMap::new();
    for (index, state) in sessions.states.iter().enumerate() {
        let pointer = at.at("states").at(index).at("name");
        if !is_snake_identifier(&state.name) {
            report.error(
                "E080",
                &pointer,
                format!("The session state `{}` is not snake_case.", state.name),
                "Use lowercase letters, digits and underscores, e.g. `awaiting_confirmation`.",
            );
        }
        if let Some(first) = names.insert(&state.name, index) {
            report.error(
                "E080",
                &pointer,
                format!(
                    "The session state `{}` is already declared at /robot/sessions/states/{first}.",
                    state.name
                ),
                "Declare each state once.",
            );
        }
    }
    for (index, state) in sessions.states.iter().enumerate() {
        for (position, next) in state.next.iter().enumerate() {
            if !names.contains_key(next.as_str()) {
                report.error(
                    "E080",
                    &at.at("states").at(index).at("next").at(position),
                    format!(
                        "The state `{}` moves to `{next}`, which is not declared.",
                        state.name
                    ),
                    "Name a declared state.",
                );
            }
        }
    }
    for (key, name) in [
        ("interrupted", &sessions.interrupted),
        ("expired", &sessions.expired),
    ] {
        match sessions.state(name) {
            None => report.error(
                "E080",
                &at.at(key),
                format!("The {key} state `{name}` is not declared."),
                format!("Declare a state `{name}`, or set `{key}` to a declared state."),
            ),
            Some(state) if key == "interrupted" && !state.resumable => report.error(
                "E080",
                &at.at(key),
                format!("The interrupted state `{name}` is not resumable."),
                "Mark it `resumable: true`: an interrupted session must be resumable.",
            ),
            Some(_) => {}
        }
    }
}

fn gates(gates: &[crate::robot::Gate], report: &mut Report) {
    let mut names: HashMap<&str, usize> = HashMap::new();
    for (index, gate) in gates.iter().enumerate() {
        let pointer = Pointer::root().at("robot").at("gates").at(index).at("name");
        if !is_snake_identifier(&gate.name) || gate.name == "all_gates_passed" {
            report.error(
                "E081",
                &pointer,
                format!("The gate name `{}` is not a snake_case name of its own.", gate.name),
                "Use lowercase letters, digits and underscores; `all_gates_passed` is the runtime's.",
            );
        }
        if let Some(first) = names.insert(&gate.name, index) {
            report.error(
                "E081",
                &pointer,
                format!(
                    "The gate `{}` is already declared at /robot/gates/{first}.",
                    gate.name
                ),
                "Declare each gate once.",
            );
        }
    }
}

fn commands(registry: &Registry, report: &mut Report) {
    let has_sessions = registry.sessions().is_some();
    for (index, command) in registry.commands.iter().enumerate() {
        if command.session.is_some() && !has_sessions && registry.profile == Profile::Robot {
            report.error(
                "E082",
                &report::command(index).at("session"),
                format!(
                    "The command `{}` takes part in a session, but the spec declares no sessions.",
                    command.name
                ),
                "Declare `robot.sessions` (prefix and states), or remove `session`.",
            );
        }
    }
}

/// Robot keys in another profile change nothing: say so.
fn outside_robot(registry: &Registry, report: &mut Report) {
    let profile = registry.profile.as_str();
    let warn = |report: &mut Report, pointer: &Pointer, key: &str| {
        report.warning(
            "W019",
            pointer,
            format!("`{key}` is only used by the robot profile, and this tool uses `{profile}`."),
            format!("Remove `{key}`, or set `profile: robot`."),
        );
    };
    if registry.robot.is_some() {
        warn(report, &Pointer::root().at("robot"), "robot");
    }
    for (index, code) in registry.exit_codes.iter().enumerate() {
        if code.role.is_some() {
            warn(
                report,
                &Pointer::root().at("exitCodes").at(index).at("role"),
                "role",
            );
        }
    }
    for (index, command) in registry.commands.iter().enumerate() {
        let at = report::command(index);
        if command.session.is_some() {
            warn(report, &at.at("session"), "session");
        }
        if command.confirm {
            warn(report, &at.at("confirm"), "confirm");
        }
        if command.list_field.is_some() {
            warn(report, &at.at("listField"), "listField");
        }
        if !command.compact_omit.is_empty() {
            warn(report, &at.at("compactOmit"), "compactOmit");
        }
    }
}

/// Flag aliases are kebab-case long names no other flag of the command uses.
fn aliases(registry: &Registry, report: &mut Report) {
    for (index, command) in registry.commands.iter().enumerate() {
        let mut longs: HashMap<&str, usize> = command
            .parameters
            .iter()
            .chain(&registry.global_flags)
            .enumerate()
            .map(|(i, p)| (p.name.as_str(), i))
            .collect();
        for (position, parameter) in command.parameters.iter().enumerate() {
            let at = report::command(index).at("parameters").at(position);
            let all = parameter.aliases.iter().map(|a| ("aliases", a)).chain(
                parameter
                    .deprecated_aliases
                    .iter()
                    .map(|a| ("deprecatedAliases", a)),
            );
            for (offset, (key, alias)) in all.enumerate() {
                let count = if key == "aliases" {
                    offset
                } else {
                    offset - parameter.aliases.len()
                };
                let pointer = at.at(key).at(count);
                if !is_kebab(alias) {
                    report.error(
                        "E083",
                        &pointer,
                        format!("The flag alias `{alias}` is not kebab-case."),
                        "Write the long name without `--`, e.g. `min-posterior`.",
                    );
                } else if longs.insert(alias, position).is_some() {
                    report.error(
                        "E083",
                        &pointer,
                        format!(
                            "The flag alias `--{alias}` of `{}` is already a flag or alias of the command.",
                            command.name
                        ),
                        "Give each flag and alias its own long name.",
                    );
                }
            }
        }
    }
}
