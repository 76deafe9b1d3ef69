//! The files of one key under `$XDG_STATE_HOME/<tool>/idempotency/`: its record
//! (`<hash>.json`, replaced atomically) and its lock (`<hash>.lock`, an advisory `flock` the
//! kernel releases when its holder ends, even on SIGKILL, so it is never left stale).
//!
//! Reads are bounded: a record must be a regular file (never followed through a link, never a
//! FIFO or a device, opened without blocking) of at most [`RECORD_MAX`] bytes. Anything else is
//! an error naming the file, never "no record": a record that cannot be read is no evidence that
//! the first call did not happen.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::error::Error;
use crate::services::store::Root;

/// The largest record read (and written: a larger reply is recorded without its data).
pub(crate) const RECORD_MAX: u64 = 16 * 1024 * 1024;

/// How often a caller waiting for another call with its key looks again.
const POLL: Duration = Duration::from_millis(10);

/// `details.reason` of a record that cannot be read.
pub(crate) const RECORD_UNREADABLE: &str = "IDEMPOTENCY_RECORD_UNREADABLE";

/// `details.reason` of a key that could not be reserved (nothing ran).
pub(crate) const NOT_RESERVED: &str = "IDEMPOTENCY_NOT_RESERVED";

/// One key's record and lock.
pub(crate) struct Slot {
    root: Root,
    /// The hex name both files share.
    name: String,
    key: String,
}

impl Slot {
    /// The slot of `key` in `dir`, creating the directory. A directory that cannot be made
    /// (a file in its place, a read-only parent) fails here, before any handler runs.
    pub(crate) fn open(dir: &Path, name: String, key: &str) -> Result<Slot, Error> {
        let root = Root::open(dir).map_err(|error| not_reserved(dir, key, error.message()))?;
        Ok(Slot {
            root,
            name,
            key: key.to_owned(),
        })
    }

    /// The record's path.
    pub(crate) fn record_path(&self) -> PathBuf {
        self.root.path().join(self.record_name())
    }

    fn record_name(&self) -> String {
        format!("{}.json", self.name)
    }

    fn lock_path(&self) -> PathBuf {
        self.root.path().join(format!("{}.lock", self.name))
    }

    /// The record's bytes, or `None` when there is none. Bounded and non-blocking (see the
    /// module docs).
    pub(crate) fn read(&self) -> Result<Option<Vec<u8>>, Error> {
        let path = self.record_path();
        let file = match no_follow().read(true).open(&path) {
            Ok(file) => file,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(self.unreadable(&format!("it cannot be opened: {err}"))),
        };
        let meta = file
            .metadata()
            .map_err(|err| self.unreadable(&format!("it cannot be examined: {err}")))?;
        if !meta.is_file() {
            return Err(self.unreadable("it is not a regular file"));
        }
        if meta.len() > RECORD_MAX {
            return Err(self.too_large());
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        file.take(RECORD_MAX + 1)
            .read_to_end(&mut bytes)
            .map_err(|err| self.unreadable(&format!("reading it failed: {err}")))?;
        if bytes.len() as u64 > RECORD_MAX {
            return Err(self.too_large());
        }
        Ok(Some(bytes))
    }

    /// Takes the key's lock, waiting up to `wait` for the call that holds it: `Ok(None)` when
    /// it is still held after that.
    pub(crate) fn lock(&self, wait: Duration) -> Result<Option<File>, Error> {
        let path = self.lock_path();
        let file = no_follow()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|err| not_reserved(&path, &self.key, &err.to_string()))?;
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        if !regular {
            return Err(not_reserved(&path, &self.key, "it is not a regular file"));
        }
        let started = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(Some(file)),
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(err)) => {
                    return Err(not_reserved(&path, &self.key, &err.to_string()));
                }
            }
            if started.elapsed() >= wait {
                return Ok(None);
            }
            std::thread::sleep(POLL);
        }
    }

    /// Replaces the record atomically (a reader sees the old one or the new one, whole).
    pub(crate) fn write(&self, bytes: &[u8]) -> Result<(), Error> {
        self.root.write(self.record_name(), bytes).map(drop)
    }

    /// Removes the record (a reservation whose call failed).
    pub(crate) fn remove(&self) -> Result<(), Error> {
        self.root.remove_file(self.record_name()).map(drop)
    }

    /// The error of a record that exists and cannot be used.
    pub(crate) fn unreadable(&self, why: &str) -> Error {
        let path = self.record_path();
        Error::general(format!(
            "the idempotency record {} of the key `{}` cannot be read: {why}",
            path.display(),
            self.key
        ))
        .with_suggestion(
            "nothing ran: the record is what makes a retry safe. Check whether the first call's \
             effect happened (a read command), then move the file aside and repeat, or repeat \
             with a new key",
        )
        .with_details(json!({
            "reason": RECORD_UNREADABLE,
            "idempotency_key": self.key,
            "path": path.display().to_string(),
        }))
    }

    fn too_large(&self) -> Error {
        self.unreadable(&format!("it is larger than {RECORD_MAX} bytes"))
    }
}

/// The error of a key that could not be reserved: the handler did not run.
pub(crate) fn not_reserved(path: &Path, key: &str, why: &str) -> Error {
    Error::general(format!(
        "the idempotency key `{key}` could not be reserved at {}: {why}",
        path.display()
    ))
    .with_suggestion(
        "nothing ran: make the state directory writable ($XDG_STATE_HOME/<tool>/idempotency, \
         else ~/.local/state/<tool>/idempotency), then repeat the call with the same key",
    )
    .with_details(json!({
        "reason": NOT_RESERVED,
        "idempotency_key": key,
        "path": path.display().to_string(),
    }))
}

/// Options that never follow a link at the name and never block on a FIFO.
fn no_follow() -> OpenOptions {
    #[allow(unused_mut)]
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    options
}
