//! `pas-conform`: the conformance checks of the PAS standard (levels 1 to 4) and of the compose
//! and robot contracts, run on any command-line tool as a black box.
//!
//! It depends on `pas-spec` only and must never depend on the runtime: it runs a tool, never
//! links it, and the runtime links it for `--validate-pas` (ARCHITECTURE.md at the repository
//! root).
//!
//! It is the engine behind `pas-gen conform` and behind `--validate-pas` (PAS 9.2) in every CLI
//! built with pas: both give the same report. It runs the tool, never links it, so a shell script
//! is checked exactly as a Rust binary is.
//!
//! [`Target::resolve`] takes the command line that starts the tool (the program and any leading
//! words, such as `python3 tool.py`), and optionally its spec, level and contract; what is not
//! given is asked of the tool (`--pas-spec`, `--version`). [`conform`] then runs the checks and
//! returns a [`Report`] with every check's verdict and the calls that prove it.
//!
//! ```
//! use pas_conform::{Outcome, Target, conform};
//!
//! // A shell one-liner that ignores its arguments, held to PAS level 1.
//! let tool = vec!["sh".to_owned(), "-c".to_owned(), "echo hello".to_owned()];
//! let target = Target::resolve(tool, None, Some(1), None);
//! let report = conform(&target);
//!
//! // `sh -c 'echo hello' --agent --pas-conform-no-such-flag` printed "hello" and exited 0:
//! // an unknown flag must fail with a JSON error on stderr.
//! let unknown = report.checks.iter().find(|c| c.id == "errors.unknown_flag").unwrap();
//! assert_eq!(unknown.outcome, Outcome::Fail);
//! assert!(!report.ok());
//! assert_eq!(report.level_met(), 0);
//! // What `pas-gen conform` prints: each check, why it failed, and the call that shows it.
//! println!("{}", report.to_text());
//! ```
#![deny(missing_docs)]

mod checks;
mod context;
mod orphans;
mod plan;
mod processes;
pub mod report;
pub mod runner;
mod scratch;
mod target;

pub use report::{CheckResult, Evidence, Outcome, Report};
pub use target::{Contract, DEFAULT_TIMEOUT, Target};

use checks::CHECKS;
use context::Ctx;

/// Runs every check the target's contract demands up to its claimed level.
pub fn conform(target: &Target) -> Report {
    let mut ctx = Ctx::new(target);
    let mut results = Vec::new();
    for check in CHECKS {
        if !check.contracts.contains(&target.contract) || check.level > target.claimed {
            continue;
        }
        let verdict = (check.run)(&mut ctx);
        results.push(CheckResult {
            id: check.id,
            section: check.section,
            level: check.level,
            title: check.title,
            outcome: verdict.outcome,
            reason: verdict.reason,
            evidence: verdict.evidence,
        });
    }
    Report {
        tool: target.name(),
        contract: target.contract,
        claimed: target.claimed,
        checks: results,
    }
}

/// The ids of every check, in the order they run (for documentation and tests).
pub fn check_ids() -> Vec<&'static str> {
    CHECKS.iter().map(|c| c.id).collect()
}
