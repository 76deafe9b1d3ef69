//! Driving a profile with a handler's reply: the render loop.
//!
//! Streams are pulled one item at a time outside the output lock (the handler's iterator may
//! block or report progress), and each encoded item is handed to the profile under the lock as
//! one whole line. Between items the loop checks for SIGINT/SIGTERM; a panic inside the
//! iterator is caught (around the loop, which it ends) so a stream is still closed properly
//! (e.g. a `--format=array` array gets its `]`) before the error is reported.

use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;

use super::batched::{batched, next_line};
use super::cap::Cap;
use super::overflow::Rest;
use crate::end::call_state::{Shared, Stop};
use crate::end::panics;
use crate::reply::{Body, Encoding, Reply, Stream};
use crate::stdio::streams::LINE_LATENCY;

pub(crate) fn reply(shared: &Arc<Shared>, reply: Reply) -> Result<(), Stop> {
    if let Some(error) = shared.stop_requested() {
        return Err(Stop::Failed(error));
    }
    // The audit record before any of the result: one outcome per call.
    let reply = crate::end::call_state::before_output(shared, reply)?;
    match reply.body {
        Body::Object(mut object) => {
            if let Err(error) = &object.json {
                return Err(Stop::Failed(error.clone()));
            }
            let mut output = shared.lock();
            let output = &mut *output;
            // A declared secret never reaches stdout, even in a successful result.
            if output.redactor.has_values() {
                if let Ok(json) = &mut object.json
                    && let Some(clean) = output.redactor.output(json, true)
                {
                    *json = clean;
                }
                if let Some(text) = &mut object.human {
                    *text = output.redactor.text(text);
                }
            }
            // Text addressed to an agent, declared untrusted or not (failure mode 25).
            if let Ok(json) = &object.json
                && crate::guards::injection::checking()
                && let Some(phrase) = crate::guards::injection::suspect(json)
            {
                warn(
                    shared,
                    output,
                    crate::guards::injection::warning(phrase, Some(json)),
                )?;
            }
            // One object past the bound, asked for or declared, goes whole to a file; the
            // answer points at it (43, nothing lost).
            if let Some(bound) = crate::guards::output_limit::limit(shared.agent)
                && let Ok(json) = &object.json
                && json.len() as u64 > bound
            {
                match in_file(
                    shared,
                    "application/json",
                    json,
                    "The whole result (one JSON value)",
                ) {
                    Ok(pointer) => {
                        object.json = Ok(serde_json::to_vec(&pointer.answer())
                            .map_err(crate::error::serialise_error)?);
                        object.human = Some(pointer.human());
                        warn(
                            shared,
                            output,
                            crate::guards::output_limit::whole_warning(&pointer),
                        )?;
                    }
                    Err(error) => warn(
                        shared,
                        output,
                        crate::guards::output_limit::failed_warning(&error),
                    )?,
                }
            }
            Ok(output.profile.object(&mut output.sinks, &object)?)
        }
        Body::Document(markdown) => {
            let mut output = shared.lock();
            let output = &mut *output;
            let markdown = match output.redactor.has_values() {
                true => output.redactor.text(&markdown),
                false => markdown,
            };
            if crate::guards::injection::checking()
                && let Some(phrase) = crate::guards::injection::suspect(markdown.as_bytes())
            {
                warn(
                    shared,
                    output,
                    crate::guards::injection::warning(phrase, None),
                )?;
            }
            // A document past the bound goes whole to a file; the answer is its pointer.
            if let Some(bound) = crate::guards::output_limit::limit(shared.agent)
                && markdown.len() as u64 > bound
            {
                match in_file(
                    shared,
                    "text/markdown",
                    markdown.as_bytes(),
                    "The whole document (Markdown)",
                ) {
                    Ok(pointer) => {
                        warn(
                            shared,
                            output,
                            crate::guards::output_limit::whole_warning(&pointer),
                        )?;
                        let answer = crate::reply::Object {
                            json: serde_json::to_vec(&pointer.answer())
                                .map_err(crate::error::serialise_error),
                            human: Some(pointer.human()),
                        };
                        return Ok(output.profile.object(&mut output.sinks, &answer)?);
                    }
                    Err(error) => warn(
                        shared,
                        output,
                        crate::guards::output_limit::failed_warning(&error),
                    )?,
                }
            }
            Ok(output.profile.document(&mut output.sinks, &markdown)?)
        }
        Body::Nothing => {
            let mut output = shared.lock();
            let output = &mut *output;
            Ok(output.profile.nothing(&mut output.sinks)?)
        }
        Body::Stream(stream) => self::stream(shared, stream),
    }
}

