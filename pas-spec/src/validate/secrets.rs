//! Credentials: a secret parameter must never be written down in the spec, neither as a default
//! nor as a literal value in an example (the spec ends up in help, catalogs and `.llm` files).

use crate::Parameter;

use super::context::Context;
use super::placeholder::is_placeholder;
use super::report::{self, Pointer, Report};

pub fn check(context: &Context, report: &mut Report) {
    let registry = context.registry;
    let globals = Pointer::root().at("globalFlags");
    // Pointers are built only for secrets: most parameters are not.
    for (index, parameter) in registry.global_flags.iter().enumerate() {
        if parameter.secret {
            check_parameter(parameter, &globals.at(index), report);
        }
    }
    for (command_index, command) in registry.commands.iter().enumerate() {
        for (index, parameter) in command.parameters.iter().enumerate() {
            if parameter.secret {
                let pointer = report::command(command_index).at("parameters").at(index);
                check_parameter(parameter, &pointer, report);
            }
        }
    }
}

fn check_parameter(parameter: &Parameter, pointer: &Pointer, report: &mut Report) {
    let name = &parameter.name;
    if parameter.default.is_some() {
        report.error(
            "E060",
            &pointer.at("default"),
            format!(
                "The secret parameter `{name}` has a default, which would publish the credential."
            ),
            "Remove the default; read the credential from an environment variable with `env`.",
        );
    }
    if parameter.env.is_none() {
        report.warning(
            "W011",
            &pointer.at("secret"),
            format!("The secret parameter `{name}` has no `env`, so callers must put it on the command line."),
            "Add `env: SOME_TOKEN`: argv is visible to other processes and lands in shell history.",
        );
    }
}

/// A value an example gives a parameter (on the command line, or as `VAR=value` before the tool's
/// name for the parameter's `env`): a secret's must be a placeholder such as `$TOKEN` or `<token>`.
pub fn check_example_value(
    parameter: &Parameter,
    value: &str,
    pointer: &Pointer,
    report: &mut Report,
) {
    if parameter.secret && !is_placeholder(value) {
        report.error(
            "E061",
            pointer,
            format!("The example shows a literal value for the secret parameter `{}`.", parameter.name),
            "Write a placeholder instead, e.g. `$API_TOKEN` or `<token>`: examples are published in help and documents.",
        );
    }
}
