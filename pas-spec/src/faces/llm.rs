//! The `.llm` document (PAS 4.2): Purpose, Signature, Cheatsheet, Anti-patterns, Error codes, then
//! every command's signature with its parameters' types and its output fields.
//!
//! The registry is first turned into a plain [`Document`] (every text already one line, every
//! fact already worded as agent help words it), then laid out: by [`render`], which writes the
//! default layout (`pas-spec/templates/llm.md.j2`) in plain Rust, so a built CLI's `tool docs`
//! needs no template engine; or, with the `template` feature, by [`render_with`] through a
//! minijinja template (the default one or the user's own). Templates only lay facts out, so a
//! user's template cannot get a fact wrong, and the built CLI and `pas-gen llm` print the same
//! bytes from the same default (a test renders every example spec both ways).

use std::fmt;

#[cfg(feature = "template")]
use minijinja::Environment;
#[cfg(feature = "template")]
use minijinja::syntax::SyntaxConfig;
#[cfg(feature = "template")]
use minijinja::value::{Serde, Value as JinjaValue};
use serde_json::Value;

use super::words::{
    command_switches, effect_line, exit_code_rows, one_line, output_label, param_facts,
    param_signature, runtime_flag_rows, usage_line,
};
use crate::builtin_codes as codes;
use crate::surface::{self, ErrorChannel, ListShape};
use crate::{Command, OutputKind, Registry, StdinMode};

// The document is its own file so that the layout, which only reads it, does not import the
// file that builds it.
pub use super::llm_document::{Code, CommandDoc, Document, Field, Pattern, Row};

/// The default template, compiled in so a built CLI needs no file at run time.
pub const DEFAULT_TEMPLATE: &str = include_str!("../../templates/llm.md.j2");

/// The most patterns the cheatsheet shows (PAS 4.2 asks for 5 to 10).
const CHEATSHEET_MAX: usize = 10;

/// A template that could not be compiled or rendered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError(pub String);

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TemplateError {}

/// The `.llm` document in the default layout ([`DEFAULT_TEMPLATE`]'s bytes, written without a
/// template engine).
pub fn render(registry: &Registry) -> String {
    super::llm_layout::default_layout(&document(registry))
}

/// The `.llm` document through a template given as text (`name` appears in its errors).
#[cfg(feature = "template")]
pub fn render_with(
    registry: &Registry,
    name: &str,
    template: &str,
) -> Result<String, TemplateError> {
    let mut env = Environment::new();
    // Block tags then take their own lines away; a document ends with exactly its last newline.
    let syntax = SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .keep_trailing_newline(true)
        .build()
        .map_err(|e| TemplateError(e.to_string()))?;
    env.set_syntax(syntax);
    env.add_template(name, template)
        .map_err(|e| TemplateError(describe(&e)))?;
    let context = JinjaValue::from(Serde(document(registry)));
    env.get_template(name)
        .and_then(|t| t.render(context))
        .map_err(|e| TemplateError(describe(&e)))
}

/// minijinja's error with where it happened (its `Display` leaves the line out).
#[cfg(feature = "template")]
fn describe(error: &minijinja::Error) -> String {
    match (error.name(), error.line()) {
        (Some(name), Some(line)) => format!("{name}:{line}: {error}"),
        _ => error.to_string(),
    }
}

