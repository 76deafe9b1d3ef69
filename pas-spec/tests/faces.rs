//! The documentation faces of every example spec: agent help, `.llm` and MCP `tools/list`.
//!
//! Snapshots pin the bytes (every face is byte-stable); the assertions pin what the faces must
//! say whatever their layout: the agent help names every command, parameter (with its type) and
//! exit code; the `.llm` document has PAS 4.2's sections and 50 to 200 lines; the MCP export
//! maps every command with object schemas and annotations that follow effect and idempotence.

use std::path::{Path, PathBuf};

use pas_spec::faces::{agent_help, llm, mcp};
use pas_spec::{Effect, ParamKind, Registry, builtin_codes};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// Every example spec in `specs/`, by file stem.
fn example_specs() -> Vec<(String, Registry)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(repo().join("specs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 4, "the example specs are in specs/");
    paths.iter().map(|p| load(p)).collect()
}

fn load(path: &Path) -> (String, Registry) {
    let (_, registry) = pas_spec::load::load_path(path).unwrap();
    let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
    (stem, registry)
}

/// The example specs and pas-gen's own.
fn all_specs() -> Vec<(String, Registry)> {
    let mut specs = example_specs();
    specs.push(load(&repo().join("pas-gen/pas-gen.yaml")));
    specs
}

#[test]
fn agent_help_names_every_command_parameter_type_and_exit_code() {
    for (stem, registry) in all_specs() {
        let help = agent_help::render_tool(&registry);
        let commands = registry.all_commands();
        for command in &commands {
            let words = command.argv_path().join(" ");
            assert!(
                help.contains(&words),
                "{stem}: command `{words}` in\n{help}"
            );
            for param in command.parameters.iter().chain(&registry.global_flags) {
                let name = match param.kind {
                    ParamKind::Flag => format!("--{}", param.name),
                    _ => format!("<{}>", param.name),
                };
                // An enum's values are its type in COMMANDS rows; GLOBAL FLAGS name the JSON type.
                let ty = param.element_type().as_str();
                let values = param.values.as_ref().map(|v| v.join("|"));
                let named = help.lines().any(|line| {
                    line.contains(&name)
                        && (line.contains(ty) || values.as_ref().is_some_and(|v| line.contains(v)))
                });
                assert!(named, "{stem}: `{name}` with its type `{ty}` in\n{help}");
            }
        }
        // Each code with the exit code it really ends with in the profile (compose: 1 or 2).
        let surface = pas_spec::surface::of(registry.profile);
        let codes = registry
            .exit_codes
            .iter()
            .map(|c| c.name.as_str())
            // robot answers a runtime constant under its role's name (ERR_ARGS for
            // UNKNOWN_ARGUMENT), which the spec's own rows list.
            .chain(
                builtin_codes::BUILTINS
                    .iter()
                    .filter(|_| registry.profile != pas_spec::Profile::Robot)
                    .map(|b| b.name),
            )
            .map(|name| (u16::from(surface.exit_of(&registry, name)), name));
        for (code, name) in codes {
            let listed = help
                .lines()
                .any(|line| line.starts_with(&format!("  {code:<4}")) && line.contains(name));
            assert!(listed, "{stem}: exit code {code} {name} in\n{help}");
        }
        // pas-gen's own spec changes with pas-gen; the example specs are pinned.
        if stem != "pas-gen" {
            insta::assert_snapshot!(format!("agent-help-{stem}"), help);
        }
    }
}

#[test]
fn one_command_tool_shows_the_tool_patterns_and_the_command_s() {
    let (_, registry) = load(&repo().join("specs/word-counter.yaml"));
    let help = agent_help::render_tool(&registry);
    let patterns = help
        .split("COMMON PATTERNS:\n")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .next()
        .unwrap();
    for example in registry
        .examples
        .iter()
        .chain(&registry.commands[0].examples)
    {
        assert!(
            patterns.contains(&example.command),
            "`{}` in\n{patterns}",
            example.command
        );
    }
    // The tool's own (the PAS appendix's three) come first.
    assert!(
        patterns
            .lines()
            .next()
            .unwrap()
            .contains(&registry.examples[0].command)
    );
}

#[test]
fn llm_documents_have_the_pas_sections_and_50_to_200_lines() {
    for (stem, registry) in example_specs() {
        let doc = llm::render(&registry);
        let lines = doc.lines().count();
        assert!(
            (50..=200).contains(&lines),
            "{stem}.llm has {lines} lines (PAS 4.2: 50-200)"
        );
        let headings: Vec<&str> = doc.lines().filter(|l| l.starts_with("## ")).collect();
        assert_eq!(
            headings,
            [
                "## Purpose",
                "## Signature",
                "## Cheatsheet",
                "## Anti-patterns",
                "## Error codes",
                "## Commands"
            ],
            "{stem}"
        );
        let cheatsheet = doc
            .split("```sh\n")
            .nth(1)
            .unwrap()
            .split("```")
            .next()
            .unwrap();
        let patterns = cheatsheet.lines().count();
        assert!(
            (5..=10).contains(&patterns),
            "{stem}: {patterns} cheatsheet patterns (PAS 4.2: 5-10)"
        );
        for command in registry.all_commands() {
            assert!(doc.contains(&command.argv_path().join(" ")), "{stem}");
            for param in &command.parameters {
                assert!(doc.contains(&param.name), "{stem}: {}", param.name);
            }
        }
        assert!(doc.ends_with('\n') && !doc.ends_with("\n\n"), "{stem}");
        insta::assert_snapshot!(format!("llm-{stem}"), doc);
    }
}

#[test]
fn a_user_template_gets_the_same_facts() {
    let (_, registry) = load(&repo().join("specs/todo.yaml"));
    let template = "{{ name }}: {% for c in commands %}{{ c.name }} {% endfor %}\n";
    let text = llm::render_with(&registry, "mine.j2", template).unwrap();
    assert_eq!(
        text,
        "todo: task.create task.list task.get task.update task.done task.delete "
    );
    let broken = llm::render_with(&registry, "broken.j2", "line one\n{% for %}\n").unwrap_err();
    assert!(broken.0.starts_with("broken.j2:2:"), "{broken}");
}

#[test]
fn mcp_tools_list_maps_every_command() {
    for (stem, registry) in all_specs() {
        let list = mcp::tools_list(&registry);
        let tools = list["tools"].as_array().unwrap();
        let commands = registry.all_commands();
        assert_eq!(tools.len(), commands.len(), "{stem}");
        for command in &commands {
            let name = mcp::tool_name(command);
            let tool = tools.iter().find(|t| t["name"] == name.as_str()).unwrap();
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            );
            let input = &tool["inputSchema"];
            assert_eq!(input["type"], "object", "{stem} {name}");
            for param in &command.parameters {
                let property = &input["properties"][param.name.as_str()];
                assert!(property.is_object(), "{stem} {name} {}", param.name);
                if param.required {
                    let required = input["required"].as_array().unwrap();
                    assert!(required.contains(&Value::from(param.name.clone())));
                }
            }
            if let Some(output) = tool.get("outputSchema") {
                assert_eq!(output["type"], "object", "{stem} {name}");
            }
            let hints = &tool["annotations"];
            assert_eq!(hints["readOnlyHint"], command.effect == Effect::Read);
            assert_eq!(
                hints["destructiveHint"],
                command.effect == Effect::Destructive
            );
            assert_eq!(hints["idempotentHint"], command.is_idempotent());
            assert!(hints["openWorldHint"].is_boolean());
        }
        if stem != "pas-gen" {
            insta::assert_snapshot!(format!("mcp-{stem}"), mcp::render(&registry));
        }
    }
}

