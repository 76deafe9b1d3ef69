//! Reading a spec: bounded I/O, then YAML (serde-saphyr) or JSON (serde_json) into the registry.
//! (Filled in by the loader work; see the foundation issue.)

use crate::{Diagnostic, Registry};

/// The syntax a spec is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// YAML 1.2.
    Yaml,
    /// JSON.
    Json,
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

/// Parse a source into a registry; the first syntax or shape error, located.
pub fn parse(source: &Source) -> Result<Registry, Diagnostic> {
    let _ = source;
    unimplemented!("loader")
}
