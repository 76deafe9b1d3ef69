//! The `.llm` document as plain data: every fact of the registry already worded, one line each,
//! for a layout to place. `llm.rs` builds it; the default layout and the templates only read it.

use serde::Serialize;

/// The facts a `.llm` template lays out. Field names are the template's variable names.
#[derive(Debug, Clone, Serialize)]
pub struct Document {
    /// The binary name.
    pub name: String,
    /// The tool version.
    pub version: String,
    /// One sentence: what the tool is for.
    pub purpose: String,
    /// The longer description, one line, or empty.
    pub description: String,
    /// The PAS level the tool claims.
    pub level: u8,
    /// The contract profile: `pas`, `compose` or `robot`.
    pub profile: &'static str,
    /// The tool's usage line (a one-command tool's is its command's).
    pub signature: String,
    /// How to get machine output and what it looks like, for this profile.
    pub machine_mode: String,
    /// The runtime's flags and the tool's global flags.
    pub global_flags: Vec<Row>,
    /// 5 to 10 invocations: the tool's examples, then each command's first.
    pub cheatsheet: Vec<Pattern>,
    /// Mistakes to avoid: the tool's, then each command's, then the runtime's.
    pub anti_patterns: Vec<Pattern>,
    /// Every exit code, as agent help lists them.
    pub exit_codes: Vec<Code>,
    /// Every command, the level 3 and 4 verbs included.
    pub commands: Vec<CommandDoc>,
}

/// A (signature, facts) row, as agent help words it.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// The flag or argument as typed, with its value's placeholder (`--limit <N>`, `<path>`).
    pub signature: String,
    /// Its type, default, constraints and description in one line (`integer, default 10. ...`).
    pub facts: String,
}

/// An invocation or habit and what it does (or what to do instead). `text` may be empty.
#[derive(Debug, Clone, Serialize)]
pub struct Pattern {
    /// The invocation, on one line (`notes cat notes/a.md`).
    pub command: String,
    /// What it does (an example) or what to do instead (an anti-pattern), on one line.
    pub text: String,
}

/// One exit code and what it means, with its constants (`General error (GENERAL_ERROR, ...)`).
#[derive(Debug, Clone, Serialize)]
pub struct Code {
    /// The process exit code.
    pub code: u16,
    /// Its meaning and the error constants that end with it, as agent help words them.
    pub text: String,
}

/// One command.
#[derive(Debug, Clone, Serialize)]
pub struct CommandDoc {
    /// Dotted name.
    pub name: String,
    /// The argv words that select it (empty for a one-command tool).
    pub words: String,
    /// Its usage line.
    pub usage: String,
    /// What the command does, on one line.
    pub description: String,
    /// Effect and idempotence (and `--force`, `--dry-run`), as a sentence.
    pub effect: String,
    /// Extra facts as sentences: rate limit, deprecation.
    pub notes: Vec<String>,
    /// Its parameters, then the built-in switches it answers (`--force`, `--dry-run`, ...).
    pub parameters: Vec<Row>,
    /// The output kind in a word or two (`object`, `NDJSON`, ...).
    pub output: String,
    /// Top-level fields of one result (of one item for lists and events).
    pub output_fields: Vec<Field>,
    /// What it does with stdin, or empty.
    pub input: String,
    /// The tool's exit codes this command may end with, as `NAME (code)`.
    pub errors: Vec<String>,
    /// Its declared examples, each an invocation and what it does.
    pub examples: Vec<Pattern>,
}

/// One field of an output object.
#[derive(Debug, Clone, Serialize)]
pub struct Field {
    /// The field's JSON key.
    pub name: String,
    /// JSON type in words: `string`, `integer >= 0`, `one of: open, done`, `array of string`.
    pub ty: String,
    /// Whether every result has the field (the output schema lists it as `required`).
    pub required: bool,
    /// The schema's description of the field, on one line, or empty.
    pub description: String,
}
