//! `--agent --help`: the concise contract of a tool, a group of commands, or one command.
//!
//! Sections follow PAS 4.1: USAGE, COMMON PATTERNS (from the examples), ERROR CODES (0, 1, 2,
//! every registry code, and the signal codes) and ANTI-PATTERNS, plus COMMANDS or PARAMETERS
//! with each parameter's JSON type. Plain text, no ANSI, stable bytes for one registry: columns
//! are padded from the content, nothing depends on the terminal or the environment.

use std::fmt::Write as _;

use pas_spec::{Command, Effect, OutputKind, ParamKind, ParamType, Parameter, Registry, StdinMode};

use crate::codes;

/// Help for the command or group at `path` (argv words; empty for the whole tool), or `None`
/// when no command lives at or under that path.
pub fn render(registry: &Registry, path: &[String]) -> Option<String> {
    if let Some(command) = registry.commands.iter().find(|c| c.argv_path() == path) {
        return Some(render_command(registry, command));
    }
    let under: Vec<&Command> = registry
        .commands
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
    let _ = writeln!(out, "{}", effect_line(command));
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
    if let Some(limit) = &command.rate_limit {
        let _ = writeln!(out, "Rate limit: {limit}.");
    }

    let children: Vec<&Command> = registry
        .commands
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
    if !params.is_empty() {
        out.push('\n');
        section(&mut out, "PARAMETERS");
        let rows: Vec<(String, String)> = params
            .iter()
            .map(|p| (param_signature(p), param_facts(p)))
            .collect();
        columns(&mut out, &rows, "");
    }

    out.push('\n');
    section(&mut out, "OUTPUT");
    let _ = writeln!(out, "  {}", output_text(command.output));
    if command.stdin != StdinMode::None {
        out.push('\n');
        section(&mut out, "INPUT");
        let _ = writeln!(out, "  {}", stdin_text(command.stdin));
    }

    examples_section(
        &mut out,
        command
            .examples
            .iter()
            .map(|e| (&e.command, &e.description)),
    );
    let own: Vec<&str> = command.errors.iter().map(String::as_str).collect();
    error_codes_section(&mut out, registry, Some(&own));
    let patterns = command.anti_patterns.iter().chain(&registry.anti_patterns);
    anti_patterns_section(&mut out, registry, patterns);
    out
}

fn render_group(registry: &Registry, path: &[String], under: &[&Command]) -> String {
    let mut out = String::new();
    section(&mut out, "USAGE");
    let mut words = vec![registry.name.clone(), "--agent".to_owned()];
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
        out.push('\n');
        section(&mut out, "GLOBAL FLAGS");
        let mut rows = vec![
            (
                "--agent".to_owned(),
                "Machine mode: JSON on stdout, JSON errors on stderr, no colour, no prompt. \
                 Same as PAS_AGENT=1."
                    .to_owned(),
            ),
            (
                "--audit-log <path>".to_owned(),
                "Append one JSON line per call (time, command, redacted arguments, result)."
                    .to_owned(),
            ),
            (
                "--version".to_owned(),
                "Print the name, version and PAS level.".to_owned(),
            ),
        ];
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
        let own: Vec<&str> = under
            .iter()
            .flat_map(|c| c.errors.iter().map(String::as_str))
            .collect();
        error_codes_section(&mut out, registry, Some(&own));
        let patterns = under
            .iter()
            .flat_map(|c| &c.anti_patterns)
            .chain(&registry.anti_patterns);
        anti_patterns_section(&mut out, registry, patterns);
    }
    out
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

fn commands_section(out: &mut String, registry: &Registry, commands: &[&Command]) {
    out.push('\n');
    section(out, "COMMANDS");
    let _ = registry;
    let rows: Vec<(String, String)> = commands
        .iter()
        .map(|c| {
            let mut left = c.argv_path().join(" ");
            for param in c.parameters.iter().filter(|p| p.kind != ParamKind::Flag) {
                left.push(' ');
                left.push_str(&positional_signature(param));
            }
            let right = format!("{} -> {}", one_line(&c.description), output_label(c.output));
            (left.trim_start().to_owned(), right)
        })
        .collect();
    columns(out, &rows, "");
}

fn usage_line(registry: &Registry, path: &[String], command: &Command) -> String {
    let mut words = vec![registry.name.clone(), "--agent".to_owned()];
    words.extend(path.iter().cloned());
    let mut optional_flags = false;
    for param in &command.parameters {
        match param.kind {
            ParamKind::Flag if param.required => {
                words.push(format!("{} <{}>", flag_name(param), type_word(param)));
            }
            ParamKind::Flag => optional_flags = true,
            _ => words.push(positional_signature(param)),
        }
    }
    if optional_flags || !registry.global_flags.is_empty() {
        words.push("[flags]".to_owned());
    }
    words.join(" ")
}

fn flag_name(param: &Parameter) -> String {
    format!("--{}", param.name)
}

fn positional_signature(param: &Parameter) -> String {
    let dots = if param.kind == ParamKind::Variadic {
        "..."
    } else {
        ""
    };
    if param.required {
        format!("<{}>{dots}", param.name)
    } else {
        format!("[<{}>{dots}]", param.name)
    }
}

