//! A named lock for commands that must not run twice at once (CLI Agent Spec failure modes 15
//! and 58: parallel agents calling the same mutating command).
//!
//! [`Lock::acquire`] takes an advisory lock (flock) on `<state dir>/<tool>/locks/<name>.lock`
//! and writes its holder inside (pid, command, since). The kernel releases it when the
//! [`Lock`] drops or the process ends, even on SIGKILL, so a lock is never left stale. A call
//! that finds it held fails at once (or after [`Lock::wait`]) with a structured error:
//! `LOCK_HELD` (robot: the exit code with the `lock` role) carrying `retry_after_ms` and, in
//! `details`, the holder and the lock's path. A `pas` or compose tool declares `LOCK_HELD`
//! under its `exitCodes` (and in the command's `errors`), as for any code its handlers raise.
//!
//! ```no_run
//! # fn handler(ctx: &pas::Context) -> Result<pas::Reply, pas::Error> {
//! let _lock = pas::lock::Lock::named("deploy").acquire(ctx)?;
//! // ... the mutation; the lock is released when `_lock` drops.
//! # Ok(pas::Reply::none())
//! # }
//! ```

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use serde_json::json;

use crate::error::Error;

/// The error constant of a held lock (`pas` and compose profiles).
pub const LOCK_HELD: &str = "LOCK_HELD";

/// How long a refused caller is told to wait by default.
const DEFAULT_RETRY_AFTER: Duration = Duration::from_millis(1000);

/// How often a waiting caller tries again.
const POLL: Duration = Duration::from_millis(25);

/// A lock to take: its name or path, how long to wait for it, and the retry hint.
#[derive(Debug, Clone)]
pub struct Lock {
    place: Place,
    wait: Duration,
    retry_after: Duration,
}

#[derive(Debug, Clone)]
enum Place {
    Named(String),
    Path(PathBuf),
}

/// A lock this call holds; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct Held {
    _file: File,
    path: PathBuf,
}

