//! The registry of a derive-built tool: clap's `Command` for names, argv words, descriptions and
//! parameters; the derive's metadata for everything clap has no notion of.

use std::sync::OnceLock;

use clap::CommandFactory;
use pas_spec::derive_declared::{CommandDeclared, ToolDeclared};
use pas_spec::{Command, Effect, Parameter, Profile, Registry, SPEC_VERSION};

use super::AgentTool;
use super::meta::{CommandMeta, FieldSchema, LazySchema, ToolMeta};
use super::params;
use super::walk::{self, Found};

/// The registry of the tool `T` (a type deriving clap's `Parser` and `AgentTool`).
///
/// Panics when clap's command tree and the derive disagree, which only a misuse of the derive
/// causes (see the crate docs); a test calling this once catches it.
pub fn registry_of<T: AgentTool + CommandFactory>() -> Registry {
    let (mut registry, schemas, _) = registry(
        &T::command(),
        T::agent_tool(),
        T::agent_node(),
        std::any::type_name::<T>(),
        const { declarations(T::DECLARES_CHECKS) },
    );
    schemas.apply(&mut registry);
    registry
}

/// How a registry takes the derive's `declared` keys (a tool's and each command's): through
/// these two functions, which a tool the derive knows declares nothing
/// (`AgentTool::DECLARES_CHECKS` is `Some(false)`) does not link (issue 15).
#[derive(Clone, Copy)]
pub(crate) struct Declarations {
    tool: fn(ToolDeclared, &mut Registry) -> Result<(), String>,
    command: fn(CommandDeclared, &mut Command) -> Result<(), String>,
}

/// The declarations a tool takes: none when it is known to declare none. Meant to be evaluated
/// at compile time (`const { declarations(T::DECLARES_CHECKS) }`), so that the functions are
/// named only where they may run.
pub(crate) const fn declarations(declares_checks: Option<bool>) -> Option<Declarations> {
    match declares_checks {
        Some(false) => None,
        _ => Some(Declarations {
            tool: ToolDeclared::apply,
            command: CommandDeclared::apply,
        }),
    }
}

/// The output and input schemas a registry was built without (the derive's `output = Type`,
/// `input = Type`): schemars runs only when [`SchemaFill::apply`] fills them in, which a call
/// does only when it may show them ([`call_may_show_schemas`]).
#[derive(Clone, Default)]
pub(crate) struct SchemaFill {
    /// By command index: the output's schema, the input's.
    commands: Vec<(usize, Option<LazySchema>, Option<LazySchema>)>,
}

impl SchemaFill {
    pub(crate) fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// Makes the schemas and puts each where the registry has none.
    pub(crate) fn apply(&self, registry: &mut Registry) {
        for (index, output, input) in &self.commands {
            let Some(command) = registry.commands.get_mut(*index) else {
                continue;
            };
            if command.output_schema.is_none() {
                command.output_schema = output.map(|schema| schema.schema());
            }
            if command.input_schema.is_none() {
                command.input_schema = input.map(|schema| schema.schema());
            }
        }
    }
}

/// A registry's schemas still to make, and the registry with them once someone asked for it
/// (a handler reading `Context::registry`, a test reading `App::registry`).
#[derive(Default)]
pub(crate) struct PendingSchemas {
    fill: Option<SchemaFill>,
    full: OnceLock<Registry>,
}

impl PendingSchemas {
    pub(crate) fn new(fill: Option<SchemaFill>) -> Self {
        PendingSchemas {
            fill: fill.filter(|fill| !fill.is_empty()),
            full: OnceLock::new(),
        }
    }

    /// `registry` (which lacks the pending schemas) with them.
    pub(crate) fn complete<'a>(&'a self, registry: &'a Registry) -> &'a Registry {
        match &self.fill {
            None => registry,
            Some(fill) => self.full.get_or_init(|| {
                let mut full = registry.clone();
                fill.apply(&mut full);
                full
            }),
        }
    }

    /// The schemas still to make, no longer pending here.
    pub(crate) fn take(&mut self) -> Option<SchemaFill> {
        self.full = OnceLock::new();
        self.fill.take()
    }
}

