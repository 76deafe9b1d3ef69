//! Where the rules write their findings, and how they name the node they are about.

use std::fmt::Display;

use crate::Diagnostic;
use crate::diagnostic::pointer_token;

/// The diagnostics found so far. Every finding carries a hint: a problem without a way out is
/// only half a diagnostic.
#[derive(Debug, Default)]
pub(crate) struct Report {
    diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// Record an error at `pointer`.
    pub fn error(
        &mut self,
        code: &'static str,
        pointer: &Pointer,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) {
        self.diagnostics
            .push(Diagnostic::error(code, pointer.as_str(), message).with_hint(hint));
    }

    /// Record a warning at `pointer`.
    pub fn warning(
        &mut self,
        code: &'static str,
        pointer: &Pointer,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) {
        self.diagnostics
            .push(Diagnostic::warning(code, pointer.as_str(), message).with_hint(hint));
    }

    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }
}

/// A JSON pointer (RFC 6901) being built one reference token at a time.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Pointer(String);

impl Pointer {
    /// The whole document.
    pub fn root() -> Pointer {
        Pointer::default()
    }

    /// The child under a key or an index; keys are escaped, so user text is safe here.
    pub fn at(&self, token: impl Display) -> Pointer {
        Pointer(format!("{}/{}", self.0, pointer_token(&token.to_string())))
    }

    /// A pointer that is already escaped (e.g. an instance path from the JSON Schema validator),
    /// appended as it is.
    pub fn join_escaped(&self, pointer: &str) -> Pointer {
        Pointer(format!("{}{pointer}", self.0))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `/commands/{index}`.
pub(crate) fn command(index: usize) -> Pointer {
    Pointer::root().at("commands").at(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_user_keys() {
        let pointer = Pointer::root().at("properties").at("a/b~c");
        assert_eq!(pointer.as_str(), "/properties/a~1b~0c");
        assert_eq!(command(2).at("name").as_str(), "/commands/2/name");
    }
}
