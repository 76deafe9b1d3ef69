//! A stream to a sink no reader waits on (a file, /dev/null): items joined into
//! [`BATCH`]-sized runs of whole lines, each handed to the profile in one trip under the lock
//! (a lock and a profile call per item cost a fast list a quarter of its time to /dev/null).
//!
//! The guards (`super::cap`) run a span of lines at a time, not item by item: the items of the
//! span are admitted by their length as made, and one scan over the span's bytes clears them
//! all when no guard may act (the usual case: a few instructions per item instead of a few
//! hundred). When the scan finds something, the span's items are taken again one by one
//! exactly as the item-by-item loop takes them (scrubbed, inspected, admitted by their length
//! once scrubbed), so the bytes written, the warning and the cut are the same either way.
//! Every whole line is published for a signal as it is made (`render::pending`), with how far
//! the guards have checked: a signal writes the unchecked lines only when the redactor would
//! leave them as they are, so a secret never reaches stdout unscrubbed.
//!
//! A failing or panicking stream still hands over every whole line it made (partial results).

use std::sync::Arc;

use super::cap::Cap;
use super::drive::{BATCH, SPARE, hand_over};
use crate::ending::{Shared, Stop};
use crate::panics;
use crate::reply::{Encoding, Stream, StreamKind};

/// The bytes of lines checked with one scan.
const CHECK_SPAN: usize = 8 * 1024;

/// The lines at the end of the batch whose guards have not run yet.
struct Unchecked {
    /// Where they start in the batch.
    start: usize,
    /// Where each of their items ends in the batch (after its newline).
    ends: Vec<usize>,
    /// What the cap had admitted before them.
    before: (u64, u64),
}

impl Unchecked {
    /// No line left unchecked: the next starts at `start`.
    fn restart(&mut self, start: usize, cap: &Cap) {
        self.start = start;
        self.ends.clear();
        self.before = cap.count();
    }
}

pub(super) fn batched(
    shared: &Arc<Shared>,
    stream: &mut Stream,
    encoding: Encoding,
    cap: &mut Cap,
) -> Result<(), Stop> {
    let kind = stream.kind;
    // The spare byte `stream_lines` may use for a separator, then whole lines only, published
    // so that a signal still writes them (`render::pending`): an item is made in `line` (after
    // a spare byte of its own) and copied in when it fits, so `batch` never reallocates.
    let mut batch = Vec::with_capacity(BATCH + 1024);
    batch.push(SPARE);
    let mut line = Vec::with_capacity(1024);
    let mut unchecked = Unchecked {
        start: 1,
        ends: Vec::new(),
        before: cap.count(),
    };
    shared
        .pending
        .publish(batch.as_slice(), kind, cap.secrets.as_deref());
    let caught = panics::catch(|| -> Result<(), Stop> {
        loop {
            if let Some(error) = shared.stop_requested() {
                return Err(Stop::Failed(error));
            }
            line.clear();
            line.push(SPARE);
            match (stream.next)(encoding, &mut line) {
                None => return Ok(()),
                Some(Err(error)) => return Err(Stop::Failed(error)),
                Some(Ok(())) => {}
            }
            // The item and its newline.
            let len = line.len();
            if len < CHECK_SPAN && cap.fits(len) && batch.capacity() - batch.len() >= len {
                // Admitted as made; its span's scan confirms it (or takes it again).
                cap.admit(len);
                line.push(b'\n');
                batch.extend_from_slice(&line[1..]);
                unchecked.ends.push(batch.len());
                shared.pending.set_whole(batch.len());
                if batch.len() - unchecked.start >= CHECK_SPAN
                    && !settle(shared, kind, &mut batch, &mut unchecked, &mut line, cap)?
                {
                    return Ok(());
                }
            } else {
                // Past the cap, large, or not fitting: this item alone, after the span before it.
                if !settle(shared, kind, &mut batch, &mut unchecked, &mut line, cap)? {
                    return Ok(());
                }
                if !push_exact(shared, kind, &mut batch, &mut line, cap)? {
                    return Ok(());
                }
                unchecked.restart(batch.len(), cap);
            }
            if batch.len() > BATCH {
                if !settle(shared, kind, &mut batch, &mut unchecked, &mut line, cap)? {
                    return Ok(());
                }
                hand_over(shared, kind, &mut batch)?;
                unchecked.restart(1, cap);
            }
        }
    });
    let mut result = caught.unwrap_or_else(|error| Err(Stop::Failed(error)));
    let handed = match result {
        Err(Stop::Closed) => Ok(()),
        _ => match settle(shared, kind, &mut batch, &mut unchecked, &mut line, cap) {
            Ok(admitted) => {
                // The cap refused an item made before the stream failed: item by item, the
                // stream would have ended there, cut, without reaching the failure.
                if !admitted {
                    result = Ok(());
                }
                hand_over(shared, kind, &mut batch)
            }
            Err(stop) => Err(stop),
        },
    };
    {
        let _output = shared.lock();
        shared.pending.withdraw();
    }
    if let Err(Stop::Closed) = result {
        return result;
    }
    // The stream's own failure is the one to report; else a failed write.
    result.and(handed)
}

