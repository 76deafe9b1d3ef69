//! The whole lines a batched stream has made and not yet handed to the profile (failure modes
//! 13 and 16: partial results survive a signal whatever stdout is, a regular file included).
//!
//! A stream written to a file joins its lines into batches outside the output lock (see
//! `render::drive`), so a signal that ends the call between two hand-overs would drop up to a
//! batch of whole lines. The batch is therefore published here: its address once, and the
//! length of its whole lines after every item. Whatever ends the call on a signal (the signal
//! handler, or `signals::end`) holds the output lock and writes the published lines before its
//! report.
//!
//! Every published line is final: an item that needs scrubbing (a secret, a token) is scrubbed
//! before it joins the batch (`render::batched`), so whatever takes the published lines (a
//! signal, the flusher) writes exactly what the item-by-item loop would have written, and no
//! secret reaches stdout unscrubbed.
//!
//! A fast stream to a pipe is joined into batches too (`render::batched`): there the flusher
//! thread hands the published lines to the profile on every tick ([`PendingLines::take`]), so
//! a reader gets each line within the sink's latency even while the producer blocks, and
//! marks them handed: the producer's hand-over and a signal write only the lines after them.
//!
//! The protocol that keeps [`PendingLines::lines`] sound:
//! - the buffer is published with a capacity it never grows past while published (an item is
//!   made straight into it through `reply::ItemOut`, which never reallocates a published
//!   buffer: an item that outgrows it moves the bytes to a new allocation, published in its
//!   place with [`PendingLines::moved`] under the output lock before the old one is freed), so
//!   its address stays valid and its first `len` bytes are never written again: the producer
//!   only appends after them;
//! - `len` is stored (Release) only after the bytes it covers are written;
//! - the buffer is withdrawn ([`PendingLines::withdraw`]) under the output lock, before it is
//!   cleared, reused or freed, and [`PendingLines::lines`] is only read under that lock.

use std::sync::atomic::{AtomicPtr, AtomicU8, AtomicUsize, Ordering};

use crate::reply::StreamKind;

/// A published batch of whole lines (empty when none is).
pub(crate) struct PendingLines {
    ptr: AtomicPtr<u8>,
    len: AtomicUsize,
    /// The stream's kind, as `StreamKind as u8` (what the profile's `stream_lines` takes).
    kind: AtomicU8,
    /// How many of the first bytes the flusher has handed to the profile (0: none; the spare
    /// byte is never a line's).
    handed: AtomicUsize,
}

impl PendingLines {
    pub(crate) const fn new() -> Self {
        PendingLines {
            ptr: AtomicPtr::new(std::ptr::null_mut()),
            len: AtomicUsize::new(0),
            kind: AtomicU8::new(0),
            handed: AtomicUsize::new(0),
        }
    }

    /// Publishes `buffer` (whole lines: none yet). The caller keeps to the module's protocol:
    /// the buffer never reallocates while published, and is withdrawn under the output lock
    /// before it is cleared or dropped.
    pub(crate) fn publish(&self, buffer: &[u8], kind: StreamKind) {
        self.len.store(0, Ordering::SeqCst);
        self.handed.store(0, Ordering::SeqCst);
        self.kind.store(kind_code(kind), Ordering::SeqCst);
        self.ptr.store(buffer.as_ptr().cast_mut(), Ordering::SeqCst);
    }

    /// The published buffer moved to `moved` (an item outgrew its allocation): `moved` starts
    /// with the same bytes, so what is whole and what was handed stay as they are. Called
    /// holding the output lock, before the old allocation is freed.
    pub(crate) fn moved(&self, moved: &[u8]) {
        self.ptr.store(moved.as_ptr().cast_mut(), Ordering::SeqCst);
    }

    /// The first `len` bytes of the published buffer are whole lines, written and final.
    #[inline]
    pub(crate) fn set_whole(&self, len: usize) {
        self.len.store(len, Ordering::Release);
    }

    /// Where the lines not yet handed over start (after the spare byte and the lines the
    /// flusher handed), at most `len`. Called holding the output lock.
    pub(crate) fn handed(&self, len: usize) -> usize {
        self.handed.load(Ordering::SeqCst).clamp(1, len.max(1))
    }

    /// The whole batch was handed over (the producer's hand-over, under the output lock).
    pub(crate) fn reset(&self) {
        self.len.store(0, Ordering::SeqCst);
        self.handed.store(0, Ordering::SeqCst);
    }

    /// The flusher's tick: the lines [`PendingLines::lines`] gives, copied (the profile may
    /// rewrite what it is given), and marked handed. Called holding the output lock.
    pub(crate) fn take(&self) -> Option<(Vec<u8>, StreamKind)> {
        let (lines, kind) = self.lines()?;
        let from = self.handed(self.len.load(Ordering::Acquire));
        self.handed.store(from - 1 + lines.len(), Ordering::SeqCst);
        Some((lines.to_vec(), kind))
    }

    /// Withdraws the buffer. Called holding the output lock.
    pub(crate) fn withdraw(&self) {
        self.len.store(0, Ordering::SeqCst);
        self.handed.store(0, Ordering::SeqCst);
        self.ptr.store(std::ptr::null_mut(), Ordering::SeqCst);
    }

    /// The published lines not yet handed over, as `stream_lines` takes them (a spare first
    /// byte, then whole lines), and the stream's kind, when there is any line. Called holding the output lock
    /// (the signal handler holds it through `try_lock`). Async-signal-safe: atomic loads.
    pub(crate) fn lines(&self) -> Option<(&[u8], StreamKind)> {
        let ptr = self.ptr.load(Ordering::SeqCst);
        let len = self.len.load(Ordering::Acquire);
        if ptr.is_null() || len <= 1 {
            return None;
        }
        // SAFETY: by the module's protocol, a non-null `ptr` is the start of a live buffer
        // that is not withdrawn (withdrawing takes the output lock, which our caller holds),
        // and its first `len` bytes were written before `len` was stored (Release, read here
        // with Acquire) and are never written again while published; the producer writes only
        // past them, and `Vec::as_ptr` promises such a pointer stays usable for reads while
        // the vector only appends within its capacity.
        let bytes = unsafe { std::slice::from_raw_parts(ptr.cast_const(), len) };
        let from = self.handed(len);
        // From the byte before the first line not handed (the spare byte, or the newline of
        // a handed line): the spare byte of what is given.
        let lines = &bytes[from - 1..];
        if lines.len() <= 1 {
            return None;
        }
        Some((lines, kind_of(self.kind.load(Ordering::SeqCst))))
    }
}

fn kind_code(kind: StreamKind) -> u8 {
    match kind {
        StreamKind::List => 0,
        StreamKind::Events => 1,
    }
}

fn kind_of(code: u8) -> StreamKind {
    match code {
        0 => StreamKind::List,
        _ => StreamKind::Events,
    }
}
