//! The Agent Skill face: a `SKILL.md` (the open Agent Skills format that coding agents install)
//! and its reference, the tool's `.llm` document.
//!
//! A skill is the same facts as the `.llm` document ([`super::llm::document`]), cut down to what an
//! agent needs to decide to use the tool and to call it: when to use it, every command as an agent
//! invokes it, the exit codes and the anti-patterns. Parameters and output fields stay in the
//! reference (`references/<name>.llm`), which the agent opens only when it needs them.
//!
//! The frontmatter keeps the format's limits (those of the reference validator, `skills-ref`):
//! `name` is lowercase letters, digits and single hyphens, at most [`NAME_MAX`] characters, and
//! names the skill's directory; `description` is one non-empty line of at most
//! [`DESCRIPTION_MAX`] characters (UTF-16 units, as the validator counts them).

use std::fmt::Write as _;

use super::llm::{self, Document};
use crate::{Profile, Registry};

/// The longest skill name the format allows.
pub const NAME_MAX: usize = 64;

/// The longest skill description the format allows, in UTF-16 code units.
pub const DESCRIPTION_MAX: usize = 1024;

/// The skill's file, relative to its directory.
pub const SKILL_FILE: &str = "SKILL.md";

/// The skill's name, which is also its directory's: the tool's name with anything outside
/// lowercase letters, digits and single inner hyphens replaced, cut to [`NAME_MAX`]. A valid
/// spec's name (kebab-case) is kept as it is when it fits.
pub fn name(registry: &Registry) -> String {
    let mut name = String::new();
    for c in registry.name.chars().flat_map(char::to_lowercase) {
        let c = if c.is_ascii_lowercase() || c.is_ascii_digit() {
            c
        } else {
            '-'
        };
        if c == '-' && (name.is_empty() || name.ends_with('-')) {
            continue;
        }
        if name.len() == NAME_MAX {
            break;
        }
        name.push(c);
    }
    while name.ends_with('-') {
        name.pop();
    }
    if name.is_empty() {
        name.push_str("tool");
    }
    name
}

/// The reference document's path, relative to the skill's directory.
pub fn reference_path(registry: &Registry) -> String {
    format!("references/{}.llm", name(registry))
}

/// Every file of the skill, as (path relative to the skill's directory, text): `SKILL.md` and the
/// `.llm` reference (the bytes `TOOL docs` prints).
pub fn files(registry: &Registry) -> Vec<(String, String)> {
    vec![
        (SKILL_FILE.to_owned(), render(registry)),
        (reference_path(registry), llm::render(registry)),
    ]
}

/// The `SKILL.md` text: what `pas-gen skill` writes and `TOOL docs --skill` prints.
pub fn render(registry: &Registry) -> String {
    let doc = llm::document(registry);
    let name = name(registry);
    let mut out = String::new();
    out.push_str("---\n");
    // Quoted unless it starts with a letter, so YAML cannot read it as a number (`1e3`).
    if name.starts_with(|c: char| c.is_ascii_lowercase()) {
        let _ = writeln!(out, "name: {name}");
    } else {
        let _ = writeln!(out, "name: {}", yaml_string(&name));
    }
    let _ = writeln!(out, "description: {}", yaml_string(&description(&doc)));
    out.push_str("---\n\n");
    let _ = writeln!(out, "# {} {}\n", doc.name, doc.version);
    when_to_use(&mut out, &doc);
    calling(&mut out, registry);
    commands(&mut out, &doc);
    examples(&mut out, &doc);
    exit_codes(&mut out, &doc);
    anti_patterns(&mut out, &doc);
    // How one command's help is asked for follows the profile (compose has no `--agent`).
    let prefix = crate::surface::of(registry.profile)
        .invocation_prefix(registry)
        .join(" ");
    let _ = writeln!(
        out,
        "## Reference\n\n`{}` (what `{}` prints) has every parameter, output field and \
         per-command error; `{prefix} <command> --help` shows one command.",
        reference_path(registry),
        crate::surface::builtin_call(registry, "docs"),
    );
    out
}

/// The frontmatter description: what the tool does, then when to reach for it (the agent reads
/// only this before deciding to load the skill). Cut to the format's limit.
fn description(doc: &Document) -> String {
    let mut text = if doc.purpose.is_empty() {
        format!("The {} command-line tool.", doc.name)
    } else if doc.purpose.ends_with(['.', '!', '?']) {
        doc.purpose.clone()
    } else {
        format!("{}.", doc.purpose)
    };
    let words: Vec<&str> = doc
        .commands
        .iter()
        .map(|c| c.words.as_str())
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        let _ = write!(text, " Use when a task calls for {}.", doc.name);
    } else {
        let _ = write!(
            text,
            " Use when a task calls for {} ({}).",
            doc.name,
            words.join(", ")
        );
    }
    limit_description(&text)
}

/// One line, no `---` (which ends a frontmatter block for line-blind readers), at most
/// [`DESCRIPTION_MAX`] UTF-16 units (an ellipsis marks a cut).
fn limit_description(text: &str) -> String {
    let mut text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    while text.contains("---") {
        text = text.replace("---", "--");
    }
    if text.encode_utf16().count() <= DESCRIPTION_MAX {
        return text;
    }
    let mut cut = String::new();
    let mut units = 0;
    for c in text.chars() {
        if units + c.len_utf16() > DESCRIPTION_MAX - 3 {
            break;
        }
        units += c.len_utf16();
        cut.push(c);
    }
    cut.truncate(cut.trim_end().len());
    cut.push_str("...");
    cut
}

