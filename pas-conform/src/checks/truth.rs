//! docs.truth: the help tells the truth. The tool's own agent help (`--agent --help`, or `--help`
//! where machine output needs no flag) is read as an agent reads it, and the binary is held to
//! it: every documented exit code with a trigger ends with that code, on the documented stream
//! and in the documented shape; each list command's output has the shape its COMMANDS row names;
//! every flag the help names is one the binary takes, and every machine-output flag the help
//! omits is one the binary refuses.

use std::collections::BTreeMap;

use pas_spec::OutputKind;
use serde_json::Value;

use super::declared::error_name;
use super::streams::ndjson_lines;
use super::{Verdict, errors, json};
use crate::context::Ctx;
use crate::plan;
use crate::runner::{Call, Run};
use crate::target::Contract;

/// What a stub handler answers: the call never reached the code that fails.
const NOT_IMPLEMENTED: &str = "NOT_IMPLEMENTED";

/// Machine-output flags some profile has (`pas_spec::surface`), each as it is given on argv.
fn machine_flags() -> Vec<(&'static str, &'static str)> {
    pas_spec::surface::all_machine_flags()
        .into_iter()
        .map(|flag| match flag {
            "format" => ("--format", "--format=array"),
            "agent" => ("--agent", "--agent"),
            "toon" => ("--toon", "--toon"),
            "compact" => ("--compact", "--compact"),
            "fields" => ("--fields", "--fields=id"),
            "include-prose" => ("--include-prose", "--include-prose"),
            "prose-style" => ("--prose-style", "--prose-style=terse"),
            // A flag a later profile adds: given as a switch.
            other => {
                let flag: &'static str = Box::leak(format!("--{other}").into_boxed_str());
                (flag, flag)
            }
        })
        .collect()
}

/// The rows of a help section (`TITLE:` or `TITLE (...):` up to the next blank line).
pub(super) fn section<'a>(help: &'a str, title: &str) -> Vec<&'a str> {
    let mut lines = help.lines();
    let found = lines.by_ref().any(|line| {
        line.strip_prefix(title)
            .is_some_and(|rest| rest.starts_with(':') || rest.starts_with(" ("))
    });
    if !found {
        return Vec::new();
    }
    lines.take_while(|line| !line.trim().is_empty()).collect()
}

/// ERROR CODES as documented: each constant named in a row, with the row's exit code.
pub fn documented_codes(help: &str) -> BTreeMap<String, i32> {
    let mut codes = BTreeMap::new();
    for row in section(help, "ERROR CODES") {
        let row = row.trim();
        let Some(code) = row
            .split_whitespace()
            .next()
            .and_then(|w| w.parse::<i32>().ok())
        else {
            continue;
        };
        let Some(open) = row.rfind('(') else {
            continue;
        };
        let names = row[open + 1..].trim_end_matches(')');
        for name in names.split(',').map(str::trim) {
            if errors::is_upper_snake(name) {
                codes.insert(name.to_owned(), code);
            }
        }
    }
    codes
}

/// The flags the GLOBAL FLAGS section names: (`--long`, takes a value).
fn documented_flags(help: &str) -> Vec<(String, bool)> {
    section(help, "GLOBAL FLAGS")
        .iter()
        .filter_map(|row| {
            let row = row.trim();
            let signature = row.split("  ").next()?;
            let long = signature
                .split(", ")
                .find(|w| w.starts_with("--"))?
                .split_whitespace()
                .next()?;
            Some((long.to_owned(), signature.contains('<')))
        })
        .collect()
}

/// Whether the binary refused the call as an argument it does not know.
fn refused(contract: Contract, run: &Run) -> bool {
    if run.timed_out || run.exited(0) {
        return false;
    }
    let argument_error = |name: &str| {
        matches!(
            name,
            "UNKNOWN_ARGUMENT" | "INVALID_ARGUMENT" | "USAGE_ERROR" | "INVALID_VALUE"
        )
    };
    // robot names the error by its role (ERR_ARGS) and keeps the runtime's kind in details.
    if contract == Contract::Robot
        && let Ok(envelope) = super::robot::envelope(run)
        && let Some(kind) = envelope["error"]["details"]["kind"].as_str()
    {
        return argument_error(kind);
    }
    match error_name(contract, run) {
        Ok(name) => argument_error(&name),
        // No structured error (human mode): misuse exits 2, or says so.
        Err(_) => {
            let text = format!("{}{}", run.out(), run.err()).to_lowercase();
            run.code == Some(2)
                || ["unexpected argument", "unrecognized", "unknown"]
                    .iter()
                    .any(|w| text.contains(w))
        }
    }
}

