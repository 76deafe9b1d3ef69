//! The output bound of one call (CLI Agent Spec failure mode 43), only where it is asked for:
//! the caller's `--max-output BYTES` (or `PAS_OUTPUT_LIMIT=BYTES`), or a command's declared
//! cap (`maxOutputBytes` in the spec, `max_output_bytes = N` in the derive; machine mode,
//! where the caller's value may only lower it). There is no default: a call that asks for no
//! bound prints its whole result, however large.
//!
//! A bound never loses data (`crate::guards::output_file`): a list stops at its last whole item under
//! the bound and the rest of its items go to a file, named by an `OUTPUT_IN_FILE` warning
//! (compose: `meta.truncated`, `meta.totalBytes` and `meta.rest`); one object or Markdown
//! document past the bound is written whole to a file and the answer is a pointer to it
//! (`{"output_file": {path, bytes, sha256, media_type, preview, read}}`). No value is ever
//! shortened or replaced in place.

pub use crate::parse::names::MAX_OUTPUT_FLAG;
pub use crate::parse::names::OUTPUT_LIMIT_ENV;
use std::sync::atomic::{AtomicU64, Ordering};

/// The warning constant of output (or its rest) written to a file.
pub const IN_FILE: &str = "OUTPUT_IN_FILE";

/// The warning constant of a bound that could not be kept (no file could be written): the
/// output was printed whole instead.
pub const FILE_FAILED: &str = "OUTPUT_FILE_FAILED";

/// The cap the selected command declares (0: none), set once argv has selected it.
static DECLARED: AtomicU64 = AtomicU64::new(0);

/// The caller's `--max-output` (`u64::MAX`: not given; 0: no bound).
static CALLER: AtomicU64 = AtomicU64::new(u64::MAX);

/// Makes `bytes` the cap of this call's command (see [`limit`]).
pub(crate) fn declare(bytes: u64) {
    DECLARED.store(bytes, Ordering::Relaxed);
}

/// Records the caller's `--max-output` value: `Err` with the error when it is not a number of
/// bytes.
pub(crate) fn set_flag(value: &str) -> Result<(), crate::error::Error> {
    match value.trim().parse::<u64>() {
        Ok(bytes) if bytes < u64::MAX => {
            CALLER.store(bytes, Ordering::Relaxed);
            Ok(())
        }
        _ => Err(crate::error::Error::invalid_argument(format!(
            "{MAX_OUTPUT_FLAG} takes a number of bytes, not `{value}`"
        ))
        .with_suggestion(format!(
            "{MAX_OUTPUT_FLAG} 65536 (0: no bound); output past it is written whole to a file and the answer points at it"
        ))),
    }
}

/// The caller's bound: the flag, else the variable; `None` when neither asks for one (0 asks
/// for none). (`TOOL mcp` reads it too, for a call whose `_meta` asks for none of its own.)
pub(crate) fn caller() -> Option<u64> {
    let flag = CALLER.load(Ordering::Relaxed);
    let bytes = if flag != u64::MAX {
        flag
    } else {
        std::env::var(OUTPUT_LIMIT_ENV)
            .ok()?
            .trim()
            .parse::<u64>()
            .ok()?
    };
    (bytes > 0).then_some(bytes)
}

/// The bound of this call, if any: the caller's (`--max-output`, `PAS_OUTPUT_LIMIT`), and in
/// machine mode the command's declared cap, which the caller's may only lower.
pub(crate) fn limit(machine: bool) -> Option<u64> {
    let declared = match DECLARED.load(Ordering::Relaxed) {
        0 => None,
        bytes => Some(bytes),
    };
    combine(declared, caller(), machine)
}

/// The bound of a call from its command's declared cap and its caller's bound: in machine mode
/// the declared cap, which the caller's may only lower; else the caller's; else none. The one
/// difference by mode is the declared cap, and it is one of form: past it the whole result is
/// in a file the answer points at (`crate::guards::defaults` lists it).
pub(crate) fn combine(declared: Option<u64>, caller: Option<u64>, machine: bool) -> Option<u64> {
    match (declared.filter(|bytes| machine && *bytes > 0), caller) {
        (Some(declared), Some(caller)) => Some(caller.min(declared)),
        (declared, caller) => declared.or(caller),
    }
}

/// Where the bound came from, for the messages.
fn source() -> String {
    match DECLARED.load(Ordering::Relaxed) {
        0 => format!("the {MAX_OUTPUT_FLAG} bound"),
        bytes => format!(
            "the bound ({MAX_OUTPUT_FLAG}, or the command's declared {bytes} bytes, which {MAX_OUTPUT_FLAG} may only lower)"
        ),
    }
}

/// The warning of a list that stopped after `items` whole items (`kept` bytes) with its rest
/// in a file.
pub(crate) fn list_warning(
    kept: u64,
    items: u64,
    rest: &crate::guards::output_file::Pointer,
) -> crate::warning::Warning {
    crate::warning::Warning::new(
        IN_FILE,
        format!(
            "the list stopped after {items} whole items ({kept} bytes) at {}; the rest of the items, one JSON value a line, {}",
            source(),
            rest.read
        ),
    )
}

/// The warning of one object or document written whole to a file.
pub(crate) fn whole_warning(
    pointer: &crate::guards::output_file::Pointer,
) -> crate::warning::Warning {
    crate::warning::Warning::new(
        IN_FILE,
        format!(
            "the output is larger than {}; the answer points at it: {}",
            source(),
            pointer.read
        ),
    )
}

/// The warning of a bound that could not be kept: the output was printed whole.
pub(crate) fn failed_warning(error: &std::io::Error) -> crate::warning::Warning {
    crate::warning::Warning::new(
        FILE_FAILED,
        format!(
            "the output is larger than {}, and could not be written to a file ({error}): it is printed whole",
            source()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_value_that_is_not_bytes_is_refused() {
        for bad in ["", "ten", "-1", "1.5", "18446744073709551615"] {
            let error = set_flag(bad).expect_err(bad);
            assert_eq!(error.code(), crate::codes::INVALID_ARGUMENT);
            assert!(error.message().contains("--max-output"), "{bad}");
        }
    }
}
