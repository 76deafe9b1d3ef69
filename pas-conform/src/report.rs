//! The report: each check's outcome with its evidence, the level met, and its two renderings
//! (a table for people, one JSON object per check for agents).

use serde_json::{Value, json};

use crate::runner::Run;
use crate::target::Contract;

/// How much of stdout or stderr a piece of evidence keeps.
const CLIP: usize = 400;

/// A check's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The tool keeps the rule.
    Pass,
    /// The tool breaks it.
    Fail,
    /// The check could not run (the reason says why); it never lowers the level met.
    Skip,
}

impl Outcome {
    /// The spelling in the JSON report.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Skip => "skip",
        }
    }

    fn mark(self) -> &'static str {
        match self {
            Outcome::Pass => "✓",
            Outcome::Fail => "✗",
            Outcome::Skip => "-",
        }
    }
}

/// One call a check made, clipped for the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    /// The whole argv.
    pub argv: Vec<String>,
    /// The exit code, when it exited.
    pub exit: Option<i32>,
    /// How it ended, in words (`exit 0`, `timed out`, ...).
    pub status: String,
    /// stdout, clipped.
    pub stdout: String,
    /// stderr, clipped.
    pub stderr: String,
}

impl Evidence {
    /// The evidence of one run.
    pub fn of(run: &Run) -> Evidence {
        Evidence {
            argv: run.argv.clone(),
            exit: run.code,
            status: run.status(),
            stdout: clip(&run.out()),
            stderr: clip(&run.err()),
        }
    }

    fn to_json(&self) -> Value {
        json!({
            "argv": self.argv,
            "exit": self.exit,
            "status": self.status,
            "stdout": self.stdout,
            "stderr": self.stderr,
        })
    }
}

/// The first [`CLIP`] characters, with a note of how much was cut.
fn clip(text: &str) -> String {
    let count = text.chars().count();
    if count <= CLIP {
        return text.to_owned();
    }
    let kept: String = text.chars().take(CLIP).collect();
    format!("{kept}… ({} more characters)", count - CLIP)
}

/// One check's result.
#[derive(Debug, Clone)]
pub struct CheckResult {
    /// Stable id, e.g. `agent.any_position`.
    pub id: &'static str,
    /// The contract section it comes from, e.g. `PAS 2.1`.
    pub section: &'static str,
    /// The lowest level that demands it (1 for compose and robot checks).
    pub level: u8,
    /// What the check holds the tool to.
    pub title: &'static str,
    /// The verdict.
    pub outcome: Outcome,
    /// Why it failed or was skipped (empty on a plain pass).
    pub reason: String,
    /// The calls that decided it.
    pub evidence: Vec<Evidence>,
}

impl CheckResult {
    /// The JSON line of this check.
    pub fn to_json(&self) -> Value {
        json!({
            "kind": "check",
            "check": self.id,
            "section": self.section,
            "level": self.level,
            "title": self.title,
            "status": self.outcome.as_str(),
            "reason": self.reason,
            "evidence": self.evidence.iter().map(Evidence::to_json).collect::<Vec<_>>(),
        })
    }

    /// The table row (and, for a failure, its evidence) for people.
    pub fn to_text(&self) -> String {
        let mut text = format!(
            "{} {:<26} {:<12} L{}  {}",
            self.outcome.mark(),
            self.id,
            self.section,
            self.level,
            self.title
        );
        if !self.reason.is_empty() {
            text.push_str(&format!("\n      {}", self.reason));
        }
        if self.outcome == Outcome::Fail {
            for evidence in &self.evidence {
                text.push_str(&format!(
                    "\n      $ {}\n      {}; stdout: {:?}; stderr: {:?}",
                    shell_words::join(&evidence.argv),
                    evidence.status,
                    evidence.stdout,
                    evidence.stderr
                ));
            }
        }
        text
    }
}

/// The whole run.
#[derive(Debug, Clone)]
pub struct Report {
    /// The tool's name (the spec's, else the program's file name).
    pub tool: String,
    /// The contract checked.
    pub contract: Contract,
    /// The level claimed.
    pub claimed: u8,
    /// Every check, in the order run.
    pub checks: Vec<CheckResult>,
}

impl Report {
    /// The highest level whose checks (and those of every lower level) have no failure; 0 when
    /// a level 1 check fails. Never above the level claimed: higher levels are not checked.
    pub fn level_met(&self) -> u8 {
        (1..=self.claimed)
            .take_while(|level| {
                !self
                    .checks
                    .iter()
                    .any(|c| c.level <= *level && c.outcome == Outcome::Fail)
            })
            .last()
            .unwrap_or(0)
    }

    /// The claimed level is met.
    pub fn ok(&self) -> bool {
        self.level_met() >= self.claimed
    }

    fn count(&self, outcome: Outcome) -> usize {
        self.checks.iter().filter(|c| c.outcome == outcome).count()
    }

    /// The summary line: the final item of the JSON report.
    pub fn summary_json(&self) -> Value {
        json!({
            "kind": "summary",
            "tool": self.tool,
            "contract": self.contract.as_str(),
            "claimed": self.claimed,
            "levelMet": self.level_met(),
            "ok": self.ok(),
            "passed": self.count(Outcome::Pass),
            "failed": self.count(Outcome::Fail),
            "skipped": self.count(Outcome::Skip),
        })
    }

    /// The summary for people.
    pub fn summary_text(&self) -> String {
        let met = self.level_met();
        let name = match met {
            0 => "none (level 1 not met)",
            1 => "Level 1 (Agent-Safe)",
            2 => "Level 2 (Agent-Optimized)",
            3 => "Level 3 (Navigation Contract)",
            _ => "Level 4 (State Contract)",
        };
        format!(
            "\nConformance: {name}; claimed level {} ({} contract): {} passed, {} failed, {} skipped",
            self.claimed,
            self.contract.as_str(),
            self.count(Outcome::Pass),
            self.count(Outcome::Fail),
            self.count(Outcome::Skip)
        )
    }

    /// The whole human report.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for check in &self.checks {
            text.push_str(&check.to_text());
            text.push('\n');
        }
        text.push_str(&self.summary_text());
        text.push('\n');
        text
    }

    /// The whole JSON report: one line per check, then the summary line.
    pub fn to_ndjson(&self) -> String {
        let mut text = String::new();
        for value in self
            .checks
            .iter()
            .map(CheckResult::to_json)
            .chain([self.summary_json()])
        {
            text.push_str(&value.to_string());
            text.push('\n');
        }
        text
    }
}
