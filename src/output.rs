//! The process's output: the two sinks, the contract profile that writes to them, and the one
//! place a call ends (`finish`).
//!
//! Everything that writes goes through one mutex: the main thread takes it for one whole line at
//! a time, and whatever ends the call on a signal (the signal handler itself, the writer that
//! held the lock when it landed, or the watcher thread) holds it while it ends the process, so
//! stdout only ever holds whole lines whatever the moment a signal lands (see `signals`).

use std::io::{self, BufWriter, IsTerminal, Stderr, Write};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

use pas_spec::Registry;

use crate::audit::Audit;
use crate::error::Error;
use crate::profile::Profile;
use crate::redact::Redactor;
use crate::tool::{PendingSchemas, SchemaFill};

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
    /// The real stdout, even while fd 1 points elsewhere (`stdout_capture`).
    out: BufWriter<crate::stdout_capture::RealStdout>,
    live: bool,
    /// stdout was closed when the process started (`>&-`): every write fails with EBADF.
    closed: bool,
    /// What ends the document stdout holds open (`]` of `--format array`), written before an
    /// early end (an error or a signal) so that stdout stays valid JSON.
    closing: &'static [u8],
    /// A flusher thread flushes waiting lines every [`LINE_LATENCY`].
    ticking: bool,
    last_flush: Option<Instant>,
    pending: bool,
}

impl StdoutSink {
    pub(crate) fn new() -> Self {
        StdoutSink {
            out: BufWriter::with_capacity(64 * 1024, crate::stdout_capture::RealStdout),
            live: live_reader(),
            closed: crate::closed_stdout::stdout_was_closed(),
            closing: b"",
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
        if self.closed {
            return Err(closed_error());
        }
        self.out.write_all(bytes)
    }

    /// What must follow the bytes written so far for stdout to hold a whole document if the
    /// call ends now (empty: nothing). Set and cleared by the profile around a document it
    /// writes in pieces.
    pub(crate) fn set_closing(&mut self, closing: &'static [u8]) {
        self.closing = closing;
    }

    /// The bytes [`StdoutSink::set_closing`] last set (read by the signal handler).
    pub(crate) fn closing(&self) -> &'static [u8] {
        self.closing
    }

    /// Ends an open document early (an error or a signal ends the call).
    fn close_open_document(&mut self) -> io::Result<()> {
        let closing = std::mem::take(&mut self.closing);
        if closing.is_empty() {
            return Ok(());
        }
        self.write(closing)
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
        if self.closed {
            if self.out.buffer().is_empty() {
                return Ok(());
            }
            return Err(closed_error());
        }
        self.out.flush()
    }

    /// The whole lines waiting in the buffer (what a flush would write).
    pub(crate) fn buffered(&self) -> &[u8] {
        self.out.buffer()
    }
}

/// The error of a write to a stdout that was closed at start.
pub(crate) fn closed_error() -> io::Error {
    #[cfg(unix)]
    {
        io::Error::from_raw_os_error(libc::EBADF)
    }
    #[cfg(not(unix))]
    {
        io::Error::other("stdout is closed")
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
    pub(crate) stderr: StderrSink,
}

/// stderr, or (while the signal lines are rendered ahead of time) a buffer in its place.
pub(crate) enum StderrSink {
    Stderr(Stderr),
    Capture(Vec<u8>),
}

impl Write for StderrSink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match self {
            StderrSink::Stderr(stderr) => stderr.write(bytes),
            StderrSink::Capture(buffer) => buffer.write(bytes),
        }
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            StderrSink::Stderr(stderr) => stderr.write_all(bytes),
            StderrSink::Capture(buffer) => buffer.write_all(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            StderrSink::Stderr(stderr) => stderr.flush(),
            StderrSink::Capture(_) => Ok(()),
        }
    }
}

/// The error report of each signal, rendered by the profile before anything may block, with
/// its exit status: what the signal handler writes (see `signals`), by signal number.
pub(crate) struct SignalLines {
    pub(crate) lines: Vec<(i32, Vec<u8>, u8)>,
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
            Stop::Failed(output_lost(&err))
        }
    }
}

/// The error of output that could not be written: stdout closed (EBADF), a full disk (ENOSPC),
/// an I/O error (EIO). A closed pipe is not one: the reader went away, and the call ends quietly.
pub(crate) fn output_lost(err: &io::Error) -> Error {
    Error::general(format!("cannot write the output: {err}")).with_suggestion(
        "give the call a writable stdout (an open pipe or file on a disk with free space) and run it again",
    )
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
    /// Set once the signal handler may end the call itself (see `signals`).
    pub(crate) signal_lines: Option<SignalLines>,
    finished: Option<u8>,
}

impl Output {
    pub(crate) fn new(profile: Box<dyn Profile>, redactor: Redactor, audit: Option<Audit>) -> Self {
        Output {
            profile,
            sinks: Sinks {
                stdout: StdoutSink::new(),
                stderr: StderrSink::Stderr(io::stderr()),
            },
            redactor,
            audit,
            command: None,
            signal_lines: None,
            finished: None,
        }
    }