/// The catalog lists what the other faces list: for a level 4 spec, the synthesised verbs too.
#[test]
fn catalog_lists_the_level_4_verbs_like_the_other_faces() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../specs/docstore.yaml"
    ))
    .unwrap();
    let registry = pas_spec::load::parse(&pas_spec::Source::new(
        "docstore.yaml",
        text,
        pas_spec::Format::Yaml,
    ))
    .unwrap();
    let catalog = pas_spec::faces::catalog::catalog(&registry);
    let names: Vec<&str> = catalog.tools.iter().map(|t| t.name.as_str()).collect();
    for verb in ["ls", "cat", "stat", "cp", "rm", "sync", "feedback"] {
        assert!(names.contains(&verb), "{verb} in {names:?}");
    }
    assert_eq!(names.len(), registry.all_commands().len());
    let help = pas_spec::faces::agent_help::render_tool(&registry);
    for name in &names {
        assert!(help.contains(name), "agent help names {name} too");
    }
}

/// A robot spec's faces, pinned: they describe what the robot profile's row of the surface table
/// says the binary does (`pas_spec::surface::ROBOT`), with the registry's named table as the exit
/// codes (a success code keeps its number; no built-in row shares it) and `--force` on the
/// destructive command in every face.
#[test]
fn a_robot_spec_s_faces_follow_its_surface() {
    let (_, registry) = load(&repo().join("tests/fixtures/valid/robot.yaml"));
    let help = agent_help::render_tool(&registry);
    let apply = agent_help::render(&registry, &["apply".to_owned()]).unwrap();
    let document = llm::render(&registry);
    let one = help.lines().filter(|l| l.starts_with("  1   ")).count();
    assert!(
        help.contains("  1   Candidates found (OK_CANDIDATES, success)"),
        "{help}"
    );
    assert!(!help.contains("General error (GENERAL_ERROR"), "{help}");
    assert!(one >= 1);
    // robot confirms a destructive command with --yes (robot 6.4), not --force.
    assert!(apply.contains("--yes"), "{apply}");
    assert!(!apply.contains("--force"), "{apply}");
    let tools: Value = serde_json::from_str(&mcp::render(&registry)).unwrap();
    let apply_tool = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "apply")
        .unwrap();
    assert!(apply_tool["inputSchema"]["properties"]["yes"].is_object());
    insta::assert_snapshot!("agent-help-robot", help);
    insta::assert_snapshot!("agent-help-robot-apply", apply);
    insta::assert_snapshot!("llm-robot", document);
}

