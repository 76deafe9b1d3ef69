//! An MCP `tools/list` result: one MCP tool per command, so an MCP client can be pointed at the
//! same contract the CLI keeps.
//!
//! Mapping (each choice is deliberate, since MCP and a CLI do not line up one to one):
//!
//! - `name`: the dotted command name with `.` as `_` (`task.create` -> `task_create`). Many
//!   clients accept only `[A-Za-z0-9_-]`; command words are kebab-case, so the mapping cannot
//!   make two names collide.
//! - `title`: the invocation words (`todo task create`); `description`: the command's own.
//! - `inputSchema`: an object with one property per parameter (the command's, then the global
//!   flags), keyed by the parameter's name as typed after `--`, with its JSON type, `enum`,
//!   `default` and description; `required` lists the required ones. A secret parameter is never
//!   an MCP argument (arguments travel in the client's logs): it is left out, and the server
//!   (`TOOL mcp`) takes it from its environment variable or the configuration file. The flags the runtime adds
//!   that change what a call does are there too: `dry-run` for commands that offer it, `force` for
//!   destructive ones (robot's `yes`), and in the robot profile `session` (required) and
//!   `resume` for the commands that continue or read a session. A command that takes structured input on stdin gets an `input` property
//!   holding its `inputSchema`.
//! - `outputSchema` (MCP wants an object schema): an object command's schema, or (`anyOf`) the
//!   pointer a result past the call's output bound is answered with
//!   (`{"output_file": {path, bytes, sha256, media_type, preview, read}}`); a list or an
//!   event stream is wrapped as `{type: object, properties: {items: {type: array, items: ...}},
//!   required: [items]}`, the shape an MCP server would return as structured content. Documents,
//!   commands with no output, and schemas that are not objects get none.
//! - `annotations`: `readOnlyHint` when the effect is `read`; `destructiveHint` when it is
//!   `destructive`; `idempotentHint` from the command; `openWorldHint` when the command reaches
//!   beyond the machine, which the registry shows by a rate limit (a remote service) or by being
//!   the `sync` or `feedback` verb.
//! - `_meta`: the tool's version and a hash of the definition, and the command's declared
//!   limits when it has any (`pas-kit/timeoutMs`, `pas-kit/maxOutputBytes`,
//!   `pas-kit/maxInputBytes`) and lock (`pas-kit/lock`), what it masks and how to see it raw
//!   (`pas-kit/masks`), its examples as `tools/call` arguments (`pas-kit/inputExamples`), so a
//!   client can
//!   size its wait and its context before it calls. A call asks for a bound of its own with
//!   `_meta: {"pas-kit/maxOutputBytes": N}` on `tools/call` (it may only lower the declared one).
//!
//! Tools are sorted by category, then name, like the catalog, so the bytes are stable.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::words::one_line;
use crate::json_order::sorted;
use crate::{Command, Effect, OutputKind, ParamKind, ParamType, Parameter, Registry, verbs};

/// The `tools/list` result for the registry, as pretty JSON with a final newline.
pub fn render(registry: &Registry) -> String {
    let mut text =
        serde_json::to_string_pretty(&tools_list(registry)).expect("JSON values always serialise");
    text.push('\n');
    text
}

/// The `tools/list` result as a JSON value: `{"tools": [...]}`.
pub fn tools_list(registry: &Registry) -> Value {
    let mut commands = registry.all_commands();
    crate::sorting::sort_by(&mut commands, |a, b| {
        (a.category(), &a.name).cmp(&(b.category(), &b.name))
    });
    let tools: Vec<Value> = commands.iter().map(|c| tool(registry, c)).collect();
    json!({ "tools": tools })
}

/// The MCP tool name of a command.
pub fn tool_name(command: &Command) -> String {
    tool_name_of(&command.name)
}

/// [`tool_name`] of a command known by its dotted name.
pub fn tool_name_of(command: &str) -> String {
    command.replace('.', "_")
}

/// One MCP tool. A struct, so the top-level field order is fixed; the schemas inside are
/// re-keyed in sorted order ([`sorted`]), so the bytes do not depend on whether serde_json keeps
/// insertion order (its `preserve_order` feature, which another crate may turn on).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Tool {
    pub(super) name: String,
    pub(super) title: String,
    pub(super) description: String,
    pub(super) input_schema: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) output_schema: Option<Value>,
    pub(super) annotations: Annotations,
    #[serde(rename = "_meta")]
    pub(super) meta: Value,
}

