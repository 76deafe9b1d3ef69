//! `--agent` is a global switch: any position gives the same bytes (PAS 2.1).

use super::{Verdict, words};
use crate::context::Ctx;

/// agent.any_position: the primary example with `--agent` first, last, and right after the
/// command's words; without an example, `--agent --help` against `--help --agent`.
pub fn any_position(ctx: &mut Ctx) -> Verdict {
    let (args, path_len) = match ctx.primary() {
        Some((plan, _)) => {
            let len = plan.path_len();
            (plan.args, len)
        }
        None => (words(&["--help"]), 0),
    };
    let mut first = vec!["--agent".to_owned()];
    first.extend(args.iter().cloned());
    let mut last = args.clone();
    last.push("--agent".into());
    let mut variants = vec![first, last];
    if path_len > 0 {
        let mut middle = args[..path_len].to_vec();
        middle.push("--agent".into());
        middle.extend(args[path_len..].iter().cloned());
        variants.push(middle);
    }
    let runs: Vec<_> = variants.iter().map(|v| ctx.cached(v)).collect();
    let reference = &runs[0];
    for run in &runs[1..] {
        if run.stdout != reference.stdout
            || run.stderr != reference.stderr
            || run.code != reference.code
        {
            return Verdict::fail(
                "the position of --agent changed the output",
                &[reference, run],
            );
        }
    }
    if runs[0].timed_out {
        return Verdict::fail("the call did not end", &[reference]);
    }
    Verdict::pass(&runs.iter().collect::<Vec<_>>())
}
