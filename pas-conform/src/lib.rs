//! `pas-conform`: the conformance checks of the PAS standard (levels 1 to 4) and of the compose
//! and robot contracts, run on any command-line tool as a black box.
//!
//! It is the engine behind `pas-gen conform` and behind `--validate-pas` (PAS 9.2) in every CLI
//! built with pas: both give the same report. It runs the tool, never links it, so a shell script
//! is checked exactly as a Rust binary is.
//!
//! ```no_run
//! use pas_conform::{Target, conform};
//! let target = Target::resolve(vec!["./my-tool".into()], None, Some(2), None);
//! let report = conform(&target);
//! print!("{}", report.to_text());
//! std::process::exit(if report.ok() { 0 } else { 1 });
//! ```
#![deny(missing_docs)]

mod checks;
mod context;
mod plan;
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
