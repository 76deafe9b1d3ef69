//! Flags and positionals: names, short flags, the order of positionals, and whether types,
//! enums, defaults and environment variables agree with one another.
//!
//! A command's parameters share one namespace with the global flags and the flags the CLI adds by
//! itself (`--agent`, `--help`, ...): clap would refuse the clash at run time, so it is caught here.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::{Effect, ParamKind, ParamType, Parameter};

use super::casing::{is_env_name, is_kebab, with_article};
use super::context::Context;
use super::report::{self, Pointer, Report};

pub fn check(context: &Context, report: &mut Report) {
    let registry = context.registry;
    let mut reserved: Vec<&str> = context.builtin_flags(None).iter().map(|f| f.long).collect();
    // A global flag reaches every command, so it must not take a name any command adds.
    if registry.commands.iter().any(|c| c.dry_run) {
        reserved.push("dry-run");
    }
    if registry
        .commands
        .iter()
        .any(|c| c.effect == Effect::Destructive)
    {
        reserved.push("force");
    }
    let globals = Pointer::root().at("globalFlags");
    let mut scope = Scope::new(context, None, reserved);
    for (index, parameter) in registry.global_flags.iter().enumerate() {
        let pointer = globals.at(index);
        if parameter.kind != ParamKind::Flag {
            report.error(
                "E048",
                &pointer.at("kind"),
                format!("The global flag `{}` is a {}, but global parameters must be flags.", parameter.name, kind_name(parameter.kind)),
                "Remove `kind` (flags are the default), or move the parameter into the commands that take it.",
            );
        }
        scope.add(parameter, &pointer, report);
        check_parameter(parameter, &pointer, report);
    }
    // Each command starts from the global flags' names and shorts.
    let global_scope = scope;
    for (command_index, command) in registry.commands.iter().enumerate() {
        let reserved = context
            .builtin_flags(Some(command))
            .iter()
            .map(|f| f.long)
            .collect();
        let mut scope = global_scope.for_command(context, command, reserved);
        let parameters = report::command(command_index).at("parameters");
        for (index, parameter) in command.parameters.iter().enumerate() {
            let pointer = parameters.at(index);
            scope.add(parameter, &pointer, report);
            check_parameter(parameter, &pointer, report);
        }
    }
}

fn kind_name(kind: ParamKind) -> &'static str {
    match kind {
        ParamKind::Flag => "flag",
        ParamKind::Positional => "positional",
        ParamKind::Variadic => "variadic positional",
    }
}

/// The names and shorts taken so far in one command (or among the global flags), and what the
/// positionals look like so far.
struct Scope<'a> {
    reserved: Vec<&'static str>,
    names: HashMap<&'a str, String>,
    shorts: HashMap<char, String>,
    variadic: Option<String>,
    optional_positional: Option<String>,
}

