//! The process's two output streams as a profile writes to them: stdout buffered with its
//! flush policy (whole lines, flushed at once when a reader may be waiting), and stderr or the
//! buffer that stands in for it while the signal lines are rendered ahead of time.

use std::io::{self, BufWriter, IsTerminal, Stderr, Write};
use std::time::{Duration, Instant};

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
    out: BufWriter<crate::stdio::stdout_capture::RealStdout>,
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
            out: BufWriter::with_capacity(64 * 1024, crate::stdio::stdout_capture::RealStdout),
            live: live_reader(),
            closed: crate::stdio::closed_stdout::stdout_was_closed(),
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
    pub(crate) fn close_open_document(&mut self) -> io::Result<()> {
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
