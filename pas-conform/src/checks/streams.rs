//! Output checks: JSON and NDJSON validity, outputSchema, `--format=array`, determinism, and a
//! reader that goes away after one line.

use std::io::{BufRead, BufReader, Read};
use std::time::Duration;

use pas_spec::OutputKind;
use serde_json::Value;

use super::{Verdict, json, need_examples};
use crate::context::Ctx;
use crate::plan::Planned;
use crate::runner::{self, Call, Run};
use crate::target::Contract;

/// How to give a check data, in every skip for want of it.
pub const NO_DATA: &str = "give the tool data to read (its environment or a fixture store; see \
                           docs/data-tools.md, \"Giving conform data\")";

fn kind(plan: &Planned) -> OutputKind {
    plan.command
        .as_ref()
        .map_or(OutputKind::Object, |c| c.output)
}

/// Every line of NDJSON parsed, or the first bad line and why.
pub fn ndjson_lines(text: &str) -> Result<Vec<Value>, String> {
    if !text.is_empty() && !text.ends_with('\n') {
        return Err("the last line has no newline (a half-written line?)".into());
    }
    text.lines()
        .enumerate()
        .map(|(i, line)| json(line).map_err(|e| format!("line {}: {e}: {line:?}", i + 1)))
        .collect()
}

/// The values an output holds: one (object) or one per line (lists, events).
fn values(plan: &Planned, run: &Run) -> Result<Vec<Value>, String> {
    let text = run.out();
    match kind(plan) {
        OutputKind::Document => Ok(Vec::new()),
        OutputKind::None if text.is_empty() => Ok(Vec::new()),
        OutputKind::List | OutputKind::Events => ndjson_lines(&text),
        // Unknown or object: one JSON value, or NDJSON when it is not one value.
        _ => match json(&text) {
            Ok(value) => Ok(vec![value]),
            Err(one) => ndjson_lines(&text).map_err(|_| format!("not JSON: {one}")),
        },
    }
}

/// output.json: what each example prints on success is JSON.
pub fn json_valid(ctx: &mut Ctx) -> Verdict {
    let runs = match need_examples(ctx) {
        Ok(runs) => runs,
        Err(skip) => return skip,
    };
    let mut checked = Vec::new();
    for (plan, run) in &runs {
        if !run.exited(0) {
            continue;
        }
        match values(plan, run) {
            Err(why) => return Verdict::fail(format!("`{}`: {why}", plan.text), &[run]),
            // Nothing printed (an empty list): no JSON was seen, so none is judged.
            Ok(values) if values.is_empty() => continue,
            Ok(_) => checked.push(run),
        }
    }
    if checked.is_empty() {
        // A tool whose every command fails (a scaffold's stubs answer NOT_IMPLEMENTED), or
        // prints nothing (an empty store), gives no output to judge here; its errors are what
        // errors.shape holds to PAS 7.1.
        return Verdict::skip(format!(
            "no example printed any JSON to judge (every one failed, or printed nothing): {NO_DATA}"
        ));
    }
    Verdict::pass(&checked)
}

/// output.ndjson: list and events commands print one JSON object per line, never one array.
pub fn ndjson(ctx: &mut Ctx) -> Verdict {
    let runs = match need_examples(ctx) {
        Ok(runs) => runs,
        Err(skip) => return skip,
    };
    let lists: Vec<&(Planned, Run)> = runs
        .iter()
        .filter(|(p, r)| {
            r.exited(0)
                && !r.stdout.is_empty()
                && matches!(kind(p), OutputKind::List | OutputKind::Events)
        })
        .collect();
    if lists.is_empty() {
        return Verdict::skip(format!(
            "no list or events example printed a line to judge: {NO_DATA}"
        ));
    }
    for (plan, run) in &lists {
        match ndjson_lines(&run.out()) {
            Err(why) => return Verdict::fail(format!("`{}`: {why}", plan.text), &[run]),
            Ok(values) => {
                if let Some(bad) = values.iter().find(|v| !v.is_object()) {
                    return Verdict::fail(
                        format!("`{}`: a line is not a JSON object: {bad}", plan.text),
                        &[run],
                    );
                }
            }
        }
    }
    Verdict::pass(&lists.iter().map(|(_, r)| r).collect::<Vec<_>>())
}

/// output.schema: every value an example prints validates against its command's outputSchema.
/// In the compose and robot contracts the payload is the envelope's `data`.
pub fn schema(ctx: &mut Ctx) -> Verdict {
    let runs = match need_examples(ctx) {
        Ok(runs) => runs,
        Err(skip) => return skip,
    };
    let contract = ctx.contract;
    let mut checked = Vec::new();
    for (plan, run) in &runs {
        let Some(schema) = plan.command.as_ref().and_then(|c| c.output_schema.as_ref()) else {
            continue;
        };
        if !run.exited(0) {
            continue;
        }
        let Ok(validator) = jsonschema::validator_for(schema) else {
            return Verdict::fail(
                format!("`{}`: its outputSchema does not compile", plan.text),
                &[run],
            );
        };
        let items = match payload(contract, plan, run) {
            Ok(items) => items,
            Err(why) => return Verdict::fail(format!("`{}`: {why}", plan.text), &[run]),
        };
        if items.is_empty() {
            // An empty list validates against anything: it is no evidence.
            continue;
        }
        for item in &items {
            if let Some(error) = validator.iter_errors(item).next() {
                return Verdict::fail(
                    format!("`{}`: {} at `{}`", plan.text, error, error.instance_path()),
                    &[run],
                );
            }
        }
        checked.push(run);
    }
    if checked.is_empty() {
        return Verdict::skip(format!(
            "no successful example of a command with an outputSchema printed data: {NO_DATA}"
        ));
    }
    Verdict::pass(&checked)
}

