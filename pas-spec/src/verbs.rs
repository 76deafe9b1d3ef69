//! The level 3 and 4 verb commands, synthesised from the registry's resources.
//!
//! A spec never writes `ls`, `cat`, `stat`, `cp`, `rm`, `sync` or `feedback` as commands: it lists
//! `resources` and the verbs each path supports, and this module turns them into ordinary
//! [`Command`]s with the signatures and output shapes of PAS sections 5 and 6. Every face (parser,
//! catalog, agent help, `.llm`, MCP) reads [`Registry::all_commands`], so they all agree on what
//! the verbs look like.

use serde_json::Value;

use crate::{
    AntiPattern, Command, Effect, Example, OutputKind, Parameter, Profile, Registry, Verb,
};

/// Catalog category of the read-only navigation verbs (level 3).
pub const NAVIGATION: &str = "navigation";
/// Catalog category of the state verbs (level 4).
pub const STATE: &str = "state";

impl Registry {
    /// Every command the built CLI offers: the declared commands in spec order, then one command
    /// per verb offered by any resource (in [`Verb::ALL`] order).
    pub fn all_commands(&self) -> Vec<Command> {
        let mut commands = self.commands.clone();
        commands.extend(verb_commands(self));
        commands
    }

    /// [`Registry::all_commands`] without copying the declared commands when no resource adds
    /// a verb (every tool without resources): what a face that only reads them wants, since
    /// the copy is a visible share of a short call such as agent help.
    pub fn all_commands_ref(&self) -> std::borrow::Cow<'_, [Command]> {
        let verbs = verb_commands(self);
        if verbs.is_empty() {
            return std::borrow::Cow::Borrowed(&self.commands);
        }
        let mut commands = self.commands.clone();
        commands.extend(verbs);
        std::borrow::Cow::Owned(commands)
    }
}

/// One command per verb that at least one resource offers, in [`Verb::ALL`] order.
pub fn verb_commands(registry: &Registry) -> Vec<Command> {
    Verb::ALL
        .into_iter()
        .filter_map(|verb| {
            let paths = paths_offering(registry, verb);
            (!paths.is_empty()).then(|| verb_command(registry, verb, &paths))
        })
        .collect()
}

/// The catalog category of a verb: `navigation` for reads, `state` for the rest.
pub fn category(verb: Verb) -> &'static str {
    match verb {
        Verb::Ls | Verb::Cat | Verb::Stat => NAVIGATION,
        Verb::Cp | Verb::Rm | Verb::Sync | Verb::Feedback => STATE,
    }
}

/// The resource paths that offer `verb`, in spec order, each once.
fn paths_offering(registry: &Registry, verb: Verb) -> Vec<&str> {
    let mut paths: Vec<&str> = Vec::new();
    for resource in &registry.resources {
        if resource.verbs.contains(&verb) && !paths.contains(&resource.path.as_str()) {
            paths.push(&resource.path);
        }
    }
    paths
}

