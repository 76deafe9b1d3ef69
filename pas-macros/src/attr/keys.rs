//! Which keys `#[agent(...)]` accepts where, how each is written, and what to tell someone who
//! wrote a key that is misplaced, misspelt, or owned by clap.

use proc_macro2::Ident;

use crate::ctxt::Ctxt;

/// Where an `#[agent(...)]` list is being read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// On a struct: tool keys, and `command(...)` for the struct's own command.
    Struct,
    /// On an enum: tool keys only; the variants are the commands.
    Enum,
    /// Inside a struct's `command(...)`.
    StructCommand,
    /// On an enum variant: command keys.
    Variant,
}

impl Scope {
    fn is_command(self) -> bool {
        matches!(self, Scope::StructCommand | Scope::Variant)
    }
}

/// Keys of the whole tool, with how each is written.
pub(crate) const TOOL: &[(&str, &str)] = &[
    ("level", "level = 2"),
    ("profile", "profile = \"pas\""),
    ("schema_version", "schema_version = \"1.0.0\""),
    ("mask_high_entropy", "mask_high_entropy"),
    (
        "changelog",
        "changelog = \"[{\\\"version\\\": \\\"1.0.0\\\", \\\"changes\\\": [\\\"...\\\"]}]\"",
    ),
    (
        "exit_code",
        "exit_code(100, FILE_NOT_FOUND, \"File not found\")",
    ),
    (
        "example",
        "example(\"tool --agent file.txt\", \"What it does\")",
    ),
    (
        "anti_pattern",
        "anti_pattern(\"tool *.txt > out.txt\", \"Use --agent instead\")",
    ),
    (
        "command",
        "command(name = \"count\", output = Item, kind = \"list\")",
    ),
    (
        "resource",
        "resource(\"/notes/{id}\", cat, stat, rm, \"One note\")",
    ),
    ("robot", "robot = \"{\\\"sessions\\\": {...}}\""),
    (
        "declared",
        "declared = \"{\\\"auth\\\": {\\\"env\\\": [\\\"TOKEN\\\"]}}\"",
    ),
];

/// Keys of one command, with how each is written.
pub(crate) const COMMAND: &[(&str, &str)] = &[
    ("name", "name = \"task.create\""),
    ("category", "category = \"task\""),
    ("description", "description = \"What the command does.\""),
    ("effect", "effect = \"write\""),
    ("idempotent", "idempotent"),
    ("rate_limit", "rate_limit = \"60/minute\""),
    ("output", "output = Item"),
    ("kind", "kind = \"list\""),
    ("input", "input = NewItem"),
    (
        "output_schema",
        "output_schema = \"{\\\"type\\\": \\\"object\\\"}\"",
    ),
    (
        "input_schema",
        "input_schema = \"{\\\"type\\\": \\\"object\\\"}\"",
    ),
    ("errors", "errors(NOT_FOUND, CONFLICT)"),
    (
        "example",
        "example(\"tool --agent task create x\", \"What it does\")",
    ),
    (
        "anti_pattern",
        "anti_pattern(\"tool task create\", \"Why not, or what instead\")",
    ),
    ("stdin", "stdin = \"required\""),
    ("dry_run", "dry_run"),
    (
        "deprecated",
        "deprecated(replacement = \"task.remove\", since = \"0.3.0\", message = \"...\")",
    ),
    ("paging", "paging(limit = \"limit\", cursor = \"cursor\")"),
    ("session", "session = \"create\""),
    ("stability", "stability = \"beta\""),
    ("confirm", "confirm"),
    ("list_field", "list_field = \"candidates\""),
    ("compact_omit", "compact_omit = \"cmd_full,metrics\""),
    ("timeout", "timeout = 30"),
    ("max_output_bytes", "max_output_bytes = 65536"),
    ("max_input_bytes", "max_input_bytes = 65536"),
    ("lock", "lock = \"deploy\""),
    ("poll_interval_ms", "poll_interval_ms = 500"),
    ("job_timeout_ms", "job_timeout_ms = 60000"),
    (
        "declared",
        "declared = \"{\\\"auth\\\": true, \\\"parameters\\\": {\\\"title\\\": {\\\"maxLength\\\": 80}}}\"",
    ),
];

/// Keys inside `deprecated(...)`.
pub(crate) const DEPRECATED: &[(&str, &str)] = &[
    ("replacement", "replacement = \"task.remove\""),
    ("since", "since = \"0.3.0\""),
    ("message", "message = \"...\""),
];

/// Keys inside `paging(...)`.
pub(crate) const PAGING: &[(&str, &str)] = &[
    ("limit", "limit = \"limit\""),
    ("cursor", "cursor = \"cursor\""),
];

