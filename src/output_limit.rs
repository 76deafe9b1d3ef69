//! The size cap of one call's output: a list that would flood an agent's context is cut at a
//! whole item, and the cut is said (a `OUTPUT_TRUNCATED` warning; compose's `meta.truncated`
//! and `meta.totalBytes`), instead of megabytes nobody asked for.
//!
//! In machine mode a call's streamed output is capped at [`DEFAULT_BYTES`] unless
//! `PAS_OUTPUT_LIMIT` (bytes; 0: no cap) says otherwise; people get a cap only when they set
//! it. A Markdown document past the cap is cut at a line and ends with a marker line. One
//! object stays whole JSON (half a value is worse than a large one): its longest strings are
//! shortened to fit and it is marked `"_truncated": true` (`crate::object_cut`).
//!
//! A command may declare its own cap (`maxOutputBytes` in the spec, `max_output_bytes = N` in
//! the derive): in machine mode it replaces the default, and the caller's `PAS_OUTPUT_LIMIT`
//! may only lower it (a larger value, or 0, leaves the declared one).

use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that sets the cap, in bytes (0: no cap).
pub const OUTPUT_LIMIT_ENV: &str = "PAS_OUTPUT_LIMIT";

/// The cap of a machine-mode call when `PAS_OUTPUT_LIMIT` is unset: 64 MiB.
pub const DEFAULT_BYTES: u64 = 64 * 1024 * 1024;

/// The warning constant of a cut output.
pub const TRUNCATED: &str = "OUTPUT_TRUNCATED";

/// The cap the selected command declares (0: none), set once argv has selected it.
static DECLARED: AtomicU64 = AtomicU64::new(0);

/// Makes `bytes` the cap of this call's command (see [`limit`]).
pub(crate) fn declare(bytes: u64) {
    DECLARED.store(bytes, Ordering::Relaxed);
}

/// The cap for this call: `PAS_OUTPUT_LIMIT`, else [`DEFAULT_BYTES`] in machine mode; in
/// machine mode a command's declared cap replaces the default and the variable may only
/// lower it.
pub(crate) fn limit(machine: bool) -> Option<u64> {
    let declared = if machine {
        DECLARED.load(Ordering::Relaxed)
    } else {
        0
    };
    let caller = match std::env::var(OUTPUT_LIMIT_ENV) {
        Ok(text) => text.trim().parse::<u64>().ok().filter(|&bytes| bytes > 0),
        Err(_) if declared > 0 => None,
        Err(_) => return machine.then_some(DEFAULT_BYTES),
    };
    match (declared, caller) {
        (0, caller) => caller,
        (declared, Some(caller)) => Some(caller.min(declared)),
        (declared, None) => Some(declared),
    }
}

/// How the caller gets more output, for the warning and the marker: raise the variable, or,
/// when the command declares its cap, narrow the call (the variable cannot raise it).
fn more() -> String {
    match DECLARED.load(Ordering::Relaxed) {
        0 => format!("or raise the limit with {OUTPUT_LIMIT_ENV}=BYTES"),
        bytes => format!(
            "or narrow the call: the command declares at most {bytes} bytes \
             ({OUTPUT_LIMIT_ENV} may only lower it)"
        ),
    }
}

/// The warning of an output cut after `kept` bytes (of `items` whole items when a list).
pub(crate) fn warning(kept: u64, items: Option<u64>) -> crate::robot::Warning {
    let what = match items {
        Some(n) => format!("{n} items ({kept} bytes)"),
        None => format!("{kept} bytes"),
    };
    crate::robot::Warning::new(
        TRUNCATED,
        format!(
            "the output was cut after {what} at the output limit; page through the rest, \
             select fewer fields, {}",
            more()
        ),
    )
}

/// A Markdown document cut to at most `limit` bytes at a line boundary, with a marker line,
/// and the bytes of the document kept; `None` when it fits.
pub(crate) fn cut_document(markdown: &str, limit: u64) -> Option<(String, u64)> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    if markdown.len() <= limit {
        return None;
    }
    let mut end = markdown[..limit].rfind('\n').map_or(0, |at| at + 1);
    while !markdown.is_char_boundary(end) {
        end -= 1;
    }
    let cut = format!(
        "{}\n[output truncated: {end} of {} bytes shown; {}]\n",
        &markdown[..end],
        markdown.len(),
        match DECLARED.load(Ordering::Relaxed) {
            0 => format!("raise {OUTPUT_LIMIT_ENV} for more"),
            _ => "the command's output limit".to_owned(),
        }
    );
    Some((cut, end as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_is_cut_at_a_line_with_a_marker() {
        assert_eq!(cut_document("a\nb\n", 10), None);
        let (cut, kept) = cut_document("one\ntwo\nthree\n", 9).unwrap();
        assert_eq!(kept, 8);
        assert!(cut.starts_with("one\ntwo\n\n[output truncated: 8 of 14 bytes"));
    }
}
