//! Diagnostics: what the loader and the validator say about a spec.
//!
//! A diagnostic names the problem with a stable code, says where it is (a JSON pointer into the
//! document, resolved to file:line:col by the source map), and gives a hint. The validator works
//! on the registry alone and fills only the pointer; [`crate::SourceMap::locate`] adds positions.

use serde::Serialize;

/// How bad a diagnostic is. Errors make `pas-gen check` fail; warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The spec cannot be used as it is.
    Error,
    /// The spec works, but something is likely a mistake or weakens the contract.
    Warning,
}

/// A position in a source file: 1-based line and column (in characters).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Location {
    /// The file as the user named it (or `<stdin>`).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// One problem found in a spec.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Stable code, e.g. `E012` (errors) or `W003` (warnings); documented in `specs/README.md`.
    pub code: &'static str,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// JSON pointer (RFC 6901) to the offending node, e.g. `/commands/2/parameters/0/name`.
    pub pointer: String,
    /// Where the node is in the source, once resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

impl Diagnostic {
    /// An error at `pointer`.
    pub fn error(
        code: &'static str,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            hint: None,
            pointer: pointer.into(),
            location: None,
        }
    }

    /// A warning at `pointer`.
    pub fn warning(
        code: &'static str,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, pointer, message)
        }
    }

    /// The same diagnostic with a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The same diagnostic at a known position.
    pub fn at(mut self, location: Location) -> Self {
        self.location = Some(location);
        self
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Escape one reference token of a JSON pointer (RFC 6901: `~` as `~0`, `/` as `~1`).
pub fn pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