impl<'a> Scope<'a> {
    fn new(
        context: &Context,
        command: Option<&crate::Command>,
        reserved: Vec<&'static str>,
    ) -> Scope<'a> {
        let shorts = context
            .builtin_flags(command)
            .iter()
            .filter_map(|flag| Some((flag.short?, format!("the built-in `--{}`", flag.long))))
            .collect();
        Scope {
            reserved,
            names: HashMap::new(),
            shorts,
            variadic: None,
            optional_positional: None,
        }
    }

    /// A command's scope: the global flags' names and shorts are already taken.
    fn for_command(
        &self,
        context: &Context,
        command: &crate::Command,
        reserved: Vec<&'static str>,
    ) -> Scope<'a> {
        let mut scope = Scope::new(context, Some(command), reserved);
        scope.names.clone_from(&self.names);
        scope
            .shorts
            .extend(self.shorts.iter().map(|(k, v)| (*k, v.clone())));
        scope
    }

    fn add(&mut self, parameter: &'a Parameter, pointer: &Pointer, report: &mut Report) {
        let name = parameter.name.as_str();
        let here = pointer.as_str().to_owned();
        if !is_kebab(name) {
            report.error(
                "E040",
                &pointer.at("name"),
                format!("The parameter name `{name}` is not kebab-case."),
                "Use lowercase letters, digits and single hyphens, starting with a letter, e.g. `dry-run`; it becomes the long flag.",
            );
        }
        if self.reserved.contains(&name) {
            // A positional clashes too: clap names every argument by its id, flag or not.
            let (message, hint) = if parameter.kind == ParamKind::Flag {
                (
                    format!("`--{name}` is a flag the built CLI adds by itself."),
                    "Rename the parameter; the built-in flag already does this job.".to_owned(),
                )
            } else {
                (
                    format!(
                        "The positional `{name}` has the name of the built-in `--{name}` flag, which the parser would confuse with it."
                    ),
                    format!("Rename the positional, e.g. `target-{name}`."),
                )
            };
            report.error("E045", &pointer.at("name"), message, hint);
        } else if let Some(first) = self.names.get(name) {
            report.error(
                "E041",
                &pointer.at("name"),
                format!("The parameter `{name}` is already defined at {first}."),
                "Give each parameter of a command (global flags included) its own name.",
            );
        } else {
            self.names.insert(name, here.clone());
        }
        self.add_short(parameter, pointer, &here, report);
        self.add_positional(parameter, pointer, here, report);
    }

    fn add_short(
        &mut self,
        parameter: &Parameter,
        pointer: &Pointer,
        here: &str,
        report: &mut Report,
    ) {
        let Some(short) = parameter.short else {
            return;
        };
        let pointer = pointer.at("short");
        if parameter.kind != ParamKind::Flag {
            report.error(
                "E044",
                &pointer,
                format!(
                    "The positional `{}` has a short flag `-{short}`.",
                    parameter.name
                ),
                "Remove `short`: positionals are given by place, not by flag.",
            );
        } else if !short.is_ascii_alphanumeric() {
            report.error(
                "E042",
                &pointer,
                format!(
                    "The short flag `-{short}` of `{}` is not an ASCII letter or digit.",
                    parameter.name
                ),
                "Pick one ASCII letter or digit, e.g. `v` for `-v`.",
            );
        } else if let Some(first) = self.shorts.get(&short) {
            report.error(
                "E043",
                &pointer,
                format!("The short flag `-{short}` is already taken by {first}."),
                "Pick another letter, or drop `short`: the long flag always works.",
            );
        } else {
            self.shorts
                .insert(short, format!("`--{}` ({here})", parameter.name));
        }
    }

    /// At most one variadic, and it comes last; no required positional after an optional one
    /// (clap could not tell which value is which).
    fn add_positional(
        &mut self,
        parameter: &Parameter,
        pointer: &Pointer,
        here: String,
        report: &mut Report,
    ) {
        if parameter.kind == ParamKind::Flag {
            return;
        }
        let name = &parameter.name;
        if let Some(variadic) = &self.variadic {
            let message = if parameter.kind == ParamKind::Variadic {
                format!("`{name}` is a second variadic positional (the first is at {variadic}).")
            } else {
                format!(
                    "The positional `{name}` comes after the variadic positional at {variadic}."
                )
            };
            report.error(
                "E046",
                &pointer.at("kind"),
                message,
                "A variadic positional takes every remaining value: keep one, and put it after the other positionals.",
            );
        }
        let required = parameter.required && parameter.default.is_none();
        if required {
            if let Some(optional) = &self.optional_positional {
                report.error(
                    "E047",
                    &pointer.at("required"),
                    format!("The required positional `{name}` comes after the optional positional at {optional}."),
                    "Put required positionals first, or make this one optional too.",
                );
            }
        } else {
            self.optional_positional.get_or_insert_with(|| here.clone());
        }
        if parameter.kind == ParamKind::Variadic {
            self.variadic.get_or_insert(here);
        }
    }
}

/// What one parameter says about itself: types, enum, default, env, description.
fn check_parameter(parameter: &Parameter, pointer: &Pointer, report: &mut Report) {
    let name = &parameter.name;
    match parameter.items {
        Some(_) if parameter.ty != ParamType::Array => report.error(
            "E049",
            &pointer.at("items"),
            format!("`{name}` has `items` but its type is `{}`.", parameter.ty.as_str()),
            "Set `type: array`, or remove `items`.",
        ),
        Some(ParamType::Array) => report.error(
            "E049",
            &pointer.at("items"),
            format!("`{name}` is an array of arrays, which a command line cannot carry."),
            "Use a scalar `items` type and repeat the flag, or take structured input through `inputSchema`.",
        ),
        _ => {}
    }
    if parameter.kind == ParamKind::Variadic && parameter.ty == ParamType::Array {
        report.warning(
            "W009",
            &pointer.at("type"),
            format!("The variadic positional `{name}` has `type: array`, but a variadic's type names each value."),
            "Write the element type itself, e.g. `type: string`; a variadic always collects many.",
        );
    }
    check_enum(parameter, pointer, report);
    check_default(parameter, pointer, report);
    check_format(parameter, pointer, report);
    if let Some(env) = &parameter.env
        && !is_env_name(env)
    {
        report.error(
            "E054",
            &pointer.at("env"),
            format!("The environment variable `{env}` of `{name}` is not a valid name."),
            "Use uppercase letters, digits and `_`, not starting with a digit, e.g. `API_TOKEN`.",
        );
    }
    if parameter.description.trim().is_empty() {
        report.warning(
            "W010",
            pointer,
            format!("The parameter `{name}` has no description."),
            "Add a `description`: agents choose values from it.",
        );
    }
}