fn stream(shared: &Arc<Shared>, mut stream: Stream) -> Result<(), Stop> {
    let kind = stream.kind;
    let (encoding, live, plain) = {
        let mut output = shared.lock();
        let output = &mut *output;
        if let Some(page) = &stream.page {
            output.profile.page(page);
        }
        output.profile.stream_start(&mut output.sinks, kind)?;
        (
            output.profile.item_encoding(kind),
            output.sinks.stdout.live(),
            output.profile.plain_lines(kind),
        )
    };
    // The output bound (failure mode 43), when asked for: stdout's part of the stream stops at
    // the last whole item under it, and the rest goes to a file (`render::overflow`).
    let mut cap = Cap {
        limit: crate::guards::output_limit::limit(shared.agent),
        inspect: crate::guards::injection::checking(),
        ..Cap::default()
    };
    // The secrets to keep out of the items, when the call knows any (a copy: items are made
    // outside the output lock).
    {
        let output = shared.lock();
        if output.redactor.has_values() {
            cap.secrets = Some(output.redactor.clone());
            cap.json = encoding == Encoding::Json;
        }
    }
    // No reader waits on a file or /dev/null, so nothing is lost by joining lines there; a
    // pipe or terminal gets each line as it is made.
    let result = if plain && !live {
        batched(shared, &mut stream, encoding, &mut cap, false)
    } else {
        line_by_line(shared, &mut stream, encoding, live, plain, &mut cap)
    };
    // The rest of a list past the bound, to its file.
    let rest = match (&result, cap.refused.take()) {
        (Ok(()), Some(first)) => Some(super::overflow::rest(
            shared,
            &mut stream,
            encoding,
            &mut cap,
            first,
        )),
        _ => None,
    };
    let (result, rest) = match rest {
        Some(Err(stop)) => (Err(stop), None),
        Some(Ok(rest)) => (result, Some(rest)),
        None => (result, None),
    };
    // A library's prints while the items were made, while the envelope is still open.
    crate::end::third_party_stdout::drain(shared);
    let mut output = shared.lock();
    let output = &mut *output;
    output.sinks.stdout.set_ticking(false);
    if let Err(Stop::Closed) = result {
        return result;
    }
    match rest {
        Some(Rest::InFile(pointer)) => {
            output.profile.truncated(cap.bytes, Some(&pointer));
            let warning = crate::guards::output_limit::list_warning(cap.bytes, cap.items, &pointer);
            warn(shared, output, warning)?;
        }
        Some(Rest::Printed(error)) => {
            warn(
                shared,
                output,
                crate::guards::output_limit::failed_warning(&error),
            )?;
        }
        None => {}
    }
    if let Some(warning) = cap.suspected.take() {
        warn(shared, output, warning)?;
    }
    let ended = output
        .profile
        .stream_end(&mut output.sinks, kind, result.is_ok());
    result?;
    Ok(ended?)
}

