//! The declarations the runtime enforces (see [`crate::declare`]): parameter constraints and
//! relations, requirements, credentials, side effects and untrusted fields must make sense
//! before a CLI is built from them.

use serde_json::Value;

use crate::declare::{self, RequirementKind};
use crate::{Command, OutputKind, ParamType, Parameter};

use super::casing::{is_env_name, is_kebab};
use super::context::Context;
use super::report::{self, Pointer, Report};

pub fn check(context: &Context, report: &mut Report) {
    let registry = context.registry;
    let globals = Pointer::root().at("globalFlags");
    let global_params: Vec<&Parameter> = registry.global_flags.iter().collect();
    for (index, parameter) in registry.global_flags.iter().enumerate() {
        check_parameter(parameter, &global_params, &globals.at(index), report);
    }
    check_requirements(context, report);
    check_auth(context, report);
    for (index, command) in registry.commands.iter().enumerate() {
        let pointer = report::command(index);
        let all: Vec<&Parameter> = command
            .parameters
            .iter()
            .chain(&registry.global_flags)
            .collect();
        for (position, parameter) in command.parameters.iter().enumerate() {
            let at = pointer.at("parameters").at(position);
            check_parameter(parameter, &all, &at, report);
        }
        check_command(context, command, &pointer, report);
    }
}

fn check_parameter(parameter: &Parameter, all: &[&Parameter], at: &Pointer, report: &mut Report) {
    let name = &parameter.name;
    let element = parameter.element_type();
    let numeric = matches!(element, ParamType::Integer | ParamType::Number);
    for (key, present) in [
        ("minimum", parameter.minimum.is_some()),
        ("maximum", parameter.maximum.is_some()),
    ] {
        if present && !numeric {
            report.error(
                "E085",
                &at.at(key),
                format!(
                    "The parameter `{name}` has `{key}`, but its values are {}s, not numbers.",
                    element.as_str()
                ),
                "Give `type: integer` or `type: number`, or use minLength/maxLength/pattern for text.",
            );
        }
    }
    for (key, present) in [
        ("minLength", parameter.min_length.is_some()),
        ("maxLength", parameter.max_length.is_some()),
        ("pattern", parameter.pattern.is_some()),
    ] {
        if present && element != ParamType::String {
            report.error(
                "E085",
                &at.at(key),
                format!(
                    "The parameter `{name}` has `{key}`, but its values are {}s, not text.",
                    element.as_str()
                ),
                "Use minimum/maximum for numbers, or remove the key.",
            );
        }
    }
    if let (Some(min), Some(max)) = (&parameter.minimum, &parameter.maximum)
        && min.as_f64() > max.as_f64()
    {
        report.error(
            "E086",
            &at.at("minimum"),
            format!("The parameter `{name}` has minimum {min} above its maximum {max}: no value is allowed."),
            "Swap the two limits, or correct one of them.",
        );
    }
    if let (Some(min), Some(max)) = (parameter.min_length, parameter.max_length)
        && min > max
    {
        report.error(
            "E086",
            &at.at("minLength"),
            format!("The parameter `{name}` has minLength {min} above its maxLength {max}: no value is allowed."),
            "Swap the two limits, or correct one of them.",
        );
    }
    let mut pattern_ok = true;
    if let Some(pattern) = &parameter.pattern
        && let Err(err) = regex_lite::Regex::new(pattern)
    {
        pattern_ok = false;
        report.error(
            "E087",
            &at.at("pattern"),
            format!(
                "The pattern of `{name}` is not a valid regular expression ({}).",
                err.to_string().lines().next().unwrap_or_default()
            ),
            "Write the pattern in the syntax of the Rust regex crates (no look-around or back-references).",
        );
    }
    if let Some(default) = &parameter.default
        && pattern_ok
    {
        let values: Vec<String> = match default {
            Value::Array(items) => items.iter().map(plain).collect(),
            other => vec![plain(other)],
        };
        let matcher = |pattern: &str, value: &str| {
            regex_lite::Regex::new(pattern).is_ok_and(|re| re.is_match(value))
        };
        for value in values {
            for violation in declare::check_value(parameter, &value, &matcher) {
                report.error(
                    "E088",
                    &at.at("default"),
                    format!(
                        "The default of `{name}` breaks its own constraint: {}.",
                        violation.message
                    ),
                    "Change the default, or the constraint, so the default is allowed.",
                );
            }
        }
    }
    for (key, names) in [
        ("requires", &parameter.requires),
        ("conflicts", &parameter.conflicts),
    ] {
        let verb = if key == "requires" {
            "requires"
        } else {
            "conflicts with"
        };
        for (position, other) in names.iter().enumerate() {
            let pointer = at.at(key).at(position);
            if other == name {
                report.error(
                    "E089",
                    &pointer,
                    format!("The parameter `{name}` {verb} itself."),
                    "Name another parameter of the command.",
                );
            } else if !all.iter().any(|p| &p.name == other) {
                report.error(
                    "E089",
                    &pointer,
                    format!("The parameter `{name}` {verb} `{other}`, which the command does not have."),
                    "Name a parameter of the same command (or a global flag), as written under `name`.",
                );
            } else if key == "conflicts" && parameter.requires.contains(other) {
                report.error(
                    "E089",
                    &pointer,
                    format!("The parameter `{name}` both requires and conflicts with `{other}`: it can never be given."),
                    "Keep one of the two relations.",
                );
            }
        }
    }
}