/// Keys someone may expect here that clap already carries, and where clap takes them.
const CLAP: &[(&str, &str)] = &[
    (
        "about",
        "descriptions come from doc comments (or clap's `#[command(about = \"...\")]`)",
    ),
    (
        "long_about",
        "descriptions come from doc comments (or clap's `#[command(long_about = \"...\")]`)",
    ),
    (
        "summary",
        "the summary is the doc comment's first paragraph (clap's `about`)",
    ),
    ("help", "help texts come from doc comments (clap's `help`)"),
    (
        "version",
        "the version comes from clap: `#[command(version)]`",
    ),
    ("author", "clap owns this: `#[command(author)]`"),
    (
        "bin_name",
        "the tool's name comes from clap: `#[command(name = \"...\")]`",
    ),
    (
        "path",
        "argv words come from clap's subcommand names: `#[command(name = \"...\")]`",
    ),
    (
        "alias",
        "aliases come from clap: `#[command(visible_alias = \"...\")]`",
    ),
    (
        "aliases",
        "aliases come from clap: `#[command(visible_aliases = [\"...\"])]`",
    ),
    (
        "visible_alias",
        "aliases come from clap: `#[command(visible_alias = \"...\")]`",
    ),
    (
        "arg",
        "parameters come from clap's `#[arg(...)]` on the fields",
    ),
    (
        "args",
        "parameters come from clap's `#[arg(...)]` on the fields",
    ),
    (
        "parameters",
        "parameters come from clap's `#[arg(...)]` on the fields",
    ),
    (
        "secret",
        "a secret parameter is clap's `#[arg(env = \"TOKEN\", hide_env_values = true)]`",
    ),
    (
        "global",
        "global flags are clap's `#[arg(long, global = true)]` on the root type",
    ),
];

/// The usage line of a key in a table.
pub(crate) fn usage(table: &[(&str, &'static str)], key: &str) -> &'static str {
    table
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("", |(_, usage)| usage)
}

/// Whether a key may be given more than once.
pub(crate) fn repeatable(key: &str) -> bool {
    matches!(key, "exit_code" | "example" | "anti_pattern" | "resource")
}

/// Reports a key that `scope` does not accept, saying where it belongs or what was meant.
pub(crate) fn unknown(key: &Ident, scope: Scope, ctxt: &Ctxt) {
    let name = key.to_string();
    let in_tool = TOOL.iter().any(|(k, _)| *k == name);
    let in_command = COMMAND.iter().any(|(k, _)| *k == name);
    let message = if name == "command" && scope.is_command() {
        match scope {
            Scope::Variant => "a variant already is a command: write its keys directly, e.g. `#[agent(name = \"task.create\")]`".to_owned(),
            _ => "`command(...)` cannot be nested".to_owned(),
        }
    } else if name == "description" && scope == Scope::Variant {
        "a variant's description is its doc comment (clap's `about`)".to_owned()
    } else if in_command && !scope.is_command() {
        let usage = usage(COMMAND, &name);
        match scope {
            Scope::Struct => format!(
                "`{name}` describes a command: on a struct, write it inside `command(...)`, e.g. `#[agent(command({usage}))]`"
            ),
            _ => format!(
                "`{name}` describes a command: put it on the variant it describes, e.g. `#[agent({usage})]`"
            ),
        }
    } else if in_tool && scope.is_command() {
        format!("`{name}` describes the whole tool: put it in the root type's `#[agent(...)]`")
    } else if let Some((_, hint)) = CLAP.iter().find(|(k, _)| *k == name) {
        format!("`{name}` is not an `#[agent]` key: {hint}")
    } else {
        let table = if scope.is_command() { COMMAND } else { TOOL };
        unknown_in(&name, table)
    };
    ctxt.spanned(key, message);
}

/// "unknown key" with the closest key of `table`, else the list of keys.
pub(crate) fn unknown_in(name: &str, table: &[(&str, &str)]) -> String {
    match did_you_mean(name, table.iter().map(|(k, _)| *k)) {
        Some(best) => format!("unknown key `{name}`; did you mean `{best}`?"),
        None => {
            let keys: Vec<String> = table.iter().map(|(k, _)| format!("`{k}`")).collect();
            format!("unknown key `{name}`; expected one of {}", keys.join(", "))
        }
    }
}

/// The candidate closest to `word`, when it is close enough to be a likely typo.
pub(crate) fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|candidate| {
            (
                strsim::jaro_winkler(&word, &candidate.to_ascii_lowercase()),
                candidate,
            )
        })
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate)
}
