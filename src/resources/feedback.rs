//! The default `feedback`: one JSON line per report in the tool's XDG state directory, where a
//! maintainer (or a script that files issues) picks them up. PAS 6.4 leaves the channel to the
//! tool; a file works offline and loses nothing.
//!
//! The receipt's id is the report's line number. Counting the lines and appending happen under
//! an exclusive lock on the log, so reports filed at the same moment by many processes each get
//! their own number. The log is opened through the confined store of the state directory, so a
//! link planted at its name never sends a report elsewhere.

use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::PathBuf;

use serde_json::json;

use super::types::{Feedback, FeedbackReceipt};
use crate::error::Error;
use crate::services::store::Root;

/// The log's name inside `$XDG_STATE_HOME/<tool>`.
const LOG: &str = "feedback.jsonl";

/// `$XDG_STATE_HOME/<tool>`, else `~/.local/state/<tool>`.
fn state_dir(tool: &str) -> Option<PathBuf> {
    Some(crate::xdg::state_home()?.join(tool))
}

/// Appends the report and answers with its line number as the reference.
pub(crate) fn record(tool: &str, feedback: &Feedback) -> Result<FeedbackReceipt, Error> {
    let Some(dir) = state_dir(tool) else {
        return Err(Error::general(
            "neither XDG_STATE_HOME nor HOME is set, so feedback has nowhere to go",
        )
        .with_suggestion("set XDG_STATE_HOME to a writable directory"));
    };
    let path = dir.join(LOG);
    let failed = |err: std::io::Error| {
        Error::general(format!(
            "cannot record feedback in {}: {err}",
            path.display()
        ))
        .with_suggestion("make the directory writable, or set XDG_STATE_HOME elsewhere")
    };
    let mut line = serde_json::to_string(&json!({
        "path": feedback.path,
        "level": feedback.level,
        "message": feedback.message,
        "email": feedback.email,
        "context": feedback.context,
    }))
    .map_err(|err| Error::internal(err.to_string()))?;
    line.push('\n');
    let mut file = Root::open(&dir)?.open_append(LOG)?;
    // Held until `file` closes: nobody else counts or appends in between.
    file.lock().map_err(failed)?;
    file.seek(SeekFrom::Start(0)).map_err(failed)?;
    let earlier = BufReader::new(&file).split(b'\n').count();
    // One write of a whole line, at the end (the file is in append mode).
    file.write_all(line.as_bytes()).map_err(failed)?;
    let url = format!("file://{}", path.display());
    Ok(FeedbackReceipt::sent((earlier + 1).to_string()).with_tracked_at(url))
}