/// A default as it would be typed on the command line.
fn plain(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn check_requirements(context: &Context, report: &mut Report) {
    let requirements = &context.registry.requirements;
    for (index, requirement) in requirements.iter().enumerate() {
        let at = Pointer::root().at("requirements").at(index);
        if !is_kebab(&requirement.name) {
            report.error(
                "E090",
                &at.at("name"),
                format!(
                    "The requirement name `{}` is not kebab-case.",
                    requirement.name
                ),
                "Use lowercase words joined by `-`, e.g. `git` or `api-token`.",
            );
        }
        if requirements[..index]
            .iter()
            .any(|r| r.name == requirement.name)
        {
            report.error(
                "E090",
                &at.at("name"),
                format!("The requirement `{}` is declared twice.", requirement.name),
                "Give each requirement its own name.",
            );
        }
        let bad_target = requirement.target.trim().is_empty()
            || requirement.kind == RequirementKind::Env && !is_env_name(&requirement.target);
        if bad_target {
            report.error(
                "E090",
                &at.at("target"),
                format!(
                    "The requirement `{}` has no usable target for its kind {}.",
                    requirement.name,
                    requirement.kind.as_str()
                ),
                "Give the program name, the environment variable (UPPER_SNAKE_CASE) or the path to check.",
            );
        }
        if let Some(range) = &requirement.version {
            let problem = if requirement.kind != RequirementKind::Program {
                Some(format!(
                    "The requirement `{}` declares a version, but only a program has one to compare.",
                    requirement.name
                ))
            } else {
                semver::VersionReq::parse(range).err().map(|err| {
                    format!(
                        "The requirement `{}` has the version range `{range}`, which is not a semver range: {err}.",
                        requirement.name
                    )
                })
            };
            if let Some(message) = problem {
                report.error(
                    "E090",
                    &at.at("version"),
                    message,
                    "Declare `version` on a `program` requirement as a semver range, e.g. `>=2.30` or `^1.4`.",
                );
            }
        }
        if requirement.fix.trim().is_empty() {
            report.error(
                "E090",
                &at.at("fix"),
                format!("The requirement `{}` has an empty fix.", requirement.name),
                "Say the exact step that makes it present, e.g. `apt-get install git`.",
            );
        }
    }
}

fn check_auth(context: &Context, report: &mut Report) {
    let Some(auth) = &context.registry.auth else {
        return;
    };
    let at = Pointer::root().at("auth");
    if auth.env.is_empty() {
        report.error(
            "E091",
            &at.at("env"),
            "The auth block names no environment variable to find credentials in.",
            "List the variable(s) that hold a credential, e.g. `env: [TODO_TOKEN]`.",
        );
    }
    for (index, name) in auth.env.iter().enumerate() {
        if !is_env_name(name) {
            report.error(
                "E091",
                &at.at("env").at(index),
                format!("`{name}` is not a valid environment variable name."),
                "Use UPPER_SNAKE_CASE, e.g. `TODO_TOKEN`.",
            );
        }
    }
}

fn check_command(context: &Context, command: &Command, at: &Pointer, report: &mut Report) {
    let registry = context.registry;
    let name = &command.name;
    for (position, need) in command.needs.iter().enumerate() {
        if !registry.requirements.iter().any(|r| &r.name == need) {
            report.error(
                "E090",
                &at.at("needs").at(position),
                format!("The command `{name}` needs `{need}`, which is not under `requirements`."),
                "Declare it under the tool's `requirements` (kind, target, fix), or name one that is.",
            );
        }
    }
    match &registry.auth {
        None if command.auth || !command.scopes.is_empty() => {
            let key = if command.auth { "auth" } else { "scopes" };
            report.error(
                "E091",
                &at.at(key),
                format!("The command `{name}` needs credentials, but the tool has no `auth` block."),
                "Add `auth: {env: [TOOL_TOKEN]}` at the top of the spec: it says where credentials come from.",
            );
        }
        Some(auth) if !auth.scopes.is_empty() => {
            for (position, scope) in command.scopes.iter().enumerate() {
                if !auth.scopes.iter().any(|s| &s.name == scope) {
                    report.error(
                        "E091",
                        &at.at("scopes").at(position),
                        format!("The command `{name}` needs the scope `{scope}`, which `auth.scopes` does not list."),
                        "List every scope under `auth.scopes`, or correct the name.",
                    );
                }
            }
        }
        _ => {}
    }
    if !command.untrusted.is_empty() {
        if matches!(command.output, OutputKind::None | OutputKind::Document) {
            report.error(
                "E092",
                &at.at("untrusted"),
                format!(
                    "The command `{name}` marks untrusted fields, but its output is {}.",
                    command.output.as_str()
                ),
                "Untrusted fields are top-level fields of an object, list item or event; remove the key.",
            );
        } else if let Some(Value::Object(properties)) = command
            .output_schema
            .as_ref()
            .and_then(|s| s.get("properties"))
        {
            for (position, field) in command.untrusted.iter().enumerate() {
                if !properties.contains_key(field) {
                    report.error(
                        "E092",
                        &at.at("untrusted").at(position),
                        format!("The command `{name}` marks `{field}` untrusted, but its outputSchema has no such property."),
                        "Name a top-level property of the outputSchema.",
                    );
                }
            }
        }
    }
    for (position, effect) in command.side_effects.iter().enumerate() {
        if effect.target.trim().is_empty() {
            report.error(
                "E093",
                &at.at("sideEffects").at(position).at("target"),
                format!("A side effect of `{name}` has an empty target."),
                "Say where: a path, a host or a program.",
            );
        }
        // Kept processes are ended by the runtime's `cleanup` word, which a tool with a
        // command of that name does not get (failure mode 17).
        if effect.kind == crate::declare::SideEffectKind::Background
            && !crate::faces::offers_cleanup(registry)
        {
            report.warning(
                "W020",
                &at.at("sideEffects").at(position).at("kind"),
                format!(
                    "`{name}` keeps processes running, but the tool has no `cleanup` word to end them (a command of its own takes the word, or the root takes words)."
                ),
                "Rename the tool's own `cleanup` command, so `TOOL cleanup --force` can end the processes kept.",
            );
        }
    }
}
