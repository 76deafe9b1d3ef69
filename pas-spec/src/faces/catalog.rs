//! The `tools` catalog (compose contract): every command of a registry as the metadata an agent
//! reads before acting, plus the global flags.
//!
//! A pure function of the registry, so the built CLI (`tool tools`, and `tool --agent tools` in
//! the `pas` profile) and `pas-gen catalog` print the same bytes. Bytes are stable whatever
//! serde_json's `preserve_order` feature says: entries are structs (fixed field order) and the
//! embedded JSON Schemas are re-keyed in sorted order. Tools sort by category, then name.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::json_order::sorted;
use crate::{Command, ParamKind, ParamType, Parameter, Registry};

/// The whole catalog.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Catalog {
    /// The tool's binary name.
    pub tool: String,
    /// The tool's version.
    pub version: String,
    /// Every command, sorted by category, then name.
    pub tools: Vec<Tool>,
    /// Flags every command accepts: the registry's, then the profile's own.
    pub global_flags: Vec<Param>,
}

/// One command, as the catalog describes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// Dotted name, `group.action`.
    pub name: String,
    /// The invocation with its required arguments, e.g. `todo task get <id>`.
    pub command: String,
    /// The sorting key.
    pub category: String,
    /// What the command does.
    pub description: String,
    /// `read`, `write` or `destructive`.
    pub effect: &'static str,
    /// Its parameters, including the runtime's `--dry-run` and `--force` when it has them.
    pub parameters: Vec<Param>,
    /// The top-level field names of one result (sorted), empty when no schema is known.
    pub output_fields: Vec<String>,
    /// JSON Schema of one result (of one item for lists), or null.
    pub output_schema: Value,
    /// JSON Schema of structured input (stdin), or null.
    pub input_schema: Value,
    /// Running it twice equals running it once.
    pub idempotent: bool,
    /// A rate limit in words, or null.
    pub rate_limit: Option<String>,
    /// One example invocation (the first of the spec, else the bare command).
    pub example: String,
    /// The error constants it may end with.
    pub errors: Vec<String>,
    /// What it leaves behind outside its output (absent when nothing is declared).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub side_effects: Vec<crate::declare::SideEffect>,
    /// The tool's requirements it needs, checked before it runs (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<crate::declare::Requirement>,
    /// It needs credentials (absent when it does not).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub requires_auth: bool,
    /// How to authenticate, for a command that needs credentials (the tool's `auth.methods`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub auth_methods: Vec<String>,
    /// The credential scopes it needs (absent when none are declared).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub required_scopes: Vec<String>,
    /// Output fields carrying external content, returned apart under `untrusted`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub untrusted_fields: Vec<String>,
    /// The declared wall-clock limit of one call in machine mode, in milliseconds (absent: the
    /// runtime's default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// The declared output bound of one call in machine mode, in bytes (absent: none unless
    /// the caller asks with `--max-output`); past it the rest is written to a file, never cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_output_bytes: Option<u64>,
    /// What the command masks in its output and how to see it raw (`--unmask`), absent when it
    /// masks nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub masks: Option<String>,
    /// The declared cap of what it reads from stdin, in bytes (absent: the runtime's input
    /// limit); a larger input goes through `--input-file`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_input_bytes: Option<u64>,
    /// The lock the runtime takes for every call (one call at a time; absent when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lock: Option<String>,
    /// An async job (`output: job`): its poll interval and time limit, in milliseconds (the
    /// call answers a descriptor; `TOOL job status ID` answers the `outputSchema`'s result).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job: Option<crate::job::JobSettings>,
    /// `beta` or `experimental`: its output may change without a deprecation, and running it
    /// warns (absent: `stable`).
    #[serde(skip_serializing_if = "crate::Stability::is_stable")]
    pub stability: crate::Stability,
}

/// One parameter or flag.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Param {
    /// kebab-case name (the long flag without `--`, or the positional's name).
    pub name: String,
    /// JSON type of the value.
    #[serde(rename = "type")]
    pub ty: &'static str,
    /// The caller must give it.
    pub required: bool,
    /// What it means.
    pub description: String,
    /// `positional` or `variadic`; absent for flags.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<&'static str>,
    /// The only values allowed.
    #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
    /// The value used when none is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// The environment variable that supplies it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
    /// JSON Schema constraints on each value (`minimum`, `maximum`, `minLength`, `maxLength`,
    /// `pattern`), checked before the handler runs.
    #[serde(flatten)]
    pub constraints: Map<String, Value>,
    /// Parameters that must be given with this one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<String>,
    /// Parameters that must not be given with this one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<String>,
    /// The declared string format (`path`, `resource-path`, `id`), as JSON Schema's `format`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'static str>,
    /// Machine-mode calls refuse the spellings agents hallucinate in its values (`%XX`, `?`,
    /// `#`, `..`, shell metacharacters, control characters, `null`): see
    /// [`crate::hardening`]. Declared (`format: id` or `agentHardening`), never by name.
    #[serde(rename = "agentHardening", skip_serializing_if = "std::ops::Not::not")]
    pub agent_hardening: bool,
}

