//! How the faces state a command's declared limits (`timeout`, `maxOutputBytes`): one sentence
//! in agent help and `.llm`, and the same numbers as fields in the catalog and the MCP export.

use crate::Command;

/// The declared timeout in whole milliseconds (the unit of `details.limit_ms` in a `TIMEOUT`).
pub(crate) fn timeout_ms(command: &Command) -> Option<u64> {
    command.timeout.map(|seconds| {
        let ms = (seconds * 1000.0).ceil();
        if ms >= u64::MAX as f64 {
            u64::MAX
        } else {
            ms as u64
        }
    })
}

/// "Limits: at most 30 s per call (then TIMEOUT); at most 65536 bytes of output (then cut,
/// OUTPUT_TRUNCATED); PAS_TIMEOUT and PAS_OUTPUT_LIMIT may only lower them.", or nothing.
pub(crate) fn note(command: &Command) -> Option<String> {
    let mut parts = Vec::new();
    let mut vars = Vec::new();
    if let Some(seconds) = command.timeout {
        parts.push(format!("at most {seconds} s per call (then TIMEOUT)"));
        vars.push("PAS_TIMEOUT");
    }
    if let Some(bytes) = command.max_output_bytes {
        parts.push(format!(
            "at most {bytes} bytes of output (then cut, OUTPUT_TRUNCATED)"
        ));
        vars.push("PAS_OUTPUT_LIMIT");
    }
    if parts.is_empty() {
        return None;
    }
    let may = match vars.len() {
        1 => format!("{} may only lower it", vars[0]),
        _ => format!("{} may only lower them", vars.join(" and ")),
    };
    Some(format!("Limits: {}; {may}.", parts.join("; ")))
}
