//! The Rust names the emitter derives: a field per parameter (`dry-run` -> `dry_run`) and a type
//! per command (`task.create` -> `TaskCreate`).
//!
//! Keywords that can be raw (`type` -> `r#type`) are fine: the emitter writes them raw. `self`,
//! `super` and `crate` cannot be raw, so such a parameter needs `rustName`; a command whose type
//! would be `Self` must be renamed. Two names that differ in the spec but map to the same Rust
//! name would not compile.

use std::collections::HashMap;

use crate::Parameter;

use super::casing::{NOT_RAW, is_kebab, is_keyword, is_snake_identifier, pascal_type, snake_field};
use super::context::Context;
use super::report::{self, Pointer, Report};

pub fn check(context: &Context, report: &mut Report) {
    let registry = context.registry;
    let mut global_fields: HashMap<String, (&str, Pointer)> = HashMap::new();
    let globals = Pointer::root().at("globalFlags");
    for (index, parameter) in registry.global_flags.iter().enumerate() {
        add_field(parameter, globals.at(index), &mut global_fields, report);
    }
    let mut types: HashMap<String, usize> = HashMap::with_capacity(registry.commands.len());
    for (command_index, command) in registry.commands.iter().enumerate() {
        // The global flags are flattened into every command's arguments, so they share clap's ids.
        let mut fields = global_fields.clone();
        let parameters = report::command(command_index).at("parameters");
        for (index, parameter) in command.parameters.iter().enumerate() {
            add_field(parameter, parameters.at(index), &mut fields, report);
        }
        if command.name.split('.').all(is_kebab) {
            check_type(context, command_index, &mut types, report);
        }
    }
}

/// The field a parameter becomes, when it is known (an explicit `rustName`, or a kebab-case name).
fn add_field<'a>(
    parameter: &'a Parameter,
    pointer: Pointer,
    fields: &mut HashMap<String, (&'a str, Pointer)>,
    report: &mut Report,
) {
    let name = parameter.name.as_str();
    let field = match &parameter.rust_name {
        Some(rust_name) => {
            if !is_snake_identifier(rust_name) || is_keyword(rust_name) {
                report.error(
                    "E056",
                    &pointer.at("rustName"),
                    format!("The rustName `{rust_name}` of `{name}` is not a snake_case Rust identifier that is not a keyword."),
                    "Use lowercase letters, digits and `_`, not a keyword, e.g. `self_` or `kind`.",
                );
                return;
            }
            rust_name.clone()
        }
        None if is_kebab(name) => {
            let field = snake_field(name);
            if NOT_RAW.contains(&field.as_str()) {
                report.error(
                    "E055",
                    &pointer.at("name"),
                    format!("The parameter `{name}` maps to the Rust keyword `{field}`, which cannot be a raw identifier."),
                    format!("Add `rustName: {field}_` (or another field name); the flag stays `--{name}`."),
                );
                return;
            }
            field
        }
        None => return,
    };
    match fields.get(&field) {
        // The same spec name twice is a duplicate parameter, reported with the parameters.
        Some((other, first)) if *other != name => report.error(
            "E057",
            &pointer,
            format!(
                "The parameter `{name}` maps to the Rust field `{field}`, as `{other}` at {} does.",
                first.as_str()
            ),
            "Set `rustName` on one of them to tell the fields apart.",
        ),
        Some(_) => {}
        None => {
            fields.insert(field, (name, pointer));
        }
    }
}

fn check_type(
    context: &Context,
    index: usize,
    types: &mut HashMap<String, usize>,
    report: &mut Report,
) {
    let name = &context.registry.commands[index].name;
    let pointer = report::command(index).at("name");
    let ty = pascal_type(name);
    if NOT_RAW.contains(&ty.as_str()) {
        report.error(
            "E058",
            &pointer,
            format!("The command `{name}` maps to the Rust type name `{ty}`, which is a keyword."),
            "Rename the command, e.g. `self-update` or `tool.self`; an explicit `path` can keep the argv word.",
        );
        return;
    }
    match types.get(&ty) {
        Some(&first) if context.registry.commands[first].name != *name => report.error(
            "E059",
            &pointer,
            format!(
                "The command `{name}` maps to the Rust type `{ty}`, as `{}` (/commands/{first}) does.",
                context.registry.commands[first].name
            ),
            "Rename one of the commands so their names differ by more than `.` and `-`.",
        ),
        Some(_) => {}
        None => {
            types.insert(ty, index);
        }
    }
}
