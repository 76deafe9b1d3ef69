//! Words and lines several faces share (agent help, `.llm`): signatures, parameter facts, effect
//! and output texts. One spelling for each fact, so the faces cannot describe a command two ways.

use std::fmt::Write as _;

use crate::builtin_codes as codes;
use crate::{Command, Effect, OutputKind, ParamKind, ParamType, Parameter, Registry, StdinMode};

pub(crate) fn usage_line(registry: &Registry, path: &[String], command: &Command) -> String {
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

pub(crate) fn flag_name(param: &Parameter) -> String {
    format!("--{}", param.name)
}

pub(crate) fn positional_signature(param: &Parameter) -> String {
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

pub(crate) fn param_signature(param: &Parameter) -> String {
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
pub(crate) fn type_word(param: &Parameter) -> &'static str {
    param.element_type().as_str()
}

/// Type, constraints and meaning of a parameter, in one line.
pub(crate) fn param_facts(param: &Parameter) -> String {
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

/// The effect sentence. What `--force` guards depends on the profile: compose confirms every
/// destructive command with it; the `pas` profile guards only the wildcard of the synthesised
/// `rm` (PAS 6.1) and leaves a tool's own destructive commands their own flags.
pub(crate) fn effect_line(registry: &Registry, command: &Command) -> String {
    let idempotent = if command.is_idempotent() {
        "idempotent"
    } else {
        "not idempotent"
    };
    let verb_rm = command.name == crate::Verb::Rm.as_str()
        && !registry.commands.iter().any(|c| c.name == command.name);
    let extra = match command.effect {
        Effect::Destructive if registry.profile == crate::Profile::Compose => "; needs --force",
        Effect::Destructive if verb_rm => "; a wildcard path needs --force",
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

pub(crate) fn output_label(kind: OutputKind) -> &'static str {
    match kind {
        OutputKind::Object => "object",
        OutputKind::List => "NDJSON",
        OutputKind::Document => "Markdown",
        OutputKind::Events => "NDJSON events",
        OutputKind::None => "nothing",
    }
}

pub(crate) fn output_text(kind: OutputKind) -> &'static str {
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

pub(crate) fn stdin_text(mode: StdinMode) -> &'static str {
    match mode {
        StdinMode::None => "Does not read stdin.",
        StdinMode::Optional => "Reads stdin when data is piped in; ignores a terminal.",
        StdinMode::Required => {
            "Reads stdin: pipe the data in. A terminal on stdin fails at once with MISSING_INPUT."
        }
    }
}

/// The ERROR CODES rows: 0, the built-in groups (1, 2, 130, 143), and the registry's codes: all of
/// them (`only` is `None`) or those a command names. Sorted by exit code, built-ins first, then
/// declaration order, so the order is stable.
pub(crate) fn exit_code_rows(registry: &Registry, only: Option<&[&str]>) -> Vec<(u16, String)> {
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
    rows.sort_by_key(|(code, origin, _)| (*code, *origin));
    rows.into_iter()
        .map(|(code, _, text)| (code, text))
        .collect()
}

/// The variable that names a tool's configuration file: the name in upper snake case and
/// `_CONFIG` (`todo` reads `TODO_CONFIG`, `my-tool` reads `MY_TOOL_CONFIG`).
pub fn config_env_var(tool: &str) -> String {
    let mut name: String = tool
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    name.push_str("_CONFIG");
    name
}

/// The flags the runtime gives every tool, as (signature, meaning) rows.
pub(crate) fn runtime_flag_rows(registry: &Registry) -> Vec<(String, String)> {
    vec![
        (
            "--agent".to_owned(),
            "Machine mode: JSON on stdout, JSON errors on stderr, no colour, no prompt. \
             Same as PAS_AGENT=1."
                .to_owned(),
        ),
        (
            "--audit-log <path>".to_owned(),
            "Append one JSON line per call (time, command, redacted arguments, result).".to_owned(),
        ),
        (
            "--config <path>".to_owned(),
            format!(
                "Read global flags from this TOML file (else ${}, else \
                 ~/.config/{}/config.toml); flags and environment win over it.",
                config_env_var(&registry.name),
                registry.name
            ),
        ),
        (
            "--version".to_owned(),
            "Print the name, version and PAS level.".to_owned(),
        ),
    ]
}

/// Registry texts may hold newlines; help lines must not.
pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
