//! A store confined to its root: a local directory a tool keeps its resources in, worked with
//! only through paths beneath that directory.
//!
//! The runtime normalises resource paths (`..`, backslashes and NUL never reach a handler), but a
//! handler that then opens `root.join(name)` follows whatever symbolic links the directory
//! holds: a link `inbox/leak.json -> /home/me/.ssh/config` reads a file outside the store, a
//! link `escape -> /etc` writes one. [`Root`] opens every path relative to a directory handle
//! with the kernel's own confinement (`openat2` with `RESOLVE_BENEATH` on Linux, a checked
//! component-by-component walk elsewhere, both from `cap-std`), so a link, a `..` inside a
//! link's target, or a link swapped between two calls can never lead out of the root. Links
//! that stay inside the root still work. An escape is an [`Error`] with the code
//! [`PATH_ESCAPES_ROOT`], naming the path and the root.
//!
//! Writes replace a file atomically: the bytes go to a new temporary file created exclusively
//! (never through an existing file or link) with a unique name beside the target, which is then
//! renamed over it. Concurrent writers of one file never fail each other; the last rename wins.
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("pas-store-doc-{}", std::process::id()));
//! // A tool's own store would be `Root::tool_data("notes")?`, under $XDG_DATA_HOME.
//! let store = pas::store::Root::open(&dir)?;
//! store.write("inbox/milk.json", b"{\"title\":\"Milk\"}\n")?;
//! let bytes = store.read("inbox/milk.json")?; // Some(bytes), or None when absent
//! assert_eq!(bytes.as_deref(), Some(&b"{\"title\":\"Milk\"}\n"[..]));
//!
//! // A link that leads out of the root is refused, whatever the handler asked for.
//! # #[cfg(unix)] {
//! std::os::unix::fs::symlink("/etc", dir.join("escape"))?;
//! let refused = store.read("escape/hostname").unwrap_err();
//! assert_eq!(refused.code(), pas::store::PATH_ESCAPES_ROOT);
//! # }
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), pas::Error>(())
//! ```

pub(crate) mod errors;
pub(crate) mod temp;
#[cfg(test)]
pub(crate) mod tests;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};

use crate::error::Error;

pub use errors::{PATH_ESCAPES_ROOT, STORE_FILE_INVALID, STORE_PATH_INVALID};

/// The largest file [`Root::read`] reads whole, in bytes (256 MiB).
pub const READ_LIMIT: u64 = crate::stdio::state_file::STORE_FILE.limit;

/// A directory every operation stays beneath.
#[derive(Debug)]
pub struct Root {
    dir: Dir,
    path: PathBuf,
}

/// What a path is, seen from inside the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file (or a link to one inside the root).
    File,
    /// A directory (or a link to one inside the root).
    Dir,
    /// Anything else: a device, a socket, a dangling link, or a link that leads out of the
    /// root (which the store never follows).
    Other,
}

/// One child of a directory in the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The child's name (UTF-8; children whose names are not are left out).
    pub name: String,
    /// What it is.
    pub kind: EntryKind,
    /// Its size in bytes (0 for [`EntryKind::Other`]).
    pub size: u64,
    /// When it last changed, where the system knows.
    pub modified: Option<SystemTime>,
}

/// A path's metadata, seen from inside the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metadata {
    /// What it is.
    pub kind: EntryKind,
    /// Its size in bytes.
    pub size: u64,
    /// When it last changed, where the system knows.
    pub modified: Option<SystemTime>,
}

impl Root {
    /// The store at `path`, created (with its parents) when missing. `path` itself is trusted
    /// (the user chose it); only what lies beneath is confined. An empty path, or one that
    /// names something other than a directory (a file, a device such as `/dev/null`), is
    /// [`STORE_PATH_INVALID`].
    pub fn open(path: impl AsRef<Path>) -> Result<Root, Error> {
        let path = path.as_ref();
        errors::check_root_path(path)?;
        std::fs::create_dir_all(path).map_err(|err| errors::root_io(path, &err))?;
        Root::open_dir(path)
    }

    /// The store at `path` when it exists, without creating it (for calls that only read: a
    /// store nobody wrote yet is empty, not an error).
    pub fn open_existing(path: impl AsRef<Path>) -> Result<Option<Root>, Error> {
        let path = path.as_ref();
        errors::check_root_path(path)?;
        match std::fs::metadata(path) {
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
            _ => Root::open_dir(path).map(Some),
        }
    }