    /// The report `finish` would write on stderr for `error`, and the exit status, rendered now
    /// (`finish` redacts the error and asks the profile, which must write nothing else: only a
    /// profile whose error report is one stderr write that depends on nothing but the error).
    pub(crate) fn render_error(&mut self, mut error: Error) -> (Vec<u8>, u8) {
        self.redactor.error(&mut error);
        let code = self.profile.exit_code(&error);
        let stderr = std::mem::replace(&mut self.sinks.stderr, StderrSink::Capture(Vec::new()));
        let _ = self.profile.error(&mut self.sinks, &error, code);
        match std::mem::replace(&mut self.sinks.stderr, stderr) {
            StderrSink::Capture(line) => (line, code),
            StderrSink::Stderr(_) => (Vec::new(), code),
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
        let mut outcome = match outcome {
            Outcome::Success => match self.sinks.stdout.flush() {
                Ok(()) => Outcome::Success,
                Err(err) => Stop::from(err).into(),
            },
            other => other,
        };
        // The record first: one that cannot be written fails the call it would have recorded.
        if let Some(audit) = self.audit.take() {
            let (code, result, constant) = match &outcome {
                Outcome::Success => (self.profile.success_exit(), "success", None),
                Outcome::Closed => (0, "closed", None),
                Outcome::Failed(error) | Outcome::ParseFailed(_, error) => {
                    (self.profile.exit_code(error), "error", Some(error.code()))
                }
            };
            let recorded = audit.record(
                &self.redactor,
                self.command.as_deref(),
                result,
                constant,
                code,
            );
            if let Err(error) = recorded
                && matches!(outcome, Outcome::Success | Outcome::Closed)
            {
                outcome = Outcome::Failed(error);
            }
        }
        let code = match outcome {
            Outcome::Success => self.profile.success_exit(),
            Outcome::Closed => 0,
            Outcome::Failed(mut error) => {
                // Partial results first: the lines already produced are whole and stay, and an
                // open document (an array) is closed so stdout stays valid JSON.
                let _ = self.sinks.stdout.close_open_document();
                let _ = self.sinks.stdout.flush();
                self.redactor.error(&mut error);
                let code = self.profile.exit_code(&error);
                let reported = self.profile.error(&mut self.sinks, &error, code);
                if reported.is_err() {
                    self.report_on_stderr(&error, code);
                }
                code
            }
            Outcome::ParseFailed(clap_error, mut error) => {
                let _ = self.sinks.stdout.flush();
                self.redactor.error(&mut error);
                let code = self.profile.exit_code(&error);
                let _ =
                    self.profile
                        .parse_error(&mut self.sinks, &clap_error, &error, &self.redactor);
                code
            }
        };
        let _ = self.sinks.stderr.flush();
        // Child processes a handler started (`pas::process::spawn`) end with the call.
        crate::process::kill_all();
        // And every other child left, however it was started (Linux).
        crate::descendants::end_gracefully();
        self.finished = Some(code);
        code
    }

    /// The error as one JSON line on stderr, for when the profile could not report it (the
    /// compose profile reports on stdout, which may be what failed).
    fn report_on_stderr(&mut self, error: &Error, code: u8) {
        let line = serde_json::json!({
            "error": error.code(),
            "message": error.message(),
            "code": code,
            "suggestion": error.suggestion(),
        });
        let _ = self.sinks.stderr.write_all(format!("{line}\n").as_bytes());
    }
}

/// What the main thread, the handler's context and the signal handling share.
pub(crate) struct Shared {
    /// The registry, with its output and input schemas made on first use (see
    /// [`RegistryCell::light`] for the code that never needs them).
    pub(crate) registry: RegistryCell,
    pub(crate) agent: bool,
    output: Mutex<Output>,
    /// The signal that asked us to stop (0: none yet); the first one wins.
    signal: AtomicI32,
    /// Whether a signal ends the call without a watcher thread (see `signals`).
    direct: AtomicBool,
    /// The robot profile's call state (what handlers report: outcome, warnings, gates...).
    pub(crate) robot: Option<crate::robot::CallState>,
    /// Set when the call is served over MCP (`TOOL mcp`): progress, stdin and cancellation.
    pub(crate) mcp: Option<crate::mcp::hooks::CallHooks>,
    /// The whole lines a batched stream made and did not hand over yet (written on a signal).
    pub(crate) pending: crate::render::pending::PendingLines,
}

/// The output lock, held for one whole line (or a run of them). Releasing it ends the call
/// when a signal landed while it was held and the call ends on signals without a watcher
/// thread: the signal handler only recorded it, since a line was being written.
pub(crate) struct OutputGuard<'a> {
    shared: &'a Shared,
    guard: Option<MutexGuard<'a, Output>>,
}