/// The `_meta` key of the tool's version: a client that cached the list can compare it with
/// the binary it calls (`TOOL --version`) to tell a stale list from a live one.
pub const META_TOOL_VERSION: &str = "pas-kit/toolVersion";
/// The `_meta` key of a digest of the tool's definition (name, schemas, annotations): it
/// changes exactly when what a client validates against changes.
pub const META_SCHEMA_HASH: &str = "pas-kit/schemaHash";
/// The `_meta` key of the command's declared wall-clock limit, in milliseconds (absent when it
/// declares none).
pub const META_TIMEOUT_MS: &str = "pas-kit/timeoutMs";
/// The `_meta` key of the command's examples as `tools/call` arguments (absent when it has none
/// that read as a call of it): each one an `arguments` object a client can send as is.
pub const META_INPUT_EXAMPLES: &str = "pas-kit/inputExamples";
/// The `_meta` key of the command's declared output cap, in bytes (absent when none).
pub const META_MAX_OUTPUT_BYTES: &str = "pas-kit/maxOutputBytes";
/// The `_meta` key of what the command masks in its output and how to see it raw
/// (`--unmask`, `PAS_UNMASK=1` in the server's environment), absent when it masks nothing.
pub const META_MASKS: &str = "pas-kit/masks";
/// The `_meta` key of the command's declared cap on its input (the `input` argument), in bytes.
pub const META_MAX_INPUT_BYTES: &str = "pas-kit/maxInputBytes";
/// The `_meta` key of the lock the runtime takes for every call of the command: concurrent
/// calls of commands sharing it fail with `LOCK_HELD` instead of running at once.
pub const META_LOCK: &str = "pas-kit/lock";
/// The `_meta` key set (to `true`) when the command declares a `background` side effect: it
/// starts processes that outlive the call, which `TOOL cleanup` lists and ends.
pub const META_SPAWNS_BACKGROUND: &str = "pas-kit/spawnsBackgroundProcess";

/// The `_meta` key of a job command (`output: job`): its poll interval and time limit, and
/// `"task": "optional"`: a client that takes MCP Tasks (the `io.modelcontextprotocol/tasks`
/// extension) gets a task whose id is the job id (`TOOL job status ID` follows it too); any
/// other client, or a call with `wait: true`, gets the result when the job ends. The same key
/// on a task just created holds the job's descriptor (its `status_command`, `cancel_command`).
pub const META_JOB: &str = "pas-kit/job";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Annotations {
    pub(super) read_only_hint: bool,
    pub(super) destructive_hint: bool,
    pub(super) idempotent_hint: bool,
    pub(super) open_world_hint: bool,
}

fn tool(registry: &Registry, command: &Command) -> Value {
    let mut words = vec![registry.name.clone()];
    words.extend(command.argv_path());
    let mut tool = Tool {
        name: tool_name(command),
        title: words.join(" "),
        description: description(command),
        input_schema: sorted(input_schema(registry, command)),
        output_schema: output_schema(command).map(sorted),
        annotations: annotations(command),
        meta: Value::Null,
    };
    let hash = schema_hash(&tool);
    let mut meta = json!({ META_SCHEMA_HASH: hash, META_TOOL_VERSION: registry.version });
    // The declared limits, for a client to size its own wait and context before it calls.
    if let Some(ms) = super::limits::timeout_ms(command) {
        meta[META_TIMEOUT_MS] = json!(ms);
    }
    if let Some(bytes) = command.max_output_bytes {
        meta[META_MAX_OUTPUT_BYTES] = json!(bytes);
    }
    if let Some(bytes) = command.max_input_bytes {
        meta[META_MAX_INPUT_BYTES] = json!(bytes);
    }
    if let Some(note) = super::masking::note(registry, command) {
        meta[META_MASKS] = json!(note);
    }
    if let Some(lock) = &command.lock {
        meta[META_LOCK] = json!(lock);
    }
    if command.is_job() {
        meta[META_JOB] = json!({
            "task": "optional",
            "pollIntervalMs": command.job_poll_interval_ms(),
            "timeoutMs": command.job_timeout_ms(),
        });
    }
    // The command's examples as the arguments a client sends (issue 31, item 5).
    let examples = super::mcp_examples::input_examples(registry, command);
    if !examples.is_empty() {
        meta[META_INPUT_EXAMPLES] = json!(examples);
    }
    if command
        .side_effects
        .iter()
        .any(|e| e.kind == crate::declare::SideEffectKind::Background)
    {
        meta[META_SPAWNS_BACKGROUND] = json!(true);
    }
    tool.meta = meta;
    serde_json::to_value(tool).expect("a tool always serialises")
}