/// What a spec declares for the runtime to enforce is documented by every face: constraints and
/// relations on each parameter, side effects, requirements, credentials and scopes, untrusted
/// fields, and the constants the runtime raises for them.
#[test]
fn declarations_are_documented_by_every_face() {
    let (_, registry) = load(&repo().join("tests/fixtures/valid/declared.yaml"));
    let create = agent_help::render(&registry, &["note".to_owned(), "create".to_owned()]).unwrap();
    for fact in [
        "at most 10 characters",
        "matching ^[a-z ]+$",
        "1 to 5",
        "requires --timezone and --channel",
        "conflicts with --csv",
        "Side effects: filesystem ~/.cache/decl/ (the search index; undo: decl cache clear) \
         (`decl cleanup` lists the files, `decl cleanup --force` removes them).",
        "Needs credentials (DECL_TOKEN), else AUTH_REQUIRED",
        "Required scopes: notes:write; granted scopes named in DECL_SCOPES beyond these are \
         warned of (OVER_PRIVILEGED).",
        "AUTH_REQUIRED",
        "CREDENTIALS_EXPIRED",
    ] {
        assert!(
            create.contains(fact),
            "agent help lacks {fact:?}:\n{create}"
        );
    }
    let document = llm::render(&registry);
    assert!(
        document.contains("Untrusted fields (external content"),
        "{document}"
    );
    assert!(document.contains("REQUIREMENT_MISSING (2)"), "{document}");
    let tools: Value = serde_json::from_str(&mcp::render(&registry)).unwrap();
    let tool = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "note_create")
        .unwrap();
    let schema = &tool["inputSchema"];
    assert_eq!(schema["properties"]["priority"]["maximum"], 5);
    assert_eq!(schema["properties"]["title"]["maxLength"], 10);
    assert_eq!(schema["properties"]["title"]["pattern"], "^[a-z ]+$");
    assert_eq!(
        schema["dependentRequired"]["remind-at"],
        serde_json::json!(["timezone", "channel"])
    );
    insta::assert_snapshot!("agent-help-declared-note-create", create);
    insta::assert_snapshot!("llm-declared", document);
}