    /// The tool's own data directory, `$XDG_DATA_HOME/<tool>` (else
    /// `~/.local/share/<tool>`), created when missing: where a tool keeps local resources.
    pub fn tool_data(tool: &str) -> Result<Root, Error> {
        let Some(base) = crate::xdg::data_home() else {
            return Err(Error::general(
                "neither XDG_DATA_HOME nor HOME is set, so the tool's data has no directory",
            )
            .with_suggestion("set XDG_DATA_HOME (or HOME) to an absolute, writable directory"));
        };
        if tool.is_empty() || tool.contains(['/', '\\', '\0']) || tool == "." || tool == ".." {
            return Err(Error::invalid_argument(format!(
                "{tool:?} is not a tool name a data directory can have"
            ))
            .with_suggestion("give the tool's name, e.g. `notes`"));
        }
        Root::open(base.join(tool))
    }

    fn open_dir(path: &Path) -> Result<Root, Error> {
        let dir = Dir::open_ambient_dir(path, ambient_authority())
            .map_err(|err| errors::root_io(path, &err))?;
        Ok(Root {
            dir,
            path: path.to_owned(),
        })
    }

    /// The root's path, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The whole content of a file, or `None` when nothing is there. Only a regular file of at
    /// most [`READ_LIMIT`] bytes is read: a pipe, a device or a directory in its place, or a
    /// larger file, is [`STORE_FILE_INVALID`] naming the path (at once: a pipe never blocks).
    pub fn read(&self, relative: impl AsRef<Path>) -> Result<Option<Vec<u8>>, Error> {
        self.read_as(relative.as_ref(), crate::stdio::state_file::STORE_FILE)
    }

