//! The guards every stream item passes, item by item or a batch at a time: secrets and
//! high-entropy tokens scrubbed (failure mode 59), text addressed to an agent flagged (25), and
//! the output cap (43).
//!
//! Each pre-check is local to an item's bytes and never matches across a newline (a token is a
//! run of token characters, a phrase holds no newline, a secret value found in an item is found
//! in any text that holds the item), so one scan of many whole lines that finds nothing clears
//! every item in them: [`Cap::may_act`] answers for a batch what the item-by-item checks would
//! answer for each of its items. Only when it finds something does the batch go item by item.

/// The output cap of one stream: what was admitted so far, and whether an item was refused;
/// and the secrets its items are scrubbed of.
#[derive(Default)]
pub(super) struct Cap {
    pub(super) limit: Option<u64>,
    pub(super) bytes: u64,
    pub(super) items: u64,
    pub(super) cut: bool,
    /// Shared, so the lines a signal writes can be checked with it (`render::pending`).
    pub(super) secrets: Option<std::sync::Arc<crate::redact::Redactor>>,
    pub(super) json: bool,
    /// Whether items are checked for text addressed to an agent (failure mode 25), and the
    /// warning for the first item that holds some.
    pub(super) inspect: bool,
    pub(super) suspected: Option<crate::robot::Warning>,
}

impl Cap {
    /// Whether scrubbing or inspecting `lines` (one or more whole items, newline-separated)
    /// may change or flag anything. `false` means [`Cap::scrub`] leaves each item in them as it
    /// is and records no warning: one look at the bytes, whatever their number of items.
    #[inline]
    pub(super) fn may_act(&self, lines: &[u8]) -> bool {
        if let Some(secrets) = &self.secrets
            && secrets.may_change(lines)
        {
            return true;
        }
        self.inspect && self.suspected.is_none() && crate::injection::suspect(lines).is_some()
    }

    /// Replaces the secrets in the item that starts at `from` in `buf`, and records the
    /// warning for the first item that holds text addressed to an agent.
    #[inline]
    pub(super) fn scrub(&mut self, buf: &mut Vec<u8>, from: usize) {
        if !self.may_act(&buf[from..]) {
            return;
        }
        if let Some(secrets) = &self.secrets
            && let Some(clean) = secrets.output(&buf[from..], self.json)
        {
            buf.truncate(from);
            buf.extend_from_slice(&clean);
        }
        if self.inspect
            && self.suspected.is_none()
            && let Some(phrase) = crate::injection::suspect(&buf[from..])
        {
            let json = self.json.then_some(&buf[from..]);
            self.suspected = Some(crate::injection::warning(phrase, json));
        }
    }

    /// Whether an item of `len` bytes would be admitted (nothing recorded).
    #[inline]
    pub(super) fn fits(&self, len: usize) -> bool {
        self.limit
            .is_none_or(|limit| self.bytes + len as u64 <= limit)
    }

    /// Admits an item of `len` bytes (its newline included), or refuses it: the stream ends
    /// there, cut. One add and one compare per item.
    #[inline]
    pub(super) fn admit(&mut self, len: usize) -> bool {
        let after = self.bytes + len as u64;
        if let Some(limit) = self.limit
            && after > limit
        {
            self.cut = true;
            return false;
        }
        self.bytes = after;
        self.items += 1;
        true
    }

    /// What was admitted so far (bytes, items), to rewind to with [`Cap::rewind`].
    pub(super) fn count(&self) -> (u64, u64) {
        (self.bytes, self.items)
    }

    /// Forgets the items admitted since `count` (they are admitted again, scrubbed).
    pub(super) fn rewind(&mut self, count: (u64, u64)) {
        (self.bytes, self.items) = count;
    }
}
