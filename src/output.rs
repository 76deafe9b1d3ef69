//! The process's output: the two sinks, the contract profile that writes to them, and the one
//! place a call ends (`finish`).
//!
//! Everything that writes goes through one mutex: the main thread takes it for one whole line at
//! a time, and the signal watcher takes it before it ends the process, so stdout only ever holds
//! whole lines whatever the moment a signal lands.

use std::io::{self, BufWriter, IsTerminal, Stderr, Stdout, Write};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use pas_spec::Registry;

use crate::audit::Audit;
use crate::error::Error;
use crate::profile::Profile;
use crate::redact::Redactor;

/// How long a whole line may wait in the buffer when a reader may be waiting for it.
pub(crate) const LINE_LATENCY: Duration = Duration::from_millis(10);

/// stdout, buffered, with the flush policy decided once.
///
/// When a reader may be waiting (pipe, socket, terminal), a finished line is flushed at once
/// unless the last flush was less than [`LINE_LATENCY`] ago; then it waits for the next flush,
/// which the render loop's flusher thread does within that latency even if the producer blocks.
/// A slow stream is therefore flushed line by line as produced, and a fast one is written in
/// large blocks: a write(2) per line made a million-item list 15 times slower through a pipe.
///
/// Once a stream has left a line waiting, the render loop starts the flusher and marks the
/// sink `ticking`: from then on a line only waits for the next tick, so the hot path of a
/// fast stream reads no clock (a clock read per line cost about a tenth of a million-item
/// list).
pub(crate) struct StdoutSink {
    out: BufWriter<Stdout>,
    live: bool,
    /// A flusher thread flushes waiting lines every [`LINE_LATENCY`].
    ticking: bool,
    last_flush: Option<Instant>,
    pending: bool,
}

impl StdoutSink {
    pub(crate) fn new() -> Self {
        StdoutSink {
            out: BufWriter::with_capacity(64 * 1024, io::stdout()),
            live: live_reader(),
            ticking: false,
            last_flush: None,
            pending: false,
        }
    }

    /// Whether a reader may be waiting for each line.
    pub(crate) fn live(&self) -> bool {
        self.live
    }

    /// Bytes that are part of the current line (or a whole document).
    pub(crate) fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)
    }

    /// The current line is whole: hand it to a live reader now, or within [`LINE_LATENCY`].
    pub(crate) fn end_line(&mut self) -> io::Result<()> {
        if !self.live {
            return Ok(());
        }
        if self.ticking {
            self.pending = true;
            return Ok(());
        }
        match self.last_flush {
            Some(last) if last.elapsed() < LINE_LATENCY => {
                self.pending = true;
                Ok(())
            }
            _ => self.flush(),
        }
    }

    /// Whether a whole line is waiting for a flush.
    pub(crate) fn pending(&self) -> bool {
        self.pending
    }

    /// A flusher thread now flushes waiting lines every [`LINE_LATENCY`] (or no longer does).
    pub(crate) fn set_ticking(&mut self, ticking: bool) {
        self.ticking = ticking;
    }

    /// Flushes lines that are waiting for a live reader (the flusher thread's tick).
    pub(crate) fn flush_pending(&mut self) -> io::Result<()> {
        if self.pending { self.flush() } else { Ok(()) }
    }

    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.pending = false;
        self.last_flush = Some(Instant::now());
        self.out.flush()
    }
}

/// Whether stdout may have a reader waiting for each line: a pipe, a socket or a terminal. A
/// regular file or a device such as /dev/null has none, so lines are only batched there.
fn live_reader() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::FileTypeExt;
        let stdout = io::stdout();
        if stdout.is_terminal() {
            return true;
        }
        // A duplicate of fd 1 only to ask fstat what it is; dropped (closed) right after.
        let Ok(fd) = stdout.as_fd().try_clone_to_owned() else {
            return true;
        };
        match std::fs::File::from(fd).metadata() {
            Ok(meta) => {
                let kind = meta.file_type();
                !(kind.is_file() || kind.is_char_device() || kind.is_block_device())
            }
            Err(_) => true,
        }
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// Both sinks, as a profile sees them.
pub(crate) struct Sinks {
    pub(crate) stdout: StdoutSink,
    pub(crate) stderr: Stderr,
}

/// How a call ends.
pub(crate) enum Outcome {
    Success,
    Failed(Error),
    /// clap rejected argv; the profile may prefer clap's own text (human mode).
    ParseFailed(Box<clap::Error>, Error),
    /// stdout's reader went away (`| head -1`): stop quietly.
    Closed,
}

