//! The guards every stream item passes, item by item or a batch at a time: secrets and
//! high-entropy tokens scrubbed (failure mode 59), text addressed to an agent flagged (25), and
//! the output bound (43) where one is asked for (the items past it go to a file,
//! `render::overflow`).
//!
//! What may change an item's bytes (a secret, a token) is checked item by item as it is made
//! ([`Cap::may_change`]), so no line is ever published unscrubbed (a reader or a signal may take
//! it at any moment, see `render::pending`). What only flags (text addressed to an agent) is
//! local to an item's bytes and never matches across a newline (a phrase holds no newline), so
//! one scan of many whole lines that finds nothing clears every item in them:
//! [`Cap::may_flag`] answers for a batch what the item-by-item check would answer for each of
//! its items. Only when it finds something does the batch go item by item.

/// The output cap of one stream: what was admitted so far, and whether an item was refused;
/// and the secrets its items are scrubbed of.
#[derive(Default)]
pub(super) struct Cap {
    pub(super) limit: Option<u64>,
    pub(super) bytes: u64,
    pub(super) items: u64,
    pub(super) cut: bool,
    /// The item the bound refused (scrubbed; its newline maybe), the first of the rest.
    pub(super) refused: Option<Vec<u8>>,
    /// The call's redactor, when it has secrets to scrub or tokens to mask (a copy: items are
    /// made outside the output lock).
    pub(super) secrets: Option<crate::guards::redact::Redactor>,
    pub(super) json: bool,
    /// Whether items are checked for text addressed to an agent (failure mode 25), and the
    /// warning for the first item that holds some.
    pub(super) inspect: bool,
    pub(super) suspected: Option<crate::warning::Warning>,
}

impl Cap {
    /// Whether scrubbing or inspecting `lines` (one or more whole items, newline-separated)
    /// may change or flag anything. `false` means [`Cap::scrub`] leaves each item in them as it
    /// is and records no warning: one look at the bytes, whatever their number of items.
    #[inline]
    pub(super) fn may_act(&self, lines: &[u8]) -> bool {
        self.may_change(lines) || self.may_flag(lines)
    }

    /// Whether scrubbing `item` may change its bytes (a secret value or a token in it). The
    /// item-by-item loop's own test, so the answer is the same as there.
    #[inline]
    pub(super) fn may_change(&self, item: &[u8]) -> bool {
        self.secrets
            .as_ref()
            .is_some_and(|secrets| secrets.may_change(item))
    }

    /// Whether inspecting `lines` (one or more whole items, newline-separated, each already
    /// scrubbed) may record a warning. `false` means [`Cap::scrub`] records none for any of them.
    #[inline]
    pub(super) fn may_flag(&self, lines: &[u8]) -> bool {
        self.inspect
            && self.suspected.is_none()
            && crate::guards::injection::suspect(lines).is_some()
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
        self.flag(&buf[from..]);
    }

    /// Records the warning when `item` (scrubbed) is the first to hold text addressed to an
    /// agent.
    #[inline]
    pub(super) fn flag(&mut self, item: &[u8]) {
        if self.inspect
            && self.suspected.is_none()
            && let Some(phrase) = crate::guards::injection::suspect(item)
        {
            let json = self.json.then_some(item);
            self.suspected = Some(crate::guards::injection::warning(phrase, json));
        }
    }

    /// Whether an item of `len` bytes would be admitted (nothing recorded).
    #[inline]
    pub(super) fn fits(&self, len: usize) -> bool {
        self.limit
            .is_none_or(|limit| self.bytes + len as u64 <= limit)
    }

    /// Admits an item of `len` bytes (its newline included), or refuses it: stdout's part of
    /// the stream ends there, and the caller keeps the item ([`Cap::refuse`]) for the rest.
    /// One add and one compare per item.
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

    /// Keeps the refused item (`item`: its bytes, scrubbed) as the first of the rest.
    #[cold]
    pub(super) fn refuse(&mut self, item: &[u8]) {
        self.refused = Some(item.to_vec());
    }
}