/// Runs the guards over the unchecked lines: one scan clears them all when no guard may act;
/// else each is taken again as the item-by-item loop takes it, the cap's count rewound to
/// before them. `false`: the cap refused one of them (the stream ends there, the lines after
/// it are dropped).
fn settle(
    shared: &Shared,
    kind: StreamKind,
    batch: &mut Vec<u8>,
    unchecked: &mut Unchecked,
    line: &mut Vec<u8>,
    cap: &mut Cap,
) -> Result<bool, Stop> {
    if unchecked.ends.is_empty() {
        return Ok(true);
    }
    let start = unchecked.start;
    if !cap.may_act(&batch[start..]) {
        unchecked.restart(batch.len(), cap);
        shared.pending.set_checked(batch.len());
        return Ok(true);
    }
    // The rare path: the lines move out of the batch (which keeps its capacity and address)
    // and come back one by one, scrubbed. A signal no longer sees them (lowered under the
    // lock, which whoever writes them on a signal holds).
    {
        let _output = shared.lock();
        shared.pending.set_whole(start);
    }
    let lines = batch.split_off(start);
    let ends = std::mem::take(&mut unchecked.ends);
    cap.rewind(unchecked.before);
    let mut from = 0;
    let mut admitted = true;
    for end in &ends {
        let end = end - start;
        line.clear();
        line.push(SPARE);
        line.extend_from_slice(&lines[from..end - 1]);
        from = end;
        if !push_exact(shared, kind, batch, line, cap)? {
            admitted = false;
            break;
        }
    }
    unchecked.ends = ends;
    unchecked.restart(batch.len(), cap);
    Ok(admitted)
}

/// One item (`line[1..]`, no newline yet) through the guards as the item-by-item loop takes it:
/// scrubbed and inspected, then admitted by its length, then appended to the batch (handed over
/// first when it does not fit, or on its own when larger than a batch). Only called with no
/// unchecked line in the batch. `false`: the cap refused it.
fn push_exact(
    shared: &Shared,
    kind: StreamKind,
    batch: &mut Vec<u8>,
    line: &mut Vec<u8>,
    cap: &mut Cap,
) -> Result<bool, Stop> {
    cap.scrub(line, 1);
    line.push(b'\n');
    let len = line.len() - 1;
    if !cap.admit(len) {
        return Ok(false);
    }
    if batch.capacity() - batch.len() < len {
        hand_over(shared, kind, batch)?;
        if len > batch.capacity() - 1 {
            hand_over(shared, kind, line)?;
            return Ok(true);
        }
    }
    batch.extend_from_slice(&line[1..]);
    shared.pending.set_whole(batch.len());
    shared.pending.set_checked(batch.len());
    Ok(true)
}