/// The catalog of a registry: declared commands and the level 3/4 verbs synthesised from its
/// resources, as agent help, `.llm` and the MCP export list them (the faces must agree).
pub fn catalog(registry: &Registry) -> Catalog {
    let mut tools: Vec<Tool> = registry
        .all_commands_ref()
        .iter()
        .map(|c| tool_of(registry, c))
        .collect();
    crate::sorting::sort_by(&mut tools, |a, b| {
        (&a.category, &a.name).cmp(&(&b.category, &b.name))
    });
    let mut global_flags: Vec<Param> = registry.global_flags.iter().map(param).collect();
    // The profile's machine-output switches (`--agent` or `--toon`): the binary has exactly these;
    // `--validate-only` and the call flags (`surface::CALL_FLAGS`), which an agent calls like a
    // command's own flags.
    let surface = crate::surface::of(registry.profile);
    let listed = |f: &&crate::surface::RuntimeFlag| {
        f.machine_output
            || f.long == crate::surface::VALIDATE_ONLY.long
            || crate::surface::CALL_FLAGS.contains(f)
    };
    global_flags.extend(surface.flags.iter().filter(listed).map(|f| {
        let mut entry = switch(f.long, f.meaning);
        if f.value.is_some() {
            entry.ty = ParamType::String.as_str();
        }
        entry
    }));
    // The caller's `--timeout`, where the tool does not own a flag of that name.
    if crate::surface::runtime_timeout_flag(registry) {
        let flag = &crate::surface::TIMEOUT;
        let mut entry = switch(flag.long, flag.meaning);
        entry.ty = ParamType::Number.as_str();
        global_flags.push(entry);
    }
    Catalog {
        tool: registry.name.clone(),
        version: registry.version.clone(),
        tools,
        global_flags,
    }
}

/// The catalog as one line of compact JSON (no newline): what `pas-gen catalog` prints.
pub fn to_json(registry: &Registry) -> String {
    serde_json::to_string(&catalog(registry)).expect("a catalog always serialises")
}

/// One command's entry, by dotted name.
pub fn tool(registry: &Registry, name: &str) -> Option<Tool> {
    let commands = registry.all_commands_ref();
    let command = commands.iter().find(|c| c.name == name)?;
    Some(tool_of(registry, command))
}

