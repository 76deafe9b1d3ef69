//! Files the runtime reads where it expects a file (a configuration file, a session or job
//! manifest, the kept-children file, a store's file) are read only when they are regular files,
//! and never past the documented limit of their kind. A FIFO, a device (`/dev/zero`), a socket
//! or a directory in a file's place is refused at once, naming the path and what it is; a file
//! past its limit is refused naming the path and the limit. Nothing is cut: the caller gets the
//! whole file or a structured error.
//!
//! The file is opened with `O_NONBLOCK` (a FIFO with no writer opens at once instead of
//! blocking), then checked with `fstat` on the open descriptor (no gap between the check and
//! the read), then read through a bound one byte past the limit (a file that grows while read
//! is refused as well).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// One kind of file, with the limit documented for it (README: "Files the runtime reads").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kind {
    /// What the file is, for messages ("configuration file").
    pub(crate) name: &'static str,
    /// The most bytes read.
    pub(crate) limit: u64,
}

const MIB: u64 = 1024 * 1024;

/// `--config`, `$TOOL_CONFIG`, the default `config.toml`: a flat table of flag values.
pub(crate) const CONFIG: Kind = Kind {
    name: "configuration file",
    limit: MIB,
};
/// A session's `manifest.json` (state, history, completed actions, the handler's data).
pub(crate) const SESSION_MANIFEST: Kind = Kind {
    name: "session manifest",
    limit: 64 * MIB,
};
/// An artifact a session's handler wrote (`plan.json`).
pub(crate) const SESSION_ARTIFACT: Kind = Kind {
    name: "session artifact",
    limit: 256 * MIB,
};
/// A job's `manifest.json` (which holds the job's result).
pub(crate) const JOB_MANIFEST: Kind = Kind {
    name: "job manifest",
    limit: 256 * MIB,
};
/// `children.json`, the processes a call kept (at most 4096 entries are recorded).
pub(crate) const KEPT_CHILDREN: Kind = Kind {
    name: "kept-children file",
    limit: 16 * MIB,
};
/// A file of a [`crate::services::store::Root`] (a note): what [`crate::services::store::Root::read`] reads whole.
pub(crate) const STORE_FILE: Kind = Kind {
    name: "store file",
    limit: 256 * MIB,
};

/// Why a file was not read.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// Nothing is at the path.
    Missing,
    /// Something other than a regular file is there (`what`: "a pipe", "a device"...).
    NotRegular(&'static str),
    /// The file is larger than the kind's limit (`size`: what was seen, at least limit + 1).
    TooLarge(u64),
    /// The system refused the open or the read.
    Io(io::Error),
}

impl Refusal {
    /// The refusal in words, naming the file and its kind: "the session manifest PATH is a
    /// pipe, not a regular file".
    pub(crate) fn describe(&self, kind: Kind, path: &Path) -> String {
        let path = path.display();
        match self {
            Refusal::Missing => format!("the {} {path} does not exist", kind.name),
            Refusal::NotRegular(what) => {
                format!("the {} {path} is {what}, not a regular file", kind.name)
            }
            Refusal::TooLarge(_) => format!(
                "the {} {path} is larger than its limit of {} bytes",
                kind.name, kind.limit
            ),
            Refusal::Io(err) => format!("cannot read the {} {path}: {err}", kind.name),
        }
    }

    /// The facts for an error's `details`: the path, the kind, its limit, and why.
    pub(crate) fn details(&self, kind: Kind, path: &Path) -> serde_json::Value {
        let reason = match self {
            Refusal::Missing => "missing".to_owned(),
            Refusal::NotRegular(what) => format!("not a regular file ({what})"),
            Refusal::TooLarge(_) => "too large".to_owned(),
            Refusal::Io(err) => err.to_string(),
        };
        let mut details = serde_json::json!({
            "path": path.display().to_string(),
            "kind": kind.name,
            "limit": kind.limit,
            "reason": reason,
        });
        if let Refusal::TooLarge(size) = self {
            // At least this many bytes (a file that grew while read is cut off at limit + 1).
            details["size"] = serde_json::json!(size);
        }
        details
    }
}

