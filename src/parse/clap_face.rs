//! The clap parser of a spec-driven tool, built from the registry with clap's builder.
//!
//! A derive-built tool brings its own `clap::Command`; this face makes the same kind of command
//! from a registry alone, so a spec-driven app works without Rust types. Arg ids follow clap
//! derive's convention (the Rust field name: `dry-run` becomes `dry_run`, or `rustName`), so a
//! handler reads the same id whichever way the tool was built.

use clap::builder::{PossibleValuesParser, ValueParser};
use clap::{Arg, ArgAction};
use pas_spec::argv_tree::ArgvTree;
use pas_spec::{Command, ParamKind, ParamType, Parameter, Registry};
use serde_json::Value;

/// The clap id of a parameter: its `rustName`, else its kebab-case name in snake_case.
pub fn arg_id(param: &Parameter) -> String {
    match &param.rust_name {
        Some(name) => name.clone(),
        None => param.name.replace('-', "_"),
    }
}

/// A clap command for the whole tool: one subcommand per argv word, one arg per parameter.
/// The runtime adds its own flags (`--agent`, `--audit-log`, `--format`) and version text when
/// the app is built; this face adds only what the registry says.
pub fn command_from_registry(registry: &Registry) -> clap::Command {
    let mut tree = ArgvTree::default();
    // The level 3 and 4 verbs (`ls`, `cat`, ...) are commands too, so help and docs agree.
    let commands = registry.all_commands_ref();
    for command in commands.iter() {
        tree.insert(&command.argv_path(), command);
    }
    let mut root = clap::Command::new(registry.name.clone()).about(registry.summary.clone());
    if let Some(description) = &registry.description {
        root = root.long_about(description.clone());
    }
    for param in &registry.global_flags {
        root = root.arg(arg(param).global(true));
    }
    let single = tree.item().is_some();
    let root = apply(tree, root);
    // A group's generated about ("Commands: ...") is for nested groups; the tool has a summary.
    if single {
        root
    } else {
        root.about(registry.summary.clone())
    }
}

/// A derive-built tool's clap command with a subcommand for each level 3/4 verb it lacks: the
/// verbs come from the registry's resources, not from the tool's Rust types.
pub(crate) fn with_verbs(
    mut root: clap::Command,
    verbs: &[std::sync::Arc<Command>],
) -> clap::Command {
    for verb in verbs {
        if root.find_subcommand(&verb.name).is_none() {
            let leaf = ArgvTree::leaf(&**verb);
            root = root.subcommand(apply(leaf, clap::Command::new(verb.name.clone())));
        }
    }
    root
}

/// The clap command of one node of the argv tree (a command, a group, or both), with its
/// subcommands.
fn apply(node: ArgvTree<&Command>, mut cmd: clap::Command) -> clap::Command {
    if let Some(&command) = node.item() {
        cmd = cmd.about(about(command));
        for alias in &command.aliases {
            cmd = cmd.visible_alias(alias.clone());
        }
        for param in &command.parameters {
            cmd = cmd.arg(arg(param));
        }
    }
    if !node.children.is_empty() && node.here.is_empty() {
        // A group does nothing by itself: people get its help, agents a MISSING_COMMAND.
        let words: Vec<&str> = node.children.iter().map(|(w, _)| w.as_str()).collect();
        cmd = cmd
            .about(format!("Commands: {}", words.join(", ")))
            .subcommand_required(true)
            .arg_required_else_help(true);
    }
    for (word, child) in node.children {
        cmd = cmd.subcommand(apply(child, clap::Command::new(word)));
    }
    cmd
}

fn about(command: &Command) -> String {
    match &command.deprecated {
        None => command.description.clone(),
        Some(deprecation) => match &deprecation.replacement {
            Some(replacement) => format!("{} (deprecated: use {replacement})", command.description),
            None => format!("{} (deprecated)", command.description),
        },
    }
}

/// One clap arg for one parameter.
pub(crate) fn arg(param: &Parameter) -> Arg {
    let mut arg = Arg::new(arg_id(param)).value_name(param.name.to_uppercase().replace('-', "_"));
    if !param.description.is_empty() {
        arg = arg.help(param.description.clone());
    }
    let switch = param.kind == ParamKind::Flag && param.ty == ParamType::Boolean;
    arg = match param.kind {
        ParamKind::Flag => {
            let mut flag = arg.long(param.name.clone());
            if let Some(short) = param.short {
                flag = flag.short(short);
            }
            flag
        }
        ParamKind::Positional => arg,
        ParamKind::Variadic => arg.num_args(if param.required { 1.. } else { 0.. }),
    };
    arg = if switch {
        arg.action(ArgAction::SetTrue)
    } else {
        let action = if param.is_many() {
            ArgAction::Append
        } else {
            ArgAction::Set
        };
        arg.action(action).value_parser(value_parser(param))
    };
    if param.required {
        arg = arg.required(true);
    }
    if let Some(default) = &param.default
        && !switch
    {
        match default {
            Value::Array(items) => arg = arg.default_values(items.iter().map(scalar_text)),
            other => arg = arg.default_value(scalar_text(other)),
        }
    }
    if let Some(env) = &param.env {
        arg = arg.env(env.clone());
    }
    if param.secret {
        // clap would print an environment value and a default in `--help`: a secret shows neither.
        arg = arg.hide_env_values(true).hide_default_value(true);
    }
    arg
}

fn value_parser(param: &Parameter) -> ValueParser {
    match param.element_type() {
        ParamType::Integer => clap::value_parser!(i64).into(),
        ParamType::Number => clap::value_parser!(f64).into(),
        ParamType::Boolean => clap::value_parser!(bool),
        ParamType::String | ParamType::Array => match &param.values {
            Some(values) => PossibleValuesParser::new(values.iter().cloned()).into(),
            None => ValueParser::string(),
        },
    }
}

/// A JSON default as clap's text (strings unquoted).
fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// Applies `f` to the subcommand at `path`, keeping the subcommands' order (clap's
/// `mut_subcommand` moves the changed one last). A path clap does not have is left alone.
/// Here, below every file that adds the runtime's flags at a command's path.
pub(crate) fn at_path(
    mut cmd: clap::Command,
    path: &[String],
    f: &mut dyn FnMut(clap::Command) -> clap::Command,
) -> clap::Command {
    let Some((word, rest)) = path.split_first() else {
        return f(cmd);
    };
    if let Some(sub) = cmd.get_subcommands_mut().find(|s| s.get_name() == word) {
        let taken = std::mem::take(sub);
        *sub = at_path(taken, rest, f);
    }
    cmd
}
