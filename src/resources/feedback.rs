//! The default `feedback`: one JSON line per report in the tool's XDG state directory, where a
//! maintainer (or a script that files issues) picks them up. PAS 6.4 leaves the channel to the
//! tool; a file works offline and loses nothing.

use std::fs::{self, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

use serde_json::json;

use super::types::{Feedback, FeedbackReceipt};
use crate::error::Error;

/// `$XDG_STATE_HOME/<tool>/feedback.jsonl`, else `~/.local/state/<tool>/feedback.jsonl`.
fn log_path(tool: &str) -> Option<PathBuf> {
    Some(crate::xdg::state_home()?.join(tool).join("feedback.jsonl"))
}

/// Appends the report and answers with its line number as the reference.
pub(crate) fn record(tool: &str, feedback: &Feedback) -> Result<FeedbackReceipt, Error> {
    let Some(path) = log_path(tool) else {
        return Err(Error::general(
            "neither XDG_STATE_HOME nor HOME is set, so feedback has nowhere to go",
        )
        .with_suggestion("set XDG_STATE_HOME to a writable directory"));
    };
    let failed = |err: std::io::Error| {
        Error::general(format!(
            "cannot record feedback in {}: {err}",
            path.display()
        ))
        .with_suggestion("make the directory writable, or set XDG_STATE_HOME elsewhere")
    };
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(failed)?;
    }
    let earlier = match fs::File::open(&path) {
        Ok(file) => BufReader::new(file).lines().count(),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => 0,
        Err(err) => return Err(failed(err)),
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
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(failed)?;
    // One write of a whole line: concurrent reporters interleave lines, never bytes.
    file.write_all(line.as_bytes()).map_err(failed)?;
    let url = format!("file://{}", path.display());
    Ok(FeedbackReceipt::sent((earlier + 1).to_string()).with_tracked_at(url))
}
