//! A clap command tree as a pas spec draft: commands (the leaves of the tree, `group.action`),
//! arguments with their types, enums, defaults, environment variables and help texts, global
//! flags. What clap does not know (what a command prints, what it does to the world, its exit
//! codes) is left at pas's defaults and marked `TODO(author)` in a comment, so the draft passes
//! `pas-gen check` as it is and the author fills in the rest.

use std::any::TypeId;
use std::path::PathBuf;

use clap::{Arg, ArgAction};
use pas_spec::{Command, ParamKind, ParamType, Parameter, Profile, Registry, StringFormat};
use serde_json::Value;

/// The spec draft of a whole clap tree, as YAML with comments:
///
/// ```
/// use clap::{CommandFactory, Parser};
///
/// /// Count the lines of files.
/// #[derive(Parser)]
/// #[command(name = "lines", version = "1.0.0")]
/// struct Cli {
///     /// The files to count.
///     files: Vec<std::path::PathBuf>,
/// }
///
/// let draft = pas::import::spec_draft(&Cli::command());
/// assert!(draft.contains("name: lines"));
/// assert!(draft.contains("TODO(author)"));
/// ```
pub fn spec_draft(command: &clap::Command) -> String {
    let mut draft = Draft::default();
    let registry = draft.registry(command);
    draft.emit(&registry)
}

#[derive(Default)]
struct Draft {
    /// Comments for the tool (`""`) and for each command, by name.
    comments: Vec<(String, String)>,
}

impl Draft {
    fn note(&mut self, command: &str, text: impl Into<String>) {
        self.comments.push((command.to_owned(), text.into()));
    }

    fn registry(&mut self, root: &clap::Command) -> Registry {
        let name = kebab(root.get_name());
        let version = match root.get_version() {
            Some(version) if is_semver(version) => version.to_owned(),
            other => {
                self.note(
                    "",
                    format!(
                        "TODO(author): the version{} is not semver; 0.1.0 is a placeholder",
                        other.map(|v| format!(" `{v}`")).unwrap_or_default()
                    ),
                );
                "0.1.0".to_owned()
            }
        };
        let summary = match root.get_about() {
            Some(about) => sentence(&about.to_string()),
            None => {
                self.note(
                    "",
                    "TODO(author): say in one sentence what the tool is for (`summary`)",
                );
                format!("The {name} tool.")
            }
        };
        self.note("", "TODO(author): declare the exit codes (100-125) an agent can act on under `exitCodes`, and list them in each command's `errors`");
        let mut global_flags = Vec::new();
        for arg in root.get_arguments().filter(|a| a.is_global_set()) {
            if let Some(parameter) = self.parameter(arg, "") {
                global_flags.push(parameter);
            }
        }
        let mut commands = Vec::new();
        if root.has_subcommands() {
            for arg in root
                .get_arguments()
                .filter(|a| !a.is_global_set() && !skipped(a))
            {
                self.note("", format!("TODO(author): the root's argument `{}` applies before the subcommand; pas has none there (make it global, or move it to the commands)", arg.get_id()));
            }
            self.walk(root, &mut Vec::new(), &mut commands);
        } else {
            let mut command = new_command(
                &name,
                sentence(&root.get_about().map(|a| a.to_string()).unwrap_or_default()),
            );
            command.path = Some(Vec::new());
            self.fill(root, &mut command);
            commands.push(command);
        }
        Registry {
            spec_version: pas_spec::SPEC_VERSION,
            name,
            version,
            summary,
            description: root.get_long_about().map(|a| a.to_string()),
            level: 2,
            profile: Profile::Pas,
            schema_version: None,
            global_flags,
            exit_codes: Vec::new(),
            anti_patterns: Vec::new(),
            examples: Vec::new(),
            resources: Vec::new(),
            robot: None,
            auth: None,
            requirements: Vec::new(),
            changelog: Vec::new(),
            mask_high_entropy: false,
            commands,
            built: Default::default(),
        }
    }

    /// The leaves under `parent`: a subcommand with subcommands of its own is a group.
    fn walk(
        &mut self,
        parent: &clap::Command,
        path: &mut Vec<String>,
        commands: &mut Vec<Command>,
    ) {
        for sub in parent.get_subcommands() {
            let word = kebab(sub.get_name());
            if word == "help" {
                continue; // clap's own `help` subcommand; pas has its help built in.
            }
            path.push(word);
            let dotted = path.join(".");
            if sub.is_hide_set() {
                self.note(
                    "",
                    format!("TODO(author): the hidden command `{dotted}` is left out"),
                );
            } else if sub.has_subcommands() {
                for arg in sub
                    .get_arguments()
                    .filter(|a| !a.is_global_set() && !skipped(a))
                {
                    self.note("", format!("TODO(author): `{}` of the group `{dotted}` is not carried to its commands", arg.get_id()));
                }
                self.walk(sub, path, commands);
            } else {
                let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
                let mut command = new_command(&dotted, sentence(&about));
                if about.is_empty() {
                    self.note(
                        &dotted,
                        "TODO(author): describe the command (it has no help text)",
                    );
                }
                self.fill(sub, &mut command);
                commands.push(command);
            }
            path.pop();
        }
    }

