//! What the import could not do (problems, fatal, all reported at once) and what it did not
//! carry over exactly (notes, kept in the report and as comments in the spec).

use serde::Serialize;

/// A reason the document cannot be imported, at a node of the document.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    /// JSON pointer into the document (`""` for the whole document).
    pub pointer: String,
    /// Line and column, filled in from the pointer before the problem is shown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    pub message: String,
    pub hint: String,
    /// The error constant: `OPENAPI_INVALID`, `REMOTE_REF` (the fix is bundling, not
    /// editing) or `SPEC_TOO_LARGE` (the fix is curating).
    #[serde(skip)]
    pub code: &'static str,
}

impl Problem {
    pub fn new(
        pointer: impl Into<String>,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) -> Self {
        Problem {
            pointer: pointer.into(),
            line: None,
            column: None,
            message: message.into(),
            hint: hint.into(),
            code: "OPENAPI_INVALID",
        }
    }

    /// A problem whose position the parser knows, but not its node.
    pub fn at_line(
        line: u32,
        column: u32,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) -> Self {
        let mut problem = Problem::new("", message, hint);
        problem.line = Some(line);
        problem.column = Some(column);
        problem
    }
}

/// One thing the spec does not say exactly as the document did.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Note {
    /// The command it concerns (`""` for the whole tool).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub command: String,
    /// `unsupported` (pas has no word for it: kept as a comment), `renamed`, `changed` (kept
    /// in another form), `skipped` (the document itself says to ignore it).
    pub kind: &'static str,
    /// The node of the document it comes from.
    pub pointer: String,
    pub text: String,
}

/// Collects the notes of one import, in the order they are found (document order).
#[derive(Debug, Default)]
pub struct Notes {
    pub list: Vec<Note>,
}

impl Notes {
    pub fn add(
        &mut self,
        command: &str,
        kind: &'static str,
        pointer: &str,
        text: impl Into<String>,
    ) {
        self.list.push(Note {
            command: command.to_owned(),
            kind,
            pointer: pointer.to_owned(),
            text: text.into(),
        });
    }

    /// The notes of one command (or of the tool, for `""`).
    pub fn of<'a>(&'a self, command: &'a str) -> impl Iterator<Item = &'a Note> + 'a {
        self.list.iter().filter(move |n| n.command == command)
    }
}

/// A JSON pointer segment escaped (RFC 6901).
pub fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}
