//! rustc-style diagnostics with a source snippet (plain: no colour, whatever the terminal).

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use pas_spec::{Diagnostic, Severity};

/// One diagnostic as rustc would show it, with the source line when the file could be read.
pub fn render(name: &str, text: Option<&str>, d: &Diagnostic) -> String {
    format!("{}\n", render_one(&Renderer::plain(), name, text, d))
}

fn render_one(renderer: &Renderer, name: &str, text: Option<&str>, d: &Diagnostic) -> String {
    let level = match d.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let title = level.primary_title(d.message.as_str()).id(d.code);
    let snippet = match (&d.location, text) {
        (Some(location), Some(text)) => {
            source_line(text, location.line).map(|(line_text, start)| {
                let column = byte_column(line_text, location.column);
                let end = token_end(line_text, column);
                Snippet::source(line_text)
                    .line_start(start)
                    .path(location.file.as_str())
                    .annotation(AnnotationKind::Primary.span(column..end))
            })
        }
        _ => None,
    };
    let mut group = Group::with_title(title);
    match snippet {
        Some(snippet) => group = group.element(snippet),
        None => {
            let place = d
                .location
                .as_ref()
                .map_or_else(|| name.to_owned(), ToString::to_string);
            group = group.element(Level::NOTE.message(format!("in {place}")));
        }
    }
    if let Some(hint) = &d.hint {
        group = group.element(Level::HELP.message(hint.as_str()));
    }
    renderer.render(&[group])
}

/// The text of 1-based `line`, without its line break.
fn source_line(text: &str, line: u32) -> Option<(&str, usize)> {
    let index = usize::try_from(line).ok()?.checked_sub(1)?;
    text.lines().nth(index).map(|l| (l, index + 1))
}

/// The byte offset of 1-based character `column` in `line` (clamped to the line).
fn byte_column(line: &str, column: u32) -> usize {
    let skip = usize::try_from(column)
        .unwrap_or(usize::MAX)
        .saturating_sub(1);
    line.char_indices().nth(skip).map_or(line.len(), |(i, _)| i)
}

/// Underline the word that starts at `start` (at least one character, when there is one).
fn token_end(line: &str, start: usize) -> usize {
    let rest = &line[start..];
    let word = rest
        .find(|c: char| c.is_whitespace() || c == ':' || c == ',')
        .unwrap_or(rest.len());
    let first = rest.chars().next().map_or(0, char::len_utf8);
    start + word.max(first)
}
