//! Inputs a tool reads from files or stdin are bounded: past [`limit`] bytes a read fails with a
//! structured `INVALID_ARGUMENT` error naming the input and the limit, instead of growing until
//! memory or patience runs out (`< /dev/zero`, `cp /dev/zero ...`, a FIFO that never ends).
//!
//! The limit is [`DEFAULT_LIMIT`] (256 MiB), or the number of bytes in the `PAS_INPUT_LIMIT`
//! environment variable. [`Context::stdin`](crate::handler::context::Context::stdin) hands out a [`Bounded`]
//! reader; [`read_file`] reads a local file whole (a level 3/4 `cp` source); a handler that
//! streams a file of its own wraps it in [`Bounded::new`]. `?` on the error a bounded read
//! returns gives the structured error (see `impl From<io::Error> for Error`).

use std::fmt;
use std::io::{self, BufRead, Read};
use std::path::Path;

use serde_json::json;

use crate::codes;
use crate::error::Error;
pub use crate::parse::names::INPUT_LIMIT_ENV as LIMIT_ENV;
pub use crate::parse::names::STDIN_WAIT_ENV;

/// The default limit of one input, in bytes.
pub const DEFAULT_LIMIT: u64 = 256 * 1024 * 1024;

/// How long a call waits for stdin to say anything when `PAS_STDIN_WAIT` is unset: a caller
/// that left stdin open and idle gets an answer, not a hang, and a producer that takes a few
/// seconds to start still gets its input read (once begun, input is read to its end).
pub const DEFAULT_STDIN_WAIT_MS: u64 = 10_000;

/// The wait for stdin's first byte: `PAS_STDIN_WAIT`, else [`DEFAULT_STDIN_WAIT_MS`]; `None`
/// for no limit.
pub(crate) fn stdin_wait() -> Option<std::time::Duration> {
    use crate::parse::env_values::Setting;
    match crate::parse::env_values::whole(STDIN_WAIT_ENV) {
        Setting::Unset => Some(std::time::Duration::from_millis(DEFAULT_STDIN_WAIT_MS)),
        Setting::NoLimit => None,
        Setting::Limit(ms) => Some(std::time::Duration::from_millis(ms)),
    }
}

/// Whether stdin has something to say (a byte, or its end) within `wait`: false for a pipe
/// or socket left open and idle. A descriptor poll(2) cannot watch counts as ready.
pub(crate) fn stdin_ready(wait: std::time::Duration) -> bool {
    #[cfg(unix)]
    {
        let mut fds = libc::pollfd {
            fd: 0,
            events: libc::POLLIN,
            revents: 0,
        };
        let timeout = i32::try_from(wait.as_millis()).unwrap_or(i32::MAX);
        loop {
            // SAFETY: `fds` is one valid, initialised pollfd for the duration of the call, and
            // the count passed is 1; poll(2) only writes its `revents`.
            let ready = unsafe { libc::poll(&mut fds, 1, timeout) };
            if ready >= 0 {
                return ready > 0;
            }
            if io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                return true;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = wait;
        true
    }
}

/// The stdin cap the selected command declares (`maxInputBytes`; 0: none).
static DECLARED_STDIN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Makes `bytes` the stdin cap of this call's command (see [`stdin_limit`]).
pub(crate) fn declare_stdin(bytes: u64) {
    DECLARED_STDIN.store(bytes, std::sync::atomic::Ordering::Relaxed);
}

/// The limit of stdin for this call: the command's declared `maxInputBytes` (which the
/// caller's `PAS_INPUT_LIMIT` may only lower), else [`limit`]. A larger input goes through
/// `--input-file`, which [`limit`] bounds (failure mode 61).
pub fn stdin_limit() -> u64 {
    match DECLARED_STDIN.load(std::sync::atomic::Ordering::Relaxed) {
        0 => limit(),
        declared => crate::parse::env_values::whole(LIMIT_ENV)
            .limit()
            .map_or(declared, |caller| caller.min(declared)),
    }
}

/// The limit of one input for this process: `PAS_INPUT_LIMIT` (`0`: no limit), or
/// [`DEFAULT_LIMIT`].
pub fn limit() -> u64 {
    use crate::parse::env_values::Setting;
    match crate::parse::env_values::whole(LIMIT_ENV) {
        Setting::Unset => DEFAULT_LIMIT,
        Setting::NoLimit => u64::MAX,
        Setting::Limit(bytes) => bytes,
    }
}

/// A reader that fails once it would yield more than its limit.
pub struct Bounded<R> {
    inner: R,
    left: u64,
    limit: u64,
    what: String,
}

impl<R> Bounded<R> {
    /// `inner`, allowed `limit` bytes; `what` names it in the error (`stdin`, a path).
    pub fn new(inner: R, what: impl Into<String>, limit: u64) -> Self {
        Bounded {
            inner,
            left: limit,
            limit,
            what: what.into(),
        }
    }

    fn too_large(&self) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            TooLarge {
                what: self.what.clone(),
                limit: self.limit,
            },
        )
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.left == 0 {
            // At the limit: one more byte means the input is too large.
            let mut probe = [0u8; 1];
            return match self.inner.read(&mut probe)? {
                0 => Ok(0),
                _ => Err(self.too_large()),
            };
        }
        let room = usize::try_from(self.left)
            .unwrap_or(usize::MAX)
            .min(buf.len());
        let read = self.inner.read(&mut buf[..room])?;
        self.left -= read as u64;
        Ok(read)
    }
}

