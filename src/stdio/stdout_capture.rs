//! stdout kept for the runtime while a handler runs (failure mode 68).
//!
//! A library a handler calls may print (`println!`, a C library's `printf`, a child process
//! that inherits stdout): on the contract's stdout that corrupts the JSON an agent parses. So
//! before a tool's handler runs, the runtime keeps a duplicate of the real stdout for its own
//! output (the sink and the signal handler write there) and points fd 1 at an anonymous file
//! (a memfd on Linux). What lands there is never on stdout: it becomes a `THIRD_PARTY_STDOUT`
//! warning (the `pas` profile's warning line on stderr, compose's `meta.warnings`, robot's
//! `warnings`) carrying the text, redacted, cut at `SHOWN` bytes. fd 1 is the real stdout
//! again when the call's output is written, so anything after the call is unchanged.
//!
//! The window covers the handler and the stream it returns (items are made while the reply
//! renders); it starts when argv selected a tool's command and ends before the call finishes.
//! Help, the spec, built-ins and `TOOL mcp` are the runtime's own and not captured.
//!
//! Unix only, through rustix (already in the tree through cap-std): no `unsafe` here. Elsewhere
//! (Windows) nothing is captured: a handler's library prints there still reach stdout, as the
//! README says.

use std::io::{self, Write};
use std::sync::{Mutex, OnceLock};

/// The warning's constant.
pub const THIRD_PARTY_STDOUT: &str = "THIRD_PARTY_STDOUT";

/// How much of the captured text a warning shows.
pub(crate) const SHOWN: usize = 2048;

/// A duplicate of the real stdout, made at the first capture and kept for the process's life
/// (the signal handler may read it at any time, so it is never closed).
static REAL: OnceLock<std::fs::File> = OnceLock::new();

/// The file fd 1 points at while a capture is on.
static ACTIVE: Mutex<Option<std::fs::File>> = Mutex::new(None);

/// stdout as the runtime writes it: the real stdout, whatever fd 1 points at now.
pub(crate) struct RealStdout;

impl Write for RealStdout {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match REAL.get() {
            Some(mut real) => real.write(bytes),
            None => io::stdout().write(bytes),
        }
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match REAL.get() {
            Some(mut real) => real.write_all(bytes),
            None => io::stdout().write_all(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match REAL.get() {
            Some(_) => Ok(()),
            None => io::stdout().flush(),
        }
    }
}

/// The descriptor of the real stdout, for the signal handler's write(2). Async-signal-safe:
/// one atomic load.
#[cfg(unix)]
pub(crate) fn real_fd() -> i32 {
    use std::os::fd::AsRawFd;
    REAL.get().map_or(1, |real| real.as_raw_fd())
}

/// Points fd 1 away from the real stdout until [`end`]. Does nothing when stdout was closed at
/// start, when a capture is already on, or when the system refuses a step (the call then runs
/// as before, uncaptured).
pub(crate) fn start() {
    #[cfg(unix)]
    {
        if crate::stdio::closed_stdout::stdout_was_closed() {
            return;
        }
        let mut active = ACTIVE.lock().unwrap_or_else(|p| p.into_inner());
        if active.is_some() {
            return;
        }
        // Bytes std still holds for fd 1 (a partial line) belong to the real stdout.
        let _ = io::stdout().flush();
        if REAL.get().is_none() {
            use std::os::fd::AsFd;
            let Ok(real) = io::stdout().as_fd().try_clone_to_owned() else {
                return;
            };
            let _ = REAL.set(std::fs::File::from(real));
        }
        let Some(file) = anonymous_file() else {
            return;
        };
        if rustix::stdio::dup2_stdout(&file).is_ok() {
            *active = Some(file);
        }
    }
}

/// What was captured so far (its byte count, and the first [`SHOWN`] bytes as text), the
/// capture emptied; the end of a call turns it into a warning. Cheap when nothing was: one
/// lseek(2).
pub(crate) fn drain() -> Option<(u64, String)> {
    let active = ACTIVE.lock().unwrap_or_else(|p| p.into_inner());
    take(active.as_ref()?)
}

/// Drains what is left, and points fd 1 at the real stdout again.
pub(crate) fn end() -> Option<(u64, String)> {
    let left = drain();
    let mut active = ACTIVE.lock().unwrap_or_else(|p| p.into_inner());
    if active.take().is_none() {
        return left;
    }
    #[cfg(unix)]
    if let Some(real) = REAL.get() {
        let _ = io::stdout().flush();
        let _ = rustix::stdio::dup2_stdout(real);
    }
    left
}

/// The bytes captured since the last take (their count, and the first [`SHOWN`] as text), and
/// the file emptied.
fn take(file: &std::fs::File) -> Option<(u64, String)> {
    use std::io::{Read, Seek, SeekFrom};
    // A print without a newline may still sit in std's buffer for fd 1.
    let _ = io::stdout().flush();
    let mut file = file;
    let written = file.stream_position().ok()?;
    if written == 0 {
        return None;
    }
    let mut shown = Vec::with_capacity(SHOWN.min(written as usize));
    file.seek(SeekFrom::Start(0)).ok()?;
    let _ = file.take(SHOWN as u64).read_to_end(&mut shown);
    let _ = file.set_len(0);
    let _ = file.seek(SeekFrom::Start(0));
    Some((
        written,
        String::from_utf8_lossy(&shown).trim_end().to_owned(),
    ))
}

/// An unnamed file for fd 1: a memfd where the system has one, else a temporary file removed
/// at once.
#[cfg(unix)]
fn anonymous_file() -> Option<std::fs::File> {
    #[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
    {
        use rustix::fs::{MemfdFlags, memfd_create};
        if let Ok(fd) = memfd_create("pas-captured-stdout", MemfdFlags::CLOEXEC) {
            return Some(std::fs::File::from(fd));
        }
    }
    let path = std::env::temp_dir().join(format!(
        "pas-captured-stdout-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)
        .ok()?;
    let _ = std::fs::remove_file(&path);
    Some(file)
}
