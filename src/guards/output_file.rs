//! Output past a bound, kept whole in a file (CLI Agent Spec failure mode 43, without losing a
//! byte): one object or document past the call's `--max-output`, or the rest of a list after
//! its last whole item under it, is written to `$XDG_CACHE_HOME/TOOL/output/` (else
//! `~/.cache/TOOL/output/`), and the answer points at it ([`Pointer`]: path, bytes, sha256, a
//! preview, how to read the rest).
//!
//! The file is written under a temporary name and renamed when complete (a reader never sees
//! half a result), created readable and writable by the user only (0600, in a 0700 directory),
//! and kept [`KEEP_HOURS`] hours: each new file removes the ones older than that.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::Serialize;
use sha2::{Digest, Sha256};

/// How long an output file is kept: a later call's file removes older ones.
pub const KEEP_HOURS: u64 = 24;

/// The characters of a result shown in its pointer's `preview`.
const PREVIEW_CHARS: usize = 240;

/// Where a result past the bound went: the answer in its place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Pointer {
    /// The file that holds the result, whole.
    pub(crate) path: String,
    /// Its size.
    pub(crate) bytes: u64,
    /// Its SHA-256, hex.
    pub(crate) sha256: String,
    /// `application/json`, `application/x-ndjson` or `text/markdown`.
    pub(crate) media_type: &'static str,
    /// Its first characters.
    pub(crate) preview: String,
    /// How to read the rest.
    pub(crate) read: String,
}

impl Pointer {
    /// The pointer as the answer's data: `{"output_file": {...}}`.
    pub(crate) fn answer(&self) -> serde_json::Value {
        serde_json::json!({ "output_file": self })
    }

    /// One line for people.
    pub(crate) fn human(&self) -> String {
        format!(
            "The output ({} bytes, sha256 {}) is in {}\n",
            self.bytes, self.sha256, self.path
        )
    }
}

/// The directory output files go to, for `tool`.
pub(crate) fn directory(tool: &str) -> Option<PathBuf> {
    crate::xdg::cache_home().map(|cache| cache.join(tool).join("output"))
}

/// A result being written to its file: bytes hashed as they go, renamed into place by
/// [`OutputFile::finish`]. Dropped unfinished, the temporary file is removed.
pub(crate) struct OutputFile {
    file: io::BufWriter<File>,
    temp: PathBuf,
    path: PathBuf,
    hasher: Sha256,
    bytes: u64,
    preview: Vec<u8>,
    media_type: &'static str,
    finished: bool,
}

impl OutputFile {
    /// Starts a file for `tool`'s output of `media_type` (its extension follows).
    pub(crate) fn create(tool: &str, media_type: &'static str) -> io::Result<OutputFile> {
        let dir = directory(tool).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                "no cache directory (neither XDG_CACHE_HOME nor HOME is an absolute path)",
            )
        })?;
        create_private_dir(&dir)?;
        remove_old(&dir, Duration::from_secs(KEEP_HOURS * 3600));
        let extension = match media_type {
            "application/json" => "json",
            "application/x-ndjson" => "ndjson",
            _ => "md",
        };
        let stamp = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default();
        let name = format!(
            "{}-{}-{:09}",
            stamp.as_secs(),
            std::process::id(),
            stamp.subsec_nanos()
        );
        let path = dir.join(format!("{name}.{extension}"));
        let temp = dir.join(format!(".{name}.{extension}.tmp"));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options.open(&temp)?;
        Ok(OutputFile {
            file: io::BufWriter::with_capacity(256 * 1024, file),
            temp,
            path,
            hasher: Sha256::new(),
            bytes: 0,
            preview: Vec::new(),
            media_type,
            finished: false,
        })
    }

    /// Appends `bytes`.
    pub(crate) fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.preview.len() < PREVIEW_CHARS * 4 {
            let room = PREVIEW_CHARS * 4 - self.preview.len();
            self.preview
                .extend_from_slice(&bytes[..bytes.len().min(room)]);
        }
        self.hasher.update(bytes);
        self.bytes += bytes.len() as u64;
        self.file.write_all(bytes)
    }

    /// Flushes, syncs and renames the file into place; its pointer. `what` says what the file
    /// holds, for the pointer's `read`.
    pub(crate) fn finish(mut self, what: &str) -> io::Result<Pointer> {
        self.file.flush()?;
        self.file.get_ref().sync_all()?;
        fs::rename(&self.temp, &self.path)?;
        self.finished = true;
        let digest = self.hasher.clone().finalize();
        let sha256 = digest.iter().map(|b| format!("{b:02x}")).collect();
        let path = self.path.display().to_string();
        Ok(Pointer {
            read: format!(
                "{what} is in `{path}` ({} bytes, {}): read it with a file tool or `cat`; it is removed after {KEEP_HOURS} h",
                self.bytes, self.media_type
            ),
            path,
            bytes: self.bytes,
            sha256,
            media_type: self.media_type,
            preview: preview(&self.preview),
        })
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if !self.finished {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// `bytes` (all of a result in a file) written whole to a new file; its pointer.
pub(crate) fn write_whole(
    tool: &str,
    media_type: &'static str,
    bytes: &[u8],
    what: &str,
) -> io::Result<Pointer> {
    let mut file = OutputFile::create(tool, media_type)?;
    file.write(bytes)?;
    file.finish(what)
}

/// The first [`PREVIEW_CHARS`] characters of `bytes` (whole characters; a cut multi-byte one
/// at the end is left out).
fn preview(bytes: &[u8]) -> String {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => std::str::from_utf8(&bytes[..error.valid_up_to()]).unwrap_or_default(),
    };
    text.chars().take(PREVIEW_CHARS).collect()
}

/// Creates `dir` (and its parents) readable by the user only.
fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Removes the output files in `dir` last modified more than `age` ago (best effort).
fn remove_old(dir: &Path, age: Duration) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|modified| now.duration_since(modified).is_ok_and(|d| d > age));
        let ours = entry.file_type().is_ok_and(|t| t.is_file());
        if old && ours {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_keeps_whole_characters() {
        assert_eq!(preview("aé".as_bytes()), "aé");
        assert_eq!(preview(&"é".as_bytes()[..1]), "");
        assert_eq!(preview("x".repeat(500).as_bytes()).len(), PREVIEW_CHARS);
    }

    #[test]
    fn old_files_are_removed_and_new_ones_kept() {
        let dir = std::env::temp_dir().join(format!("pas-output-file-{}", std::process::id()));
        create_private_dir(&dir).unwrap();
        let old = dir.join("old.json");
        let new = dir.join("new.json");
        fs::write(&old, b"{}").unwrap();
        fs::write(&new, b"{}").unwrap();
        let past = SystemTime::now() - Duration::from_secs(KEEP_HOURS * 3600 + 60);
        File::options()
            .write(true)
            .open(&old)
            .unwrap()
            .set_modified(past)
            .unwrap();
        remove_old(&dir, Duration::from_secs(KEEP_HOURS * 3600));
        assert!(!old.exists() && new.exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
