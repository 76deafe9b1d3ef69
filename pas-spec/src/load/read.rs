//! Bounded reading: a spec's bytes from a file or a reader, checked for size, UTF-8 and
//! emptiness before any parser sees them.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use super::{Format, MAX_SPEC_BYTES, Source};
use crate::{Diagnostic, Location};

/// Read a spec file (see [`super::read_path`]).
pub(super) fn read_path(path: &Path) -> Result<Source, Diagnostic> {
    let name = path.display().to_string();
    let metadata = std::fs::metadata(path).map_err(|error| unreadable(&name, &error))?;
    if metadata.is_dir() {
        return Err(Diagnostic::error(
            "E001",
            "",
            format!("cannot read `{name}`: it is a directory, not a spec file"),
        )
        .with_hint("give the path of a .yaml, .yml or .json spec file"));
    }
    // Refuse by size before opening: a 100 MB file costs one stat, not a read.
    if metadata.is_file() && metadata.len() > MAX_SPEC_BYTES {
        return Err(too_large(&name, Some(metadata.len())));
    }
    let file = File::open(path).map_err(|error| unreadable(&name, &error))?;
    let text = read_bounded(&name, file)?;
    let format = Format::from_path(path).unwrap_or_else(|| Format::sniff(&text));
    Ok(Source { name, text, format })
}

/// Read a spec from a reader (see [`super::read_reader`]).
pub(super) fn read_reader(name: &str, reader: impl Read) -> Result<Source, Diagnostic> {
    let text = read_bounded(name, reader)?;
    let format = Format::sniff(&text);
    Ok(Source {
        name: name.to_owned(),
        text,
        format,
    })
}

/// Checks every text gets before parsing, wherever it came from: not too large, not empty.
pub(super) fn check_text(name: &str, text: &str) -> Result<(), Diagnostic> {
    if text.len() as u64 > MAX_SPEC_BYTES {
        return Err(too_large(name, Some(text.len() as u64)));
    }
    if is_blank(text) {
        return Err(Diagnostic::error(
            "E004",
            "",
            "the spec is empty (nothing but whitespace and comments)",
        )
        .with_hint(
            "a spec needs at least `specVersion`, `name`, `version`, `summary` and `commands`",
        )
        .at(Location {
            file: name.to_owned(),
            line: 1,
            column: 1,
        }));
    }
    Ok(())
}

/// Read at most [`MAX_SPEC_BYTES`] + 1 bytes (so a FIFO, a device or a file that grows is never
/// read whole), then decode and check the text.
fn read_bounded(name: &str, reader: impl Read) -> Result<String, Diagnostic> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_SPEC_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| unreadable(name, &error))?;
    if bytes.len() as u64 > MAX_SPEC_BYTES {
        return Err(too_large(name, None));
    }
    let mut text = decode(name, bytes)?;
    // A UTF-8 byte-order mark is not part of the document; serde_json would reject it.
    if text.starts_with('\u{FEFF}') {
        text.drain(..'\u{FEFF}'.len_utf8());
    }
    check_text(name, &text)?;
    Ok(text)
}

/// The bytes as UTF-8, or E003 at the first byte that is not.
fn decode(name: &str, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    let error = match String::from_utf8(bytes) {
        Ok(text) => return Ok(text),
        Err(error) => error,
    };
    let bytes = error.as_bytes();
    let valid = error.utf8_error().valid_up_to();
    let (line, column) = end_position(&bytes[..valid]);
    let bad = bytes.get(valid).copied().unwrap_or_default();
    let hint = if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        "the file looks like UTF-16; save it as UTF-8"
    } else {
        "a spec is UTF-8 text; save it as UTF-8 (a binary file is not a spec)"
    };
    Err(Diagnostic::error(
        "E003",
        "",
        format!("the spec is not valid UTF-8: byte 0x{bad:02X} at line {line}, column {column}"),
    )
    .with_hint(hint)
    .at(Location {
        file: name.to_owned(),
        line,
        column,
    }))
}

/// The 1-based line and column (in characters) just after `valid`, which is valid UTF-8.
fn end_position(valid: &[u8]) -> (u32, u32) {
    let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let lines = valid[..line_start].iter().filter(|&&b| b == b'\n').count();
    // Counting UTF-8 lead bytes counts characters without decoding again.
    let chars = valid[line_start..]
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count();
    (saturate(lines + 1), saturate(chars + 1))
}

fn saturate(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Whether the text holds nothing but whitespace, `#` comments and YAML document markers.
fn is_blank(text: &str) -> bool {
    text.lines().all(|line| {
        let line = line.trim_matches(['\u{FEFF}', ' ', '\t', '\r']);
        let line = ["---", "..."]
            .iter()
            .find_map(|marker| line.strip_prefix(marker))
            .filter(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
            .map_or(line, str::trim_start);
        line.is_empty() || line.starts_with('#')
    })
}

/// E002 for a spec over the size limit.
fn too_large(name: &str, size: Option<u64>) -> Diagnostic {
    let limit = MAX_SPEC_BYTES / (1024 * 1024);
    let message = match size {
        Some(size) => {
            format!("`{name}` is {size} bytes, more than the {limit} MiB a spec may have")
        }
        None => format!("`{name}` is more than the {limit} MiB a spec may have"),
    };
    Diagnostic::error("E002", "", message)
        .with_hint("a spec describes one tool; split it or check that this is the right file")
}

/// E001 for a path or reader that cannot be read.
fn unreadable(name: &str, error: &io::Error) -> Diagnostic {
    let reason = match error.kind() {
        io::ErrorKind::NotFound => "no such file".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        io::ErrorKind::IsADirectory => "it is a directory, not a spec file".to_owned(),
        _ => error.to_string(),
    };
    let hint = match error.kind() {
        io::ErrorKind::NotFound => "check the path (it is relative to the current directory)",
        io::ErrorKind::PermissionDenied => "check the file's permissions",
        _ => "give the path of a readable .yaml, .yml or .json spec file",
    };
    Diagnostic::error("E001", "", format!("cannot read `{name}`: {reason}")).with_hint(hint)
}
