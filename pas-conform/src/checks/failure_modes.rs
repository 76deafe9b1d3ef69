//! Checks named by the CLI Agent Spec's failure modes (`fmNN.*`, the number of its section):
//! the ones a black box can show. Each asks the same question as the spec's own "Check:" line,
//! in the tool's contract: the same call under a condition an agent's harness creates (an open
//! but silent stdin pipe, a foreign locale, a narrow `COLUMNS`) must end as it does without it.

use std::time::Duration;

use pas_spec::StdinMode;
use serde_json::Value;

use super::{Verdict, compose, errors, json, robot};
use crate::context::Ctx;
use crate::plan;
use crate::runner::{Call, Run, Stdin};
use crate::target::Contract;

/// How long a call on an idle stdin pipe may take: nothing legitimate waits this long (pas
/// tools give up on an idle pipe after 1 s), and a slow start on a loaded machine (a Python
/// tool on two busy cores) stays well inside it.
const IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// At most this many examples or triggers are run again under a condition (each is one call).
const AT_MOST: usize = 3;

/// A locale every tool's error channel must be indifferent to, and the neutral one.
const FOREIGN: &[(&str, &str)] = &[
    ("LC_ALL", "fr_FR.UTF-8"),
    ("LANG", "fr_FR.UTF-8"),
    ("LANGUAGE", "fr_FR:fr"),
];
const NEUTRAL: &[(&str, &str)] = &[("LC_ALL", "C"), ("LANG", "C"), ("LANGUAGE", "")];

/// What some harnesses export to get colour through a pipe: machine output must ignore it.
const FORCED_COLOUR: &[(&str, &str)] = &[
    ("CLICOLOR_FORCE", "1"),
    ("FORCE_COLOR", "1"),
    ("TERM", "xterm-256color"),
];

/// A terminal width narrower than any JSON line a tool prints.
const NARROW: &[(&str, &str)] = &[("COLUMNS", "20")];

/// fm08.forced_colour (§8 ANSI & Color Code Leakage): with colour forced by the environment
/// (`CLICOLOR_FORCE=1`, `FORCE_COLOR=1`), the primary example, an unknown flag and the agent
/// help (pas) still print no ANSI code on either stream: machine output is never coloured.
pub fn forced_colour(ctx: &mut Ctx) -> Verdict {
    let mut calls = Vec::new();
    let mut unknown = Vec::new();
    if let Some((plan, _)) = ctx.primary() {
        calls.push(ctx.machine(&plan.args));
        unknown = plan.args;
    }
    unknown.push(errors::UNKNOWN_FLAG.to_owned());
    calls.push(ctx.machine(&unknown));
    if ctx.contract == Contract::Pas {
        calls.push(ctx.machine(&["--help".to_owned()]));
    }
    let runs: Vec<Run> = calls
        .iter()
        .map(|args| ctx.run(&Call::new(args).with_env(FORCED_COLOUR)))
        .collect();
    for run in &runs {
        if super::has_ansi(&run.stdout) || super::has_ansi(&run.stderr) {
            return Verdict::fail("ANSI codes in machine output with CLICOLOR_FORCE=1", &[run]);
        }
    }
    Verdict::pass(&runs.iter().collect::<Vec<_>>())
}

/// fm19.retryable (§19 Retry Hints in Error Responses): an error says whether the same call can
/// succeed if it is made again. An unknown flag (after the primary example's arguments, so a
/// one-command tool reaches its parser) is an argument error that no retry mends: its error, in
/// the contract's channel, carries `retryable: false`, a boolean an agent branches on.
pub fn retryable(ctx: &mut Ctx) -> Verdict {
    let mut args = ctx.primary().map(|(plan, _)| plan.args).unwrap_or_default();
    args.push(errors::UNKNOWN_FLAG.to_owned());
    let run = ctx.run(&Call::new(&ctx.machine(&args)));
    let error = match error_object(ctx.contract, &run) {
        Ok(error) => error,
        Err(why) => return Verdict::fail(format!("an unknown flag's error: {why}"), &[&run]),
    };
    match error.get("retryable") {
        Some(Value::Bool(false)) => Verdict::pass(&[&run]),
        Some(Value::Bool(true)) => Verdict::fail(
            "an unknown flag's error says retryable: true, and no retry mends an argument",
            &[&run],
        ),
        Some(_) => Verdict::fail("`retryable` is not a boolean", &[&run]),
        None => Verdict::fail(
            "the error does not say whether a retry can help (no `retryable`)",
            &[&run],
        ),
    }
}