/// The command for one verb, given the paths that support it (never empty).
fn verb_command(registry: &Registry, verb: Verb, paths: &[&str]) -> Command {
    let shape = shape(verb);
    let example = |args: &str, what: &str| {
        // The `pas` profile needs `--agent` for machine output; the others always give it.
        let agent = if registry.profile == Profile::Pas {
            " --agent"
        } else {
            ""
        };
        Example {
            command: format!("{} {} {args}{agent}", registry.name, verb.as_str()),
            description: Some(what.to_owned()),
        }
    };
    let first = paths[0];
    // The tool's own examples of this verb, with real paths, say more than a template.
    let declared: Vec<Example> = registry
        .examples
        .iter()
        .filter(|e| names_verb(&registry.name, verb, &e.command))
        .cloned()
        .collect();
    let examples = if !declared.is_empty() {
        declared
    } else {
        match verb {
            Verb::Ls => vec![example(first, &format!("List what is under {first}"))],
            Verb::Cat => vec![example(first, &format!("Read {first} as JSON"))],
            Verb::Stat => vec![example(first, &format!("Metadata of {first}"))],
            Verb::Cp => vec![example(
                &format!("./local.json {first}"),
                &format!("Upload a local file to {first}"),
            )],
            // A leaf when there is one: a container's `rm` needs --force, which an example
            // must then show to be a call that works.
            Verb::Rm => {
                let containers = rm_containers(registry);
                match paths.iter().find(|p| !containers.contains(*p)) {
                    Some(leaf) => vec![example(leaf, &format!("Delete {leaf}"))],
                    None => vec![example(
                        &format!("{first} --force"),
                        &format!("Delete {first} with everything in it"),
                    )],
                }
            }
            Verb::Sync => vec![example(
                &format!("{first} ./backup"),
                &format!("Pull {first} into ./backup, downloading only what changed"),
            )],
            Verb::Feedback => vec![example(
                &format!("{first} --level error --message \"Returned malformed JSON\""),
                "Report a broken resource to the maintainers",
            )],
        }
    };
    let mut description = format!("{} Paths: {}.", shape.summary, paths.join(", "));
    if verb == Verb::Rm {
        let containers = rm_containers(registry);
        if !containers.is_empty() {
            description.push_str(&format!(
                " A container ({}) is deleted with everything in it, so it needs --{} too.",
                containers.join(", "),
                crate::surface::of(registry.profile).confirm_flag
            ));
        }
    }
    Command {
        name: verb.as_str().to_owned(),
        path: None,
        category: Some(category(verb).to_owned()),
        description,
        effect: shape.effect,
        idempotent: shape.idempotent,
        rate_limit: None,
        parameters: shape.parameters,
        stdin: Default::default(),
        output: shape.output,
        output_schema: Some(shape.output_schema),
        input_schema: None,
        errors: Vec::new(),
        examples,
        anti_patterns: anti_patterns(registry, verb),
        aliases: Vec::new(),
        deprecated: None,
        stability: crate::Stability::Stable,
        dry_run: false,
        paging: None,
        session: None,
        confirm: false,
        list_field: None,
        compact_omit: Vec::new(),
        side_effects: Vec::new(),
        needs: Vec::new(),
        auth: false,
        scopes: Vec::new(),
        untrusted: Vec::new(),
        timeout: None,
        max_output_bytes: None,
        max_input_bytes: None,
        lock: None,
        job: None,
    }
}

/// The resource templates whose `rm` deletes a container: a template offering `rm` that is a
/// container ([`is_container`]), in spec order, each once. Deleting one deletes everything in
/// it, so, like a wildcard, it needs the confirm flag (`--force`; over MCP `force: true`).
pub fn rm_containers(registry: &Registry) -> Vec<&str> {
    let mut paths: Vec<&str> = Vec::new();
    for resource in &registry.resources {
        if resource.verbs.contains(&Verb::Rm)
            && is_container(registry, &resource.path)
            && !paths.contains(&resource.path.as_str())
        {
            paths.push(&resource.path);
        }
    }
    paths
}

/// Whether the resource template `path` is a container, a path with children: a resource at
/// it offers `ls`, or another resource's template lies below it (`/notebooks/{notebook}` above
/// `/notebooks/{notebook}/{note}`; placeholders match whatever their names).
pub fn is_container(registry: &Registry, path: &str) -> bool {
    let segments = |p: &str| -> Vec<String> {
        p.split('/')
            .filter(|s| !s.is_empty())
            .map(|s| {
                // A placeholder's name does not matter, only that it is one.
                if s.starts_with('{') && s.ends_with('}') {
                    "{}".to_owned()
                } else {
                    s.to_owned()
                }
            })
            .collect()
    };
    let own = segments(path);
    registry.resources.iter().any(|resource| {
        let other = segments(&resource.path);
        (other == own && resource.verbs.contains(&Verb::Ls))
            || (other.len() > own.len() && other[..own.len()] == own[..])
    })
}

