//! `pas-gen check`: load and validate each spec, keeping every diagnostic with its source.

use pas_spec::{Diagnostic, Source, check_source, load};
use std::path::Path;

/// What checking one spec found.
pub struct FileReport {
    /// The file as the user named it.
    pub name: String,
    /// Its text, when it could be read (for snippets).
    pub source: Option<Source>,
    /// Every diagnostic, in document order.
    pub diagnostics: Vec<Diagnostic>,
}

impl FileReport {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Check one spec named on the command line (`-` is standard input).
pub fn check_file(name: &str) -> FileReport {
    let read = if name == "-" {
        load::read_stdin()
    } else {
        load::read_path(Path::new(name))
    };
    report(name, read)
}

/// Check one spec already read (or the diagnostic of why it could not be).
pub fn report(name: &str, read: Result<Source, Diagnostic>) -> FileReport {
    match read {
        Err(diagnostic) => FileReport {
            name: name.to_owned(),
            source: None,
            diagnostics: vec![diagnostic],
        },
        Ok(source) => {
            let (_, diagnostics) = check_source(&source);
            FileReport {
                name: name.to_owned(),
                source: Some(source),
                diagnostics,
            }
        }
    }
}