/// fm50.idle_stdin (§50 Stdin Consumption Deadlock): an example of a command that does not
/// declare stdin ends on its own, with the status it has on `/dev/null`, when stdin is a pipe
/// that stays open and silent (an agent harness that never closes it).
pub fn idle_stdin(ctx: &mut Ctx) -> Verdict {
    let runs = match super::need_examples(ctx) {
        Ok(runs) => runs,
        Err(skip) => return skip,
    };
    let eligible: Vec<_> = runs
        .into_iter()
        .filter(|(plan, run)| {
            !run.timed_out
                && plan
                    .command
                    .as_ref()
                    .is_some_and(|c| c.stdin == StdinMode::None)
        })
        .take(AT_MOST)
        .collect();
    if eligible.is_empty() {
        return Verdict::skip("every runnable example's command reads stdin (or is unknown)");
    }
    let general = ctx.program.timeout;
    ctx.program.timeout = general.min(IDLE_TIMEOUT);
    let held: Vec<(Run, Run)> = eligible
        .into_iter()
        .map(|(plan, baseline)| {
            let args = ctx.machine(&plan.args);
            (baseline, ctx.run(&Call::new(&args).stdin(Stdin::Held)))
        })
        .collect();
    ctx.program.timeout = general;
    for (baseline, run) in &held {
        if run.timed_out {
            let why = format!(
                "waited {}s on an open, silent stdin pipe it never declared it reads, and was killed",
                IDLE_TIMEOUT.as_secs()
            );
            return Verdict::fail(why, &[run]);
        }
        if run.code != baseline.code {
            let why = format!(
                "{} on an idle stdin pipe, {} on /dev/null",
                run.status(),
                baseline.status()
            );
            return Verdict::fail(why, &[baseline, run]);
        }
    }
    Verdict::pass(&held.iter().map(|(_, run)| run).collect::<Vec<_>>())
}

/// The error a failed call reports, in its contract's channel: the JSON on stderr (pas), the
/// envelope's `error` (compose, robot).
fn error_object(contract: Contract, run: &Run) -> Result<Value, String> {
    match contract {
        Contract::Pas => errors::stderr_error(run),
        Contract::Compose => Ok(compose::envelope(run)?["error"].clone()),
        Contract::Robot => Ok(robot::envelope(run)?["error"].clone()),
    }
    .and_then(|error| match error.is_object() {
        true => Ok(error),
        false => Err("no error object".to_owned()),
    })
}

/// The constant and the message of an error, as an agent matches them.
fn code_and_message(contract: Contract, error: &Value) -> (Value, Value) {
    let code = match contract {
        Contract::Pas => error["error"].clone(),
        Contract::Compose | Contract::Robot => error["code"].clone(),
    };
    (code, error["message"].clone())
}