/// Whether a command line runs `verb` of `tool`: `tool [--agent] verb ...`.
fn names_verb(tool: &str, verb: Verb, command: &str) -> bool {
    let mut words = command.split_whitespace().filter(|w| *w != "--agent");
    words.next() == Some(tool) && words.next() == Some(verb.as_str())
}

/// What PAS fixes about a verb, whatever the tool: signature, effect and output.
struct Shape {
    summary: &'static str,
    effect: Effect,
    /// Explicit only where the effect's default (true for reads, false otherwise) is wrong.
    idempotent: Option<bool>,
    parameters: Vec<Parameter>,
    output: OutputKind,
    output_schema: Value,
}

/// The mistakes agents make with a verb, spelled with the tool's name.
fn anti_patterns(registry: &Registry, verb: Verb) -> Vec<AntiPattern> {
    let tool = &registry.name;
    match verb {
        Verb::Rm => vec![AntiPattern {
            pattern: format!("{tool} rm '/path/*'"),
            instead:
                "Wildcards are refused without --force; list with ls, then remove explicit paths"
                    .to_owned(),
        }],
        Verb::Cat => vec![AntiPattern {
            pattern: format!("{tool} cat <directory>"),
            instead: "cat reads one resource; use ls to see what a directory holds".to_owned(),
        }],
        _ => Vec::new(),
    }
}

impl Shape {
    fn new(
        summary: &'static str,
        effect: Effect,
        parameters: Vec<Parameter>,
        output: OutputKind,
        output_schema: Value,
    ) -> Shape {
        Shape {
            summary,
            effect,
            idempotent: None,
            parameters,
            output,
            output_schema,
        }
    }

    /// Safe to retry although it writes.
    fn idempotent(self) -> Shape {
        Shape {
            idempotent: Some(true),
            ..self
        }
    }
}

fn shape(verb: Verb) -> Shape {
    match verb {
        Verb::Ls => Shape::new(
            "List the children of a resource, one JSON object per line.",
            Effect::Read,
            vec![path_param(
                "The resource whose children to list; `/` is the root.",
            )],
            OutputKind::List,
            ls_item_schema(),
        ),
        Verb::Cat => Shape::new(
            "Read the complete content of a resource as one JSON object.",
            Effect::Read,
            vec![paths_param("The resource to read")],
            OutputKind::Object,
            cat_schema(),
        ),
        Verb::Stat => Shape::new(
            "Read a resource's metadata (type, size, modification time) without its content.",
            Effect::Read,
            vec![paths_param("The resource to describe")],
            OutputKind::Object,
            stat_schema(),
        ),
        // Copying the same source to the same destination twice leaves the same state.
        Verb::Cp => Shape::new(
            "Write a resource: upload a local file, or copy between two resource paths.",
            Effect::Write,
            vec![
                positional("source", "A local file, or a resource path to copy from."),
                formatted(
                    crate::StringFormat::ResourcePath,
                    positional("dest", "The resource path to write."),
                ),
            ],
            OutputKind::Object,
            cp_schema(),
        )
        .idempotent(),
        // No `force` parameter: the built CLI gives every destructive command `--force`.
        Verb::Rm => Shape::new(
            "Delete a resource. The path must be explicit: wildcards need --force.",
            Effect::Destructive,
            vec![paths_param("The resource to delete")],
            OutputKind::Object,
            rm_schema(),
        ),
        // A second run finds nothing changed and leaves the same local tree.
        Verb::Sync => Shape::new(
            "One-way pull of a remote resource tree to a local directory, downloading only new \
             or changed files; progress as JSON Lines events.",
            Effect::Write,
            vec![
                formatted(
                    crate::StringFormat::ResourcePath,
                    positional("remote", "The resource path to pull from."),
                ),
                // The caller's own directory, named as the operating system names it.
                formatted(
                    crate::StringFormat::Path,
                    positional("local", "The local directory to write into."),
                ),
            ],
            OutputKind::Events,
            sync_event_schema(),
        )
        .idempotent(),
        Verb::Feedback => Shape::new(
            "Report a problem with a resource to the tool's maintainers.",
            Effect::Write,
            vec![
                path_param("The resource that caused the problem."),
                Parameter {
                    values: Some(vec!["info".into(), "warn".into(), "error".into()]),
                    required: true,
                    description: "How severe the problem is.".to_owned(),
                    ..parameter("level")
                },
                Parameter {
                    required: true,
                    description: "What went wrong.".to_owned(),
                    ..parameter("message")
                },
                Parameter {
                    description: "A contact address for follow-up.".to_owned(),
                    ..parameter("email")
                },
                Parameter {
                    description: "Additional debug information.".to_owned(),
                    ..parameter("context")
                },
            ],
            OutputKind::Object,
            feedback_schema(),
        ),
    }
}