/// The first 16 hex digits of the SHA-256 of the tool's definition as compact JSON (its
/// schemas are key-sorted, so the bytes, and the digest, are stable).
fn schema_hash(tool: &Tool) -> String {
    use sha2::{Digest, Sha256};
    let bytes = serde_json::to_vec(tool).expect("a tool always serialises");
    let digest = Sha256::digest(&bytes);
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

fn description(command: &Command) -> String {
    let mut text = one_line(&command.description);
    if let Some(deprecated) = &command.deprecated {
        text.push_str(" Deprecated");
        if let Some(replacement) = &deprecated.replacement {
            text.push_str(&format!(": use {replacement}"));
        }
        text.push('.');
    }
    if let Some(note) = super::words::stability_note(command) {
        text.push(' ');
        text.push_str(&note);
    }
    text
}

/// `cat`, `stat` and `rm` over MCP: one path per call.
fn one_path_param(param: &Parameter) -> Parameter {
    let description = param
        .description
        .strip_suffix(crate::verbs::MANY_PATHS)
        .unwrap_or(&param.description)
        .trim_end()
        .to_owned();
    Parameter {
        kind: crate::ParamKind::Positional,
        description,
        ..param.clone()
    }
}

fn input_schema(registry: &Registry, command: &Command) -> Value {
    let mut properties = Map::new();
    let mut required: Vec<Value> = Vec::new();
    let mut dependent = Map::new();
    for param in command.parameters.iter().chain(&registry.global_flags) {
        if param.secret || properties.contains_key(&param.name) {
            continue;
        }
        let one_path;
        let param = if param.name == "path" && crate::verbs::takes_many_paths(registry, command) {
            one_path = one_path_param(param);
            &one_path
        } else {
            param
        };
        properties.insert(param.name.clone(), parameter_schema(param));
        if param.required {
            required.push(param.name.clone().into());
        }
        // `requires` is JSON Schema's `dependentRequired`: a client can check it before calling.
        let requires: Vec<Value> = param
            .requires
            .iter()
            .filter(|r| !is_secret(registry, command, r))
            .map(|r| Value::from(r.as_str()))
            .collect();
        if !requires.is_empty() {
            dependent.insert(param.name.clone(), requires.into());
        }
    }
    // The runtime's switches on this command, as every face lists them (`dry-run`, `force`).
    for flag in super::words::command_switches(registry, command) {
        if !properties.contains_key(flag.long) {
            let schema = match flag.value {
                None => json!({"type": "boolean", "default": false, "description": flag.meaning}),
                Some(_) => json!({"type": "string", "description": flag.meaning}),
            };
            properties.insert(flag.long.into(), schema);
            if flag.required {
                required.push(flag.long.into());
            }
        }
    }
    // robot: the session a command continues or reads, as its CLI takes it (`--session ID`,
    // `--resume`); a command that starts one takes none.
    if registry.profile == crate::Profile::Robot {
        use crate::robot::SessionUse;
        if matches!(
            command.session,
            Some(SessionUse::Continue | SessionUse::Read)
        ) && !properties.contains_key("session")
        {
            let what = if command.session == Some(SessionUse::Read) {
                "The session to read (see the `sessions` command)."
            } else {
                "The session to continue (see the `sessions` command)."
            };
            properties.insert(
                "session".into(),
                json!({"type": "string", "description": what}),
            );
            required.push("session".into());
        }
        if command.session == Some(SessionUse::Continue) && !properties.contains_key("resume") {
            properties.insert(
                "resume".into(),
                json!({"type": "boolean", "default": false, "description": "Resume an interrupted session: completed actions are not redone."}),
            );
        }
    }
    if let Some(schema) = &command.input_schema
        && command.stdin != crate::StdinMode::None
        && !properties.contains_key("input")
    {
        let mut schema = schema.clone();
        if let Value::Object(map) = &mut schema {
            map.entry("description").or_insert_with(|| {
                "The structured input, given on stdin as one JSON object.".into()
            });
        }
        properties.insert("input".into(), schema);
    }
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    if !dependent.is_empty() {
        schema.insert("dependentRequired".into(), Value::Object(dependent));
    }
    schema.insert("additionalProperties".into(), false.into());
    Value::Object(schema)
}

fn is_secret(registry: &Registry, command: &Command, name: &str) -> bool {
    command
        .parameters
        .iter()
        .chain(&registry.global_flags)
        .any(|p| p.name == name && p.secret)
}

/// The JSON Schema of one parameter's value.
fn parameter_schema(param: &Parameter) -> Value {
    let element = element_schema(param);
    let mut schema = if param.is_many() {
        let mut map = Map::new();
        map.insert("type".into(), "array".into());
        map.insert("items".into(), element);
        if param.kind == ParamKind::Variadic && param.required {
            map.insert("minItems".into(), 1.into());
        }
        map
    } else {
        match element {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    };
    if let Some(default) = &param.default {
        schema.insert("default".into(), default.clone());
    } else if param.kind == ParamKind::Flag && param.ty == ParamType::Boolean {
        schema.insert("default".into(), false.into());
    }
    let mut description = one_line(&param.description);
    if !param.conflicts.is_empty() {
        let names: Vec<String> = param.conflicts.iter().map(|c| format!("`{c}`")).collect();
        if !description.is_empty() {
            description.push(' ');
        }
        description.push_str(&format!("Not with {}.", names.join(", ")));
    }
    if let Some(words) = crate::hardening::face_words(param) {
        if !description.is_empty() {
            description.push(' ');
        }
        // "Identifier: ...", "Local file path, ...": the agent-help words, as a sentence.
        description.extend(words[..1].chars().flat_map(char::to_uppercase));
        description.push_str(&words[1..]);
        description.push('.');
    }
    if !description.is_empty() {
        schema.insert("description".into(), description.into());
    }
    Value::Object(schema)
}

/// The schema of one value as given on the command line.
fn element_schema(param: &Parameter) -> Value {
    let mut map = Map::new();
    map.insert("type".into(), param.element_type().as_str().into());
    if let Some(values) = &param.values {
        map.insert("enum".into(), values.clone().into());
    }
    // JSON Schema's `format` is an annotation: it tells the client what the value is (`path`,
    // `resource-path`, `id`) and what the tool checks, and constrains nothing by itself.
    if let Some(format) = param.format
        && param.element_type() == crate::ParamType::String
    {
        map.insert("format".into(), format.as_str().into());
    }
    map.extend(crate::declare::schema_keywords(param));
    Value::Object(map)
}

fn output_schema(command: &Command) -> Option<Value> {
    let schema = command.output_schema.as_ref()?;
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return None;
    }
    match command.output {
        // A job command's result (at its end, or a task's inlined result) is the object, or,
        // past the call's output bound, the pointer to the file that holds it whole.
        OutputKind::Object | OutputKind::Job => Some(json!({
            "type": "object",
            "anyOf": [schema, output_file_schema()],
        })),
        OutputKind::List | OutputKind::Events => Some(json!({
            "type": "object",
            "properties": {"items": {"type": "array", "items": schema}},
            "required": ["items"]
        })),
        OutputKind::Document | OutputKind::None => None,
    }
}

/// The result of an object past the call's output bound (the command's `maxOutputBytes`, the
/// caller's `_meta` [`META_MAX_OUTPUT_BYTES`]): the pointer to the file that holds it whole.
fn output_file_schema() -> Value {
    let text = json!({"type": "string"});
    json!({
        "type": "object",
        "description": "Past the call's output bound (the tool's _meta pas-kit/maxOutputBytes, or the call's own _meta pas-kit/maxOutputBytes): the whole result is in a file, and this points at it.",
        "required": ["output_file"],
        "additionalProperties": false,
        "properties": {"output_file": {
            "type": "object",
            "required": ["path", "bytes", "sha256", "media_type", "preview", "read"],
            "properties": {
                "path": text, "bytes": {"type": "integer", "minimum": 0}, "sha256": text,
                "media_type": text, "preview": text, "read": text,
            },
        }},
    })
}

fn annotations(command: &Command) -> Annotations {
    let open_world = command.rate_limit.is_some()
        || command.category() == verbs::STATE
            && matches!(command.name.as_str(), "sync" | "feedback");
    Annotations {
        read_only_hint: command.effect == Effect::Read,
        destructive_hint: command.effect == Effect::Destructive,
        idempotent_hint: command.is_idempotent(),
        open_world_hint: open_world,
    }
}