/// fm57.locale (§57 Locale-Dependent Error Messages): an unknown flag and each declared error's
/// trigger name the same constant with the same message under `LC_ALL=fr_FR.UTF-8` as under
/// `LC_ALL=C`.
pub fn locale(ctx: &mut Ctx) -> Verdict {
    let mut unknown = ctx.primary().map(|(p, _)| p.args).unwrap_or_default();
    unknown.push(errors::UNKNOWN_FLAG.to_owned());
    let mut calls = vec![ctx.machine(&unknown)];
    if let Some(registry) = ctx.registry.clone() {
        let triggers = registry
            .exit_codes
            .iter()
            .filter_map(|c| c.trigger.as_deref());
        for line in triggers.take(AT_MOST) {
            if let Ok(args) = plan::argv(&registry, line) {
                calls.push(ctx.machine(&args));
            }
        }
    }
    let mut judged = Vec::new();
    for args in calls {
        let neutral = ctx.run(&Call::new(&args).with_env(NEUTRAL));
        let Ok(expected) = error_object(ctx.contract, &neutral) else {
            continue; // not an error under C (a trigger that needs data): nothing to compare
        };
        let foreign = ctx.run(&Call::new(&args).with_env(FOREIGN));
        let got = match error_object(ctx.contract, &foreign) {
            Ok(got) => got,
            Err(why) => {
                let why = format!("under LC_ALL=fr_FR.UTF-8 the error is gone: {why}");
                return Verdict::fail(why, &[&neutral, &foreign]);
            }
        };
        if code_and_message(ctx.contract, &got) != code_and_message(ctx.contract, &expected) {
            return Verdict::fail(
                "the error's constant or message changes with the locale",
                &[&neutral, &foreign],
            );
        }
        judged.push(foreign);
    }
    if judged.is_empty() {
        return Verdict::skip("no call failed with an error to compare across locales");
    }
    Verdict::pass(&judged.iter().collect::<Vec<_>>())
}

/// The shape of stdout an agent parses: for each line, whether it is one JSON value.
fn line_shape(run: &Run) -> Vec<bool> {
    run.out().lines().map(|line| json(line).is_ok()).collect()
}

/// fm63.columns (§63 Terminal Column Width Output Corruption): with `COLUMNS=20` the primary
/// example prints the same lines, each JSON where it was JSON (nothing wrapped at the width),
/// and the agent help (pas) the same bytes.
pub fn columns(ctx: &mut Ctx) -> Verdict {
    let Some((plan, wide)) = ctx.primary() else {
        return Verdict::skip(ctx.why_no_example());
    };
    let args = ctx.machine(&plan.args);
    let narrow = ctx.run(&Call::new(&args).with_env(NARROW));
    if line_shape(&narrow) != line_shape(&wide) {
        return Verdict::fail(
            "with COLUMNS=20 stdout's lines differ (wrapped, or JSON no more)",
            &[&wide, &narrow],
        );
    }
    let mut runs = vec![wide, narrow];
    if ctx.contract == Contract::Pas {
        let help = ctx.agent_help();
        let args = ctx.machine(&["--help".to_owned()]);
        let narrow_help = ctx.run(&Call::new(&args).with_env(NARROW));
        if narrow_help.stdout != help.stdout {
            return Verdict::fail(
                "with COLUMNS=20 the agent help is not the same bytes",
                &[&help, &narrow_help],
            );
        }
        runs.extend([help, narrow_help]);
    }
    Verdict::pass(&runs.iter().collect::<Vec<_>>())
}

/// fm21.bare_call (§21 Schema & Help Discoverability): the tool's name alone, the first thing
/// an agent tries, exits 0 with the root help on stdout, never a usage error. In the pas
/// contract the call is made in machine mode (`PAS_AGENT=1`, argv empty): a person's bare call
/// is the tool's own, as it was before the agent flag was added (PAS). Skipped for a
/// tool whose root is itself a command that needs no argument (its bare call runs it), and in
/// the robot contract, whose every call is one envelope and whose missing subcommand is its
/// argument error (`robot.arguments` judges that envelope).
pub fn bare_call(ctx: &mut Ctx) -> Verdict {
    if ctx.contract == Contract::Robot {
        return Verdict::skip("a robot tool answers a bare call with its argument-error envelope");
    }
    if let Some(registry) = &ctx.registry
        && registry
            .commands
            .iter()
            .any(|c| c.argv_path().is_empty() && c.parameters.iter().all(|p| !p.required))
    {
        return Verdict::skip("the root is a command that runs with no argument");
    }
    let run = match ctx.contract {
        Contract::Pas => ctx.run(&Call::new::<&str>(&[]).with_env(&[("PAS_AGENT", "1")])),
        _ => ctx.cached(&[]),
    };
    if !run.exited(0) {
        let why = format!(
            "a bare call ended with {}, not 0 with the root help",
            run.status()
        );
        return Verdict::fail(why, &[&run]);
    }
    if run.out().trim().is_empty() {
        return Verdict::fail("a bare call printed nothing on stdout", &[&run]);
    }
    Verdict::pass(&[&run])
}