/// Why rendering stopped early.
pub(crate) enum Stop {
    Failed(Error),
    Closed,
}

impl From<Error> for Stop {
    fn from(error: Error) -> Self {
        Stop::Failed(error)
    }
}

impl From<io::Error> for Stop {
    fn from(err: io::Error) -> Self {
        if err.kind() == io::ErrorKind::BrokenPipe {
            Stop::Closed
        } else {
            Stop::Failed(Error::general(format!("cannot write the output: {err}")))
        }
    }
}

impl From<Stop> for Outcome {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::Failed(error) => Outcome::Failed(error),
            Stop::Closed => Outcome::Closed,
        }
    }
}

/// Everything that writes, behind the one lock.
pub(crate) struct Output {
    pub(crate) profile: Box<dyn Profile>,
    pub(crate) sinks: Sinks,
    pub(crate) redactor: Redactor,
    pub(crate) audit: Option<Audit>,
    /// The dotted name of the command, once argv parsed (for the audit record).
    pub(crate) command: Option<String>,
    finished: Option<u8>,
}

impl Output {
    pub(crate) fn new(profile: Box<dyn Profile>, redactor: Redactor, audit: Option<Audit>) -> Self {
        Output {
            profile,
            sinks: Sinks {
                stdout: StdoutSink::new(),
                stderr: io::stderr(),
            },
            redactor,
            audit,
            command: None,
            finished: None,
        }
    }

    /// Whether the call already ended (the main thread and the signal watcher race for this).
    pub(crate) fn is_finished(&self) -> bool {
        self.finished.is_some()
    }

    /// Ends the call: flushes whole lines, reports the error if any (redacted), writes the audit
    /// record, and gives the exit status. Only the first call has an effect.
    pub(crate) fn finish(&mut self, outcome: Outcome) -> u8 {
        if let Some(code) = self.finished {
            return code;
        }
        let outcome = match outcome {
            Outcome::Success => match self.sinks.stdout.flush() {
                Ok(()) => Outcome::Success,
                Err(err) => Stop::from(err).into(),
            },
            other => other,
        };
        let (code, result, constant) = match outcome {
            Outcome::Success => (0, "success", None),
            Outcome::Closed => (0, "closed", None),
            Outcome::Failed(mut error) => {
                // Partial results first: the lines already produced are whole and stay.
                let _ = self.sinks.stdout.flush();
                self.redactor.error(&mut error);
                let code = self.profile.exit_code(&error);
                let _ = self.profile.error(&mut self.sinks, &error, code);
                (code, "error", Some(error.code().to_owned()))
            }
            Outcome::ParseFailed(clap_error, mut error) => {
                let _ = self.sinks.stdout.flush();
                self.redactor.error(&mut error);
                let code = self.profile.exit_code(&error);
                let _ =
                    self.profile
                        .parse_error(&mut self.sinks, &clap_error, &error, &self.redactor);
                (code, "error", Some(error.code().to_owned()))
            }
        };
        let _ = self.sinks.stderr.flush();
        if let Some(audit) = self.audit.take() {
            audit.record(self.command.as_deref(), result, constant.as_deref(), code);
        }
        self.finished = Some(code);
        code
    }
}

/// What the main thread, the handler's context and the signal watcher share.
pub(crate) struct Shared {
    pub(crate) registry: Arc<Registry>,
    pub(crate) agent: bool,
    output: Mutex<Output>,
    /// The signal that asked us to stop (0: none yet).
    signal: AtomicI32,
}

impl Shared {
    pub(crate) fn new(registry: Arc<Registry>, agent: bool, output: Output) -> Self {
        Shared {
            registry,
            agent,
            output: Mutex::new(output),
            signal: AtomicI32::new(0),
        }
    }

    /// The output, even if a panic poisoned the lock (what it guards stays consistent: every
    /// write under it is a whole line or nothing that matters).
    pub(crate) fn lock(&self) -> MutexGuard<'_, Output> {
        self.output
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn set_signal(&self, signal: i32) {
        self.signal.store(signal, Ordering::SeqCst);
    }

    /// The stop request, as the error it ends the call with.
    pub(crate) fn stop_requested(&self) -> Option<Error> {
        // Relaxed: the flag orders nothing else (the watcher takes the output lock before it
        // touches anything), and the render loop reads it once per item.
        match self.signal.load(Ordering::Relaxed) {
            0 => None,
            signal => Some(crate::signals::error_for(signal)),
        }
    }
}