impl<R: BufRead> BufRead for Bounded<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.left == 0 {
            if self.inner.fill_buf()?.is_empty() {
                return Ok(&[]);
            }
            return Err(self.too_large());
        }
        let left = usize::try_from(self.left).unwrap_or(usize::MAX);
        let buf = self.inner.fill_buf()?;
        Ok(&buf[..buf.len().min(left)])
    }

    fn consume(&mut self, amount: usize) {
        self.left = self.left.saturating_sub(amount as u64);
        self.inner.consume(amount);
    }
}

/// Reads a local file whole, up to [`limit`] bytes (a `cp` source, a file argument).
pub fn read_file(path: &Path) -> Result<Vec<u8>, Error> {
    let file = std::fs::File::open(path)
        .map_err(|err| Error::general(format!("cannot read {}: {err}", path.display())))?;
    let mut bytes = Vec::new();
    Bounded::new(file, path.display().to_string(), limit())
        .read_to_end(&mut bytes)
        .map_err(|err| match too_large(&err) {
            Some(error) => error,
            None => Error::general(format!("cannot read {}: {err}", path.display())),
        })?;
    Ok(bytes)
}

/// Checks a local file before a handler reads it whole (a `cp` source): a regular file larger
/// than [`limit`], or a device (`/dev/zero`, `/dev/urandom`: endless), is refused with the
/// structured error a bounded read would give. A pipe (`/dev/stdin`) passes: its size is not
/// known until read, which [`read_file`] bounds. A path that cannot be inspected passes too:
/// the handler's own read reports that, in the handler's words.
pub fn check_local_source(path: &Path) -> Result<(), Error> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    let limit = limit();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = meta.file_type();
        if kind.is_char_device() || kind.is_block_device() {
            return Err(Error::new(
                codes::INVALID_ARGUMENT,
                format!("{} is a device, not a file to copy", path.display()),
            )
            .with_suggestion("give a regular file, or pipe the bytes through /dev/stdin")
            .with_details(json!({ "input": path.display().to_string(), "limit": limit })));
        }
    }
    if meta.is_file() && meta.len() > limit {
        let err = Bounded::new(io::empty(), path.display().to_string(), limit).too_large();
        return Err(too_large(&err).unwrap_or_else(|| Error::general(err.to_string())));
    }
    Ok(())
}

/// `?` on I/O in a handler: a general failure whose message is the OS's, or the structured
/// error of an input past its limit. It lives here, beside the bounded reads whose error it
/// recognises, so that `error` does not import `input` (which imports `error`).
impl From<io::Error> for Error {
    fn from(err: io::Error) -> Self {
        too_large(&err).unwrap_or_else(|| Error::general(err.to_string()))
    }
}

/// The structured error of a read that went past its limit, if `err` is one.
pub fn too_large(err: &io::Error) -> Option<Error> {
    let found = err.get_ref()?.downcast_ref::<TooLarge>()?;
    Some(
        Error::new(
            codes::INVALID_ARGUMENT,
            format!(
                "{} is larger than the input limit of {} bytes",
                found.what, found.limit
            ),
        )
        .with_suggestion(suggestion(&found.what))
        .with_details(json!({ "input": found.what, "limit": found.limit })),
    )
}

/// How to get a larger input in: stdin through `--input-file` (the only way past a command's
/// declared cap), any input by raising the limit.
fn suggestion(what: &str) -> String {
    let declared = DECLARED_STDIN.load(std::sync::atomic::Ordering::Relaxed);
    match (what, declared) {
        ("stdin", 0) => format!(
            "give a smaller input, write it to a file and pass --input-file PATH, or raise the limit with {LIMIT_ENV}=BYTES"
        ),
        ("stdin", _) => format!(
            "write the input to a file and pass --input-file PATH: the command takes at most {declared} bytes on stdin"
        ),
        _ => format!("give a smaller input, or raise the limit with {LIMIT_ENV}=BYTES"),
    }
}

/// The payload of a bounded read's error.
#[derive(Debug)]
struct TooLarge {
    what: String,
    limit: u64,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is larger than the input limit of {} bytes",
            self.what, self.limit
        )
    }
}

impl std::error::Error for TooLarge {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_up_to_the_limit_and_fails_past_it() {
        let mut ok = Vec::new();
        Bounded::new(&b"12345"[..], "x", 5)
            .read_to_end(&mut ok)
            .unwrap();
        assert_eq!(ok, b"12345");
        let mut big = Vec::new();
        let err = Bounded::new(&b"123456"[..], "stdin", 5)
            .read_to_end(&mut big)
            .unwrap_err();
        let error = too_large(&err).expect("the limit's error");
        assert_eq!(error.code(), codes::INVALID_ARGUMENT);
        assert_eq!(
            error.message(),
            "stdin is larger than the input limit of 5 bytes"
        );
        assert_eq!(Error::from(err).code(), codes::INVALID_ARGUMENT);
    }

    #[test]
    fn buffered_reads_are_bounded_too() {
        let mut lines = Bounded::new(io::BufReader::new(&b"a\nb\nc\n"[..]), "x", 4).lines();
        assert_eq!(lines.next().unwrap().unwrap(), "a");
        assert_eq!(lines.next().unwrap().unwrap(), "b");
        assert!(lines.next().unwrap().is_err());
    }
}
