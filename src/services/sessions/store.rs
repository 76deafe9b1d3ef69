//! Where sessions live (their files are written whole: `crate::services::atomic_file`).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::id;
use super::manifest::Manifest;
use crate::error::Error;

/// The sessions directory of one tool.
#[derive(Debug, Clone)]
pub(crate) struct Store {
    root: PathBuf,
}

impl Store {
    /// `$XDG_DATA_HOME/<tool>/sessions` (see [`crate::xdg::data_home`]).
    pub(crate) fn for_tool(tool: &str) -> Option<Store> {
        crate::xdg::data_home().map(|home| Store {
            root: home.join(tool).join("sessions"),
        })
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    pub(crate) fn dir(&self, id: &str) -> PathBuf {
        self.root.join(id)
    }

    pub(crate) fn manifest_path(&self, id: &str) -> PathBuf {
        self.dir(id).join("manifest.json")
    }

    /// A new session directory with a fresh id (created, so no other call can take it).
    pub(crate) fn create(&self, prefix: &str, now: SystemTime) -> io::Result<(String, PathBuf)> {
        fs::create_dir_all(&self.root)?;
        for attempt in 0..64 {
            let id = id::new_id(prefix, now, attempt);
            let dir = self.dir(&id);
            match fs::create_dir(&dir) {
                Ok(()) => return Ok((id, dir)),
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(err) => return Err(err),
            }
        }
        Err(io::Error::other("no free session id"))
    }

    pub(crate) fn load(&self, id: &str, code: &str) -> Result<Manifest, Error> {
        let path = self.manifest_path(id);
        let bytes = read_manifest(&path).map_err(|refusal| {
            Error::new(code.to_owned(), refusal.describe(MANIFEST, &path))
                .with_suggestion("the file is left as it is; move it away or start a new session")
                .with_details(refusal.details(MANIFEST, &path))
        })?;
        Manifest::parse(&bytes, &path, code)
    }

    /// Whether `id`'s directory is a directory of the store itself (a symbolic link in its
    /// place, which could lead anywhere, is not).
    pub(crate) fn has_dir(&self, id: &str) -> bool {
        fs::symlink_metadata(self.dir(id)).is_ok_and(|m| m.is_dir())
    }
}

/// The kind a session manifest is read as (its documented limit).
pub(crate) const MANIFEST: crate::stdio::state_file::Kind =
    crate::stdio::state_file::SESSION_MANIFEST;

/// A manifest's bytes: a regular file (never a link, which the runtime never writes there)
/// within [`MANIFEST`]'s limit.
pub(crate) fn read_manifest(path: &Path) -> Result<Vec<u8>, crate::stdio::state_file::Refusal> {
    crate::stdio::state_file::read(path, MANIFEST, true)
}

impl Store {}

pub(crate) fn is_session_id(id: &str, prefix: &str) -> bool {
    id::is_id(id, prefix)
}
