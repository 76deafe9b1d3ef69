//! One result: a file as it was named, and its word count.
//!
//! A file name is bytes on Unix and need not be UTF-8, but JSON strings are Unicode. `file` is
//! therefore always the name with each invalid sequence replaced by U+FFFD (readable, and
//! exactly the name whenever the name is UTF-8), and a name that is not UTF-8 also comes as
//! `file_bytes`, its raw bytes, from which an agent rebuilds the exact path. Quotes,
//! backslashes and newlines in names are ordinary JSON escapes.

use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

/// The word count of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FileCount {
    /// The file as it was named on the command line (invalid UTF-8 shown as U+FFFD).
    pub file: String,
    /// The name's raw bytes, present only when the name is not valid UTF-8.
    // Absent rather than null when the name is UTF-8, so the schema says "array" alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<u8>")]
    pub file_bytes: Option<Vec<u8>>,
    /// Number of whitespace-separated words.
    pub words: u64,
}

impl FileCount {
    pub(crate) fn new(path: &Path, words: u64) -> FileCount {
        let file = path.to_string_lossy().into_owned();
        FileCount {
            file_bytes: raw_bytes(path),
            file,
            words,
        }
    }

    /// The name fields alone, for an error's details.
    pub(crate) fn name_only(&self) -> serde_json::Value {
        let mut value = serde_json::json!({ "file": self.file });
        if let Some(bytes) = &self.file_bytes {
            value["file_bytes"] = serde_json::json!(bytes);
        }
        value
    }

    /// What people see without `--agent`: `README.md: 1250 words`, as in the appendix.
    pub fn human_line(&self) -> String {
        format!("{}: {} words", self.file, self.words)
    }
}

#[cfg(unix)]
fn raw_bytes(path: &Path) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    std::str::from_utf8(bytes).is_err().then(|| bytes.to_vec())
}

/// Elsewhere names are Unicode (Windows: UTF-16, possibly unpaired); the lossy name is all
/// there is to give.
#[cfg(not(unix))]
fn raw_bytes(_path: &Path) -> Option<Vec<u8>> {
    None
}
