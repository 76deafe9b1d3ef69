//! Driving a profile with a handler's reply: the render loop.
//!
//! Streams are pulled one item at a time outside the output lock (the handler's iterator may
//! block or report progress), and each encoded item is handed to the profile under the lock as
//! one whole line. Between items the loop checks for SIGINT/SIGTERM; a panic inside the
//! iterator is caught per item so a stream is still closed properly (e.g. a `--format=array`
//! array gets its `]`) before the error is reported.

use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;

use crate::output::{LINE_LATENCY, Shared, Stop};
use crate::panics;
use crate::reply::{Body, Reply, Stream};

pub(crate) fn reply(shared: &Arc<Shared>, reply: Reply) -> Result<(), Stop> {
    if let Some(error) = shared.stop_requested() {
        return Err(Stop::Failed(error));
    }
    match reply.body {
        Body::Object(object) => {
            if let Err(error) = &object.json {
                return Err(Stop::Failed(error.clone()));
            }
            let mut output = shared.lock();
            let output = &mut *output;
            Ok(output.profile.object(&mut output.sinks, &object)?)
        }
        Body::Document(markdown) => {
            let mut output = shared.lock();
            let output = &mut *output;
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
    let (encoding, live) = {
        let mut output = shared.lock();
        let output = &mut *output;
        output.profile.stream_start(&mut output.sinks, kind)?;
        (
            output.profile.item_encoding(kind),
            output.sinks.stdout.live(),
        )
    };
    let _flusher = live.then(|| Flusher::start(shared.clone()));
    // One buffer for every item: memory stays flat whatever the count.
    let mut line = Vec::with_capacity(1024);
    let result = loop {
        if let Some(error) = shared.stop_requested() {
            break Err(Stop::Failed(error));
        }
        line.clear();
        match panics::catch(|| (stream.next)(encoding, &mut line)) {
            Ok(None) => break Ok(()),
            Ok(Some(Ok(()))) => {
                let mut output = shared.lock();
                let output = &mut *output;
                if let Err(err) = output.profile.stream_item(&mut output.sinks, kind, &line) {
                    break Err(Stop::from(err));
                }
            }
            Ok(Some(Err(error))) | Err(error) => break Err(Stop::Failed(error)),
        }
    };
    if let Err(Stop::Closed) = result {
        return result;
    }
    let mut output = shared.lock();
    let output = &mut *output;
    let ended = output
        .profile
        .stream_end(&mut output.sinks, kind, result.is_ok());
    result?;
    Ok(ended?)
}

/// Flushes lines left waiting by the sink's latency rule, every [`LINE_LATENCY`], for as long
/// as the stream lasts: a producer that blocks after a line cannot hold that line back.
struct Flusher {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Flusher {
    fn start(shared: Arc<Shared>) -> Flusher {
        let (stop, stopped) = mpsc::channel::<()>();
        let tick = move || {
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(LINE_LATENCY) {
                let mut output = shared.lock();
                if output.is_finished() {
                    break;
                }
                // A closed pipe is noticed by the render loop at its next line.
                let _ = output.sinks.stdout.flush_pending();
            }
        };
        let thread = std::thread::Builder::new()
            .name("pas-flush".to_owned())
            .spawn(tick)
            .ok();
        Flusher {
            stop: Some(stop),
            thread,
        }
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
