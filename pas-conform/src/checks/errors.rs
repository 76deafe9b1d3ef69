//! Errors and exit codes: structured JSON errors on stderr (PAS 7.1), exit 2 for misuse and
//! semantic, documented exit codes (PAS 3.3).

use std::collections::BTreeSet;

use serde_json::Value;

use super::{Verdict, json};
use crate::context::Ctx;
use crate::runner::Run;

/// A flag no tool has.
pub const UNKNOWN_FLAG: &str = "--pas-conform-no-such-flag";

/// The unknown-flag call: the primary example plus a flag it cannot know, else the flag alone.
pub fn unknown_flag_run(ctx: &mut Ctx) -> Run {
    let mut args = ctx.primary().map(|(p, _)| p.args).unwrap_or_default();
    args.push(UNKNOWN_FLAG.to_owned());
    let args = ctx.machine(&args);
    ctx.cached(&args)
}

/// The JSON error object on stderr (the whole of it, or its last non-empty line), or why not.
pub fn stderr_error(run: &Run) -> Result<Value, String> {
    let text = run.err();
    let value = json(text.trim()).or_else(|whole| {
        let last = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        json(last).map_err(|_| format!("stderr is not JSON ({whole})"))
    })?;
    error_shape(&value)?;
    Ok(value)
}

/// PAS 7.1: an object with an UPPER_SNAKE `error` and a string `message`.
pub fn error_shape(value: &Value) -> Result<(), String> {
    let Some(code) = value.get("error").and_then(Value::as_str) else {
        return Err("no string `error` field".into());
    };
    if !is_upper_snake(code) {
        return Err(format!("`error` is not an UPPER_SNAKE constant: {code:?}"));
    }
    if !value.get("message").is_some_and(Value::is_string) {
        return Err("no string `message` field".into());
    }
    Ok(())
}

/// `NOT_FOUND`, `E404`: capitals, digits and underscores, starting with a capital.
pub fn is_upper_snake(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_uppercase())
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// errors.unknown_flag: non-zero exit, stdout empty, a JSON error on stderr.
pub fn unknown_flag(ctx: &mut Ctx) -> Verdict {
    let run = unknown_flag_run(ctx);
    if run.timed_out || run.code.is_none_or(|c| c == 0) {
        return Verdict::fail("an unknown flag did not fail", &[&run]);
    }
    if !run.stdout.is_empty() {
        return Verdict::fail("stdout is not empty on failure", &[&run]);
    }
    match stderr_error(&run) {
        Ok(_) => Verdict::pass(&[&run]),
        Err(why) => Verdict::fail(why, &[&run]),
    }
}

/// exit_codes.usage: misuse exits 2.
pub fn usage_exit(ctx: &mut Ctx) -> Verdict {
    let run = unknown_flag_run(ctx);
    if run.exited(2) {
        Verdict::pass(&[&run])
    } else {
        Verdict::fail(
            format!("an unknown flag ended with {}, not exit 2", run.status()),
            &[&run],
        )
    }
}

/// The runs made in machine mode that failed with an exit code.
fn failures(ctx: &Ctx) -> Vec<Run> {
    let mut seen = BTreeSet::new();
    ctx.history
        .iter()
        .filter(|r| r.argv.iter().any(|a| a == "--agent"))
        .filter(|r| !r.timed_out && r.code.is_some_and(|c| c != 0))
        .filter(|r| seen.insert(r.argv.clone()))
        .cloned()
        .collect()
}

/// errors.shape: every failure seen in machine mode has a PAS 7.1 error on stderr.
pub fn shape(ctx: &mut Ctx) -> Verdict {
    // At least one failure is always judged: the unknown flag.
    unknown_flag_run(ctx);
    let failures = failures(ctx);
    for run in &failures {
        if let Err(why) = stderr_error(run) {
            return Verdict::fail(why, &[run]);
        }
    }
    Verdict::pass(&failures.iter().collect::<Vec<_>>())
}

/// The exit codes listed in an ERROR CODES section: the number at the start of each line.
pub fn documented_codes(help: &str) -> Option<BTreeSet<i32>> {
    let mut lines = help.lines().skip_while(|l| {
        !l.trim_start()
            .to_ascii_uppercase()
            .starts_with("ERROR CODES")
    });
    lines.next()?;
    let codes = lines
        .take_while(|l| l.trim().is_empty() || l.starts_with([' ', '\t']))
        .filter_map(|l| {
            l.split_whitespace()
                .next()?
                .trim_end_matches(':')
                .parse()
                .ok()
        })
        .collect();
    Some(codes)
}

/// exit_codes.documented: the ERROR CODES of `--agent --help` list 0, every declared code (by
/// number and name) and every code seen during the run.
pub fn documented(ctx: &mut Ctx) -> Verdict {
    let help = ctx.agent_help();
    let text = help.out();
    let Some(listed) = documented_codes(&text) else {
        return Verdict::fail("--agent --help has no ERROR CODES section", &[&help]);
    };
    if !listed.contains(&0) {
        return Verdict::fail("ERROR CODES does not list 0", &[&help]);
    }
    if let Some(registry) = &ctx.registry {
        for code in &registry.exit_codes {
            if !listed.contains(&i32::from(code.code)) || !text.contains(&code.name) {
                return Verdict::fail(
                    format!(
                        "the declared exit code {} {} is not in ERROR CODES",
                        code.code, code.name
                    ),
                    &[&help],
                );
            }
        }
    }
    for run in failures(ctx) {
        let code = run.code.unwrap_or_default();
        if !listed.contains(&code) {
            return Verdict::fail(
                format!("exit {code} is not listed in ERROR CODES"),
                &[&run, &help],
            );
        }
    }
    Verdict::pass(&[&help])
}

/// exit_codes.semantic: the codes seen are in PAS 3.3's ranges.
pub fn semantic(ctx: &mut Ctx) -> Verdict {
    for run in ctx.history.clone() {
        let Some(code) = run.code else { continue };
        let known = matches!(code, 0..=2 | 64..=78 | 100..=125 | 128..=159);
        if !known {
            return Verdict::fail(format!("exit {code} is outside PAS 3.3's ranges"), &[&run]);
        }
    }
    Verdict::pass(&[])
}