impl Deref for OutputGuard<'_> {
    type Target = Output;

    fn deref(&self) -> &Output {
        self.guard.as_ref().expect("held until dropped")
    }
}

impl DerefMut for OutputGuard<'_> {
    fn deref_mut(&mut self) -> &mut Output {
        self.guard.as_mut().expect("held until dropped")
    }
}

impl Drop for OutputGuard<'_> {
    fn drop(&mut self) {
        drop(self.guard.take());
        // After the unlock: a signal that lands from now on finds the lock free, and the
        // handler ends the call itself.
        if self.shared.signal() != 0 && self.shared.is_direct() {
            crate::signals::end(self.shared);
        }
    }
}

/// The call's registry. Read through `Deref` it is complete: a derive-built tool's output and
/// input schemas the call did not make at start (a plain command call never shows them) are
/// made then, once.
pub(crate) struct RegistryCell {
    registry: Arc<Registry>,
    schemas: PendingSchemas,
}

impl RegistryCell {
    /// The registry as the call started with it, without schemas not made yet: for code that
    /// reads anything but the output and input schemas.
    pub(crate) fn light(&self) -> &Registry {
        &self.registry
    }
}

impl Deref for RegistryCell {
    type Target = Registry;

    fn deref(&self) -> &Registry {
        self.schemas.complete(&self.registry)
    }
}

impl Shared {
    pub(crate) fn new(registry: Arc<Registry>, agent: bool, output: Output) -> Self {
        Shared {
            registry: RegistryCell {
                registry,
                schemas: PendingSchemas::default(),
            },
            agent,
            output: Mutex::new(output),
            signal: AtomicI32::new(0),
            direct: AtomicBool::new(false),
            robot: None,
            mcp: None,
            pending: crate::render::pending::PendingLines::new(),
        }
    }

    /// The robot profile's call state, shared with handlers' contexts.
    pub(crate) fn with_robot(mut self, robot: Option<crate::robot::CallState>) -> Self {
        self.robot = robot;
        self
    }

    /// The call is served over MCP, with these hooks.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn with_mcp(mut self, hooks: crate::mcp::hooks::CallHooks) -> Self {
        self.mcp = Some(hooks);
        self
    }

    /// The output and input schemas the registry lacks, made when first read.
    pub(crate) fn with_schemas(mut self, schemas: Option<SchemaFill>) -> Self {
        self.registry.schemas = PendingSchemas::new(schemas);
        self
    }

    /// The output, even if a panic poisoned the lock (what it guards stays consistent: every
    /// write under it is a whole line or nothing that matters).
    pub(crate) fn lock(&self) -> OutputGuard<'_> {
        OutputGuard {
            shared: self,
            guard: Some(self.lock_plain()),
        }
    }

    /// The lock without the end-on-release check (for the code that ends the call).
    pub(crate) fn lock_plain(&self) -> MutexGuard<'_, Output> {
        self.output
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The lock if it is free right now (the signal handler: it never waits). One atomic
    /// compare-exchange on the lock word, no allocation, no system call.
    pub(crate) fn try_lock(&self) -> Option<MutexGuard<'_, Output>> {
        match self.output.try_lock() {
            Ok(guard) => Some(guard),
            Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    }

    /// Records a signal; the first one is the one the call ends with. An atomic operation only
    /// (called in the signal handler).
    pub(crate) fn set_signal(&self, signal: i32) {
        let _ = self
            .signal
            .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// The recorded signal (0: none).
    pub(crate) fn signal(&self) -> i32 {
        self.signal.load(Ordering::SeqCst)
    }

    /// From now on the signal handler ends the call itself (see `signals`).
    pub(crate) fn set_direct(&self) {
        self.direct.store(true, Ordering::SeqCst);
    }

    pub(crate) fn is_direct(&self) -> bool {
        self.direct.load(Ordering::SeqCst)
    }

    /// The stop request, as the error it ends the call with. Inlined: the render loop asks
    /// once per item, and the answer is almost always a load and a compare.
    #[inline]
    pub(crate) fn stop_requested(&self) -> Option<Error> {
        // Relaxed: the flag orders nothing else (whatever ends the call takes the output lock
        // before it touches anything), and the render loop reads it once per item.
        match self.signal.load(Ordering::Relaxed) {
            0 => None,
            signal => Some(crate::signals::error_for(signal)),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn lost_output_is_a_general_error_and_a_closed_pipe_is_quiet() {
        for errno in [libc::EIO, libc::ENOSPC, libc::EBADF] {
            match Stop::from(io::Error::from_raw_os_error(errno)) {
                Stop::Failed(error) => {
                    assert_eq!(error.code(), crate::codes::GENERAL_ERROR);
                    assert!(error.message().starts_with("cannot write the output"));
                }
                Stop::Closed => panic!("errno {errno} is not a closed pipe"),
            }
        }
        assert!(matches!(
            Stop::from(io::Error::from_raw_os_error(libc::EPIPE)),
            Stop::Closed
        ));
    }
}
