//! How the faces state a command's declared limits (`timeout`, `maxOutputBytes`,
//! `maxInputBytes`): one sentence in agent help and `.llm`, and the same numbers as fields in
//! the catalog and the MCP export; and the runtime's `--input-file` of a command that reads
//! stdin (failure mode 61).

/// The runtime's flag that reads a command's input from a file instead of stdin.
pub const INPUT_FILE_FLAG: &str = "input-file";

/// What `--input-file` does, in agent help's INPUT line, `.llm` and the catalog.
pub(crate) const INPUT_FILE_MEANING: &str =
    "Read the input from this file instead of stdin (`-`: stdin); the way to give a large input.";

use crate::Command;

/// Whether the runtime gives `command` its `--input-file`: it reads stdin and has no parameter
/// of that name of its own (the tool's wins).
pub fn has_input_file(command: &Command) -> bool {
    command.stdin != crate::StdinMode::None
        && !command
            .parameters
            .iter()
            .any(|p| p.kind == crate::ParamKind::Flag && p.name == INPUT_FILE_FLAG)
}

/// "One call at a time (lock `deploy`): ...", for a command that declares a lock.
pub(crate) fn lock_note(command: &Command) -> Option<String> {
    let lock = command.lock.as_ref()?;
    Some(format!(
        "One call at a time (lock `{lock}`, taken by the runtime): a concurrent call fails at once with LOCK_HELD, its retry_after_ms and the holder (PAS_LOCK_WAIT=MS waits first; 0: until it is free)."
    ))
}

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

/// "Limits: at most 30 s per call (then TIMEOUT); at most 65536 bytes of output (past it, the
/// rest in a file: OUTPUT_IN_FILE); PAS_TIMEOUT and PAS_OUTPUT_LIMIT may only lower them.", or
/// nothing.
pub(crate) fn note(command: &Command) -> Option<String> {
    let mut parts = Vec::new();
    let mut vars = Vec::new();
    if let Some(seconds) = command.timeout {
        parts.push(format!("at most {seconds} s per call (then TIMEOUT)"));
        vars.push("PAS_TIMEOUT");
    }
    if let Some(bytes) = command.max_output_bytes {
        parts.push(format!(
            "at most {bytes} bytes of output in machine mode (past it, the rest in a file: OUTPUT_IN_FILE; see --max-output)"
        ));
        vars.push("PAS_OUTPUT_LIMIT");
    }
    if let Some(bytes) = command.max_input_bytes {
        parts.push(format!(
            "at most {bytes} bytes on stdin (then INVALID_ARGUMENT; larger inputs through --input-file)"
        ));
        vars.push("PAS_INPUT_LIMIT");
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