/// The facts of the registry, ready for a template.
pub fn document(registry: &Registry) -> Document {
    let commands = registry.all_commands_ref();
    let single = commands.len() == 1 && commands[0].argv_path().is_empty();
    let signature = if single {
        usage_line(registry, &[], &commands[0])
    } else {
        format!("{} <command> [flags] [args]", registry.name)
    };
    // `--fields` of pas and compose is said where it applies, in each list's output line
    // ([`output_words`]), and `--validate-only` in the machine-mode paragraph: a row of its
    // own would take a line of PAS 4.2's 200, and the largest examples are at that limit.
    let list_fields = registry.profile != crate::Profile::Robot;
    let validate_only = crate::surface::VALIDATE_ONLY.signature();
    // Compose's `--agent` (a no-op) is said in the machine-mode paragraph, for the same reason.
    let compose_agent = crate::surface::COMPOSE_AGENT.signature();
    let agent_words = match registry.profile {
        crate::Profile::Compose => format!(
            " `{compose_agent}`: {}",
            crate::surface::COMPOSE_AGENT.meaning
        ),
        _ => String::new(),
    };
    let mut global_flags: Vec<Row> = runtime_flag_rows(registry)
        .into_iter()
        .filter(|(signature, _)| !(list_fields && signature.starts_with("--fields ")))
        .filter(|(signature, _)| *signature != validate_only)
        .filter(|(signature, _)| {
            registry.profile != crate::Profile::Compose || *signature != compose_agent
        })
        .filter(|(signature, _)| {
            !crate::surface::CALL_FLAGS
                .iter()
                .any(|f| f.signature() == *signature)
        })
        .map(|(signature, facts)| Row { signature, facts })
        .collect();
    global_flags.extend(registry.global_flags.iter().map(|p| Row {
        signature: param_signature(p),
        facts: param_facts(p),
    }));
    Document {
        name: registry.name.clone(),
        version: registry.version.clone(),
        purpose: one_line(&registry.summary),
        description: registry
            .description
            .as_deref()
            .map(one_line)
            .unwrap_or_default(),
        level: registry.level,
        profile: registry.profile.as_str(),
        signature,
        machine_mode: format!(
            "{} `{validate_only}` on any command: {}{}{}{}",
            machine_mode(registry),
            crate::surface::VALIDATE_ONLY.meaning,
            agent_words,
            call_flags_words(registry),
            super::masking::tool_note(registry)
                .map(|note| format!(" {note}"))
                .unwrap_or_default()
        ),
        global_flags,
        cheatsheet: cheatsheet(registry, &commands),
        anti_patterns: anti_patterns(registry, &commands),
        exit_codes: exit_codes(registry),
        commands: commands.iter().map(|c| command_doc(registry, c)).collect(),
    }
}

/// The flags of failure modes 6, 7, 11 and 29 ([`crate::surface::CALL_FLAGS`], and
/// `--timeout` where the runtime gives it), said in the machine-mode paragraph.
fn call_flags_words(registry: &Registry) -> String {
    let timeout =
        crate::surface::runtime_timeout_flag(registry).then_some(&crate::surface::TIMEOUT);
    let mut words: String = crate::surface::CALL_FLAGS
        .iter()
        .chain(timeout)
        .map(|f| format!(" `{}`: {}", f.signature(), f.meaning))
        .collect();
    if timeout.is_none() {
        words.push_str(
            " `PAS_TIMEOUT=SECONDS`: end a call after this many seconds with TIMEOUT (0: no limit \
             of the caller's); a command's declared limit may only be lowered. Without it, a call \
             has no time limit unless its command declares one.",
        );
    }
    words
}

fn machine_mode(registry: &Registry) -> String {
    let name = &registry.name;
    let surface = surface::of(registry.profile);
    let contract = match surface.machine_switch {
        Some(switch) if surface.errors == ErrorChannel::RobotEnvelope => format!(
            "Every call, success or failure, prints one JSON envelope on stdout, with or without \
             {switch}: {{\"schema_version\",\"session_id\" (in a session),\"generated_at\",\
             \"host_id\",\"command\",\"duration_ms\",\"status\" (success, partial or error),\
             \"warnings\",\"data\"}}, and on failure \"error\":{{\"code\",\"message\",\
             \"details\",\"recoverable\",\"suggestion\",\"documentation_url\"}} instead of \
             data. The exit code is the named code of the table below: a success may be non-zero. \
             --compact, --fields, --format md and --include-prose shape the output."
        ),
        Some(switch) => format!(
            "Add {switch} anywhere (or set PAS_AGENT=1): one JSON object on stdout, NDJSON for \
             lists, and errors as one JSON line on stderr ({{\"error\",\"message\",\"code\",\
             \"suggestion\"}}); the exit code says what happened. Without {switch}, {name} prints \
             text for people."
        ),
        None => "Every call prints one JSON envelope on stdout, no flag needed: {\"ok\":true,\
             \"data\",\"meta\"} on success (a list's data is one array), {\"ok\":false,\
             \"error\":{\"code\",\"message\",\"hint\"},\"meta\"} on failure. Exit 0 on success, \
             1 on failure, 2 when a prerequisite blocks the call."
            .to_owned(),
    };
    let help = surface.invocation_prefix(registry).join(" ");
    let words: Vec<String> = surface
        .listed_words(registry)
        .map(
            |b| match b.args.starts_with(['[', '<']) || b.args.is_empty() {
                true => format!("`{}`", surface::builtin_call(registry, b.word)),
                false => format!("`{} {}`", surface::builtin_call(registry, b.word), b.args),
            },
        )
        .collect();
    format!(
        "{contract} `{help} --help` prints the short contract. Built-in commands: {}.",
        words.join(", ")
    )
}