    /// [`Root::read`] of a file of the runtime's own, with the limit of its kind.
    pub(crate) fn read_as(
        &self,
        relative: &Path,
        kind: crate::stdio::state_file::Kind,
    ) -> Result<Option<Vec<u8>>, Error> {
        use crate::stdio::state_file::Refusal;
        let mut options = OpenOptions::new();
        options.read(true);
        // A FIFO with no writer opens at once, to be refused by its type.
        #[cfg(unix)]
        cap_std::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
        let file = match self.dir.open_with(relative, &options) {
            Ok(file) => file.into_std(),
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(self.fail("read", relative, &err)),
        };
        match crate::stdio::state_file::read_open(file, kind) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(Refusal::Io(err)) => Err(self.fail("read", relative, &err)),
            Err(Refusal::Missing) => Ok(None),
            Err(refusal) => Err(errors::file_invalid(&self.path, relative, kind, &refusal)),
        }
    }

    /// Replaces a file with `bytes` atomically, creating its directories: a reader sees the old
    /// content or the new, never a part. Returns the number of bytes written.
    pub fn write(&self, relative: impl AsRef<Path>, bytes: &[u8]) -> Result<u64, Error> {
        let relative = relative.as_ref();
        let fail = |err: io::Error| self.fail("write", relative, &err);
        let Some(name) = relative.file_name() else {
            return Err(errors::not_a_file_name(&self.path, relative));
        };
        let parent = relative.parent().unwrap_or(Path::new(""));
        let dir = self.dir_at(parent).map_err(fail)?;
        let (temporary, mut file) = temp::create(&dir, name).map_err(fail)?;
        let written = file
            .write_all(bytes)
            .and_then(|()| file.sync_all())
            .and_then(|()| dir.rename(&temporary, &dir, name));
        if let Err(err) = written {
            let _ = dir.remove_file(&temporary);
            return Err(fail(err));
        }
        Ok(bytes.len() as u64)
    }

    /// Creates a directory and its parents (nothing when it exists).
    pub fn create_dir_all(&self, relative: impl AsRef<Path>) -> Result<(), Error> {
        let relative = relative.as_ref();
        self.dir_at(relative)
            .map(drop)
            .map_err(|err| self.fail("create", relative, &err))
    }

    /// The directory at `relative`, created when missing. When creating fails because a link
    /// in the way leads out of the root, that is the error reported (not "file exists").
    fn dir_at(&self, relative: &Path) -> io::Result<Dir> {
        if relative.as_os_str().is_empty() {
            return self.dir.try_clone();
        }
        match self.dir.open_dir(relative) {
            Err(err) if err.kind() == io::ErrorKind::NotFound => {}
            opened => return opened,
        }
        if let Err(err) = self.dir.create_dir_all(relative) {
            return Err(match self.dir.open_dir(relative) {
                Err(escape) if errors::is_escape(&escape) => escape,
                _ => err,
            });
        }
        self.dir.open_dir(relative)
    }

    /// A path's metadata (following links that stay inside the root), or `None` when nothing
    /// is there.
    pub fn metadata(&self, relative: impl AsRef<Path>) -> Result<Option<Metadata>, Error> {
        let relative = relative.as_ref();
        let found = if relative.as_os_str().is_empty() {
            self.dir.dir_metadata()
        } else {
            self.dir.metadata(relative)
        };
        match found {
            Ok(meta) => Ok(Some(Metadata {
                kind: kind_of(&meta.file_type()),
                size: meta.len(),
                modified: meta.modified().ok().map(|t| t.into_std()),
            })),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(self.fail("stat", relative, &err)),
        }
    }

    /// The children of a directory, sorted by name, or `None` when the directory is not there.
    /// A child that is a link leading out of the root is listed as [`EntryKind::Other`] and
    /// never followed.
    pub fn list(&self, relative: impl AsRef<Path>) -> Result<Option<Vec<Entry>>, Error> {
        let relative = relative.as_ref();
        let fail = |err: io::Error| self.fail("list", relative, &err);
        let dir = if relative.as_os_str().is_empty() {
            self.dir.try_clone()
        } else {
            self.dir.open_dir(relative)
        };
        let dir = match dir {
            Ok(dir) => dir,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(fail(err)),
        };
        let mut entries = Vec::new();
        for entry in dir.entries().map_err(fail)? {
            let entry = entry.map_err(fail)?;
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            // Through `dir`, so a link is followed only while it stays inside the root.
            let entry = match dir.metadata(&name) {
                Ok(meta) => Entry {
                    name,
                    kind: kind_of(&meta.file_type()),
                    size: meta.len(),
                    modified: meta.modified().ok().map(|t| t.into_std()),
                },
                Err(_) => Entry {
                    name,
                    kind: EntryKind::Other,
                    size: 0,
                    modified: None,
                },
            };
            entries.push(entry);
        }
        pas_spec::sorting::sort_by(&mut entries, |a, b| a.name.cmp(&b.name));
        Ok(Some(entries))
    }

    /// Renames `from` to `to` (both beneath the root), replacing `to` when it is a file.
    pub fn rename(&self, from: impl AsRef<Path>, to: impl AsRef<Path>) -> Result<(), Error> {
        let (from, to) = (from.as_ref(), to.as_ref());
        self.dir
            .rename(from, &self.dir, to)
            .map_err(|err| self.fail("rename", from, &err))
    }

    /// Removes a file (or a link, never what it points at): `false` when nothing was there.
    pub fn remove_file(&self, relative: impl AsRef<Path>) -> Result<bool, Error> {
        let relative = relative.as_ref();
        match self.dir.remove_file(relative) {
            Ok(()) => Ok(true),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(err) => Err(self.fail("remove", relative, &err)),
        }
    }

    /// Removes a directory and everything in it, following no link (a link inside is removed
    /// as a link; a link in the directory's place is removed itself): `false` when nothing was
    /// there.
    pub fn remove_dir_all(&self, relative: impl AsRef<Path>) -> Result<bool, Error> {
        let relative = relative.as_ref();
        if relative.as_os_str().is_empty() {
            return Err(errors::not_a_file_name(&self.path, relative));
        }
        match self.dir.remove_dir_all(relative) {
            Ok(()) => Ok(true),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(err) => Err(self.fail("remove", relative, &err)),
        }
    }

    /// Opens a file for appending (created when missing), e.g. a log a tool adds lines to.
    /// The file handle can be locked ([`std::fs::File::lock`]) by callers that count lines.
    pub fn open_append(&self, relative: impl AsRef<Path>) -> Result<std::fs::File, Error> {
        let relative = relative.as_ref();
        let fail = |err: io::Error| self.fail("open", relative, &err);
        if let Some(parent) = relative.parent() {
            self.dir_at(parent).map_err(fail)?;
        }
        let mut options = OpenOptions::new();
        options.read(true).append(true).create(true);
        let file = self.dir.open_with(relative, &options).map_err(fail)?;
        Ok(file.into_std())
    }

    /// The structured error of a failed operation on `relative`.
    fn fail(&self, what: &str, relative: &Path, err: &io::Error) -> Error {
        errors::operation(&self.path, what, relative, err)
    }
}

fn kind_of(file_type: &cap_std::fs::FileType) -> EntryKind {
    if file_type.is_file() {
        EntryKind::File
    } else if file_type.is_dir() {
        EntryKind::Dir
    } else {
        EntryKind::Other
    }
}
