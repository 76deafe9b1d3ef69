//! Help and version: `--agent --help` is the agent contract (PAS 4.1), `--help` stays human,
//! and `--version` answers.

use super::{Verdict, has_ansi, words};
use crate::context::Ctx;

/// The sections PAS 4.1 names, in the order it gives them.
const SECTIONS: [&str; 3] = ["USAGE", "COMMON PATTERNS", "ERROR CODES"];

/// help.agent: the sections, exit 0, no ANSI, nothing on stderr.
pub fn agent_help(ctx: &mut Ctx) -> Verdict {
    let run = ctx.agent_help();
    if !run.exited(0) {
        return Verdict::fail(
            format!("--agent --help ended with {}", run.status()),
            &[&run],
        );
    }
    let text = run.out();
    let headers: Vec<String> = text
        .lines()
        .map(|l| l.trim().trim_end_matches(':').to_ascii_uppercase())
        .collect();
    if let Some(missing) = SECTIONS.iter().find(|s| !headers.iter().any(|h| h == *s)) {
        return Verdict::fail(format!("no {missing}: section"), &[&run]);
    }
    if has_ansi(&run.stdout) {
        return Verdict::fail("ANSI codes in the agent help", &[&run]);
    }
    Verdict::pass(&[&run])
}

/// help.human: `--help` without `--agent` exits 0 and is not the agent help.
pub fn human_help(ctx: &mut Ctx) -> Verdict {
    let agent = ctx.agent_help();
    let human = ctx.cached(&words(&["--help"]));
    if !human.exited(0) {
        return Verdict::fail(format!("--help ended with {}", human.status()), &[&human]);
    }
    if human.stdout.is_empty() {
        return Verdict::fail("--help printed nothing on stdout", &[&human]);
    }
    if human.stdout == agent.stdout {
        return Verdict::fail(
            "--help prints the agent help: the human manual is gone",
            &[&human, &agent],
        );
    }
    Verdict::pass(&[&human])
}

/// version: `--version` exits 0 with one non-empty line (naming the spec's version, if known).
pub fn version(ctx: &mut Ctx) -> Verdict {
    let run = ctx.cached(&words(&["--version"]));
    if !run.exited(0) {
        return Verdict::fail(format!("--version ended with {}", run.status()), &[&run]);
    }
    let text = run.out();
    if text.trim().is_empty() || text.trim().lines().count() != 1 {
        return Verdict::fail("--version is not one line", &[&run]);
    }
    if let Some(registry) = &ctx.registry
        && !text.contains(&registry.version)
    {
        return Verdict::fail(
            format!("--version does not name version {}", registry.version),
            &[&run],
        );
    }
    Verdict::pass(&[&run])
}