/// A YAML double-quoted scalar: JSON's string escapes are all YAML's too.
fn yaml_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}

fn when_to_use(out: &mut String, doc: &Document) {
    out.push_str("## When to use\n\n");
    if !doc.purpose.is_empty() {
        let _ = writeln!(out, "{}", doc.purpose);
    }
    if !doc.description.is_empty() {
        let _ = writeln!(out, "{}", doc.description);
    }
    let _ = writeln!(
        out,
        "Reach for `{}` when a task needs one of the commands below; call it rather than \
         reproducing its work, and read its JSON rather than its text.\n",
        doc.name
    );
}

/// How machine output looks in this profile, in one or two sentences.
fn calling(out: &mut String, registry: &Registry) {
    let contract = match registry.profile {
        Profile::Pas => {
            "Keep `--agent` in every call (or set PAS_AGENT=1): one JSON object on stdout, NDJSON \
             for lists, an error as one JSON object on stderr; the exit code says what happened."
        }
        Profile::Compose => {
            "Every call prints one JSON envelope on stdout: `{\"ok\":true,\"data\",\"meta\"}`, or \
             `{\"ok\":false,\"error\":{\"code\",\"message\",\"hint\"}}`; exit 0 ok, 1 failed, 2 \
             blocked. `--agent` is accepted and changes nothing, so a harness may keep it in \
             every call."
        }
        Profile::Robot => {
            "Every call prints one versioned JSON envelope on stdout (`status`, `data`, or \
             `error` with `code`, `message`, `suggestion`)."
        }
    };
    // No call has a time limit the caller did not ask for (or its command declare).
    let _ = write!(
        out,
        "## Calling it\n\n{contract} A call has no time limit unless its command declares one \
         or you set {}.",
        crate::surface::timeout_words(registry)
    );
    // Bounded output on request, and what the tool masks (failure modes 43 and 59).
    let _ = write!(
        out,
        " `--max-output BYTES` bounds a call's output without losing any: the rest goes to a file the answer names."
    );
    if let Some(note) = super::masking::tool_note(registry) {
        let _ = write!(out, " {note}");
    }
    out.push_str("\n\n");
}

fn commands(out: &mut String, doc: &Document) {
    out.push_str("## Commands\n\n");
    for command in &doc.commands {
        let _ = write!(out, "- `{}`: {}", command.usage, command.description);
        if !command.effect.is_empty() {
            let _ = write!(out, " {}", command.effect);
        }
        out.push('\n');
    }
    out.push('\n');
}

fn examples(out: &mut String, doc: &Document) {
    if doc.cheatsheet.is_empty() {
        return;
    }
    out.push_str("## Examples\n\n```sh\n");
    for pattern in &doc.cheatsheet {
        out.push_str(&pattern.command);
        if !pattern.text.is_empty() {
            let _ = write!(out, "  # {}", pattern.text);
        }
        out.push('\n');
    }
    out.push_str("```\n\n");
}

fn exit_codes(out: &mut String, doc: &Document) {
    out.push_str("## Exit codes\n\n");
    for code in &doc.exit_codes {
        let _ = writeln!(out, "- {}: {}", code.code, code.text);
    }
    out.push('\n');
}

fn anti_patterns(out: &mut String, doc: &Document) {
    if doc.anti_patterns.is_empty() {
        return;
    }
    out.push_str("## Don't\n\n");
    for pattern in &doc.anti_patterns {
        let _ = write!(out, "- `{}`", pattern.command);
        if !pattern.text.is_empty() {
            let _ = write!(out, ": {}", pattern.text);
        }
        out.push('\n');
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{Format, Source, parse};

    /// A registry from a minimal spec (parsed, so new model fields need no edit here).
    fn registry() -> Registry {
        let text = "specVersion: 1\nname: t\nversion: 1.0.0\nsummary: S.\ncommands:\n  - name: run\n    description: Run.\n";
        parse(&Source::new("t.yaml", text, Format::Yaml)).unwrap()
    }

    #[test]
    fn a_name_outside_the_format_is_made_to_fit() {
        let mut registry = registry();
        for (given, want) in [
            ("word-counter", "word-counter"),
            ("My_Tool", "my-tool"),
            ("--a--b--", "a-b"),
            ("___", "tool"),
        ] {
            registry.name = given.to_owned();
            assert_eq!(name(&registry), want, "{given}");
        }
        registry.name = "a".repeat(100);
        assert_eq!(name(&registry).len(), NAME_MAX);
        registry.name = format!("{}-b", "a".repeat(63));
        assert_eq!(name(&registry), "a".repeat(63));
        registry.name = "1e3".to_owned();
        assert!(render(&registry).starts_with("---\nname: \"1e3\"\n"));
    }

    #[test]
    fn a_long_description_is_cut_at_the_limit_in_utf16_units() {
        let long = "é😀 ".repeat(600);
        let cut = limit_description(&long);
        assert!(cut.encode_utf16().count() <= DESCRIPTION_MAX);
        assert!(cut.ends_with("..."));
        assert_eq!(limit_description("a --- b\n c"), "a -- b c");
        assert_eq!(limit_description("short"), "short");
    }
}
