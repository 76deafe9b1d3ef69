//! Reading a spec: bounded I/O, then YAML (serde-saphyr) or JSON (serde_json) into the registry.
//!
//! Every failure is one [`Diagnostic`] with a stable code (`E001`-`E009`, see [`crate::diagnostic_codes`]),
//! a one-sentence message, usually a hint, the JSON pointer of the node when one is known, and
//! the file:line:col it is at. Hostile input (huge, deep, alias bombs, binary) is refused early:
//! the reader never holds more than [`MAX_SPEC_BYTES`] + 1 bytes, and the parsers run under
//! depth, node and alias budgets.
//!
//! - `read`: bytes from a file or a reader, size, UTF-8 and emptiness checks, format detection.
//! - `yaml` and `json`: text to registry, each mapping its parser's errors to diagnostics.
//! - `report`: the wording shared by both (did-you-mean, key lists, pointers, positions).

// `Result<_, Diagnostic>` is the crate's interface (`check_source` collects the diagnostic as is);
// a diagnostic is only built on the cold error path, once per load, so its size costs nothing.
#![allow(clippy::result_large_err)]

mod collect;
mod json;
mod read;
mod report;
mod version;
mod yaml;

use std::path::Path;

use crate::{Diagnostic, Registry};

/// The largest spec the loader reads, in bytes (16 MiB). A real spec of a thousand commands is
/// well under 2 MiB; anything larger is refused before it is read whole.
pub const MAX_SPEC_BYTES: u64 = 16 * 1024 * 1024;

/// The deepest nesting of mappings and sequences a spec may have (JSON Schemas included).
pub const MAX_DEPTH: usize = 64;

/// The most nodes (scalars, mappings, sequences) a spec may have. A rich thousand-command spec
/// (eight parameters and an output schema each) has about 60,000; this is eight times that, and
/// bounds the work and memory spent on a hostile file before it is refused.
pub const MAX_NODES: usize = 500_000;

/// The syntax a spec is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// YAML 1.2.
    Yaml,
    /// JSON.
    Json,
}

impl Format {
    /// The format a file name implies: `.json` is JSON, `.yaml`/`.yml` YAML, anything else unknown.
    pub fn from_path(path: &Path) -> Option<Format> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "json" => Some(Format::Json),
            "yaml" | "yml" => Some(Format::Yaml),
            _ => None,
        }
    }

    /// Guess from the text: JSON when the first non-blank character is `{`, else YAML
    /// (which also reads any other JSON, so a wrong guess still parses).
    pub fn sniff(text: &str) -> Format {
        let first = text
            .trim_start_matches(['\u{FEFF}', ' ', '\t', '\r', '\n'])
            .chars()
            .next();
        if first == Some('{') {
            Format::Json
        } else {
            Format::Yaml
        }
    }
}

/// A spec's text, with the name diagnostics use for it and its format.
#[derive(Debug, Clone)]
pub struct Source {
    /// How diagnostics name the file (as the user gave it).
    pub name: String,
    /// The whole text.
    pub text: String,
    /// YAML or JSON.
    pub format: Format,
}

impl Source {
    /// A source from text already in memory (e.g. a test or a macro's input).
    pub fn new(name: impl Into<String>, text: impl Into<String>, format: Format) -> Source {
        Source {
            name: name.into(),
            text: text.into(),
            format,
        }
    }
}

/// Read a spec file: E001 when it cannot be read (missing, a directory, no permission), E002
/// when larger than [`MAX_SPEC_BYTES`] (refused by size before reading), E003 when not UTF-8
/// (at the first bad byte), E004 when empty or only whitespace and comments. The format comes
/// from the extension, else from the first character.
pub fn read_path(path: &Path) -> Result<Source, Diagnostic> {
    read::read_path(path)
}

/// Read a spec from any reader (at most [`MAX_SPEC_BYTES`] + 1 bytes are taken), named `name`
/// in diagnostics; the format is sniffed from the text. Same errors as [`read_path`].
pub fn read_reader(name: &str, reader: impl std::io::Read) -> Result<Source, Diagnostic> {
    read::read_reader(name, reader)
}

/// Read a spec from standard input (the `-` path), named `<stdin>` in diagnostics.
pub fn read_stdin() -> Result<Source, Diagnostic> {
    read::read_reader("<stdin>", std::io::stdin().lock())
}

/// Parse a source into a registry; the first syntax or shape error, located.
///
/// E002 too large, E004 empty, E005 syntax, E006 wrong type / missing key / unknown enum value,
/// E007 unknown key (with a did-you-mean hint), E008 duplicate key, E009 budget exceeded; E010
/// when the document declares a newer `specVersion` than [`crate::SPEC_VERSION`] (instead of
/// whatever else a newer format would trip on).
pub fn parse(source: &Source) -> Result<Registry, Diagnostic> {
    read::check_text(&source.name, &source.text)?;
    let parsed = match source.format {
        Format::Yaml => yaml::parse(source),
        Format::Json => json::parse(source),
    };
    version::refuse_newer(source, parsed)
}

/// Parse a source into a registry, or every shape problem it has, each located: unknown and
/// misspelt keys, wrong types, missing keys and unknown values all at once (syntax errors and
/// budgets still end the reading at the first). When every problem was a misspelt key, the
/// registry the author meant comes with them, so the validator can check it in the same run.
pub fn parse_all(source: &Source) -> Result<Registry, (Vec<Diagnostic>, Option<Registry>)> {
    match parse(source) {
        Ok(registry) => Ok(registry),
        Err(first) => {
            let collected = collect::collect(source, first);
            Err((collected.diagnostics, collected.repaired))
        }
    }
}

/// Read and parse a spec file.
pub fn load_path(path: &Path) -> Result<(Source, Registry), Diagnostic> {
    let source = read_path(path)?;
    let registry = parse(&source)?;
    Ok((source, registry))
}
