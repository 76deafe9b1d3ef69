//! The ending of a call: the output behind one lock (the contract profile and the two streams
//! of [`crate::stdio::streams`] it writes to), and the one place a call ends (`finish`). The
//! audit record is written from here too, since the output holds the log: at `finish`, or for
//! a success before its result is written (`before_output`).
//!
//! Everything that writes goes through one mutex: the main thread takes it for one whole line at
//! a time, and whatever ends the call on a signal (the signal handler itself, the writer that
//! held the lock when it landed, or the watcher thread) holds it while it ends the process, so
//! stdout only ever holds whole lines whatever the moment a signal lands (see `signals`).

use std::io::{self, Write};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, TryLockError};

use pas_spec::Registry;

use crate::derive::{PendingSchemas, SchemaFill};
use crate::end::audit::Audit;
use crate::end::signal_error::error_for;
use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::profile::Profile;
use crate::reply::{Body, Encoding, Reply};
use crate::stdio::streams::{Sinks, StderrSink, StdoutSink};

/// The error report of each signal, rendered by the profile before anything may block, with
/// its exit status: what the signal handler writes (see `signals`), by signal number.
pub(crate) struct SignalLines {
    pub(crate) lines: Vec<(i32, Vec<u8>, u8)>,
    /// The reports of a signal that lands while a handler that may change state runs (its
    /// outcome unknown; see [`crate::end::outcome`]), rendered when the handler starts; none for
    /// an idempotent command.
    pub(crate) running: Option<Vec<(i32, Vec<u8>, u8)>>,
}

/// Where a call is with its handler: outcomes follow effects (see [`crate::end::outcome`]).
const BEFORE_HANDLER: u8 = 0;
/// The handler runs, or the stream it returned is being read (its items are made then).
const IN_HANDLER: u8 = 1;
/// The handler returned a whole result (an object, a document, nothing, or its error): what
/// it did is done, and the result is reported whatever comes after.
const RETURNED: u8 = 2;

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
        let _ = self.profile.call_end(&mut self.sinks, code);
        let _ = self.sinks.stderr.flush();
        // Child processes a handler started (`pas::process::spawn`) end with the call.
        crate::services::children::process::kill_all();
        // And every other child left, however it was started (Linux).
        crate::services::children::descendants::end_gracefully();
        // Children kept on purpose go to the tool's PID file, for `cleanup` (Linux).
        crate::services::children::kept_children::record(self.command.as_deref());
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
    /// Where the call is with its handler ([`BEFORE_HANDLER`], [`IN_HANDLER`], [`RETURNED`]).
    phase: AtomicU8,
    /// How many signals landed (saturating): the first one after the handler returned waits
    /// for the result to be written; a second one ends the call.
    signals: AtomicU8,
    /// What is known of the running handler's effect, for the error a signal ends it with.
    handler: OnceLock<crate::end::outcome::Running>,
    /// The robot profile's call state (what handlers report: outcome, warnings, gates...).
    pub(crate) robot: Option<crate::profile::robot_state::CallState>,
    /// Set when the call is served over MCP (`TOOL mcp`): progress, stdin and cancellation.
    pub(crate) mcp: Option<crate::end::hooks::CallHooks>,
    /// The whole lines a batched stream made and did not hand over yet (written on a signal).
    pub(crate) pending: crate::end::pending::PendingLines,
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
        if self.shared.signal() != 0 && self.shared.is_direct() && !self.shared.signal_waits() {
            end(self.shared);
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
            phase: AtomicU8::new(BEFORE_HANDLER),
            signals: AtomicU8::new(0),
            handler: OnceLock::new(),
            robot: None,
            mcp: None,
            pending: crate::end::pending::PendingLines::new(),
        }
    }

    /// The robot profile's call state, shared with handlers' contexts.
    pub(crate) fn with_robot(
        mut self,
        robot: Option<crate::profile::robot_state::CallState>,
    ) -> Self {
        self.robot = robot;
        self
    }

    /// The call is served over MCP, with these hooks.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn with_mcp(mut self, hooks: crate::end::hooks::CallHooks) -> Self {
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

    /// Counts a signal's delivery (the signal handler, once per delivery). Atomic operations
    /// only.
    pub(crate) fn count_signal(&self) {
        let _ = self
            .signals
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_add(1));
    }

    /// The handler starts: a signal from now on may leave its effect unknown.
    pub(crate) fn handler_starts(&self, running: crate::end::outcome::Running) {
        let _ = self.handler.set(running);
        self.phase.store(IN_HANDLER, Ordering::SeqCst);
    }

    /// The handler returned `reply`: an object, a document, nothing or an error is whole, and
    /// is reported whatever comes after; a stream's items are still to be made.
    pub(crate) fn handler_returned(&self, reply: &Result<crate::reply::Reply, Error>) {
        let whole = match reply {
            Ok(reply) => !matches!(reply.body, crate::reply::Body::Stream(_)),
            Err(_) => true,
        };
        if whole {
            self.phase.store(RETURNED, Ordering::SeqCst);
        }
    }

    /// Whether the handler returned a whole result (see [`Shared::handler_returned`]).
    pub(crate) fn returned(&self) -> bool {
        self.phase.load(Ordering::SeqCst) == RETURNED
    }

    /// Whether the handler is running (or its stream is being read). Atomic (signal handler).
    pub(crate) fn in_handler(&self) -> bool {
        self.phase.load(Ordering::SeqCst) == IN_HANDLER
    }

    /// Whether the signal that landed waits for the result to be written rather than end the
    /// call: the first one after the handler returned does. Atomic (signal handler).
    pub(crate) fn signal_waits(&self) -> bool {
        self.returned() && self.signals.load(Ordering::SeqCst) <= 1
    }

    /// The error a signal ends the call with: while a handler that may change state runs, it
    /// says what is known of the effect ([`crate::end::outcome::interrupted`]).
    pub(crate) fn signal_error(&self, signal: i32) -> Error {
        let error = error_for(signal);
        match (self.in_handler(), self.handler.get()) {
            (true, Some(running)) => running.interrupted(error),
            _ => error,
        }
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
            signal => self.stop_for(signal),
        }
    }

    /// A signal landed: the call stops, unless the handler returned a whole result, which is
    /// written first.
    #[cold]
    fn stop_for(&self, signal: i32) -> Option<Error> {
        (!self.returned()).then(|| self.signal_error(signal))
    }
}

