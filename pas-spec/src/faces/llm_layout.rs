//! The default `.llm` layout written in Rust: the same bytes `templates/llm.md.j2` renders to
//! under minijinja with `trim_blocks`, `lstrip_blocks` and `keep_trailing_newline` (block tags
//! take their own lines away). A built CLI answers `tool docs` through this function, so it links
//! no template engine; `tests/llm_layout.rs` (feature `template`) renders every example spec
//! both ways and compares the bytes, so the template and this file cannot drift apart.
//!
//! Each block below names the template lines it stands for.

use std::fmt::Write as _;

use super::llm_document::{CommandDoc, Document};

/// The document laid out as the default template lays it out.
pub(crate) fn default_layout(doc: &Document) -> String {
    let mut out = String::with_capacity(8 * 1024);
    // `# {{ name }} {{ version }}` ... `{% endif %}` (the optional description).
    let _ = write!(
        out,
        "# {} {}\n\n## Purpose\n\n{}\n",
        doc.name, doc.version, doc.purpose
    );
    if !doc.description.is_empty() {
        let _ = write!(out, "\n{}\n", doc.description);
    }
    // `## Signature` ... `Flags of every command:` and its rows.
    let _ = write!(
        out,
        "\n## Signature\n\n```\n{}\n```\n\n{}\n\nFlags of every command:\n",
        doc.signature, doc.machine_mode
    );
    for flag in &doc.global_flags {
        let _ = writeln!(out, "- `{}`: {}", flag.signature, flag.facts);
    }
    // `## Cheatsheet`: one invocation a line, its words after `  # `.
    out.push_str("\n## Cheatsheet\n\n```sh\n");
    for pattern in &doc.cheatsheet {
        out.push_str(&pattern.command);
        if !pattern.text.is_empty() {
            let _ = write!(out, "  # {}", pattern.text);
        }
        out.push('\n');
    }
    // `## Anti-patterns`.
    out.push_str("```\n\n## Anti-patterns\n\n");
    for pattern in &doc.anti_patterns {
        let _ = write!(out, "- Don't: `{}`", pattern.command);
        if !pattern.text.is_empty() {
            let _ = write!(out, " ({})", pattern.text);
        }
        out.push('\n');
    }
    // `## Error codes`.
    out.push_str("\n## Error codes\n\n");
    for code in &doc.exit_codes {
        let _ = writeln!(out, "- {}: {}", code.code, code.text);
    }
    // `## Commands`, then one section per command.
    out.push_str("\n## Commands\n");
    for command in &doc.commands {
        command_section(&mut out, command);
    }
    out
}

/// `{% for command in commands %}` ... `{% endfor %}`.
fn command_section(out: &mut String, command: &CommandDoc) {
    let heading = match command.words.is_empty() {
        true => &command.name,
        false => &command.words,
    };
    let _ = write!(
        out,
        "\n### {heading}\n\n`{}`\n\n{} {}",
        command.usage, command.description, command.effect
    );
    for note in &command.notes {
        let _ = write!(out, " {note}");
    }
    out.push('\n');
    if !command.parameters.is_empty() {
        out.push_str("\nParameters:\n");
        for param in &command.parameters {
            let _ = writeln!(out, "- `{}`: {}", param.signature, param.facts);
        }
    }
    if !command.input.is_empty() {
        let _ = write!(out, "\nInput: {}\n", command.input);
    }
    let _ = write!(out, "\nOutput: {}", command.output);
    if !command.output_fields.is_empty() {
        out.push_str(", fields:");
    }
    out.push('\n');
    for field in &command.output_fields {
        let _ = write!(out, "- `{}` {}", field.name, field.ty);
        if field.required {
            out.push_str(", always");
        }
        if !field.description.is_empty() {
            let _ = write!(out, ": {}", field.description);
        }
        out.push('\n');
    }
    if !command.errors.is_empty() {
        let _ = write!(out, "\nErrors: {}\n", command.errors.join(", "));
    }
}
