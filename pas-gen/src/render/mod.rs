//! How `pas-gen check` shows a diagnostic: flat JSON for agents, a rustc-style snippet for people.

mod agent;
mod human;

use crate::check::FileReport;
use serde::Serialize;

/// One diagnostic as the `check` command yields it.
#[derive(Serialize)]
pub struct Item {
    #[serde(flatten)]
    json: agent::AgentDiagnostic,
    /// What people see instead of the JSON.
    #[serde(skip)]
    pub text: String,
}

/// The items of one file's report, in document order.
pub fn items(report: &FileReport) -> Vec<Item> {
    let text = report.source.as_ref().map(|s| s.text.as_str());
    report
        .diagnostics
        .iter()
        .map(|d| Item {
            json: agent::AgentDiagnostic::new(&report.name, d),
            text: human::render(&report.name, text, d),
        })
        .collect()
}

/// The line `check` ends a clean run with: how many specs, and any warnings.
pub fn summary(specs: usize, warnings: usize) -> String {
    let specs = match specs {
        1 => "1 spec".to_owned(),
        n => format!("{n} specs"),
    };
    match warnings {
        0 => format!("checked {specs}: no problems"),
        1 => format!("checked {specs}: no errors, 1 warning"),
        n => format!("checked {specs}: no errors, {n} warnings"),
    }
}