/// Up to three dotted names closest to `name` (for an unknown-tool hint), closest first.
pub fn nearest(registry: &Registry, name: &str) -> Vec<String> {
    let commands = registry.all_commands_ref();
    let mut scored: Vec<(f64, &str)> = commands
        .iter()
        .map(|c| (strsim::jaro_winkler(name, &c.name), c.name.as_str()))
        .filter(|(score, _)| *score > 0.6)
        .collect();
    crate::sorting::sort_by(&mut scored, |a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored
        .into_iter()
        .take(3)
        .map(|(_, n)| n.to_owned())
        .collect()
}

fn tool_of(registry: &Registry, command: &Command) -> Tool {
    let mut parameters: Vec<Param> = command.parameters.iter().map(param).collect();
    // The runtime adds these flags in every profile, so agents must see them here.
    for flag in super::words::command_switches(registry, command) {
        let mut entry = switch(flag.long, &flag.meaning);
        if flag.value.is_some() {
            entry.ty = ParamType::String.as_str();
        }
        parameters.push(entry);
    }
    if super::limits::has_input_file(command) {
        let mut entry = switch(
            super::limits::INPUT_FILE_FLAG,
            super::limits::INPUT_FILE_MEANING,
        );
        entry.ty = ParamType::String.as_str();
        parameters.push(entry);
    }
    let invocation = invocation(registry, command);
    Tool {
        name: command.name.clone(),
        category: command.category().to_owned(),
        description: command.description.clone(),
        effect: command.effect.as_str(),
        parameters,
        output_fields: output_fields(command.output_schema.as_ref()),
        output_schema: command.output_schema.clone().map_or(Value::Null, sorted),
        input_schema: command.input_schema.clone().map_or(Value::Null, sorted),
        idempotent: command.is_idempotent(),
        rate_limit: command.rate_limit.clone(),
        example: command
            .examples
            .first()
            .map_or_else(|| invocation.clone(), |e| e.command.clone()),
        errors: command.errors.clone(),
        side_effects: command.side_effects.clone(),
        requirements: registry
            .requirements
            .iter()
            .filter(|r| command.needs.contains(&r.name))
            .cloned()
            .collect(),
        requires_auth: command.auth,
        auth_methods: match &registry.auth {
            Some(auth) if command.auth => auth.methods.clone(),
            _ => Vec::new(),
        },
        required_scopes: command.scopes.clone(),
        untrusted_fields: command.untrusted.clone(),
        timeout_ms: super::limits::timeout_ms(command),
        max_output_bytes: command.max_output_bytes,
        masks: super::masking::note(registry, command),
        max_input_bytes: command.max_input_bytes,
        lock: command.lock.clone(),
        job: command.is_job().then(|| crate::job::JobSettings {
            poll_interval_ms: Some(command.job_poll_interval_ms()),
            timeout_ms: Some(command.job_timeout_ms()),
        }),
        stability: command.stability,
        command: invocation,
    }
}

/// `tool word word <positional> --required-flag <value>`.
fn invocation(registry: &Registry, command: &Command) -> String {
    let mut words = vec![registry.name.clone()];
    words.extend(command.argv_path());
    for p in command.parameters.iter().filter(|p| p.required) {
        match p.kind {
            ParamKind::Positional => words.push(format!("<{}>", p.name)),
            ParamKind::Variadic => words.push(format!("<{}>...", p.name)),
            ParamKind::Flag if p.ty == ParamType::Boolean => words.push(format!("--{}", p.name)),
            ParamKind::Flag => words.push(format!("--{} <{}>", p.name, p.name)),
        }
    }
    words.join(" ")
}

fn output_fields(schema: Option<&Value>) -> Vec<String> {
    let Some(Value::Object(properties)) = schema.and_then(|s| s.get("properties")) else {
        return Vec::new();
    };
    let mut fields: Vec<String> = properties.keys().cloned().collect();
    crate::sorting::sort(&mut fields);
    fields
}

fn param(p: &Parameter) -> Param {
    Param {
        name: p.name.clone(),
        ty: if p.kind == ParamKind::Variadic {
            ParamType::Array.as_str()
        } else {
            p.ty.as_str()
        },
        required: p.required,
        description: p.description.clone(),
        kind: match p.kind {
            ParamKind::Flag => None,
            ParamKind::Positional => Some("positional"),
            ParamKind::Variadic => Some("variadic"),
        },
        values: p.values.clone(),
        // A secret's default is as secret as its value.
        default: if p.secret { None } else { p.default.clone() },
        env: p.env.clone(),
        constraints: crate::declare::schema_keywords(p),
        requires: p.requires.clone(),
        conflicts: p.conflicts.clone(),
        format: p.format.map(crate::StringFormat::as_str),
        agent_hardening: crate::hardening::is_hardened(p),
    }
}

fn switch(name: &str, description: &str) -> Param {
    Param {
        name: name.to_owned(),
        ty: ParamType::Boolean.as_str(),
        required: false,
        description: description.to_owned(),
        kind: None,
        values: None,
        default: None,
        env: None,
        constraints: Map::new(),
        requires: Vec::new(),
        conflicts: Vec::new(),
        format: None,
        agent_hardening: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> Registry {
        let text = include_str!("../../../specs/todo.yaml");
        crate::load::parse(&crate::Source::new("todo.yaml", text, crate::Format::Yaml))
            .expect("todo.yaml parses")
    }

    #[test]
    fn sorted_by_category_then_name() {
        let catalog = catalog(&registry());
        let keys: Vec<(&str, &str)> = catalog
            .tools
            .iter()
            .map(|t| (t.category.as_str(), t.name.as_str()))
            .collect();
        let mut expected = keys.clone();
        expected.sort();
        assert_eq!(keys, expected);
        assert_eq!(catalog.tools.len(), registry().commands.len());
    }

    #[test]
    fn runtime_flags_and_invocations() {
        let registry = registry();
        let delete = tool(&registry, "task.delete").unwrap();
        assert_eq!(delete.command, "todo task delete <id>");
        let names: Vec<&str> = delete.parameters.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["id", "dry-run", "force", "idempotency-key"]);
        assert_eq!(delete.output_fields, ["deleted", "id"]);
        let flags: Vec<String> = catalog(&registry)
            .global_flags
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(
            flags,
            [
                "db",
                "toon",
                "fields",
                "validate-only",
                "output-id",
                "stable-output",
                "cwd",
                "show-config",
                "no-config",
                "schema-version",
                "max-output",
                "unmask",
                "agent",
                "timeout"
            ]
        );
    }

    #[test]
    fn bytes_are_stable_and_nearest_names_help() {
        let registry = registry();
        assert_eq!(to_json(&registry), to_json(&registry));
        assert_eq!(nearest(&registry, "task.creat")[0], "task.create");
        assert!(tool(&registry, "task.nope").is_none());
    }
}
