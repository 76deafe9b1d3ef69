//! Examples, the tool's and each command's: each must be a shell line that runs the tool, and its
//! argv must parse against the command it illustrates (a tool-level example may run any command).
//!
//! An agent copies examples verbatim, so an example that would fail is worse than none.
//! An exit code's `trigger` is checked the same way ([`triggers`]): `pas-gen conform` runs it.

mod argv;
mod triggers;

use crate::Parameter;

use super::context::Context;
use super::report::{self, Pointer, Report};
use super::secrets;

use crate::shell_line::{self as shell, ShellError};
use argv::{Cli, Selection, Target};

pub fn check(context: &Context, report: &mut Report) {
    let registry = context.registry;
    let any = !registry.examples.is_empty()
        || registry.commands.iter().any(|c| !c.examples.is_empty())
        || registry.exit_codes.iter().any(|c| c.trigger.is_some());
    if !any {
        return;
    }
    let cli = Cli::new(context);
    triggers::check(context, &cli, report);
    let examples = Pointer::root().at("examples");
    for (index, example) in registry.examples.iter().enumerate() {
        check_example(
            context,
            &cli,
            None,
            &example.command,
            &examples.at(index).at("command"),
            report,
        );
    }
    for (command, owner) in registry.commands.iter().enumerate() {
        let examples = report::command(command).at("examples");
        for (index, example) in owner.examples.iter().enumerate() {
            check_example(
                context,
                &cli,
                Some(command),
                &example.command,
                &examples.at(index).at("command"),
                report,
            );
        }
    }
}

/// Checks one invocation line (an example's `command`, or a trigger) and returns what it selects,
/// or `None` when it is not a shell line that runs the tool.
fn check_example(
    context: &Context,
    cli: &Cli,
    owner: Option<usize>,
    command: &str,
    pointer: &Pointer,
    report: &mut Report,
) -> Option<Selection> {
    let tool = &context.registry.name;
    let line = command.trim();
    let invocation = match shell::invocation(line, tool) {
        Ok(invocation) => invocation,
        Err(ShellError::Syntax(why)) => {
            report.error(
                "E070",
                pointer,
                format!("The example `{line}` {why}, so it is not a shell command."),
                "Write the whole invocation as it would be typed, quotes closed, e.g. `tool --agent input.txt`.",
            );
            return None;
        }
        Err(ShellError::NoTool) => {
            report.error(
                "E071",
                pointer,
                format!("The example `{line}` does not run `{tool}`."),
                format!("Start the invocation with the tool's name, e.g. `{tool} --agent ...` (a pipeline before it is fine)."),
            );
            return None;
        }
    };
    let parsed = cli.parse(&invocation.args, invocation.appends_args);
    for problem in &parsed.problems {
        report.error(
            problem.code,
            pointer,
            problem.message.clone(),
            problem.hint.clone(),
        );
    }
    if let Some(owner) = owner {
        check_selects(cli, owner, &parsed.selection, line, pointer, report);
    }
    for (parameter, value) in &parsed.values {
        secrets::check_example_value(parameter, value, pointer, report);
    }
    // `API_TOKEN=... tool ...` shows a secret as much as `--token ...` does.
    let selected = match parsed.selection {
        Selection::Target(target) => Some(cli.command(target)),
        _ => None,
    };
    let scope: Vec<&Parameter> = context
        .registry
        .global_flags
        .iter()
        .chain(selected.into_iter().flat_map(|c| &c.parameters))
        .collect();
    for (name, value) in &invocation.environment {
        for parameter in scope
            .iter()
            .filter(|p| p.env.as_deref() == Some(name.as_str()))
        {
            secrets::check_example_value(parameter, value, pointer, report);
        }
    }
    Some(parsed.selection)
}

/// A command's example must run that command.
fn check_selects(
    cli: &Cli,
    owner: usize,
    selection: &Selection,
    line: &str,
    pointer: &Pointer,
    report: &mut Report,
) {
    let name = &cli.command(Target::Command(owner)).name;
    let runs = match selection {
        Selection::Target(Target::Command(index)) if *index == owner => return,
        // The parse has said why it selected nothing.
        Selection::Failed => return,
        Selection::Target(target) => format!("runs `{}`", cli.command(*target).name),
        Selection::BuiltIn(word) => format!("runs the built-in `{word}`"),
        Selection::Nothing => "runs no command".to_owned(),
    };
    report.error(
        "E072",
        pointer,
        format!("The example `{line}` {runs}, but it illustrates `{name}`."),
        "Write the command's own words in the example, or move the example to the command it runs.",
    );
}