    fn fill(&mut self, source: &clap::Command, command: &mut Command) {
        let name = command.name.clone();
        self.note(&name, "TODO(author): `output` (object, list, document, none) and its `outputSchema`; `effect` (read, write, destructive) and `idempotent`; `errors`");
        for arg in source.get_arguments().filter(|a| !a.is_global_set()) {
            if let Some(parameter) = self.parameter(arg, &name) {
                command.parameters.push(parameter);
            }
        }
    }

    fn parameter(&mut self, arg: &Arg, command: &str) -> Option<Parameter> {
        if skipped(arg) {
            return None;
        }
        let id = arg.get_id().as_str();
        let name = kebab(arg.get_long().unwrap_or(id));
        if reserved_flags().contains(&name) {
            self.note(command, format!("TODO(author): `--{name}` is a flag every pas tool has built in; this argument is left out"));
            return None;
        }
        if arg.is_hide_set() {
            self.note(command, format!("TODO(author): `{name}` is hidden in clap; pas lists every parameter (remove it if it is not for callers)"));
        }
        let action = arg.get_action();
        let many = matches!(action, ArgAction::Append)
            || arg.get_num_args().is_some_and(|r| r.max_values() > 1);
        let element = element_type(arg);
        let (kind, ty, items) = if arg.is_positional() {
            if many {
                (ParamKind::Variadic, element, None)
            } else {
                (ParamKind::Positional, element, None)
            }
        } else {
            match action {
                ArgAction::SetTrue | ArgAction::SetFalse => {
                    (ParamKind::Flag, ParamType::Boolean, None)
                }
                ArgAction::Count => (ParamKind::Flag, ParamType::Integer, None),
                _ if many => (
                    ParamKind::Flag,
                    ParamType::Array,
                    (element != ParamType::String).then_some(element),
                ),
                _ => (ParamKind::Flag, element, None),
            }
        };
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_owned())
            .collect();
        let values =
            (!values.is_empty() && element == ParamType::String && ty != ParamType::Boolean)
                .then_some(values);
        let default = match action {
            ArgAction::SetTrue | ArgAction::SetFalse | ArgAction::Count => None,
            _ => default_of(arg, ty, element),
        };
        let description = arg
            .get_help()
            .map(|h| sentence(&h.to_string()))
            .unwrap_or_else(|| {
                self.note(
                    command,
                    format!("TODO(author): describe `{name}` (it has no help text)"),
                );
                format!("The {name} argument.")
            });
        let required = arg.is_required_set() && default.is_none();
        let format = (element == ParamType::String
            && arg.get_value_parser().type_id() == TypeId::of::<PathBuf>())
        .then_some(StringFormat::Path);
        Some(Parameter {
            name,
            kind,
            short: arg
                .get_short()
                .filter(|c| c.is_ascii_alphanumeric() && !matches!(c, 'h' | 'V')),
            ty,
            items,
            values,
            required,
            default,
            env: arg.get_env().map(|e| e.to_string_lossy().into_owned()),
            secret: false,
            description,
            rust_name: None,
            aliases: arg
                .get_visible_aliases()
                .unwrap_or_default()
                .iter()
                .map(|a| kebab(a))
                .collect(),
            deprecated_aliases: Vec::new(),
            minimum: None,
            maximum: None,
            min_length: None,
            max_length: None,
            pattern: None,
            requires: Vec::new(),
            conflicts: Vec::new(),
            format,
            agent_hardening: None,
        })
    }

    fn emit(&self, registry: &Registry) -> String {
        let body = pas_spec::write::to_yaml(registry);
        let mut out = String::from(
            "# A pas spec drafted from a clap command tree by `pas::import::spec_draft`.\n# It passes `pas-gen check` as it is; each TODO(author) is something only you can say.\n",
        );
        for (_, text) in self.comments.iter().filter(|(c, _)| c.is_empty()) {
            out.push_str(&format!("# {text}\n"));
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
                for (_, text) in self.comments.iter().filter(|(c, _)| c == name) {
                    out.push_str(&format!("  # {text}\n"));
                }
            }
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

fn new_command(name: &str, description: String) -> Command {
    let mut command: Command =
        serde_json::from_value(serde_json::json!({ "name": name, "description": description }))
            .expect("a minimal command deserialises");
    command.parameters.clear();
    command
}

/// clap's own `--help` and `--version`, which every pas tool has, and in a tree pas built the
/// runtime's own arguments (ids `pas_*` whose long name drops the prefix: `pas_input_file` is
/// `--input-file`), which it adds again to whatever the draft becomes.
fn skipped(arg: &Arg) -> bool {
    let id = arg.get_id().as_str();
    let runtime = id
        .strip_prefix("pas_")
        .is_some_and(|_| arg.get_long() != Some(id.replace('_', "-").as_str()));
    runtime || matches!(id, "help" | "version")
}

/// Flags the built CLI adds by itself, which no parameter may take.
fn reserved_flags() -> Vec<String> {
    // The draft keeps the `pas` profile, whose flags these are (`--force` and `--dry-run` only
    // join them for destructive and dry-run commands, which the author has yet to mark).
    let mut flags: Vec<String> = pas_spec::surface::of(Profile::Pas)
        .flags
        .iter()
        .map(|f| f.long.to_owned())
        .collect();
    flags.extend(["help", "version", "agent", "format"].map(str::to_owned));
    flags
}

fn element_type(arg: &Arg) -> ParamType {
    let id = arg.get_value_parser().type_id();
    let is = |t: TypeId| id == t;
    if [
        TypeId::of::<i64>(),
        TypeId::of::<i32>(),
        TypeId::of::<i16>(),
        TypeId::of::<i8>(),
        TypeId::of::<u64>(),
        TypeId::of::<u32>(),
        TypeId::of::<u16>(),
        TypeId::of::<u8>(),
        TypeId::of::<usize>(),
        TypeId::of::<isize>(),
    ]
    .into_iter()
    .any(is)
    {
        ParamType::Integer
    } else if is(TypeId::of::<f64>()) || is(TypeId::of::<f32>()) {
        ParamType::Number
    } else if is(TypeId::of::<bool>()) {
        ParamType::Boolean
    } else {
        ParamType::String
    }
}

/// clap's default (text) as a value of the parameter's type.
fn default_of(arg: &Arg, ty: ParamType, element: ParamType) -> Option<Value> {
    let texts: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|d| d.to_string_lossy().into_owned())
        .collect();
    let one = |text: &str| -> Option<Value> {
        match element {
            ParamType::Integer => text.parse::<i64>().ok().map(Value::from),
            ParamType::Number => text
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number),
            ParamType::Boolean => text.parse::<bool>().ok().filter(|b| !b).map(Value::Bool),
            _ => Some(Value::String(text.to_owned())),
        }
    };
    match (ty, texts.as_slice()) {
        (_, []) => None,
        (ParamType::Array, texts) => texts
            .iter()
            .map(|t| one(t))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        (_, [text]) => one(text),
        _ => None,
    }
}