/// The flag of §54's top score: check a call without running it.
const VALIDATE_ONLY: &str = "--validate-only";

/// What a `--validate-only` call answered on success: stdout's object (pas) or the envelope's
/// `data` (compose, robot).
fn validated_data(contract: Contract, run: &Run) -> Result<Value, String> {
    match contract {
        Contract::Pas => json(&run.out()),
        Contract::Compose => Ok(compose::envelope(run)?["data"].clone()),
        Contract::Robot => Ok(robot::envelope(run)?["data"].clone()),
    }
}

/// fm54.validate_only (§54 Conditional / Dependent Argument Requirements, and §14): a tool that
/// offers `--validate-only` (its agent help lists it, or it does not refuse it) answers `{"valid": true}` (pas; the envelope's `data`
/// elsewhere) with exit 0 for its runnable examples, instead of their output, and fails an
/// unknown flag with the same error constant as the call without `--validate-only`. A tool
/// that refuses the flag by name, and whose agent help does not list it, is skipped.
pub fn validate_only(ctx: &mut Ctx) -> Verdict {
    let offered = ctx.agent_help().out().contains(VALIDATE_ONLY);
    let runs = match super::need_examples(ctx) {
        Ok(runs) => runs,
        Err(skip) => return skip,
    };
    let eligible: Vec<_> = runs
        .into_iter()
        .filter(|(plan, run)| run.exited(0) && plan.command.is_some())
        .take(AT_MOST)
        .collect();
    if eligible.is_empty() {
        return Verdict::skip("no example of a command succeeds to validate");
    }
    let mut judged = Vec::new();
    for (plan, ran) in eligible {
        let mut args = vec![VALIDATE_ONLY.to_owned()];
        args.extend(plan.args.iter().cloned());
        let run = ctx.run(&Call::new(&ctx.machine(&args)));
        // Not in the agent help (a one-command tool's lists no global flags) and refused by
        // name: the tool does not offer the flag.
        let refused_by_name = !run.exited(0)
            && (run.out().contains(VALIDATE_ONLY)
                || String::from_utf8_lossy(&run.stderr).contains(VALIDATE_ONLY));
        if !offered && judged.is_empty() && refused_by_name {
            return Verdict::skip("the tool does not offer --validate-only");
        }
        if !run.exited(0) {
            let why = format!("{} with --validate-only, 0 without", run.status());
            return Verdict::fail(why, &[&ran, &run]);
        }
        match validated_data(ctx.contract, &run) {
            Ok(data) if data["valid"] == Value::Bool(true) => {}
            Ok(_) => {
                return Verdict::fail(
                    "--validate-only did not answer valid: true (did the command run?)",
                    &[&ran, &run],
                );
            }
            Err(why) => return Verdict::fail(why, &[&run]),
        }
        judged.push(run);
    }
    let mut unknown = ctx.primary().map(|(p, _)| p.args).unwrap_or_default();
    unknown.push(errors::UNKNOWN_FLAG.to_owned());
    let plain = ctx.run(&Call::new(&ctx.machine(&unknown)));
    unknown.insert(0, VALIDATE_ONLY.to_owned());
    let checked = ctx.run(&Call::new(&ctx.machine(&unknown)));
    let code = |run: &Run| {
        error_object(ctx.contract, run)
            .map(|error| code_and_message(ctx.contract, &error).0)
            .ok()
    };
    if code(&checked).is_none() || code(&checked) != code(&plain) || checked.code != plain.code {
        return Verdict::fail(
            "an unknown flag with --validate-only is not the error it is without",
            &[&plain, &checked],
        );
    }
    judged.push(checked);
    Verdict::pass(&judged.iter().collect::<Vec<_>>())
}