/// CLI Agent Spec 47: every tool of the MCP export carries the tool's version and a digest of
/// its definition, which changes when (and only when) what a client validates against changes.
#[test]
fn mcp_export_carries_the_tool_version_and_a_schema_hash() {
    let (_, mut registry) = load(&repo().join("tests/fixtures/valid/declared.yaml"));
    let hash_of = |registry: &Registry| {
        let tools: Value = serde_json::from_str(&mcp::render(registry)).unwrap();
        let tool = tools["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "note_create")
            .unwrap()
            .clone();
        assert_eq!(
            tool["_meta"][mcp::META_TOOL_VERSION],
            registry.version.as_str()
        );
        tool["_meta"][mcp::META_SCHEMA_HASH]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let before = hash_of(&registry);
    assert_eq!(before.len(), 16);
    assert_eq!(before, hash_of(&registry), "the digest is stable");
    registry.version = "9.9.9".into();
    assert_eq!(
        before,
        hash_of(&registry),
        "a version bump alone keeps the schema"
    );
    registry.commands[0].parameters[1].maximum = Some(7.into());
    assert_ne!(
        before,
        hash_of(&registry),
        "a changed schema changes the digest"
    );
}

/// The seed's section 11 table (robot-agent-cli-contract.md), code and constant, in order.
const SEED_EXIT_TABLE: [(u16, &str); 17] = [
    (0, "OK_CLEAN"),
    (1, "OK_CANDIDATES"),
    (2, "OK_APPLIED"),
    (3, "ERR_PARTIAL"),
    (4, "ERR_BLOCKED"),
    (5, "ERR_GOAL_UNREACHABLE"),
    (6, "ERR_INTERRUPTED"),
    (10, "ERR_ARGS"),
    (11, "ERR_CAPABILITY"),
    (12, "ERR_PERMISSION"),
    (13, "ERR_VERSION"),
    (14, "ERR_LOCK"),
    (15, "ERR_SESSION"),
    (16, "ERR_IDENTITY"),
    (20, "ERR_INTERNAL"),
    (21, "ERR_IO"),
    (22, "ERR_TIMEOUT"),
];

/// `specs/pt-agent.yaml`'s agent help and `.llm` show the seed's exit table exactly: each row
/// once, in order, and no other (a runtime error is reported under its role's constant), and
/// every face shows the robot flags and built-in words from the surface table.
#[test]
fn pt_agent_faces_show_the_seed_exit_table_and_the_robot_surface() {
    let (_, registry) = load(&repo().join("specs/pt-agent.yaml"));
    let help = agent_help::render_tool(&registry);
    let rows: Vec<(u16, String)> = help
        .split("ERROR CODES:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| !l.is_empty())
        .filter_map(|l| {
            let (code, rest) = l.trim().split_once(' ')?;
            let name = rest.rsplit_once('(')?.1.split([',', ')']).next()?;
            Some((code.parse().ok()?, name.to_owned()))
        })
        .collect();
    let expected: Vec<(u16, String)> = SEED_EXIT_TABLE
        .iter()
        .map(|(c, n)| (*c, (*n).to_owned()))
        .collect();
    assert_eq!(rows, expected, "{help}");
    let document = llm::render(&registry);
    let llm_rows: Vec<(u16, String)> = document
        .split("## Error codes\n\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| l.starts_with("- "))
        .filter_map(|l| {
            let (code, rest) = l.strip_prefix("- ")?.split_once(": ")?;
            let name = rest.rsplit_once('(')?.1.split([',', ')']).next()?;
            Some((code.parse().ok()?, name.to_owned()))
        })
        .collect();
    assert_eq!(llm_rows, expected, "{document}");
    let apply = agent_help::render(&registry, &["apply".to_owned()]).unwrap();
    let catalog = pas_spec::faces::catalog::to_json(&registry);
    let tools = mcp::render(&registry);
    for flag in [
        "--compact",
        "--fields",
        "--format <json|md>",
        "--include-prose",
        "--prose-style",
    ] {
        assert!(help.contains(flag) && document.contains(flag), "{flag}");
        let name = flag.trim_start_matches('-').split(' ').next().unwrap();
        assert!(catalog.contains(&format!("\"name\":\"{name}\"")), "{name}");
    }
    for flag in ["--session <ID>", "--resume", "--yes"] {
        assert!(apply.contains(flag) && document.contains(flag), "{flag}");
    }
    for word in ["pt-agent sessions", "pt-agent capabilities"] {
        assert!(help.contains(word) && document.contains(word), "{word}");
    }
    let listed: Value = serde_json::from_str(&tools).unwrap();
    let apply_tool = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "apply")
        .unwrap();
    let schema = &apply_tool["inputSchema"];
    for name in ["yes", "session", "resume"] {
        assert!(schema["properties"][name].is_object(), "{name}");
    }
    assert!(
        schema["required"]
            .as_array()
            .unwrap()
            .contains(&"session".into())
    );
    assert!(
        !help.contains("without --agent"),
        "robot output is the envelope always"
    );
}

/// Faces list only what is built (issue 29, item 3): a tool built without `completions` and
/// `man` (a scaffold: pas-kit with `mcp` only) has neither in its agent help or `.llm`, and
/// one built without `mcp` has no `mcp`; the words every tool has stay.
#[test]
fn faces_list_only_the_built_ins_the_tool_is_built_with() {
    for (stem, mut registry) in all_specs() {
        for built in [
            pas_spec::Features::from_names(["mcp"]),
            pas_spec::Features::NONE,
        ] {
            registry.built = built;
            let help = agent_help::render_tool(&registry);
            let doc = llm::render(&registry);
            for word in ["completions", "man"] {
                let listed = format!("{} {word}", registry.name);
                assert!(
                    !help.contains(&listed),
                    "{stem} {built:?}: {listed} in\n{help}"
                );
                assert!(
                    !doc.contains(&listed),
                    "{stem} {built:?}: {listed} in\n{doc}"
                );
            }
            // (pas-gen's own `mcp` command wins over the built-in: it is listed as a command.)
            let own_mcp = registry.commands.iter().any(|c| c.argv_path() == ["mcp"]);
            let mcp = format!("`{}`", pas_spec::surface::builtin_call(&registry, "mcp"));
            assert!(
                own_mcp || doc.contains(&mcp) == built.mcp,
                "{stem} {built:?}:\n{doc}"
            );
            assert!(doc.contains("docs`"), "{stem}: docs is always built");
        }
        // With every feature (what a spec describes until told otherwise) they are listed.
        registry.built = pas_spec::Features::ALL;
        let doc = llm::render(&registry);
        for word in ["completions", "man"] {
            let call = pas_spec::surface::builtin_call(&registry, word);
            assert!(
                doc.contains(&format!("`{call}")),
                "{stem}: {call} in\n{doc}"
            );
        }
    }
}

/// Built-ins never shadow arguments (issue 27, item 6): a one-command tool whose root takes
/// positionals writes every built-in as `TOOL --builtin WORD` in every face; a tool with
/// subcommands keeps the bare word.
#[test]
fn a_root_positional_tool_writes_its_built_ins_with_the_flag() {
    for (stem, registry) in all_specs() {
        let needs = pas_spec::surface::builtins_need_flag(&registry);
        assert_eq!(needs, stem == "word-counter", "{stem}");
        let doc = llm::render(&registry);
        let docs = format!("`{} --builtin docs`", registry.name);
        assert_eq!(doc.contains(&docs), needs, "{stem}:\n{doc}");
        let bare = format!("`{} docs`", registry.name);
        assert_eq!(doc.contains(&bare), !needs, "{stem}:\n{doc}");
        let skill = pas_spec::faces::skill::render(&registry);
        assert!(
            skill.contains(&pas_spec::surface::builtin_call(&registry, "docs")),
            "{stem}:\n{skill}"
        );
    }
}

/// Every input example the MCP export gives a tool (issue 31, item 5) is one the tool takes:
/// valid against the tool's own `inputSchema`, and the specs' examples do give some.
#[test]
fn mcp_input_examples_are_valid_arguments_of_their_tool() {
    let mut seen = 0;
    for (stem, registry) in all_specs() {
        let list = mcp::tools_list(&registry);
        for tool in list["tools"].as_array().unwrap() {
            let Some(examples) = tool["_meta"].get(mcp::META_INPUT_EXAMPLES) else {
                continue;
            };
            let validator = jsonschema::validator_for(&tool["inputSchema"]).unwrap();
            for example in examples.as_array().unwrap() {
                let errors: Vec<String> = validator
                    .iter_errors(example)
                    .map(|e| e.to_string())
                    .collect();
                assert!(
                    errors.is_empty(),
                    "{stem} {}: {example} breaks its inputSchema: {errors:?}",
                    tool["name"]
                );
                seen += 1;
            }
        }
    }
    assert!(
        seen >= 20,
        "only {seen} input examples in the example specs"
    );
}
