//! The agent-facing shape of a diagnostic: flat, so `jq` can filter on any field.

use pas_spec::{Diagnostic, Severity};
use serde::Serialize;

/// The `check` command's outputSchema (see pas-gen.yaml).
#[derive(Serialize)]
pub struct AgentDiagnostic {
    file: String,
    code: &'static str,
    severity: Severity,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<String>,
    pointer: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
}

impl AgentDiagnostic {
    /// Flatten a diagnostic of the file the user named `file`.
    pub fn new(file: &str, d: &Diagnostic) -> Self {
        AgentDiagnostic {
            file: d
                .location
                .as_ref()
                .map_or(file, |l| l.file.as_str())
                .to_owned(),
            code: d.code,
            severity: d.severity,
            message: d.message.clone(),
            hint: d.hint.clone(),
            pointer: d.pointer.clone(),
            line: d.location.as_ref().map(|l| l.line),
            column: d.location.as_ref().map(|l| l.column),
        }
    }
}
