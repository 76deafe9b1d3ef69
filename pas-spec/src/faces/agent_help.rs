//! `--agent --help`: the concise contract of a tool, a group of commands, or one command.
//!
//! Sections follow PAS 4.1: USAGE, COMMON PATTERNS (from the examples), ERROR CODES (0, 1, 2,
//! every registry code, and the signal codes) and ANTI-PATTERNS, plus COMMANDS or PARAMETERS
//! with each parameter's JSON type. Plain text, no ANSI, stable bytes for one registry: columns
//! are padded from the content, nothing depends on the terminal or the environment.

use std::fmt::Write as _;

use super::words::{
    command_switches, effect_line, exit_code_rows, one_line, output_label, output_text,
    param_facts, param_signature, positional_signature, runtime_flag_rows, usage_line,
};
use crate::surface::{self, ErrorChannel};
use crate::{Command, Example, ParamKind, Parameter, Registry, StdinMode};

/// Help for the command or group at `path` (argv words; empty for the whole tool), or `None`
/// when no command lives at or under that path.
pub fn render(registry: &Registry, path: &[String]) -> Option<String> {
    // The level 3 and 4 verbs are commands like any other: they are documented with the rest.
    let commands = registry.all_commands_ref();
    if let Some(command) = commands.iter().find(|c| c.argv_path() == path) {
        return Some(render_command(registry, command));
    }
    let under: Vec<&Command> = commands
        .iter()
        .filter(|c| c.argv_path().starts_with(path))
        .collect();
    if under.is_empty() {
        return None;
    }
    Some(render_group(registry, path, &under))
}

/// Help for the whole tool.
pub fn render_tool(registry: &Registry) -> String {
    render(registry, &[]).unwrap_or_else(|| render_group(registry, &[], &[]))
}

/// Help for one command.
pub fn render_command(registry: &Registry, command: &Command) -> String {
    let mut out = String::new();
    let path = command.argv_path();
    section(&mut out, "USAGE");
    let _ = writeln!(out, "  {}", usage_line(registry, &path, command));
    out.push('\n');
    let _ = writeln!(out, "{}", one_line(&command.description));
    let _ = writeln!(out, "{}", effect_line(registry, command));
    for note in super::words::declared_notes(registry, command) {
        let _ = writeln!(out, "{note}");
    }
    if let Some(deprecated) = &command.deprecated {
        let mut line = String::from("Deprecated");
        if let Some(replacement) = &deprecated.replacement {
            let _ = write!(line, ": use {replacement}");
        }
        if let Some(message) = &deprecated.message {
            let _ = write!(line, " ({})", one_line(message));
        }
        let _ = writeln!(out, "{line}.");
    }
    if let Some(note) = super::words::stability_note(command) {
        let _ = writeln!(out, "{note}");
    }
    if let Some(limit) = &command.rate_limit {
        let _ = writeln!(out, "Rate limit: {limit}.");
    }

    let commands = registry.all_commands_ref();
    let children: Vec<&Command> = commands
        .iter()
        .filter(|c| c.argv_path().len() > path.len() && c.argv_path().starts_with(&path))
        .collect();
    if !children.is_empty() {
        commands_section(&mut out, registry, &children);
    }

    // Global flags are accepted by every command, so each command's contract lists them.
    let params: Vec<&Parameter> = command
        .parameters
        .iter()
        .chain(&registry.global_flags)
        .collect();
    // The runtime's switches on this command (`--dry-run`, `--force`): the binary has them.
    let switches = command_switches(registry, command);
    if !params.is_empty() || !switches.is_empty() {
        out.push('\n');
        section(&mut out, "PARAMETERS");
        let mut rows: Vec<(String, String)> = params
            .iter()
            .map(|p| (param_signature(p), param_facts(p)))
            .collect();
        rows.extend(switches.iter().map(super::words::command_flag_row));
        columns(&mut out, &rows, "");
    }

    out.push('\n');
    section(&mut out, "OUTPUT");
    let _ = writeln!(out, "  {}", output_text(registry, command.output));
    if command.stdin != StdinMode::None {
        out.push('\n');
        section(&mut out, "INPUT");
        let _ = writeln!(out, "  {}", super::words::input_text(registry, command));
    }

    // A one-command tool's command is the tool: its patterns include the tool's own (for
    // word-counter, the three of the PAS appendix), then the command's that are not among them.
    let tool_examples: &[Example] = if path.is_empty() {
        &registry.examples
    } else {
        &[]
    };
    let command_examples = command
        .examples
        .iter()
        .filter(|e| !tool_examples.iter().any(|t| t.command == e.command));
    examples_section(
        &mut out,
        tool_examples
            .iter()
            .chain(command_examples)
            .map(|e| (&e.command, &e.description)),
    );
    let mut own: Vec<&str> = command.errors.iter().map(String::as_str).collect();
    own.extend(super::words::declared_codes_of(registry, command));
    if surface::of(registry.profile).needs_confirm(command) {
        own.push(surface::of(registry.profile).confirm_error_in(registry));
    }
    error_codes_section(&mut out, registry, Some(&own));
    let patterns = command.anti_patterns.iter().chain(&registry.anti_patterns);
    anti_patterns_section(&mut out, registry, patterns);
    // A one-command tool's help is its command's: the built-ins are listed here too, in the
    // form that reaches them (`TOOL --builtin WORD` where the root takes positionals).
    if path.is_empty() {
        builtins_section(&mut out, registry);
    }
    out
}