/// A string flag with every optional field at its default.
fn parameter(name: &str) -> Parameter {
    Parameter {
        name: name.to_owned(),
        kind: Default::default(),
        short: None,
        ty: Default::default(),
        items: None,
        values: None,
        required: false,
        default: None,
        env: None,
        secret: false,
        description: String::new(),
        rust_name: None,
        aliases: Vec::new(),
        deprecated_aliases: Vec::new(),
        minimum: None,
        maximum: None,
        min_length: None,
        max_length: None,
        pattern: None,
        requires: Vec::new(),
        conflicts: Vec::new(),
        format: None,
        agent_hardening: None,
    }
}

/// `param` declared as holding `format`.
fn formatted(format: crate::StringFormat, param: Parameter) -> Parameter {
    Parameter {
        format: Some(format),
        ..param
    }
}

/// A required string positional.
fn positional(name: &str, description: &str) -> Parameter {
    Parameter {
        kind: crate::ParamKind::Positional,
        required: true,
        description: description.to_owned(),
        ..parameter(name)
    }
}

/// A verb's resource path: the resource-path rules apply (`ResourcePath`), as the faces say.
fn path_param(description: &str) -> Parameter {
    formatted(
        crate::StringFormat::ResourcePath,
        positional("path", description),
    )
}

/// `cat`, `stat` and `rm` take one path or several (CLI Agent Spec 70): one path answers the
/// object itself, several answer one `{path, ok, result | error}` item per path, in order.
fn paths_param(what: &str) -> Parameter {
    Parameter {
        kind: crate::ParamKind::Variadic,
        ..path_param(&format!("{what}. {MANY_PATHS}"))
    }
}

/// Whether `command` is a resource verb whose `path` takes several paths (`cat`, `stat`, `rm`).
/// MCP calls take one path each (a client makes several calls at once), so the MCP face keeps
/// `path` a string for these.
pub fn takes_many_paths(registry: &Registry, command: &Command) -> bool {
    matches!(command.name.as_str(), "cat" | "stat" | "rm")
        && !registry.commands.iter().any(|c| c.name == command.name)
        && verb_commands(registry)
            .iter()
            .any(|c| c.name == command.name)
}

/// What the verbs that take several paths answer for them, as every face says it.
pub const MANY_PATHS: &str = "Several paths: one JSON item per path, in order, `{\"path\",\"ok\":true,\"result\"}` or `{\"path\",\"ok\":false,\"error\"}`; any failure ends the call with the first failure's error.";

/// A verb's output schema from its JSON text. Text rather than `json!`: the macro expands every
/// key into code, which is most of this module's share of a built CLI; the text is data and the
/// parser is linked anyway. Key order is the text's (`preserve_order`), as `json!` kept it.
fn schema(text: &str) -> Value {
    serde_json::from_str(text).expect("the verb schemas are valid JSON (tests parse each)")
}

