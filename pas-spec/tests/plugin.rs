//! The Agent Plugins face of every example spec, pas-gen's own and a hostile one: the manifest
//! and `mcp.json` pass the format's own JSON Schemas (Agent Plugins 1.0.0, vendored in
//! tests/fixtures/agent-plugins/ with their source and license), and the package keeps the rules
//! the specification adds to them. Snapshots pin the manifest and `mcp.json` of two examples.

mod common;

use std::path::{Path, PathBuf};

use pas_spec::faces::{plugin, skill};
use pas_spec::{Features, Registry};
use serde_json::{Value, json};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every example spec, pas-gen's own and the hostile one, by file stem.
fn all_specs() -> Vec<(String, Registry)> {
    let mut specs: Vec<(String, Registry)> = common::example_specs()
        .iter()
        .map(|p| (common::stem(p), common::load(p)))
        .collect();
    for extra in [
        "pas-gen/pas-gen.yaml",
        "tests/fixtures/injection/hostile-strings.yaml",
    ] {
        let path = repo().join(extra);
        specs.push((common::stem(&path), common::load(&path)));
    }
    specs
}

/// The format's schema of `file` (`plugin` or `mcp`), as published.
fn validator(file: &str) -> jsonschema::Validator {
    let path = repo().join(format!(
        "tests/fixtures/agent-plugins/1.0.0/{file}.schema.json"
    ));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    jsonschema::draft202012::new(&schema).expect("the published schema compiles")
}

fn problems(validator: &jsonschema::Validator, value: &Value) -> Vec<String> {
    validator
        .iter_errors(value)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

fn file<'a>(files: &'a [(String, String)], path: &str) -> &'a str {
    files
        .iter()
        .find(|(p, _)| p == path)
        .map(|(_, text)| text.as_str())
        .unwrap_or_else(|| panic!("no {path} in {:?}", paths(files)))
}

fn paths(files: &[(String, String)]) -> Vec<&str> {
    files.iter().map(|(p, _)| p.as_str()).collect()
}

#[test]
fn every_package_passes_the_published_schemas() {
    let (manifests, mcps) = (validator("plugin"), validator("mcp"));
    for (stem, registry) in all_specs() {
        let files = plugin::files(&registry);
        let manifest: Value = serde_json::from_str(file(&files, plugin::MANIFEST_FILE)).unwrap();
        assert_eq!(
            problems(&manifests, &manifest),
            Vec::<String>::new(),
            "{stem}"
        );
        let mcp: Value = serde_json::from_str(file(&files, plugin::MCP_FILE)).unwrap();
        assert_eq!(problems(&mcps, &mcp), Vec::<String>::new(), "{stem}");
    }
}

/// The schemas are not vacuous here: what the specification forbids, they refuse.
#[test]
fn the_schemas_refuse_what_the_format_forbids() {
    let (manifests, mcps) = (validator("plugin"), validator("mcp"));
    let schema = plugin::MANIFEST_SCHEMA;
    for bad in [
        json!({"$schema": schema, "name": "Todo"}),
        json!({"$schema": schema, "name": "to--do"}),
        json!({"$schema": schema, "name": "todo", "skills": "./skills/"}),
        json!({"name": "todo"}),
    ] {
        assert!(!problems(&manifests, &bad).is_empty(), "{bad}");
    }
    let bad = json!({"$schema": plugin::MCP_SCHEMA, "mcpServers": {"todo": {"command": "todo"}}});
    assert!(!problems(&mcps, &bad).is_empty(), "a server needs its type");
}

/// What the specification says beyond the schemas: the skill is `skills/<name>/SKILL.md` whose
/// frontmatter names its directory, the manifest's name is the package's, the server's
/// `command` is one bare executable token (the tool's name) and its args reach `mcp`.
#[test]
fn every_package_keeps_the_specification_s_rules() {
    for (stem, registry) in all_specs() {
        let files = plugin::files(&registry);
        let name = plugin::name(&registry);
        let manifest: Value = serde_json::from_str(file(&files, plugin::MANIFEST_FILE)).unwrap();
        assert_eq!(manifest["name"], json!(name), "{stem}");
        assert_eq!(manifest["version"], json!(registry.version), "{stem}");
        assert_eq!(
            file(&files, &format!("skills/{name}/SKILL.md")),
            skill::render(&registry),
            "{stem}: the skill face's own bytes"
        );
        assert!(
            skill::render(&registry).contains(&format!("\nname: {name}\n")),
            "{stem}: the skill's name is its directory's"
        );
        assert!(
            files
                .iter()
                .all(|(path, _)| !path.starts_with('/') && !path.contains("..")),
            "{stem}: {:?}",
            paths(&files)
        );
        let mcp: Value = serde_json::from_str(file(&files, plugin::MCP_FILE)).unwrap();
        let server = &mcp["mcpServers"][&name];
        let command = server["command"].as_str().unwrap();
        assert_eq!(command, registry.name, "{stem}");
        assert!(
            !command.contains(['/', ' ', '\t']),
            "{stem}: one bare token, not a path or a shell line: {command}"
        );
        assert_eq!(
            server["args"],
            json!(pas_spec::surface::builtin_argv(
                &registry,
                pas_spec::surface::MCP_WORD
            )),
            "{stem}"
        );
    }
}

#[test]
fn the_package_is_byte_stable_and_lists_its_files_in_order() {
    for (stem, registry) in all_specs() {
        let files = plugin::files(&registry);
        assert_eq!(files, plugin::files(&registry), "{stem}");
        let name = plugin::name(&registry);
        assert_eq!(
            paths(&files),
            [
                "plugin.json".to_owned(),
                format!("skills/{name}/SKILL.md"),
                format!("skills/{name}/references/{name}.llm"),
                "mcp.json".to_owned(),
            ],
            "{stem}"
        );
    }
}

/// A tool built without its MCP server has no `mcp.json`: a package never names a server that
/// answers `MCP_NOT_BUILT`.
#[test]
fn a_tool_without_mcp_packages_no_server() {
    let mut registry = common::load(&common::specs_dir().join("todo.yaml"));
    registry.built = Features::NONE;
    let files = plugin::files(&registry);
    assert!(
        !paths(&files).contains(&plugin::MCP_FILE),
        "{:?}",
        paths(&files)
    );
    assert!(paths(&files).contains(&plugin::MANIFEST_FILE));
}

#[test]
fn manifests_and_servers_of_two_examples() {
    for stem in ["todo", "word-counter"] {
        let registry = common::load(&common::specs_dir().join(format!("{stem}.yaml")));
        insta::assert_snapshot!(format!("plugin-json-{stem}"), plugin::manifest(&registry));
        insta::assert_snapshot!(format!("mcp-json-{stem}"), plugin::mcp_config(&registry));
    }
}