/// docs.truth (every contract).
pub fn docs_truth(ctx: &mut Ctx) -> Verdict {
    let mut help_run = ctx.agent_help();
    if documented_codes(&help_run.out()).is_empty() && ctx.contract != Contract::Pas {
        // A tool built with pas documents itself at `--agent --help` in every profile that has
        // the switch (the robot profile runs on the pas machinery until its own lands).
        let agent = ctx.cached(&["--agent".to_owned(), "--help".to_owned()]);
        if agent.exited(0) && !documented_codes(&agent.out()).is_empty() {
            help_run = agent;
        }
    }
    let help = help_run.out();
    let documented = documented_codes(&help);
    if !help_run.exited(0) || documented.is_empty() {
        return Verdict::skip(
            "the help documents no ERROR CODES table to hold the binary to (not a pas agent help)",
        );
    }
    let mut judged: Vec<Run> = vec![help_run.clone()];
    let mut notes: Vec<String> = Vec::new();
    let contract = ctx.contract;

    // 1. Exit codes, through their triggers: the spec's, and an unknown flag for the usage code.
    let mut triggers: Vec<(String, Vec<String>)> = Vec::new();
    if let Some(registry) = ctx.registry.clone() {
        for code in registry.exit_codes.iter().filter(|c| !c.success) {
            let Some(line) = &code.trigger else { continue };
            match plan::argv(&registry, line) {
                Ok(args) => triggers.push((code.name.clone(), ctx.machine(&args))),
                Err(why) => notes.push(format!("`{line}`: {why}")),
            }
        }
    }
    for (name, args) in triggers {
        let Some(&exit) = documented.get(&name) else {
            return Verdict::fail(
                format!("the spec's {name} has a trigger, but the help's ERROR CODES omit it"),
                &[&help_run],
            );
        };
        let run = ctx.run(&Call::new(&args));
        match error_name(contract, &run) {
            Ok(got) if got == NOT_IMPLEMENTED => {
                notes.push(format!("{name}: the trigger reached a stub"));
                continue;
            }
            Ok(got) if got != name => {
                return Verdict::fail(
                    format!("the trigger of {name} failed with {got} instead"),
                    &[&help_run, &run],
                );
            }
            Ok(_) => {}
            Err(why) => {
                return Verdict::fail(
                    format!("{name}: not on the documented error channel: {why}"),
                    &[&help_run, &run],
                );
            }
        }
        if !run.exited(exit) {
            return Verdict::fail(
                format!(
                    "the help says {name} exits {exit}; the binary ended with {}",
                    run.status()
                ),
                &[&help_run, &run],
            );
        }
        if contract == Contract::Pas && !run.stdout.is_empty() {
            return Verdict::fail(
                format!("{name}: stdout must stay empty on failure (PAS 2.1.1)"),
                &[&run],
            );
        }
        judged.push(run);
    }
    if let Some(&exit) = documented.get("UNKNOWN_ARGUMENT") {
        let run = errors::unknown_flag_run(ctx);
        if !run.exited(exit) {
            return Verdict::fail(
                format!(
                    "the help says UNKNOWN_ARGUMENT exits {exit}; an unknown flag ended with {}",
                    run.status()
                ),
                &[&help_run, &run],
            );
        }
        judged.push(run);
    }

    // An example that fails (a missing file, an unknown id) ends with its constant's code too.
    let runs = ctx.example_runs();
    for (planned, run) in &runs {
        if run.exited(0) || run.timed_out {
            continue;
        }
        let Ok(name) = error_name(contract, run) else {
            continue;
        };
        let Some(&exit) = documented.get(&name) else {
            continue;
        };
        if !run.exited(exit) {
            return Verdict::fail(
                format!(
                    "`{}` failed with {name}, which the help says exits {exit}; it ended with {}",
                    planned.text,
                    run.status()
                ),
                &[&help_run, run],
            );
        }
        judged.push(run.clone());
    }

    // 2. The shape of each list command's output, as its COMMANDS row names it.
    for (planned, run) in &runs {
        let Some(command) = &planned.command else {
            continue;
        };
        if command.output != OutputKind::List || !run.exited(0) || run.stdout.is_empty() {
            continue;
        }
        let words = command.argv_path().join(" ");
        let row = section(&help, "COMMANDS")
            .into_iter()
            .find(|r| r.trim_start().starts_with(&words) && r.contains(" -> "));
        let Some(label) = row.and_then(|r| r.split(" -> ").nth(1)) else {
            continue;
        };
        if let Err(why) = shape_matches(label, &run.out()) {
            return Verdict::fail(
                format!("`{}`: the help says `-> {label}`, but {why}", planned.text),
                &[&help_run, run],
            );
        }
        judged.push(run.clone());
    }

    // 3. Flags: those the help names are taken; machine-output flags it omits are refused.
    // The base call: the first example the binary does not refuse as a usage error.
    let Some((planned, _)) = runs.iter().find(|(_, r)| !refused(contract, r)).cloned() else {
        notes.push("no example the binary takes, to try the flags on".into());
        return finish(judged, notes);
    };
    let base = planned.args.clone();
    // What the help says of the flags: the tool's, and the base command's own help (a list
    // command's `--format` is documented there).
    let mut flag_help = help.clone();
    if let Some(command) = &planned.command {
        let mut args = command.argv_path();
        args.push("--help".into());
        let command_help = ctx.cached(&ctx.machine(&args));
        if command_help.exited(0) {
            flag_help.push_str(&command_help.out());
        }
    }
    for (flag, takes_value) in documented_flags(&help) {
        // `--output-id` is refused, by design, by a command whose results have no id field.
        if matches!(
            flag.as_str(),
            "--help" | "--version" | "--agent" | "--output-id"
        ) {
            continue;
        }
        let mut args = ctx.machine(&base);
        args.push(flag.clone());
        if takes_value {
            args.push("pas-conform-value".into());
        }
        let run = ctx.run(&Call::new(&args));
        if refused(contract, &run) && !given_value_refused(&run) {
            return Verdict::fail(
                format!("the help names {flag}, but the binary refuses it"),
                &[&help_run, &run],
            );
        }
        judged.push(run);
    }
    for (flag, spelled) in machine_flags() {
        if flag_help.contains(flag) {
            continue;
        }
        let mut args = ctx.machine(&base);
        args.push(spelled.to_owned());
        let run = ctx.run(&Call::new(&args));
        if !refused(contract, &run) {
            return Verdict::fail(
                format!("the binary accepts {spelled}, a machine-output flag its help never names"),
                &[&help_run, &run],
            );
        }
        judged.push(run);
    }
    finish(judged, notes)
}

