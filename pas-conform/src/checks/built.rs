//! docs.built (issue 29, item 3): the help lists only what is built. Every row of the agent
//! help's BUILT-IN COMMANDS is called as written (`TOOL WORD`, or `TOOL --builtin WORD` in a
//! tool whose root takes positionals), and none may answer that the binary was built without
//! it (`FEATURE_NOT_BUILT`, or `MCP_NOT_BUILT` for `mcp`): an agent that follows the help must
//! never meet a word the binary lacks.

use serde_json::Value;

use super::truth::section;
use super::{Verdict, declared, robot};
use crate::context::Ctx;
use crate::runner::{Call, Run};
use crate::target::Contract;

/// The constants of a built-in the binary was built without.
const NOT_BUILT: &[&str] = &["FEATURE_NOT_BUILT", "MCP_NOT_BUILT"];

/// What a required placeholder of a row is given (`completions <shell>`): the first shell every
/// pas tool completes. A row with another required placeholder is called without it: the
/// binary still says whether the word is built before it parses its arguments.
fn placeholder_value(placeholder: &str) -> Option<&'static str> {
    (placeholder == "<shell>").then_some("bash")
}

/// The argv of one BUILT-IN COMMANDS row, after the tool's name: the word (with `--builtin`
/// when the row writes it) and a value for a required `<shell>`.
fn row_words(row: &str) -> Option<Vec<String>> {
    let call = row.trim().split("  ").next()?;
    let mut tokens = call.split_whitespace().skip(1);
    let mut words = Vec::new();
    let first = tokens.next()?;
    words.push(first.to_owned());
    if first == pas_spec::surface::BUILTIN_FLAG {
        words.push(tokens.next()?.to_owned());
    }
    if let Some(value) = tokens.next().and_then(placeholder_value) {
        words.push(value.to_owned());
    }
    Some(words)
}

/// The error constants a failed run names: the constant, and robot's precise kind (its code is
/// the role's).
fn constants(contract: Contract, run: &Run) -> Vec<String> {
    if run.exited(0) {
        return Vec::new();
    }
    let mut names: Vec<String> = declared::error_name(contract, run).into_iter().collect();
    if contract == Contract::Robot
        && let Ok(envelope) = robot::envelope(run)
        && let Some(kind) = envelope["error"]["details"]["kind"].as_str()
    {
        names.push(kind.to_owned());
    }
    names
}

/// The check.
pub fn listed_builtins_are_built(ctx: &mut Ctx) -> Verdict {
    let mut help_run = ctx.agent_help();
    if section(&help_run.out(), "BUILT-IN COMMANDS").is_empty() && ctx.contract != Contract::Pas {
        // A tool built with pas documents itself at `--agent --help` in every profile.
        let agent = ctx.cached(&["--agent".to_owned(), "--help".to_owned()]);
        if agent.exited(0) {
            help_run = agent;
        }
    }
    let help = help_run.out();
    let rows: Vec<Vec<String>> = section(&help, "BUILT-IN COMMANDS")
        .iter()
        .filter_map(|row| row_words(row))
        .collect();
    if !help_run.exited(0) || rows.is_empty() {
        return Verdict::skip("the help lists no BUILT-IN COMMANDS");
    }
    let mut runs = vec![help_run.clone()];
    for words in rows {
        let run = ctx.run(&Call::new(&ctx.machine(&words)));
        if let Some(name) = constants(ctx.contract, &run)
            .into_iter()
            .find(|name| NOT_BUILT.contains(&name.as_str()))
        {
            let feature = not_built_feature(ctx.contract, &run);
            return Verdict::fail(
                format!(
                    "the help lists `{}`, which answers {name}{feature}: list only what the \
                     binary is built with",
                    words.join(" ")
                ),
                &[&help_run, &run],
            );
        }
        runs.push(run);
    }
    Verdict::pass(&runs.iter().collect::<Vec<_>>())
}

/// ` (feature X)` when the error names the cargo feature the binary lacks.
fn not_built_feature(contract: Contract, run: &Run) -> String {
    let details: Option<Value> = match contract {
        Contract::Pas => super::errors::stderr_error(run)
            .ok()
            .map(|e| e["details"].clone()),
        Contract::Compose => super::compose::envelope(run)
            .ok()
            .map(|e| e["error"]["details"].clone()),
        Contract::Robot => robot::envelope(run)
            .ok()
            .map(|e| e["error"]["details"].clone()),
    };
    details
        .and_then(|d| d["feature"].as_str().map(|f| format!(" (feature `{f}`)")))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_called_as_written() {
        assert_eq!(
            row_words("  todo completions <shell>  Shell completions: bash, zsh."),
            Some(vec!["completions".to_owned(), "bash".to_owned()])
        );
        assert_eq!(
            row_words("  wc --builtin man [COMMAND...]  The roff man page."),
            Some(vec!["--builtin".to_owned(), "man".to_owned()])
        );
        assert_eq!(
            row_words("  todo mcp             Serve the same commands."),
            Some(vec!["mcp".to_owned()])
        );
        assert_eq!(row_words("  todo"), None);
    }
}
