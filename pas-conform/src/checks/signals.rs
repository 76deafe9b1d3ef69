//! SIGTERM during a long call (PAS 9.1 "timeout handling"): the tool ends promptly, reports it,
//! and leaves only whole lines on stdout.
//!
//! A long call is made from the primary example: the files it names become FIFOs nobody writes
//! (opening one blocks), or, for a command that reads stdin, stdin is a pipe held open and silent.
//! The signal goes to the tool's process group, as a terminal's or a supervisor's would.

use std::io::Read;
use std::thread;
use std::time::Duration;

use pas_spec::StdinMode;

use super::Verdict;
use crate::context::Ctx;
use crate::runner::{self, Call, Run, Stdin};
use crate::scratch::Scratch;

/// How long the call runs before the signal.
const SETTLE: Duration = Duration::from_millis(300);
/// How long the tool has to end after it.
const GRACE: Duration = Duration::from_secs(3);

/// signals.sigterm.
pub fn sigterm(ctx: &mut Ctx) -> Verdict {
    let Some((plan, _)) = ctx.primary() else {
        return Verdict::skip(ctx.why_no_example());
    };
    let Some(scratch) = &ctx.scratch else {
        return Verdict::skip("no scratch directory");
    };
    let dir = scratch.dir("fifo");
    let reads_stdin = plan
        .command
        .as_ref()
        .is_some_and(|c| c.stdin != StdinMode::None);
    let fifos = Scratch::provide_fifos(&dir, &plan.args);
    if !fifos && !reads_stdin {
        return Verdict::skip(format!(
            "no long-running invocation: `{}` names no file and reads no stdin",
            plan.text
        ));
    }
    let args = ctx.machine(&plan.args);
    let stdin = if reads_stdin {
        Stdin::Held
    } else {
        Stdin::Null
    };
    let call = Call::new(&args).stdin(stdin).in_dir(Some(&dir));
    let mut child = match ctx.program.spawn(&call) {
        Ok(child) => child,
        Err(err) => return Verdict::fail(format!("cannot start: {err}"), &[]),
    };
    let held = child.stdin.take();
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    thread::sleep(SETTLE);
    let running = matches!(child.try_wait(), Ok(None));
    if running {
        runner::signal_group(child.id(), "TERM");
    }
    let (status, timed_out) = runner::wait(&mut child, GRACE);
    // Whatever is left of the group (a shell's child) goes too.
    runner::signal_group(child.id(), "KILL");
    drop(held);
    let run = Run {
        argv: ctx.program.argv(&args),
        code: status.and_then(|s| s.code()),
        signal: status.and_then(|s| std::os::unix::process::ExitStatusExt::signal(&s)),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        timed_out,
        elapsed: Duration::ZERO,
        not_started: None,
    };
    if !running {
        return Verdict::skip(format!(
            "`{}` ended ({}) before SIGTERM could be sent",
            plan.text,
            run.status()
        ));
    }
    if timed_out {
        return Verdict::fail(
            format!("still running {}s after SIGTERM", GRACE.as_secs()),
            &[&run],
        );
    }
    if !run.stdout.is_empty() && !run.stdout.ends_with(b"\n") {
        return Verdict::fail("a half-written line on stdout", &[&run]);
    }
    match (run.code, run.signal) {
        (_, Some(15)) | (Some(143), _) => Verdict::pass(&[&run]),
        (Some(0), _) => Verdict::fail(
            "exit 0 after SIGTERM: a cut-short call reported success",
            &[&run],
        ),
        (Some(_), _) if super::errors::stderr_error(&run).is_ok() => Verdict::pass(&[&run]),
        _ => Verdict::fail("ended without a structured error", &[&run]),
    }
}

fn drain<R: Read + Send + 'static>(stream: Option<R>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut stream) = stream {
            let _ = stream.read_to_end(&mut bytes);
        }
        bytes
    })
}
