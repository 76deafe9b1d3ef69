//! Temporary files for atomic replacement: created exclusively (`O_CREAT | O_EXCL`, which never
//! opens an existing file and never follows a link planted at the name) with a name no other
//! writer uses: the process id, a per-process counter and the clock. A name that is taken all
//! the same is skipped for the next.

use std::ffi::{OsStr, OsString};
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use cap_std::fs::{Dir, File, OpenOptions};

/// The suffix of every temporary file a store writes (a crashed writer's leftovers are
/// recognisable by it).
pub(crate) const SUFFIX: &str = ".pas-partial";

/// How many taken names to skip before giving up.
const ATTEMPTS: u32 = 64;

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A new, empty file beside `name` in `dir`, and its name.
pub(crate) fn create(dir: &Dir, name: &OsStr) -> io::Result<(OsString, File)> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    let mut last = None;
    for _ in 0..ATTEMPTS {
        let temporary = name_for(name);
        match dir.open_with(&temporary, &options) {
            Ok(file) => return Ok((temporary, file)),
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => last = Some(err),
            Err(err) => return Err(err),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// `.NAME.PID-COUNTER-NANOS.pas-partial`: hidden, so a listing of notes skips it.
fn name_for(name: &OsStr) -> OsString {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut temporary = OsString::from(".");
    // A long name is left out, so the temporary name stays within the system's limit.
    if name.len() <= 64 {
        temporary.push(name);
    }
    temporary.push(format!(".{}-{count}-{nanos}{SUFFIX}", std::process::id()));
    temporary
}
