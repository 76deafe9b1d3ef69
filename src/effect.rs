//! What a call that changes something changed (CLI Agent Spec failure mode 12): a handler
//! reports it with [`crate::handler::context::Context::set_effect`], and every profile shows it where its
//! contract carries call metadata, so an agent that retries can tell "done now" from "already
//! done". A call replayed from its `--idempotency-key` record is always [`Change::Noop`],
//! marked `replayed`.
//!
//! - `pas` (agent mode): one `{"effect":"created"}` line on stderr when the call succeeds
//!   (`{"effect":"noop","replayed":true}` for a replay), beside the profile's other stderr lines.
//! - compose: `meta.effect` and `meta.replayed`.
//! - robot: the envelope's `effect` and `replayed`.

use serde::{Deserialize, Serialize};

/// The outcome of a call that may change state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    /// Something new exists now.
    Created,
    /// Something that existed was changed.
    Updated,
    /// Something that existed was removed.
    Deleted,
    /// Nothing changed: the state was already what the call asked for, or the call was a replay.
    Noop,
}

impl Change {
    /// The word the outputs carry: `created`, `updated`, `deleted` or `noop`.
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Created => "created",
            Change::Updated => "updated",
            Change::Deleted => "deleted",
            Change::Noop => "noop",
        }
    }
}

/// What the profiles keep of a call's change until they render it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reported {
    /// The change.
    pub(crate) change: Change,
    /// The result is a replay of an earlier call's record (`--idempotency-key`).
    pub(crate) replayed: bool,
}

impl Reported {
    /// `{"effect":..,"replayed":true?}` as JSON object entries, for envelopes that take them.
    pub(crate) fn entries(self) -> Vec<(&'static str, serde_json::Value)> {
        let mut entries = vec![("effect", serde_json::Value::from(self.change.as_str()))];
        if self.replayed {
            entries.push(("replayed", serde_json::Value::Bool(true)));
        }
        entries
    }
}