const LS_ITEM_SCHEMA: &str = r#"{
    "type": "object",
    "required": ["path", "type"],
    "properties": {
        "path": {"type": "string", "description": "Full path of the child."},
        "type": {"type": "string", "enum": ["file", "dir"]},
        "id": {"type": "string", "description": "The child's identifier."},
        "name": {"type": "string", "description": "A human-readable name."},
        "size": {"type": "integer", "minimum": 0, "description": "Size in bytes."},
        "modified": {"type": "string", "format": "date-time"}
    }
}"#;

fn ls_item_schema() -> Value {
    schema(LS_ITEM_SCHEMA)
}

const CAT_SCHEMA: &str = r#"{
    "type": "object",
    "description": "The resource's complete content; its fields depend on the resource."
}"#;

fn cat_schema() -> Value {
    schema(CAT_SCHEMA)
}

// PAS requires a size for files only: a directory has none.
const STAT_SCHEMA: &str = r#"{
    "type": "object",
    "required": ["path", "type"],
    "properties": {
        "path": {"type": "string", "description": "Full path of the resource."},
        "type": {"type": "string", "enum": ["file", "dir"]},
        "size": {"type": "integer", "minimum": 0, "description": "Size in bytes (files)."},
        "modified": {"type": "string", "format": "date-time"},
        "permissions": {"type": "string", "description": "Access level, e.g. `read-only`."},
        "etag": {"type": "string", "description": "Content version tag."},
        "checksum": {"type": "string", "description": "Content checksum."}
    },
    "if": {"properties": {"type": {"const": "file"}}},
    "then": {"required": ["size"]}
}"#;

fn stat_schema() -> Value {
    schema(STAT_SCHEMA)
}

const CP_SCHEMA: &str = r#"{
    "type": "object",
    "required": ["status", "path"],
    "properties": {
        "status": {"type": "string", "enum": ["success", "error"]},
        "path": {"type": "string", "description": "The destination path."},
        "bytes": {"type": "integer", "minimum": 0, "description": "Bytes written."},
        "message": {"type": "string", "description": "Why it failed, when it did."}
    }
}"#;

fn cp_schema() -> Value {
    schema(CP_SCHEMA)
}

const RM_SCHEMA: &str = r#"{
    "type": "object",
    "required": ["status", "path", "deleted"],
    "properties": {
        "status": {"type": "string", "enum": ["success", "error"]},
        "path": {"type": "string", "description": "The deleted path."},
        "deleted": {"type": "boolean"}
    }
}"#;

fn rm_schema() -> Value {
    schema(RM_SCHEMA)
}

const SYNC_EVENT_SCHEMA: &str = r#"{
    "type": "object",
    "required": ["event"],
    "properties": {
        "event": {"type": "string", "enum": ["start", "scanning", "downloading", "complete"]},
        "remote": {"type": "string", "description": "start: the remote path."},
        "local": {"type": "string", "description": "start: the local directory."},
        "total": {"type": "integer", "minimum": 0, "description": "scanning: remote files found."},
        "file": {"type": "string", "description": "downloading: the file in transfer."},
        "progress": {"type": "number", "minimum": 0, "maximum": 1, "description": "downloading: fraction done."},
        "downloaded": {"type": "integer", "minimum": 0, "description": "complete: files downloaded."},
        "skipped": {"type": "integer", "minimum": 0, "description": "complete: files already up to date."},
        "errors": {"type": "integer", "minimum": 0, "description": "complete: files that failed."}
    }
}"#;

fn sync_event_schema() -> Value {
    schema(SYNC_EVENT_SCHEMA)
}

const FEEDBACK_SCHEMA: &str = r#"{
    "type": "object",
    "required": ["status", "issue_id"],
    "properties": {
        "status": {"type": "string", "const": "sent"},
        "issue_id": {"type": "string", "description": "The tracking reference."},
        "tracked_at": {"type": "string", "description": "Where the feedback was recorded (a URL)."}
    }
}"#;