impl Held {
    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Lock {
    /// The lock called `name` (letters, digits, `-`, `_`, `.`), kept in the tool's state
    /// directory (`$XDG_STATE_HOME/<tool>/locks/`, else `~/.local/state/<tool>/locks/`).
    pub fn named(name: impl Into<String>) -> Lock {
        Lock {
            place: Place::Named(name.into()),
            wait: Duration::ZERO,
            retry_after: DEFAULT_RETRY_AFTER,
        }
    }

    /// A lock on this file (created if missing; its directory must exist).
    pub fn at(path: impl Into<PathBuf>) -> Lock {
        Lock {
            place: Place::Path(path.into()),
            wait: Duration::ZERO,
            retry_after: DEFAULT_RETRY_AFTER,
        }
    }

    /// Waits up to `wait` for a held lock before failing (default: fail at once). A wait
    /// that runs out fails with the same structured error, saying how long it waited.
    pub fn wait(mut self, wait: Duration) -> Lock {
        self.wait = wait;
        self
    }

    /// The `retry_after_ms` a refused caller is given (default 1000 ms): about how long the
    /// command usually holds the lock.
    pub fn retry_after(mut self, retry_after: Duration) -> Lock {
        self.retry_after = retry_after;
        self
    }

    /// The lock file's path.
    pub(crate) fn path(&self, tool: &str) -> Result<PathBuf, Error> {
        match &self.place {
            Place::Path(path) => Ok(path.clone()),
            Place::Named(name) => {
                let safe = !name.is_empty()
                    && name.len() <= 128
                    && !name.starts_with('.')
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
                if !safe {
                    return Err(Error::internal(format!(
                        "the lock name `{name}` must be letters, digits, `-`, `_` or `.`"
                    )));
                }
                let home = crate::xdg::state_home().ok_or_else(|| {
                    Error::general("no state directory for locks: set XDG_STATE_HOME or HOME")
                })?;
                let dir = home.join(tool).join("locks");
                std::fs::create_dir_all(&dir).map_err(|err| {
                    Error::general(format!(
                        "cannot make the lock directory {}: {err}",
                        dir.display()
                    ))
                })?;
                Ok(dir.join(format!("{name}.lock")))
            }
        }
    }

    /// Takes the lock at `path` for `command`, failing with `code` when it stays held.
    pub(crate) fn take(&self, path: &Path, command: &str, code: &str) -> Result<Held, Error> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|err| {
                Error::general(format!("cannot open the lock {}: {err}", path.display()))
            })?;
        let started = Instant::now();
        loop {
            if file.try_lock().is_ok() {
                // The holder's name is informative only: failing to write it keeps the lock.
                let holder = json!({
                    "pid": std::process::id(),
                    "command": command,
                    "since": crate::time::rfc3339_millis(SystemTime::now()),
                });
                let _ = file.set_len(0).and_then(|()| file.seek(SeekFrom::Start(0)));
                let _ = file
                    .write_all(holder.to_string().as_bytes())
                    .and_then(|()| file.flush());
                return Ok(Held {
                    _file: file,
                    path: path.to_owned(),
                });
            }
            if started.elapsed() >= self.wait {
                return Err(self.held_error(&mut file, path, code, started.elapsed()));
            }
            std::thread::sleep(POLL.min(self.wait.saturating_sub(started.elapsed())));
        }
    }

    fn held_error(&self, file: &mut File, path: &Path, code: &str, waited: Duration) -> Error {
        let mut text = String::new();
        let _ = file.seek(SeekFrom::Start(0));
        // A holder is one short line: the lock file is data, never read past 4 KiB.
        let _ = Read::by_ref(file).take(4096).read_to_string(&mut text);
        let holder: serde_json::Value = serde_json::from_str(&text).unwrap_or(json!(null));
        let who = match (&holder["command"], &holder["pid"]) {
            (serde_json::Value::String(command), serde_json::Value::Number(pid)) => {
                format!("`{command}` (pid {pid})")
            }
            _ => "another call".to_owned(),
        };
        let retry_after_ms = u64::try_from(self.retry_after.as_millis()).unwrap_or(u64::MAX);
        let waited_ms = u64::try_from(waited.as_millis()).unwrap_or(u64::MAX);
        Error::new(
            code.to_owned(),
            format!("the lock {} is held by {who}", path.display()),
        )
        .with_suggestion(format!(
            "another call is changing the same thing: try again in {retry_after_ms} ms"
        ))
        .with_retry_after_ms(retry_after_ms)
        .with_details(json!({
            "lock": path.display().to_string(),
            "holder": holder,
            "waited_ms": waited_ms,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_refuses_with_retry_after_and_the_holder_then_frees_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deploy.lock");
        let lock = Lock::at(&path).retry_after(Duration::from_millis(250));
        let held = lock.take(&path, "deploy", LOCK_HELD).expect("free");
        let error = lock.take(&path, "deploy", LOCK_HELD).unwrap_err();
        assert_eq!(error.code(), LOCK_HELD);
        assert_eq!(error.retry_after_ms(), Some(250));
        assert!(error.retryable());
        let details = error.details().unwrap();
        assert_eq!(details["holder"]["pid"], std::process::id());
        assert_eq!(details["holder"]["command"], "deploy");
        drop(held);
        assert!(
            lock.take(&path, "deploy", LOCK_HELD).is_ok(),
            "released on drop"
        );
    }

    #[test]
    fn a_wait_that_runs_out_says_how_long_it_waited() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.lock");
        let _held = Lock::at(&path).take(&path, "a", LOCK_HELD).unwrap();
        let started = Instant::now();
        let error = Lock::at(&path)
            .wait(Duration::from_millis(120))
            .take(&path, "b", LOCK_HELD)
            .unwrap_err();
        assert!(started.elapsed() >= Duration::from_millis(120));
        assert!(error.details().unwrap()["waited_ms"].as_u64().unwrap() >= 120);
    }

    #[test]
    fn a_lock_name_cannot_leave_the_locks_directory() {
        for name in ["../x", "", ".hidden", "a/b"] {
            assert!(Lock::named(name).path("tool").is_err(), "{name}");
        }
    }
}