fn render_group(registry: &Registry, path: &[String], under: &[&Command]) -> String {
    let mut out = String::new();
    section(&mut out, "USAGE");
    let mut words = surface::of(registry.profile).invocation_prefix(registry);
    words.extend(path.iter().cloned());
    let _ = writeln!(out, "  {} <command> [flags] [args]", words.join(" "));
    out.push('\n');
    if path.is_empty() {
        let _ = writeln!(out, "{}", one_line(&registry.summary));
    }
    let _ = writeln!(
        out,
        "Help on one command: {} <command> --help",
        words.join(" ")
    );
    commands_section(&mut out, registry, under);

    if path.is_empty() {
        builtins_section(&mut out, registry);
    }

    if path.is_empty() && !registry.resources.is_empty() {
        out.push('\n');
        resources_section(&mut out, registry);
    }

    if path.is_empty() {
        out.push('\n');
        section(&mut out, "GLOBAL FLAGS");
        // The call flags of failure modes 6, 7, 28 and 29 share one short row (the agent help's
        // token budget); `docs` says each in full.
        let mut rows: Vec<(String, String)> = runtime_flag_rows(registry)
            .into_iter()
            .filter(|(signature, _)| {
                !surface::CALL_FLAGS
                    .iter()
                    .any(|f| f.signature() == *signature)
            })
            .collect();
        rows.push(surface::call_flags_row(registry));
        rows.extend(
            registry
                .global_flags
                .iter()
                .map(|p| (param_signature(p), param_facts(p))),
        );
        columns(&mut out, &rows, "");
    }

    if path.is_empty() && !registry.examples.is_empty() {
        examples_section(
            &mut out,
            registry
                .examples
                .iter()
                .map(|e| (&e.command, &e.description)),
        );
    } else {
        let firsts = under.iter().filter_map(|c| c.examples.first());
        examples_section(&mut out, firsts.map(|e| (&e.command, &e.description)));
    }

    if path.is_empty() {
        error_codes_section(&mut out, registry, None);
        anti_patterns_section(&mut out, registry, registry.anti_patterns.iter());
    } else {
        let mut own: Vec<&str> = under
            .iter()
            .flat_map(|c| c.errors.iter().map(String::as_str))
            .collect();
        if under
            .iter()
            .any(|c| surface::of(registry.profile).needs_confirm(c))
        {
            own.push(surface::of(registry.profile).confirm_error_in(registry));
        }
        error_codes_section(&mut out, registry, Some(&own));
        let patterns = under
            .iter()
            .flat_map(|c| &c.anti_patterns)
            .chain(&registry.anti_patterns);
        anti_patterns_section(&mut out, registry, patterns);
    }
    out
}

/// The paths of a level 3/4 tool, each with the verbs it offers and what lives there.
fn resources_section(out: &mut String, registry: &Registry) {
    section(out, "RESOURCES (paths for the verbs; `/` is the root)");
    let rows: Vec<(String, String)> = registry
        .resources
        .iter()
        .map(|resource| {
            let verbs: Vec<&str> = resource.verbs.iter().map(|v| v.as_str()).collect();
            let mut right = verbs.join(", ");
            if let Some(description) = &resource.description {
                right.push_str(": ");
                right.push_str(&one_line(description));
            }
            (resource.path.clone(), right)
        })
        .collect();
    columns(out, &rows, "");
}

fn section(out: &mut String, title: &str) {
    let _ = writeln!(out, "{title}:");
}

/// Rows as two columns: the left padded to the widest, `sep` before the right column.
fn columns(out: &mut String, rows: &[(String, String)], sep: &str) {
    let width = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    for (left, right) in rows {
        if right.is_empty() {
            let _ = writeln!(out, "  {left}");
        } else {
            let pad = width.saturating_sub(left.chars().count());
            let _ = writeln!(out, "  {left}{}  {sep}{right}", " ".repeat(pad));
        }
    }
}

