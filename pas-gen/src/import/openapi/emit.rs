//! The spec as YAML a person edits: pas-spec's own writer, with comments for what the document
//! says and pas cannot (each command's HTTP operation, parameter bindings, notes).

use std::collections::HashMap;

use pas_spec::Registry;

use super::report::Notes;

/// What a command's comment says, by command name.
pub struct CommandComment {
    pub lines: Vec<String>,
}

pub fn yaml(
    registry: &Registry,
    header: &[String],
    comments: &HashMap<String, CommandComment>,
    notes: &Notes,
) -> String {
    let body = pas_spec::write::to_yaml(registry);
    let mut out = String::with_capacity(body.len() * 11 / 10);
    for line in header {
        push_comment(&mut out, "", line);
    }
    for note in notes.of("") {
        push_comment(
            &mut out,
            "",
            &format!(
                "{}: {} ({})",
                note.kind,
                note.text,
                pointer_text(&note.pointer)
            ),
        );
    }
    out.push('\n');
    let mut in_commands = false;
    for line in body.lines() {
        if line == "commands:" {
            in_commands = true;
        } else if !line.starts_with(' ') {
            in_commands = false;
        }
        if in_commands && let Some(name) = line.strip_prefix("  - name: ") {
            if let Some(comment) = comments.get(name) {
                for text in &comment.lines {
                    push_comment(&mut out, "  ", text);
                }
            }
            for note in notes.of(name) {
                push_comment(
                    &mut out,
                    "  ",
                    &format!(
                        "{}: {} ({})",
                        note.kind,
                        note.text,
                        pointer_text(&note.pointer)
                    ),
                );
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn pointer_text(pointer: &str) -> String {
    if pointer.is_empty() {
        "#".to_owned()
    } else {
        format!("#{pointer}")
    }
}

/// A comment, one `#` line per line of text (a note may quote a multi-line value).
fn push_comment(out: &mut String, indent: &str, text: &str) {
    for line in text.lines() {
        out.push_str(indent);
        out.push_str("# ");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if text.is_empty() {
        out.push_str(indent);
        out.push_str("#\n");
    }
}
