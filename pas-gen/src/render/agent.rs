//! One JSON object per diagnostic, one line each, flat so `jq` can filter on any field.

use crate::check::FileReport;
use serde::Serialize;
use std::io::{self, Write};

/// The agent-facing shape of a diagnostic (the `check` command's outputSchema).
#[derive(Serialize)]
struct AgentDiagnostic<'a> {
    file: &'a str,
    code: &'a str,
    severity: pas_spec::Severity,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'a str>,
    pointer: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
}

/// Write every diagnostic of every report as NDJSON.
pub fn write(out: &mut impl Write, reports: &[FileReport]) -> io::Result<()> {
    for report in reports {
        for d in &report.diagnostics {
            let line = AgentDiagnostic {
                file: d
                    .location
                    .as_ref()
                    .map_or(report.name.as_str(), |l| l.file.as_str()),
                code: d.code,
                severity: d.severity,
                message: &d.message,
                hint: d.hint.as_deref(),
                pointer: &d.pointer,
                line: d.location.as_ref().map(|l| l.line),
                column: d.location.as_ref().map(|l| l.column),
            };
            serde_json::to_writer(&mut *out, &line)?;
            out.write_all(b"\n")?;
        }
    }
    Ok(())
}