fn cheatsheet(registry: &Registry, commands: &[Command]) -> Vec<Pattern> {
    let mut patterns: Vec<Pattern> = Vec::new();
    let firsts = commands.iter().filter_map(|c| c.examples.first());
    // A one-command tool's other examples are its patterns too.
    let seconds = commands
        .iter()
        .filter(|c| c.argv_path().is_empty())
        .flat_map(|c| c.examples.iter().skip(1));
    for example in registry.examples.iter().chain(firsts).chain(seconds) {
        if patterns.len() == CHEATSHEET_MAX {
            break;
        }
        let command = one_line(&example.command);
        if patterns.iter().any(|p| p.command == command) {
            continue;
        }
        patterns.push(Pattern {
            command,
            text: example
                .description
                .as_deref()
                .map(one_line)
                .unwrap_or_default(),
        });
    }
    patterns
}

fn anti_patterns(registry: &Registry, commands: &[Command]) -> Vec<Pattern> {
    let mut patterns: Vec<Pattern> = Vec::new();
    let declared = registry
        .anti_patterns
        .iter()
        .chain(commands.iter().flat_map(|c| &c.anti_patterns));
    for anti in declared {
        let command = one_line(&anti.pattern);
        if patterns.iter().any(|p| p.command == command) {
            continue;
        }
        patterns.push(Pattern {
            command,
            text: one_line(&anti.instead),
        });
    }
    if let Some((pattern, instead)) = surface::of(registry.profile).anti_pattern {
        patterns.push(Pattern {
            command: format!("{} {pattern}", registry.name),
            text: instead.to_owned(),
        });
    }
    patterns
}

/// Success, the built-in groups, then the tool's own, by exit code: agent help's rows.
fn exit_codes(registry: &Registry) -> Vec<Code> {
    exit_code_rows(registry, None)
        .into_iter()
        .map(|(code, text)| Code { code, text })
        .collect()
}

fn command_doc(registry: &Registry, command: &Command) -> CommandDoc {
    let path = command.argv_path();
    let mut notes = Vec::new();
    if let Some(limit) = &command.rate_limit {
        notes.push(format!("Rate limit: {limit}."));
    }
    if let Some(deprecated) = &command.deprecated {
        let mut line = String::from("Deprecated");
        if let Some(replacement) = &deprecated.replacement {
            line.push_str(&format!(": use {replacement}"));
        }
        if let Some(message) = &deprecated.message {
            line.push_str(&format!(" ({})", one_line(message)));
        }
        line.push('.');
        notes.push(line);
    }
    notes.extend(super::words::stability_note(command));
    notes.extend(super::words::declared_notes(registry, command));
    let surface = surface::of(registry.profile);
    let declared = super::words::declared_codes_of(registry, command);
    let errors: Vec<String> = command
        .errors
        .iter()
        .map(String::as_str)
        .chain(
            declared
                .into_iter()
                .filter(|n| !command.errors.iter().any(|e| e == n)),
        )
        .map(|name| {
            let known = registry.exit_codes.iter().any(|c| c.name == name)
                || codes::builtin(name).is_some()
                || crate::declare::declared_code_in(registry, name);
            if known {
                format!("{name} ({})", surface.exit_of(registry, name))
            } else {
                name.to_owned()
            }
        })
        .collect();
    let mut errors: Vec<String> = errors;
    if surface.needs_confirm(command)
        && !command
            .errors
            .iter()
            .any(|e| e == surface.confirm_error_in(registry))
    {
        let confirm = surface.confirm_error_in(registry);
        errors.push(format!(
            "{confirm} ({})",
            surface.exit_of(registry, confirm)
        ));
    }
    let mut parameters: Vec<Row> = command
        .parameters
        .iter()
        .map(|p| Row {
            signature: param_signature(p),
            facts: param_facts(p),
        })
        .collect();
    // `--idempotency-key` is said in the effect sentence instead of a row of its own: an
    // `.llm` file has a line budget (PAS 4.2), and every mutating command has the flag.
    let switches = command_switches(registry, command);
    let idempotency = switches
        .iter()
        .any(|flag| flag.long == super::words::IDEMPOTENCY_KEY_FLAG);
    parameters.extend(
        switches
            .iter()
            .filter(|flag| flag.long != super::words::IDEMPOTENCY_KEY_FLAG)
            .map(|flag| {
                let (signature, facts) = super::words::command_flag_row(flag);
                Row { signature, facts }
            }),
    );
    let mut effect = effect_line(registry, command);
    if idempotency {
        effect.pop();
        effect.push_str(
            "; --idempotency-key KEY replays a repeat (effect noop, replayed) without running it again: at most once, even when calls with the key overlap or one is killed.",
        );
    }
    CommandDoc {
        name: command.name.clone(),
        words: path.join(" "),
        usage: usage_line(registry, &path, command),
        description: one_line(&command.description),
        effect,
        notes,
        parameters,
        output: output_words(registry, command.output).to_owned(),
        output_fields: command
            .output_schema
            .as_ref()
            .map(fields)
            .unwrap_or_default(),
        input: if command.stdin == StdinMode::None {
            String::new()
        } else {
            super::words::input_text(registry, command)
        },
        errors,
        examples: command
            .examples
            .iter()
            .map(|e| Pattern {
                command: one_line(&e.command),
                text: e.description.as_deref().map(one_line).unwrap_or_default(),
            })
            .collect(),
    }
}