fn feedback_schema() -> Value {
    schema(FEEDBACK_SCHEMA)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_verb_schema_is_an_object_schema() {
        for verb in Verb::ALL {
            assert_eq!(shape(verb).output_schema["type"], "object", "{verb:?}");
        }
    }
    use crate::{ParamKind, ParamType, Resource};

    fn registry(resources: Vec<Resource>) -> Registry {
        Registry {
            spec_version: 1,
            name: "store".into(),
            version: "1.0.0".into(),
            summary: "A store.".into(),
            description: None,
            level: 4,
            profile: Profile::Pas,
            schema_version: None,
            global_flags: Vec::new(),
            exit_codes: Vec::new(),
            anti_patterns: Vec::new(),
            examples: Vec::new(),
            resources,
            commands: Vec::new(),
            built: crate::Features::ALL,
            robot: None,
            auth: None,
            requirements: Vec::new(),
            changelog: Vec::new(),
            mask_high_entropy: false,
        }
    }

    fn resource(path: &str, verbs: &[Verb]) -> Resource {
        Resource {
            path: path.into(),
            description: None,
            verbs: verbs.to_vec(),
        }
    }

    fn names(commands: &[Command]) -> Vec<&str> {
        commands.iter().map(|c| c.name.as_str()).collect()
    }

    fn find<'a>(commands: &'a [Command], name: &str) -> &'a Command {
        commands.iter().find(|c| c.name == name).unwrap()
    }

    #[test]
    fn no_resources_no_verbs() {
        assert!(verb_commands(&registry(Vec::new())).is_empty());
    }

    #[test]
    fn one_command_per_offered_verb_in_pas_order() {
        let reg = registry(vec![
            resource("/b", &[Verb::Rm, Verb::Cat]),
            resource("/a", &[Verb::Ls, Verb::Cat]),
        ]);
        assert_eq!(names(&verb_commands(&reg)), ["ls", "cat", "rm"]);
    }

    #[test]
    fn description_lists_supporting_paths_in_spec_order_once() {
        let reg = registry(vec![
            resource("/b", &[Verb::Cat, Verb::Cat]),
            resource("/a", &[Verb::Cat, Verb::Ls]),
            resource("/b", &[Verb::Cat]),
        ]);
        let commands = verb_commands(&reg);
        assert!(
            find(&commands, "cat")
                .description
                .ends_with(" Paths: /b, /a.")
        );
        assert!(find(&commands, "ls").description.ends_with(" Paths: /a."));
    }

    #[test]
    fn categories_effects_and_outputs() {
        let reg = registry(vec![resource("/x", &Verb::ALL)]);
        let commands = verb_commands(&reg);
        assert_eq!(commands.len(), 7);
        let table: Vec<(&str, &str, Effect, OutputKind, bool)> = commands
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.category(),
                    c.effect,
                    c.output,
                    c.is_idempotent(),
                )
            })
            .collect();
        use Effect::*;
        assert_eq!(
            table,
            [
                ("ls", NAVIGATION, Read, OutputKind::List, true),
                ("cat", NAVIGATION, Read, OutputKind::Object, true),
                ("stat", NAVIGATION, Read, OutputKind::Object, true),
                ("cp", STATE, Write, OutputKind::Object, true),
                ("rm", STATE, Destructive, OutputKind::Object, false),
                ("sync", STATE, Write, OutputKind::Events, true),
                ("feedback", STATE, Write, OutputKind::Object, false),
            ]
        );
        for command in &commands {
            assert_eq!(command.argv_path(), std::slice::from_ref(&command.name));
            assert_eq!(command.examples.len(), 1, "{}", command.name);
            assert!(command.examples[0].command.starts_with("store "));
            assert!(command.examples[0].command.ends_with(" --agent"));
        }
    }

    #[test]
    fn signatures() {
        let reg = registry(vec![resource("/x", &Verb::ALL)]);
        let commands = verb_commands(&reg);
        let signature = |name: &str| -> Vec<(String, ParamKind, ParamType, bool)> {
            find(&commands, name)
                .parameters
                .iter()
                .map(|p| (p.name.clone(), p.kind, p.ty, p.required))
                .collect()
        };
        let pos = |n: &str| (n.to_owned(), ParamKind::Positional, ParamType::String, true);
        let flag = |n: &str, ty, required| (n.to_owned(), ParamKind::Flag, ty, required);
        let many = |n: &str| (n.to_owned(), ParamKind::Variadic, ParamType::String, true);
        assert_eq!(signature("ls"), [pos("path")]);
        assert_eq!(signature("cat"), [many("path")]);
        assert_eq!(signature("stat"), [many("path")]);
        assert_eq!(signature("cp"), [pos("source"), pos("dest")]);
        assert_eq!(signature("rm"), [many("path")]);
        assert_eq!(signature("sync"), [pos("remote"), pos("local")]);
        assert_eq!(
            signature("feedback"),
            [
                pos("path"),
                flag("level", ParamType::String, true),
                flag("message", ParamType::String, true),
                flag("email", ParamType::String, false),
                flag("context", ParamType::String, false),
            ]
        );
        let level = &find(&commands, "feedback").parameters[1];
        assert_eq!(
            level.values.as_deref(),
            Some(&["info".to_owned(), "warn".into(), "error".into()][..])
        );
    }

    #[test]
    fn output_schemas_follow_pas() {
        let reg = registry(vec![resource("/x", &Verb::ALL)]);
        let commands = verb_commands(&reg);
        let schema = |name: &str| find(&commands, name).output_schema.clone().unwrap();
        let required = |name: &str| schema(name)["required"].clone();
        assert_eq!(required("ls"), json!(["path", "type"]));
        assert_eq!(
            schema("ls")["properties"]["type"]["enum"],
            json!(["file", "dir"])
        );
        for optional in ["id", "name", "size", "modified"] {
            assert!(
                schema("ls")["properties"][optional].is_object(),
                "{optional}"
            );
        }
        assert_eq!(required("stat"), json!(["path", "type"]));
        assert_eq!(schema("stat")["then"]["required"], json!(["size"]));
        for optional in ["modified", "permissions", "etag"] {
            assert!(
                schema("stat")["properties"][optional].is_object(),
                "{optional}"
            );
        }
        assert_eq!(required("cp"), json!(["status", "path"]));
        assert!(schema("cp")["properties"]["bytes"].is_object());
        assert!(schema("cp")["properties"]["message"].is_object());
        assert_eq!(required("rm"), json!(["status", "path", "deleted"]));
        assert_eq!(
            schema("sync")["properties"]["event"]["enum"],
            json!(["start", "scanning", "downloading", "complete"])
        );
        assert_eq!(required("feedback"), json!(["status", "issue_id"]));
        assert!(schema("feedback")["properties"]["tracked_at"].is_object());
        assert_eq!(schema("cat")["type"], "object");
    }

    #[test]
    fn examples_use_the_first_supporting_path_and_the_profile() {
        let mut reg = registry(vec![
            resource("/a", &[Verb::Ls]),
            resource("/a/{id}", &[Verb::Cat, Verb::Sync]),
        ]);
        reg.profile = Profile::Compose;
        let commands = verb_commands(&reg);
        assert_eq!(find(&commands, "ls").examples[0].command, "store ls /a");
        assert_eq!(
            find(&commands, "sync").examples[0].command,
            "store sync /a/{id} ./backup"
        );
    }

    #[test]
    fn the_tools_own_examples_of_a_verb_come_instead() {
        let mut reg = registry(vec![resource("/a/{id}", &[Verb::Cat, Verb::Rm])]);
        reg.examples = vec![
            Example {
                command: "store --agent cat /a/42".into(),
                description: Some("One".into()),
            },
            Example {
                command: "store cat /a/43 --agent".into(),
                description: None,
            },
            Example {
                command: "other cat /a/1".into(),
                description: None,
            },
        ];
        let commands = verb_commands(&reg);
        let cat: Vec<&str> = find(&commands, "cat")
            .examples
            .iter()
            .map(|e| e.command.as_str())
            .collect();
        assert_eq!(cat, ["store --agent cat /a/42", "store cat /a/43 --agent"]);
        assert_eq!(
            find(&commands, "rm").examples[0].command,
            "store rm /a/{id} --agent"
        );
    }

    #[test]
    fn containers_list_children_or_hold_templates_below() {
        let reg = registry(vec![
            resource("/notebooks", &[Verb::Ls, Verb::Stat]),
            resource("/notebooks/{notebook}", &[Verb::Stat, Verb::Rm]),
            resource("/notebooks/{book}/{note}", &[Verb::Cat, Verb::Rm]),
            resource("/tags", &[Verb::Ls, Verb::Rm]),
            resource("/flat/{id}", &[Verb::Cat, Verb::Rm]),
        ]);
        assert!(is_container(&reg, "/notebooks"));
        // Below it lies a template whose placeholder has another name.
        assert!(is_container(&reg, "/notebooks/{notebook}"));
        assert!(!is_container(&reg, "/notebooks/{book}/{note}"));
        // Listing children makes a container without any template below.
        assert!(is_container(&reg, "/tags"));
        assert!(!is_container(&reg, "/flat/{id}"));
        assert_eq!(rm_containers(&reg), ["/notebooks/{notebook}", "/tags"]);
        let rm = verb_commands(&reg)
            .into_iter()
            .find(|c| c.name == "rm")
            .unwrap();
        // The example deletes a leaf, which needs no --force.
        assert_eq!(
            rm.examples[0].command,
            "store rm /notebooks/{book}/{note} --agent"
        );
        assert!(
            rm.description.ends_with(
                " A container (/notebooks/{notebook}, /tags) is deleted with everything in it, \
                 so it needs --force too."
            ),
            "{}",
            rm.description
        );
    }

    #[test]
    fn an_rm_of_containers_only_shows_force_in_its_example() {
        let reg = registry(vec![resource("/tags", &[Verb::Ls, Verb::Rm])]);
        let rm = verb_commands(&reg)
            .into_iter()
            .find(|c| c.name == "rm")
            .unwrap();
        assert_eq!(rm.examples[0].command, "store rm /tags --force --agent");
    }

    #[test]
    fn an_rm_of_leaves_only_says_nothing_of_containers() {
        let reg = registry(vec![resource("/flat/{id}", &[Verb::Cat, Verb::Rm])]);
        assert!(rm_containers(&reg).is_empty());
        let rm = verb_commands(&reg)
            .into_iter()
            .find(|c| c.name == "rm")
            .unwrap();
        assert!(!rm.description.contains("container"), "{}", rm.description);
    }

    #[test]
    fn all_commands_puts_declared_commands_first() {
        let mut reg = registry(vec![resource("/a", &[Verb::Ls])]);
        let mut search = verb_commands(&reg).remove(0);
        search.name = "search".into();
        reg.commands.push(search);
        assert_eq!(names(&reg.all_commands()), ["search", "ls"]);
        // A tool without resources offers exactly its declared commands.
        reg.resources.clear();
        assert_eq!(reg.all_commands(), reg.commands);
        assert!(matches!(
            reg.all_commands_ref(),
            std::borrow::Cow::Borrowed(commands) if commands == reg.commands.as_slice()
        ));
    }

    #[test]
    fn synthesised_commands_survive_a_json_round_trip() {
        let reg = registry(vec![resource("/x", &Verb::ALL)]);
        for command in verb_commands(&reg) {
            let text = serde_json::to_string(&command).unwrap();
            let back: Command = serde_json::from_str(&text).unwrap();
            assert_eq!(back, command);
        }
    }
}
