//! `--cwd DIR` (CLI Agent Spec failure mode 29): the call runs in DIR, as `git -C DIR` does, so
//! an agent names the directory a call means instead of relying on where it was started.
//!
//! The directory is entered once, first thing, before anything reads a relative path (the
//! configuration file, `--audit-log`, the handler's arguments); the call's `meta.cwd` (compose,
//! the `pas` meta line) is then DIR, absolute, and paths the `outputSchema` marks
//! `"format": "path"` come back absolute against it (`crate::run::data_pass`). It changes the tool's
//! own process only: the caller's working directory is never touched.

use crate::codes;
use crate::error::Error;
use crate::parse::argv::Prescan;

/// Enters the directory `--cwd` named, or says why it cannot.
pub(crate) fn enter(pre: &Prescan) -> Option<Error> {
    if pre.cwd_missing {
        return Some(
            Error::new(codes::MISSING_ARGUMENT, "--cwd needs a directory")
                .with_suggestion("--cwd DIR"),
        );
    }
    let dir = pre.cwd.as_ref()?;
    match std::env::set_current_dir(dir) {
        Ok(()) => None,
        Err(err) => Some(
            Error::new(
                codes::INVALID_ARGUMENT,
                format!("--cwd {}: cannot enter it: {err}", dir.display()),
            )
            .with_suggestion("give --cwd an existing directory (absolute is safest)"),
        ),
    }
}
