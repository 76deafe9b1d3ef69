//! On a terminal: machine output stays free of ANSI (PAS 2.1.3), and a terminal on stdin never
//! makes a call wait (PAS 2.1.2). The terminal is a pseudo-terminal from util-linux `script`,
//! whose stdin is held open, so a tool that reads it waits as it would for a person.

use std::time::Duration;

use super::{Verdict, has_ansi};
use crate::context::Ctx;
use crate::runner::Run;
use crate::target::Contract;

/// How long a call on the terminal may take.
const PTY_TIMEOUT: Duration = Duration::from_secs(5);

/// The calls run on the terminal: the primary example, the agent help, and a failing call.
fn calls(ctx: &mut Ctx) -> Vec<Vec<String>> {
    let mut calls = Vec::new();
    if let Some((plan, _)) = ctx.primary() {
        calls.push(ctx.machine(&plan.args));
        let mut bad = plan.args.clone();
        bad.push(super::errors::UNKNOWN_FLAG.to_owned());
        calls.push(ctx.machine(&bad));
    }
    // The agent help is machine output in pas; compose's `--help` stays human (it may colour),
    // and its catalog is the orientation call an agent makes first.
    match ctx.contract {
        Contract::Pas => calls.push(ctx.machine(&["--help".to_owned()])),
        Contract::Compose => calls.push(vec!["tools".to_owned()]),
        Contract::Robot => {}
    }
    calls
}

/// The terminal runs, made once: both checks judge the same calls.
fn pty_runs(ctx: &mut Ctx) -> Vec<Run> {
    if let Some(runs) = &ctx.pty {
        return runs.clone();
    }
    let dir = ctx.scratch.as_ref().map(|s| s.path().to_path_buf());
    let mut program = ctx.program.clone();
    // A prompt is caught sooner than the general timeout: nothing legitimate waits this long.
    program.timeout = program.timeout.min(PTY_TIMEOUT);
    // script runs the line through a shell: a relative path names a file from the scratch dir.
    if let Some(dir) = dir {
        program.prefix.insert(0, "--".to_owned());
        program.prefix.insert(0, dir.to_string_lossy().into_owned());
        program.prefix.insert(0, "-C".to_owned());
        program.prefix.insert(0, "env".to_owned());
    }
    let runs: Vec<Run> = calls(ctx)
        .iter()
        .map(|args| program.run_on_pty(args))
        .collect();
    ctx.pty = Some(runs.clone());
    runs
}

/// terminal.no_ansi: no escape codes or bells on the terminal in machine mode.
pub fn no_ansi(ctx: &mut Ctx) -> Verdict {
    let runs = pty_runs(ctx);
    if let Some(run) = runs.iter().find(|r| r.err().starts_with("cannot start")) {
        return Verdict::skip(format!(
            "the pseudo-terminal (util-linux script) did not run: {}",
            run.err()
        ));
    }
    for run in &runs {
        if has_ansi(&run.stdout) {
            return Verdict::fail("ANSI codes on a terminal in machine mode", &[run]);
        }
    }
    Verdict::pass(&runs.iter().collect::<Vec<_>>())
}

/// terminal.stdin: every call on the terminal ends within the timeout.
pub fn stdin_never_blocks(ctx: &mut Ctx) -> Verdict {
    let runs = pty_runs(ctx);
    for run in &runs {
        if run.timed_out {
            return Verdict::fail(
                format!(
                    "waited {}s on a terminal and was killed",
                    PTY_TIMEOUT.as_secs()
                ),
                &[run],
            );
        }
    }
    Verdict::pass(&runs.iter().collect::<Vec<_>>())
}