/// `Count the lines` is `Count the lines.`: one line, ending with a full stop.
fn sentence(text: &str) -> String {
    let one = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.is_empty() || one.ends_with(['.', '!', '?']) {
        one
    } else {
        format!("{one}.")
    }
}

fn kebab(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_owned();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        format!("x{out}")
    } else {
        out
    }
}

fn is_semver(text: &str) -> bool {
    let core = text.split(['-', '+']).next().unwrap_or("");
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Parser, Subcommand, ValueEnum};

    /// Keep notes.
    #[derive(Parser)]
    #[command(name = "notes", version = "2.1.0")]
    struct Cli {
        /// Where the notes live.
        #[arg(long, global = true, env = "NOTES_DIR")]
        dir: Option<PathBuf>,
        #[command(subcommand)]
        command: Cmd,
    }

    #[derive(Clone, ValueEnum)]
    enum Sort {
        Name,
        Date,
    }

    #[derive(Subcommand)]
    enum Cmd {
        /// List the notes
        List {
            /// At most this many.
            #[arg(long, short = 'n', default_value_t = 20)]
            limit: u32,
            /// Order of the list.
            #[arg(long, value_enum, default_value = "date")]
            sort: Sort,
            /// Only notes with these tags.
            #[arg(long)]
            tag: Vec<String>,
            /// Show more.
            #[arg(long, short)]
            verbose: bool,
            /// How to print the list (pas has `--format` built in).
            #[arg(long)]
            format: Option<String>,
        },
        /// Work with tags
        Tag {
            #[command(subcommand)]
            command: TagCmd,
        },
    }

    #[derive(Subcommand)]
    enum TagCmd {
        /// Add tags to a note.
        Add {
            /// The note.
            id: String,
            /// The tags.
            #[arg(required = true)]
            tags: Vec<String>,
        },
    }

    #[test]
    fn a_derive_tree_becomes_commands_with_typed_parameters() {
        use clap::CommandFactory;
        let draft = spec_draft(&Cli::command());
        assert!(draft.contains("name: notes\n"), "{draft}");
        assert!(draft.contains("  - name: list\n"), "{draft}");
        assert!(draft.contains("  - name: tag.add\n"), "{draft}");
        assert!(
            draft.contains("type: integer\n        default: 20"),
            "{draft}"
        );
        assert!(
            draft.contains("enum:\n          - name\n          - date\n        default: date"),
            "{draft}"
        );
        assert!(draft.contains("kind: variadic"), "{draft}");
        assert!(draft.contains("env: NOTES_DIR"), "{draft}");
        assert!(draft.contains("type: boolean"), "{draft}");
        assert!(draft.contains("format: path"), "{draft}");
        assert!(
            draft.contains("TODO(author): `--format` is a flag every pas tool has built in"),
            "{draft}"
        );
        assert!(draft.contains("TODO(author): `output`"), "{draft}");
    }
}
