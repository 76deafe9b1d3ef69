//! Where sessions live, and how files there are written (atomically).

use std::fs::{self, File};
use std::io::{self, Write};
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

/// Writes `bytes` to `path` so that readers see the old file or the new one, never a part:
/// a temporary file beside it, fsync, rename over, fsync the directory.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut file = File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temp, path)?;
        // The rename itself is durable once the directory is.
        File::open(dir)?.sync_all()
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_writes_replace_whole_files_and_leave_no_temporary() {
        let dir = std::env::temp_dir().join(format!("pas-store-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("manifest.json");
        write_atomic(&path, b"{\"a\":1}").unwrap();
        write_atomic(&path, b"{\"a\":2}").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"{\"a\":2}");
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["manifest.json"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