/// One item, one trip under the lock: a live reader gets each line as soon as it is whole.
/// A `plain` profile's line (the item and its newline) goes over in one write, as
/// [`Profile::stream_lines`](crate::profile::Profile::stream_lines) takes it.
fn line_by_line(
    shared: &Arc<Shared>,
    stream: &mut Stream,
    encoding: Encoding,
    live: bool,
    plain: bool,
    cap: &mut Cap,
) -> Result<(), Stop> {
    let kind = stream.kind;
    // Started only once a line is left waiting (a fast producer): a slow stream, or a one-line
    // call, is flushed line by line and never pays for a thread. Dropped (joined) on return,
    // before the caller takes the lock, which it also takes.
    let (mut flusher, mut flusher_tried) = (None::<Flusher>, false);
    // One buffer for every item: memory stays flat whatever the count. Its first byte is the
    // spare byte `stream_lines` may use for a separator; the item starts after it.
    let mut line = Vec::with_capacity(1024);
    // One catch around the whole loop rather than one per item (a panic ends the stream either
    // way): the hot path is the producer, the lock and the profile, nothing more.
    // Whether the stream goes on in batches (`Ok(true)`): a fast stream of plain lines, once
    // the flusher runs, hands its lines over through it (see `render::pending`).
    let caught = panics::catch(|| -> Result<bool, Stop> {
        loop {
            if !next_line(shared, stream, encoding, &mut line)? {
                return Ok(false);
            }
            cap.scrub(&mut line, 1);
            if plain {
                line.push(b'\n');
            }
            if !cap.admit(line.len() - 1) {
                cap.refuse(&line[1..]);
                return Ok(false);
            }
            let mut output = shared.lock();
            let output = &mut *output;
            if plain {
                output
                    .profile
                    .stream_lines(&mut output.sinks, kind, &mut line)?;
            } else {
                output
                    .profile
                    .stream_item(&mut output.sinks, kind, &line[1..])?;
            }
            if live && !flusher_tried && output.sinks.stdout.pending() {
                flusher_tried = true;
                flusher = Flusher::start(shared.clone());
                // Without the thread, the sink keeps its clock rule for every line.
                output.sinks.stdout.set_ticking(flusher.is_some());
                if plain && flusher.is_some() {
                    return Ok(true);
                }
            }
        }
    });
    let result = match caught.unwrap_or_else(|error| Err(Stop::Failed(error))) {
        Ok(true) => batched(shared, stream, encoding, cap, live),
        Ok(false) => Ok(()),
        Err(stop) => Err(stop),
    };
    drop(flusher);
    result
}

/// A warning about the output, where the profile shows warnings.
fn warn(
    shared: &Shared,
    output: &mut crate::end::call_state::Output,
    warning: crate::warning::Warning,
) -> Result<(), Stop> {
    match &shared.robot {
        Some(state) => state.lock().warnings.push(warning),
        None => output.profile.warning(&mut output.sinks, &warning)?,
    }
    Ok(())
}

/// `bytes` (a whole result past the bound) written to a file of the tool's; its pointer.
fn in_file(
    shared: &Shared,
    media_type: &'static str,
    bytes: &[u8],
    what: &str,
) -> std::io::Result<crate::guards::output_file::Pointer> {
    crate::guards::output_file::write_whole(&shared.registry.light().name, media_type, bytes, what)
}

/// Flushes lines left waiting by the sink's latency rule, every [`LINE_LATENCY`], for as long
/// as the stream lasts: a producer that blocks after a line cannot hold that line back.
struct Flusher {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Flusher {
    /// `None` when the thread cannot be spawned.
    fn start(shared: Arc<Shared>) -> Option<Flusher> {
        let (stop, stopped) = mpsc::channel::<()>();
        let tick = move || {
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(LINE_LATENCY) {
                let mut output = shared.lock();
                if output.is_finished() {
                    break;
                }
                // The lines a batched stream made since the last tick (`render::pending`).
                if let Some((mut lines, kind)) = shared.pending.take() {
                    let output = &mut *output;
                    let _ = output
                        .profile
                        .stream_lines(&mut output.sinks, kind, &mut lines);
                }
                // A closed pipe is noticed by the render loop at its next hand-over.
                let _ = output.sinks.stdout.flush_pending();
            }
        };
        let thread = std::thread::Builder::new()
            .name("pas-flush".to_owned())
            .spawn(tick)
            .ok()?;
        Some(Flusher {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Flusher {
    fn drop(&mut self) {
        // Dropping the sender wakes the thread at once with `Disconnected`.
        self.stop.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