fn output_words(registry: &Registry, kind: OutputKind) -> &'static str {
    let surface = surface::of(registry.profile);
    match kind {
        OutputKind::List if surface.list_shape == ListShape::EnvelopeArray => {
            "one envelope whose data is the array of items (--fields a,b keeps only those fields)"
        }
        OutputKind::Events if surface.list_shape == ListShape::EnvelopeArray => {
            "one envelope whose data is the array of items"
        }
        OutputKind::List | OutputKind::Events if surface.list_shape == ListShape::RobotEnvelope => {
            "one envelope whose data is the array of items (--fields and --compact select)"
        }
        OutputKind::List if surface.list_format_flag => {
            "NDJSON, one object per line (--format=array for one array; --fields a,b keeps only \
             those fields)"
        }
        OutputKind::List => "NDJSON, one object per line",
        OutputKind::Events => "NDJSON events, one per line as they happen",
        // The fields listed are the result's; the call itself answers the descriptor.
        OutputKind::Job => {
            "a job descriptor at once (job_id, status, terminal, status_command, \
             cancel_command, poll_interval_ms, timeout_ms, started_at); `job status ID` answers \
             the result once it succeeded, and --wait runs it in the foreground; the result"
        }
        other => output_label(registry, other),
    }
}

/// The top-level properties of an object schema, by name (the schema's own order depends on
/// serde_json's `preserve_order` feature, so it cannot be byte-stable).
fn fields(schema: &Value) -> Vec<Field> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut properties: Vec<(&String, &Value)> = properties.iter().collect();
    crate::sorting::sort_by(&mut properties, |a, b| a.0.cmp(b.0));
    properties
        .into_iter()
        .map(|(name, property)| Field {
            name: name.clone(),
            ty: type_words(property),
            required: required.contains(&name.as_str()),
            description: property
                .get("description")
                .and_then(Value::as_str)
                .map(one_line)
                .unwrap_or_default(),
        })
        .collect()
}

/// A property's JSON Schema in a few words.
fn type_words(schema: &Value) -> String {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let words: Vec<String> = values.iter().map(scalar).collect();
        return format!("one of: {}", words.join(", "));
    }
    if let Some(value) = schema.get("const") {
        return format!("always {}", scalar(value));
    }
    let mut text = match schema.get("type") {
        Some(Value::String(ty)) if ty == "array" => match schema.get("items") {
            Some(items) => format!("array of {}", type_words(items)),
            None => "array".to_owned(),
        },
        Some(Value::String(ty)) => ty.clone(),
        Some(Value::Array(types)) => {
            let words: Vec<String> = types.iter().map(scalar).collect();
            words.join(" or ")
        }
        _ => "any".to_owned(),
    };
    if let Some(format) = schema.get("format").and_then(Value::as_str) {
        text.push_str(&format!(" ({format})"));
    }
    match (schema.get("minimum"), schema.get("maximum")) {
        (Some(min), Some(max)) => text.push_str(&format!(" {min}..{max}")),
        (Some(min), None) => text.push_str(&format!(" >= {min}")),
        (None, Some(max)) => text.push_str(&format!(" <= {max}")),
        (None, None) => {}
    }
    text
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
