//! An exit code's `trigger`: the invocation `pas-gen conform` runs to see the tool fail with that
//! code. It is checked as an example is (a shell line that runs the tool, an argv that parses,
//! no literal secret), and it must also reach one of the tool's commands: a built-in, `--help`
//! or `--version` never fails with a tool's own code.

use super::super::context::Context;
use super::super::report::{Pointer, Report};
use super::argv::{Cli, Selection};
use super::check_example;

pub fn check(context: &Context, cli: &Cli, report: &mut Report) {
    let exit_codes = Pointer::root().at("exitCodes");
    for (index, exit) in context.registry.exit_codes.iter().enumerate() {
        let Some(trigger) = &exit.trigger else {
            continue;
        };
        let pointer = exit_codes.at(index).at("trigger");
        let selection = check_example(context, cli, None, trigger, &pointer, report);
        let runs = match selection {
            Some(Selection::BuiltIn(word)) => format!("runs the built-in `{word}`"),
            Some(Selection::Nothing) => "runs no command".to_owned(),
            // A command, or a problem already reported.
            Some(Selection::Target(_) | Selection::Failed) | None => continue,
        };
        let (line, name) = (trigger.trim(), &exit.name);
        report.error(
            "E077",
            &pointer,
            format!("The trigger `{line}` of `{name}` {runs}, so it cannot fail with `{name}`."),
            format!(
                "Write the call of one of the tool's commands that fails with `{name}`, e.g. `{} --agent <command> <missing-id>`.",
                context.registry.name
            ),
        );
    }
}