fn param_signature(param: &Parameter) -> String {
    match param.kind {
        ParamKind::Flag => {
            let mut text = match param.short {
                Some(short) => format!("-{short}, {}", flag_name(param)),
                None => flag_name(param),
            };
            if param.ty != ParamType::Boolean {
                let _ = write!(text, " <{}>", type_word(param));
            }
            text
        }
        ParamKind::Positional | ParamKind::Variadic => {
            let dots = if param.kind == ParamKind::Variadic {
                "..."
            } else {
                ""
            };
            format!("<{}>{dots}", param.name)
        }
    }
}

/// The JSON type of one value as given on the command line.
fn type_word(param: &Parameter) -> &'static str {
    param.element_type().as_str()
}

/// Type, constraints and meaning of a parameter, in one line.
fn param_facts(param: &Parameter) -> String {
    let mut facts: Vec<String> = Vec::new();
    facts.push(
        if param.kind == ParamKind::Flag && param.ty == ParamType::Boolean {
            "boolean switch".to_owned()
        } else if param.is_many() {
            let how = if param.kind == ParamKind::Variadic {
                ""
            } else {
                ", repeat the flag"
            };
            format!("array of {}{how}", type_word(param))
        } else {
            type_word(param).to_owned()
        },
    );
    if param.required {
        facts.push("required".to_owned());
    }
    if let Some(values) = &param.values {
        facts.push(format!("one of: {}", values.join(", ")));
    }
    if let Some(default) = &param.default
        && !param.secret
    {
        facts.push(format!("default {default}"));
    }
    if let Some(env) = &param.env {
        facts.push(format!("env {env}"));
    }
    if param.secret {
        facts.push("secret (redacted in errors and logs)".to_owned());
    }
    let mut text = facts.join(", ");
    text.push('.');
    if !param.description.is_empty() {
        text.push(' ');
        text.push_str(&one_line(&param.description));
    }
    text
}

fn effect_line(command: &Command) -> String {
    let idempotent = if command.is_idempotent() {
        "idempotent"
    } else {
        "not idempotent"
    };
    let extra = match command.effect {
        Effect::Destructive => "; needs --force",
        _ => "",
    };
    let dry_run = if command.dry_run {
        "; --dry-run changes nothing"
    } else {
        ""
    };
    format!(
        "Effect: {}, {idempotent}{extra}{dry_run}.",
        command.effect.as_str()
    )
}

fn output_label(kind: OutputKind) -> &'static str {
    match kind {
        OutputKind::Object => "object",
        OutputKind::List => "NDJSON",
        OutputKind::Document => "Markdown",
        OutputKind::Events => "NDJSON events",
        OutputKind::None => "nothing",
    }
}

fn output_text(kind: OutputKind) -> &'static str {
    match kind {
        OutputKind::Object => "One JSON object on stdout.",
        OutputKind::List => {
            "NDJSON on stdout: one JSON value per line, streamed as produced. --format=array \
             prints one JSON array instead. On failure the lines already written stay (whole \
             lines only), then the error goes to stderr."
        }
        OutputKind::Document => "A Markdown document on stdout.",
        OutputKind::Events => "NDJSON events on stdout, one per line, as they happen.",
        OutputKind::None => "Nothing on stdout; the exit code is the result.",
    }
}

fn stdin_text(mode: StdinMode) -> &'static str {
    match mode {
        StdinMode::None => "Does not read stdin.",
        StdinMode::Optional => "Reads stdin when data is piped in; ignores a terminal.",
        StdinMode::Required => {
            "Reads stdin: pipe the data in. A terminal on stdin fails at once with MISSING_INPUT."
        }
    }
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
    let mut rows: Vec<(u16, u8, String)> = vec![(0, 0, "Success".to_owned())];
    let mut exits: Vec<u8> = codes::BUILTINS.iter().map(|b| b.exit).collect();
    exits.dedup();
    for exit in exits {
        let group: Vec<&codes::Builtin> =
            codes::BUILTINS.iter().filter(|b| b.exit == exit).collect();
        let names: Vec<&str> = group.iter().map(|b| b.name).collect();
        rows.push((
            u16::from(exit),
            0,
            format!("{} ({})", group[0].meaning, names.join(", ")),
        ));
    }
    for code in &registry.exit_codes {
        if codes::builtin(&code.name).is_some() {
            continue;
        }
        if only.is_some_and(|names| !names.contains(&code.name.as_str())) {
            continue;
        }
        rows.push((
            code.code,
            1,
            format!("{} ({})", one_line(&code.meaning), code.name),
        ));
    }
    // Stable: by exit code, built-ins first, then declaration order.
    rows.sort_by_key(|(code, origin, _)| (*code, *origin));
    for (code, _, text) in rows {
        let _ = writeln!(out, "  {:<4}{text}", code);
    }
}

fn anti_patterns_section<'a>(
    out: &mut String,
    registry: &Registry,
    patterns: impl Iterator<Item = &'a pas_spec::AntiPattern>,
) {
    out.push('\n');
    section(out, "ANTI-PATTERNS");
    let mut rows: Vec<(String, String)> = patterns
        .map(|p| (one_line(&p.pattern), one_line(&p.instead)))
        .collect();
    rows.push((
        format!("{} ... without --agent", registry.name),
        "Text for people, not a contract; add --agent for JSON.".to_owned(),
    ));
    columns(out, &rows, "# ");
}

/// Registry texts may hold newlines; help lines must not.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