/// Options that open a file for reading without blocking on a FIFO; `no_follow` refuses a
/// symbolic link in the last component (for files only the runtime writes).
pub(crate) fn open_options(no_follow: bool) -> std::fs::OpenOptions {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = libc::O_NONBLOCK;
        if no_follow {
            flags |= libc::O_NOFOLLOW;
        }
        options.custom_flags(flags);
    }
    #[cfg(not(unix))]
    let _ = no_follow;
    options
}

/// Reads the file at `path` whole, as a `kind`: a regular file within the kind's limit.
pub(crate) fn read(path: &Path, kind: Kind, no_follow: bool) -> Result<Vec<u8>, Refusal> {
    let file = match open_options(no_follow).open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Err(Refusal::Missing),
        Err(err) => return Err(refused_open(path, err)),
    };
    read_open(file, kind)
}

/// An open that failed: a link where none may be (`O_NOFOLLOW` answers ELOOP) is named as one.
fn refused_open(path: &Path, err: io::Error) -> Refusal {
    #[cfg(unix)]
    if err.raw_os_error() == Some(libc::ELOOP)
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
    {
        return Refusal::NotRegular("a symbolic link");
    }
    let _ = path;
    Refusal::Io(err)
}

/// Reads an open file whole, as a `kind`, after checking what it is.
pub(crate) fn read_open(file: File, kind: Kind) -> Result<Vec<u8>, Refusal> {
    let meta = file.metadata().map_err(Refusal::Io)?;
    if !meta.is_file() {
        return Err(Refusal::NotRegular(what_it_is(&meta)));
    }
    if meta.len() > kind.limit {
        return Err(Refusal::TooLarge(meta.len()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // One byte past the limit tells a file that grew while it was read.
    file.take(kind.limit + 1)
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    if bytes.len() as u64 > kind.limit {
        return Err(Refusal::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

/// What a non-regular file is, in a few words.
pub(crate) fn what_it_is(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a pipe";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else if meta.file_type().is_symlink() {
        "a symbolic link"
    } else if meta.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: Kind = Kind {
        name: "test file",
        limit: 8,
    };

    #[test]
    fn a_regular_file_within_its_limit_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"12345678").unwrap();
        assert_eq!(read(&path, SMALL, true).unwrap(), b"12345678");
    }

    #[test]
    fn a_file_past_its_limit_is_refused_naming_path_and_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"123456789").unwrap();
        let refusal = read(&path, SMALL, false).unwrap_err();
        assert!(matches!(refusal, Refusal::TooLarge(9)), "{refusal:?}");
        let text = refusal.describe(SMALL, &path);
        assert!(text.contains(&path.display().to_string()) && text.contains("8 bytes"));
        assert_eq!(refusal.details(SMALL, &path)["limit"], 8);
    }

    #[test]
    #[cfg(unix)]
    fn devices_pipes_directories_and_links_are_refused_at_once() {
        assert!(matches!(
            read(Path::new("/dev/zero"), SMALL, false),
            Err(Refusal::NotRegular("a device"))
        ));
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // No writer: a blocking open would never return.
        assert!(matches!(
            read(&fifo, SMALL, false),
            Err(Refusal::NotRegular("a pipe"))
        ));
        assert!(matches!(
            read(dir.path(), SMALL, false),
            Err(Refusal::NotRegular("a directory"))
        ));
        let link = dir.path().join("link");
        std::fs::write(dir.path().join("target"), b"x").unwrap();
        std::os::unix::fs::symlink(dir.path().join("target"), &link).unwrap();
        assert_eq!(read(&link, SMALL, false).unwrap(), b"x");
        assert!(matches!(
            read(&link, SMALL, true),
            Err(Refusal::NotRegular("a symbolic link"))
        ));
        assert!(matches!(
            read(&dir.path().join("absent"), SMALL, true),
            Err(Refusal::Missing)
        ));
    }
}