/// `format` says what a string value is; a parameter's name never says it, so a name that looks
/// like an id or a path without a `format` gets a warning (the author decides, nothing is
/// checked by the name).
fn check_format(parameter: &Parameter, pointer: &Pointer, report: &mut Report) {
    let name = &parameter.name;
    let element = parameter.element_type();
    if let Some(format) = parameter.format
        && element != ParamType::String
    {
        report.error(
            "E085",
            &pointer.at("format"),
            format!(
                "The parameter `{name}` has `format: {}`, but its values are {}s, not text.",
                format.as_str(),
                element.as_str()
            ),
            "Remove `format`: it describes string values (a path, a resource path, an id).",
        );
    }
    if crate::hardening::looks_undeclared_thing(parameter) {
        report.warning(
            "W021",
            pointer,
            format!(
                "The string parameter `{name}` is named like an id or a path but declares no `format`: machine mode takes its values as free text, refusing nothing."
            ),
            "declare `format: id` to refuse hallucinated spellings, or `format: path`",
        );
    }
}

fn check_enum(parameter: &Parameter, pointer: &Pointer, report: &mut Report) {
    let Some(values) = &parameter.values else {
        return;
    };
    let pointer = pointer.at("enum");
    if parameter.element_type() != ParamType::String {
        report.error(
            "E050",
            &pointer,
            format!(
                "`{}` has an `enum`, but its values are of type `{}`.",
                parameter.name,
                parameter.element_type().as_str()
            ),
            "Use `enum` with string parameters (or arrays of strings) only; describe a range of numbers in `description`.",
        );
    }
    if values.is_empty() {
        report.error(
            "E051",
            &pointer,
            format!(
                "The `enum` of `{}` is empty, so no value would be accepted.",
                parameter.name
            ),
            "List the allowed values, or remove `enum`.",
        );
    }
    let mut seen = HashSet::new();
    for (index, value) in values.iter().enumerate() {
        if !seen.insert(value.as_str()) {
            report.error(
                "E051",
                &pointer.at(index),
                format!("The `enum` of `{}` lists `{value}` twice.", parameter.name),
                "List each allowed value once.",
            );
        }
    }
}

fn check_default(parameter: &Parameter, pointer: &Pointer, report: &mut Report) {
    let Some(default) = &parameter.default else {
        return;
    };
    let name = &parameter.name;
    let pointer = pointer.at("default");
    let element = parameter.element_type();
    let elements: Vec<&Value> = if parameter.is_many() {
        match default {
            Value::Array(items) => items.iter().collect(),
            _ => {
                report.error(
                    "E052",
                    &pointer,
                    format!(
                        "The default of `{name}` is not an array, but `{name}` takes many values."
                    ),
                    format!(
                        "Write the default as a list of {}s, e.g. `[]`.",
                        element.as_str()
                    ),
                );
                return;
            }
        }
    } else {
        vec![default]
    };
    for value in elements {
        if !has_type(value, element) {
            report.error(
                "E052",
                &pointer,
                format!(
                    "The default `{value}` of `{name}` is not of type `{}`.",
                    element.as_str()
                ),
                format!(
                    "Write {} default, or change `type`.",
                    with_article(element.as_str())
                ),
            );
        } else if let (Some(values), Value::String(text)) = (&parameter.values, value)
            && !values.contains(text)
        {
            report.error(
                "E053",
                &pointer,
                format!("The default `{text}` of `{name}` is not one of its `enum` values."),
                format!("Use one of: {}.", values.join(", ")),
            );
        }
    }
    if parameter.required {
        report.warning(
            "W007",
            &pointer,
            format!("`{name}` is required and has a default, which is never used."),
            "Remove `required` (the default makes the parameter optional), or remove the default.",
        );
    }
    if parameter.kind == ParamKind::Flag
        && parameter.ty == ParamType::Boolean
        && default == &Value::Bool(true)
    {
        report.warning(
            "W008",
            &pointer,
            format!("The switch `--{name}` defaults to true, so it can never be turned off."),
            format!(
                "Invert the flag (e.g. `--no-{name}` with default false), or remove the default."
            ),
        );
    }
}

fn has_type(value: &Value, ty: ParamType) -> bool {
    match ty {
        ParamType::String => value.is_string(),
        ParamType::Integer => value.is_i64() || value.is_u64(),
        ParamType::Number => value.is_number(),
        ParamType::Boolean => value.is_boolean(),
        ParamType::Array => value.is_array(),
    }
}