/// The words the runtime answers itself (`tools`, `docs`, ...): the profile's, minus any a
/// command of the tool takes and any it is built without, each written as it is called
/// (`surface::builtin_call`). They work with or without the machine switch, after global flags.
fn builtins_section(out: &mut String, registry: &Registry) {
    let surface = surface::of(registry.profile);
    let rows: Vec<(String, String)> = surface
        .listed_words(registry)
        .map(|b| {
            let mut left = surface::builtin_call(registry, b.word);
            if !b.args.is_empty() {
                left.push(' ');
                left.push_str(b.args);
            }
            (left, b.meaning.to_owned())
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    out.push('\n');
    section(out, "BUILT-IN COMMANDS");
    columns(out, &rows, "");
}

fn commands_section(out: &mut String, registry: &Registry, commands: &[&Command]) {
    out.push('\n');
    section(out, "COMMANDS");
    let rows: Vec<(String, String)> = commands
        .iter()
        .map(|c| {
            let mut left = c.argv_path().join(" ");
            for param in c.parameters.iter().filter(|p| p.kind != ParamKind::Flag) {
                left.push(' ');
                left.push_str(&positional_signature(param));
            }
            let mut right = format!(
                "{} -> {}",
                one_line(&c.description),
                output_label(registry, c.output)
            );
            // Every parameter with its type, so one read of the tool's help is the whole
            // signature; the command's own help adds defaults, constraints and meanings.
            let types: Vec<String> = c.parameters.iter().map(param_type_brief).collect();
            if !types.is_empty() {
                right.push_str(" | ");
                right.push_str(&types.join(", "));
            }
            (left.trim_start().to_owned(), right)
        })
        .collect();
    columns(out, &rows, "");
}

/// `--name type`, `<name> type`: `a|b` for an enum, `type[]` for many values.
fn param_type_brief(param: &Parameter) -> String {
    let name = match param.kind {
        ParamKind::Flag => format!("--{}", param.name),
        ParamKind::Positional | ParamKind::Variadic => format!("<{}>", param.name),
    };
    let mut ty = match &param.values {
        Some(values) => values.join("|"),
        None => param.element_type().as_str().to_owned(),
    };
    if param.is_many() {
        ty.push_str("[]");
    }
    format!("{name} {ty}")
}

fn examples_section<'a>(
    out: &mut String,
    examples: impl Iterator<Item = (&'a String, &'a Option<String>)>,
) {
    let rows: Vec<(String, String)> = examples
        .map(|(command, description)| {
            (
                one_line(command),
                description.as_deref().map(one_line).unwrap_or_default(),
            )
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    out.push('\n');
    section(out, "COMMON PATTERNS");
    columns(out, &rows, "# ");
}

/// 0, the built-in groups (1, 2, 130, 143), and the registry's codes: all of them (`only` is
/// `None`) or those a command names.
fn error_codes_section(out: &mut String, registry: &Registry, only: Option<&[&str]>) {
    out.push('\n');
    section(out, "ERROR CODES");
    match surface::of(registry.profile).errors {
        ErrorChannel::Envelope => {
            let _ = writeln!(
                out,
                "  A failure is one envelope, ok:false, whose error.code is the constant in \
                 parentheses; the exit code is 1, or 2 when a prerequisite blocks the call."
            );
        }
        ErrorChannel::RobotEnvelope => {
            let _ = writeln!(
                out,
                "  Every call, success or failure, prints one envelope; a failure has \
                 status:error and error.code is the constant in parentheses. A success may \
                 exit non-zero: the code says which success."
            );
        }
        ErrorChannel::StderrTable => {}
    }
    let rows = exit_code_rows(registry, only);
    for (code, text) in rows {
        let _ = writeln!(out, "  {:<4}{text}", code);
    }
}

fn anti_patterns_section<'a>(
    out: &mut String,
    registry: &Registry,
    patterns: impl Iterator<Item = &'a crate::AntiPattern>,
) {
    let mut rows: Vec<(String, String)> = patterns
        .map(|p| (one_line(&p.pattern), one_line(&p.instead)))
        .collect();
    if let Some((pattern, instead)) = surface::of(registry.profile).anti_pattern {
        rows.push((format!("{} {pattern}", registry.name), instead.to_owned()));
    }
    if rows.is_empty() {
        return;
    }
    out.push('\n');
    section(out, "ANTI-PATTERNS");
    columns(out, &rows, "# ");
}
