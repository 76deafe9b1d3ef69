//! The scratch directory: examples run inside it, so the files they name can exist and nothing
//! the tool writes lands in the caller's tree. Removed when the run ends.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The content of every file an example names: a few words, valid UTF-8, one line.
pub const FILE_CONTENT: &str = "one two three\n";
/// The content of a `.json` file an example names: a JSON object, which is what a data tool's
/// `cp ./doc.json /path` expects to upload.
pub const JSON_CONTENT: &str = "{\"title\": \"one two three\"}\n";

/// What a file named `word` holds: JSON for a `.json` name, words otherwise.
pub fn content_for(word: &str) -> &'static str {
    if word.ends_with(".json") {
        JSON_CONTENT
    } else {
        FILE_CONTENT
    }
}

/// A fresh directory under the system's temporary directory.
#[derive(Debug)]
pub struct Scratch {
    root: PathBuf,
}

static NEXT: AtomicU32 = AtomicU32::new(0);

impl Scratch {
    /// Creates the directory (a name no other run uses).
    pub fn new() -> std::io::Result<Scratch> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or_default();
        let root = std::env::temp_dir().join(format!(
            "pas-conform-{}-{}-{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&root)?;
        Ok(Scratch { root })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.root
    }

    /// A subdirectory, created.
    pub fn dir(&self, name: &str) -> PathBuf {
        let dir = self.root.join(name);
        let _ = std::fs::create_dir_all(&dir);
        dir
    }

    /// Makes every relative file an argv names exist in `dir` (with [`FILE_CONTENT`]).
    pub fn provide_files(dir: &Path, args: &[String]) {
        for word in args.iter().filter(|w| looks_like_file(w)) {
            let path = dir.join(word);
            if let Some(parent) = path.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            if !path.exists() {
                let _ = std::fs::write(&path, content_for(word));
            }
        }
    }

    /// Makes every relative file an argv names a FIFO in `dir` that nobody writes: a tool that
    /// opens it blocks, which makes any file-reading call a long-running one (the SIGTERM check).
    /// Uses the `mkfifo` command (coreutils) rather than libc.
    pub fn provide_fifos(dir: &Path, args: &[String]) -> bool {
        let mut any = false;
        for word in args.iter().filter(|w| looks_like_file(w)) {
            let path = dir.join(word);
            if let Some(parent) = path.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let made = std::process::Command::new("mkfifo")
                .arg(&path)
                .status()
                .is_ok_and(|s| s.success());
            any |= made;
        }
        any
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// A relative file name with an extension (`README.md`, `data/a.json`): an argument an example
/// can only run with when the file exists. Flags, URLs, absolute paths and numbers are not.
pub fn looks_like_file(word: &str) -> bool {
    if word.starts_with('-') || word.starts_with('/') || word.contains("://") || word.contains('=')
    {
        return false;
    }
    if word.split('/').any(|part| part == "..") {
        return false;
    }
    let name = word.rsplit('/').next().unwrap_or(word);
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    !stem.is_empty()
        && (1..=5).contains(&ext.len())
        && ext.starts_with(|c: char| c.is_ascii_alphabetic())
        && ext.chars().all(|c| c.is_ascii_alphanumeric())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c))
}

#[cfg(test)]
mod tests {
    use super::looks_like_file;

    #[test]
    fn file_like_words() {
        for yes in ["README.md", "data/a.json", "file.txt", "./x.yaml"] {
            assert!(looks_like_file(yes), "{yes}");
        }
        for no in [
            "--out",
            "1.5",
            "/etc/passwd.txt",
            "https://x.io/a.md",
            "todo",
            "../a.md",
            "a=b.c",
        ] {
            assert!(!looks_like_file(no), "{no}");
        }
    }
}