/// Ends the call with the recorded signal's error, through the profile, unless it already
/// ended. Called by a writer releasing the output lock after a signal landed (direct mode),
/// and when the direct mode starts after a signal.
pub(crate) fn end(shared: &Shared) {
    if shared.signal_waits() {
        // The handler returned: its result is written first, and the call ends as it would.
        return;
    }
    let mut output = shared.lock_plain();
    if output.is_finished() {
        // The call ended on its own; the thread that ended it is returning its status.
        return;
    }
    // The whole lines of a batch not handed over yet (a stream to a file) stay too.
    if let Some((lines, kind)) = shared.pending.lines() {
        let mut lines = lines.to_vec();
        let output = &mut *output;
        let _ = output
            .profile
            .stream_lines(&mut output.sinks, kind, &mut lines);
        shared.pending.withdraw();
    }
    let code = output.finish(Outcome::Failed(shared.signal_error(shared.signal())));
    // Exits while holding the lock, so no other thread can start another line.
    std::process::exit(i32::from(code));
}

/// Before a successful reply is written: records the success (when the call is audited). A
/// record that cannot be written ends the call with that error instead, its `details.result`
/// the reply the handler returned (read whole here: nothing of it was written), and not
/// retryable (the handler ran: running it again would repeat what it did).
pub(crate) fn before_output(shared: &Shared, reply: Reply) -> Result<Reply, Stop> {
    let recorded = {
        let mut output = shared.lock();
        let Some(audit) = output.audit.take() else {
            return Ok(reply);
        };
        let code = output.profile.success_exit();
        let command = output.command.clone();
        audit.record(&output.redactor, command.as_deref(), "success", None, code)
    };
    let Err(error) = recorded else {
        return Ok(reply);
    };
    let mut details = error.details().cloned().unwrap_or_default();
    details["result"] = result_of(reply);
    let message = format!(
        "the command ran and succeeded (its result is in details.result), but {}",
        error.message()
    );
    let late = Error::new(error.code().to_owned(), message)
        .with_suggestion(
            "the command already ran (details.result): do not run it again; give later calls an --audit-log file on a writable disk with free space",
        )
        .with_details(details)
        .with_retryable(false);
    Err(Stop::Failed(late))
}

/// A reply as one JSON value: an object as is, a stream as the array of its items (an item
/// that failed as its error), a document as its text, nothing as null.
fn result_of(reply: Reply) -> serde_json::Value {
    use serde_json::Value;
    match reply.body {
        Body::Object(object) => object
            .json
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or(Value::Null),
        Body::Stream(mut stream) => {
            let mut items = Vec::new();
            let mut buffer = Vec::new();
            while let Some(next) =
                (stream.next)(Encoding::Json, &mut crate::reply::ItemOut::new(&mut buffer))
            {
                items.push(match next {
                    Ok(()) => serde_json::from_slice(&buffer).unwrap_or(Value::Null),
                    Err(error) => {
                        serde_json::json!({ "error": error.code(), "message": error.message() })
                    }
                });
                buffer.clear();
            }
            Value::Array(items)
        }
        Body::Document(text) => Value::String(text),
        Body::Nothing => Value::Null,
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