/// The registry from a clap command and derive metadata.
///
/// The command is read as the derive built it, unbuilt: `clap::Command::build` would add clap's
/// `help` subcommand and its `--help`/`--version` flags and copy global flags into every
/// subcommand, none of which the registry lists (they are built-ins of every tool).
pub(crate) fn registry(
    root: &clap::Command,
    mut tool: ToolMeta,
    node: super::Node,
    type_name: &str,
    declarations: Option<Declarations>,
) -> (Registry, SchemaFill, Vec<String>) {
    let walked = walk::walk(root, node, type_name);
    let summary = match root.get_about() {
        Some(about) => params::plain_text(about),
        None => tool.package.description.to_owned(),
    };
    let description = long_description(root, &summary);
    let global_flags = match &walked.globals {
        Some(fields) => parameters(root, fields, &CommandMeta::default()),
        None => Vec::new(),
    };
    let name = root.get_name().to_owned();
    let mut schemas = SchemaFill::default();
    let mut misdeclared = Vec::new();
    let commands = walked
        .commands
        .into_iter()
        .enumerate()
        .map(|(index, mut found)| {
            let lazy = (found.meta.output_schema_lazy, found.meta.input_schema_lazy);
            if lazy.0.is_some() || lazy.1.is_some() {
                schemas.commands.push((index, lazy.0, lazy.1));
            }
            let declared = found.meta.declared.take();
            let mut command = command(found, &name);
            if let (Some(declarations), Some(declared)) = (declarations, declared)
                && let Err(problem) = (declarations.command)(declared, &mut command)
            {
                misdeclared.push(problem);
            }
            command
        })
        .collect();
    let mut registry = Registry {
        spec_version: SPEC_VERSION,
        name,
        version: root
            .get_version()
            .unwrap_or(tool.package.version)
            .to_owned(),
        summary,
        description,
        level: tool.level.unwrap_or(1),
        profile: tool.profile.unwrap_or(Profile::Pas),
        schema_version: tool.schema_version,
        global_flags,
        exit_codes: tool.exit_codes,
        anti_patterns: tool.anti_patterns,
        examples: tool.examples,
        resources: tool.resources,
        commands,
        robot: tool.robot,
        auth: None,
        requirements: Vec::new(),
        changelog: tool.changelog,
        mask_high_entropy: tool.mask_high_entropy,
        // What this binary is built with: the faces list only those built-ins.
        built: crate::built::BUILT,
    };
    if let (Some(declarations), Some(declared)) = (declarations, tool.declared.take())
        && let Err(problem) = (declarations.tool)(declared, &mut registry)
    {
        misdeclared.push(problem);
    }
    (registry, schemas, misdeclared)
}

/// clap's long about without its first paragraph, which is the summary: clap's derive makes the
/// long about the whole doc comment.
fn long_description(root: &clap::Command, summary: &str) -> Option<String> {
    let long = params::plain_text(root.get_long_about()?);
    let rest = match long.split_once("\n\n") {
        Some((first, rest)) if first.trim_end_matches('.') == summary.trim_end_matches('.') => rest,
        _ => &long,
    };
    let rest = rest.trim();
    (!rest.is_empty()).then(|| rest.to_owned())
}

fn command(found: Found, tool_name: &str) -> Command {
    let Found {
        path,
        cmd,
        meta,
        fields,
    } = found;
    let parameters = parameters(cmd, &fields, &meta);
    // A single-command tool is the root itself, whose aliases are not argv words.
    let aliases = if path.is_empty() {
        Vec::new()
    } else {
        cmd.get_all_aliases().map(str::to_owned).collect()
    };
    let name = match (&meta.name, path.is_empty()) {
        (Some(name), _) => name.clone(),
        (None, false) => path.join("."),
        (None, true) => tool_name.to_owned(),
    };
    // `path` is written only when the dotted name does not already say it.
    let implied: Vec<&str> = name.split('.').collect();
    let path = (implied != path).then_some(path);
    let description = match meta.description {
        Some(description) => description,
        None => cmd.get_about().map(params::plain_text).unwrap_or_default(),
    };
    Command {
        name,
        path,
        category: meta.category,
        description,
        effect: meta.effect,
        idempotent: meta.idempotent,
        rate_limit: meta.rate_limit,
        parameters,
        stdin: meta.stdin,
        output: meta.output,
        output_schema: meta.output_schema,
        input_schema: meta.input_schema,
        errors: meta.errors,
        examples: meta.examples,
        anti_patterns: meta.anti_patterns,
        aliases,
        deprecated: meta.deprecated,
        stability: meta.stability,
        dry_run: meta.dry_run,
        paging: meta.paging,
        session: meta.session,
        confirm: meta.confirm,
        list_field: meta.list_field,
        compact_omit: meta.compact_omit,
        side_effects: Vec::new(),
        needs: Vec::new(),
        auth: false,
        scopes: Vec::new(),
        untrusted: Vec::new(),
        timeout: meta.timeout,
        max_output_bytes: meta.max_output_bytes,
        max_input_bytes: meta.max_input_bytes,
        lock: meta.lock,
        job: meta.job,
    }
}

/// The listed args of `cmd`, in clap's order (positionals keep their relative order, which is
/// their position). `--dry-run` of a `dry_run` command and `--force` of a destructive one are
/// the registry's built-ins, so the author's own field for them is not listed again.
fn parameters(cmd: &clap::Command, fields: &[FieldSchema], meta: &CommandMeta) -> Vec<Parameter> {
    cmd.get_arguments()
        .filter(|arg| params::is_listed(arg))
        .filter(|arg| !is_builtin(arg.get_long(), meta))
        .map(|arg| {
            let field = fields.iter().find(|f| f.id == arg.get_id().as_str());
            let mut parameter = params::parameter(arg, field.and_then(|f| f.schema));
            parameter.secret |= field.is_some_and(|f| f.secret);
            parameter.agent_hardening = field.and_then(|f| f.hardening);
            parameter.format = field.and_then(|f| f.format);
            // clap's `conflicts_with` is the spec's `conflicts` (clap enforces it as well).
            parameter.conflicts = cmd
                .get_arg_conflicts_with(arg)
                .into_iter()
                .filter(|other| params::is_listed(other))
                .map(|other| params::parameter(other, None).name)
                .collect();
            parameter
        })
        .collect()
}

/// The registry's own flag of a `dry_run` or destructive command.
fn is_builtin(long: Option<&str>, meta: &CommandMeta) -> bool {
    match long {
        Some("dry-run") => meta.dry_run,
        Some("force") => meta.effect == Effect::Destructive,
        _ => false,
    }
}