/// The items an output schema describes: each value (pas), or the envelope's data (a list's
/// items when data is an array).
fn payload(contract: Contract, plan: &Planned, run: &Run) -> Result<Vec<Value>, String> {
    let values = values(plan, run)?;
    if contract == Contract::Pas {
        return Ok(values);
    }
    let data = values
        .into_iter()
        .next()
        .map(|mut v| v["data"].take())
        .unwrap_or(Value::Null);
    Ok(match (kind(plan), data) {
        (OutputKind::List | OutputKind::Events, Value::Array(items)) => items,
        (OutputKind::List | OutputKind::Events, Value::Object(mut map)) => {
            // A paged list may wrap its items: the first array field holds them.
            match map.values_mut().find(|v| v.is_array()).map(Value::take) {
                Some(Value::Array(items)) => items,
                _ => Vec::new(),
            }
        }
        (_, data) => vec![data],
    })
}

/// output.format_array: `--format=array` prints one JSON array holding the NDJSON lines.
pub fn format_array(ctx: &mut Ctx) -> Verdict {
    let runs = match need_examples(ctx) {
        Ok(runs) => runs,
        Err(skip) => return skip,
    };
    let Some((plan, lines)) = runs
        .into_iter()
        .find(|(p, r)| r.exited(0) && !r.stdout.is_empty() && kind(p) == OutputKind::List)
    else {
        return Verdict::skip(format!(
            "no list example printed an item to compare: {NO_DATA}"
        ));
    };
    let mut args = ctx.machine(&plan.args);
    args.push("--format=array".into());
    let array = ctx.cached(&args);
    if !array.exited(0) {
        return Verdict::fail("--format=array did not exit 0", &[&array]);
    }
    let expected: Vec<Value> = ndjson_lines(&lines.out()).unwrap_or_default();
    match json(&array.out()) {
        Ok(Value::Array(items)) if items == expected => Verdict::pass(&[&lines, &array]),
        Ok(Value::Array(_)) => Verdict::fail(
            "the array's items differ from the NDJSON lines",
            &[&lines, &array],
        ),
        Ok(_) => Verdict::fail("not a JSON array", &[&array]),
        Err(why) => Verdict::fail(format!("not one JSON value: {why}"), &[&array]),
    }
}

/// output.deterministic: the primary example three times gives the same stdout and exit code.
pub fn deterministic(ctx: &mut Ctx) -> Verdict {
    let Some((plan, first)) = ctx.primary() else {
        return Verdict::skip(ctx.why_no_example());
    };
    if first.stdout.is_empty() {
        return Verdict::skip(format!(
            "`{}` printed nothing: the same empty bytes three times prove nothing: {NO_DATA}",
            plan.text
        ));
    }
    let args = ctx.machine(&plan.args);
    let again: Vec<Run> = (0..2).map(|_| ctx.run(&Call::new(&args))).collect();
    for run in &again {
        if run.stdout != first.stdout || run.code != first.code {
            return Verdict::fail("a repeated call printed other bytes", &[&first, run]);
        }
    }
    Verdict::pass(&[&first, &again[0], &again[1]])
}

/// streams.pipe_close: the reader takes one line and closes the pipe; the tool must end on its
/// own with nothing on stderr (no "Broken pipe", no traceback).
pub fn pipe_close(ctx: &mut Ctx) -> Verdict {
    let Some((plan, first)) = ctx.primary() else {
        return Verdict::skip(ctx.why_no_example());
    };
    if first.stdout.is_empty() {
        return Verdict::skip(format!(
            "`{}` printed nothing: there is no line for a reader to take: {NO_DATA}",
            plan.text
        ));
    }
    let args = ctx.machine(&plan.args);
    let call = Call::new(&args).in_dir(ctx.scratch.as_ref().map(|s| s.path()));
    let mut child = match ctx.program.spawn(&call) {
        Ok(child) => child,
        Err(err) => return Verdict::fail(format!("cannot start: {err}"), &[]),
    };
    let mut first = String::new();
    if let Some(stdout) = child.stdout.take() {
        let mut reader = BufReader::new(stdout);
        let _ = reader.read_line(&mut first);
        // `head -1`: the reader goes away here.
    }
    let mut stderr = child.stderr.take();
    let timeout = ctx.program.timeout;
    let (status, timed_out) = runner::wait(&mut child, timeout);
    let mut err = Vec::new();
    if let Some(stream) = stderr.as_mut() {
        let _ = stream.read_to_end(&mut err);
    }
    let run = Run {
        argv: ctx.program.argv(&args),
        code: status.and_then(|s| s.code()),
        signal: status.and_then(|s| std::os::unix::process::ExitStatusExt::signal(&s)),
        stdout: first.into_bytes(),
        stderr: err,
        timed_out,
        elapsed: Duration::ZERO,
        not_started: None,
    };
    // Not added to the history: an exit after a closed pipe is not an error the shape checks
    // should judge (its stderr must be empty, not JSON).
    if timed_out {
        return Verdict::fail("the tool did not end after its reader went away", &[&run]);
    }
    if !run.stderr.is_empty() {
        return Verdict::fail("the closed pipe made noise on stderr", &[&run]);
    }
    Verdict::pass(&[&run])
}