/// A value flag given a made-up value may be refused for the value, not the flag.
fn given_value_refused(run: &Run) -> bool {
    let text = format!("{}{}", run.out(), run.err());
    text.contains("pas-conform-value")
}

fn finish(judged: Vec<Run>, notes: Vec<String>) -> Verdict {
    let verdict = Verdict::pass(&judged.iter().collect::<Vec<_>>());
    if notes.is_empty() {
        verdict
    } else {
        verdict.note(format!("not judged: {}", notes.join("; ")))
    }
}

/// Whether stdout has the shape a COMMANDS row's label names (`NDJSON`: one JSON value per line,
/// never one envelope; `array`: one envelope whose data is an array).
fn shape_matches(label: &str, stdout: &str) -> Result<(), String> {
    let label = label.split(" | ").next().unwrap_or(label).trim();
    let envelope = |value: &Value| value.get("ok").is_some() && value.get("meta").is_some();
    match label {
        "NDJSON" => {
            let lines = ndjson_lines(stdout)?;
            if lines.len() == 1 && envelope(&lines[0]) {
                return Err("it printed one envelope, not a line per item".into());
            }
            Ok(())
        }
        "array" => {
            let value = json(stdout).map_err(|e| format!("stdout is not one JSON value: {e}"))?;
            if value.is_array() || value.get("data").is_some_and(Value::is_array) {
                Ok(())
            } else {
                Err("stdout holds no array".into())
            }
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HELP: &str = "USAGE:\n  t <command>\n\nGLOBAL FLAGS:\n  --toon              Print TOON.\n  --db <path>         The store.\n  -q, --quiet         Less.\n\nERROR CODES (exit code, then what failed):\n  0   Success\n  1   General error (GENERAL_ERROR, INTERNAL_ERROR)\n  2   Blocked (STORE_LOCKED, success)\n  100 No task (TASK_NOT_FOUND)\n\nANTI-PATTERNS:\n";

    #[test]
    fn error_codes_and_flags_are_read_as_an_agent_reads_them() {
        let codes = documented_codes(HELP);
        assert_eq!(codes["GENERAL_ERROR"], 1);
        assert_eq!(codes["STORE_LOCKED"], 2);
        assert_eq!(codes["TASK_NOT_FOUND"], 100);
        assert!(!codes.contains_key("success"));
        assert_eq!(
            documented_flags(HELP),
            [
                ("--toon".to_owned(), false),
                ("--db".to_owned(), true),
                ("--quiet".to_owned(), false)
            ]
        );
    }

    #[test]
    fn shapes() {
        assert!(shape_matches("NDJSON", "{\"a\":1}\n{\"a\":2}\n").is_ok());
        assert!(shape_matches("NDJSON", "{\"ok\":true,\"data\":[],\"meta\":{}}\n").is_err());
        assert!(shape_matches("array", "{\"ok\":true,\"data\":[],\"meta\":{}}\n").is_ok());
        assert!(shape_matches("array", "{\"a\":1}\n").is_err());
    }
}
