//! The Agent Plugins face end to end: `pas-gen plugin SPEC --out DIR` writes `DIR/<tool>/`
//! (`plugin.json`, `skills/<tool>/SKILL.md` with its reference, `mcp.json`), file for file and
//! byte for byte what the CLI built from SPEC writes with `docs --plugin DIR`; every package of
//! specs/ (and pas-gen's own, and a hostile spec's) passes the format's published JSON Schemas
//! (Agent Plugins 1.0.0, tests/fixtures/agent-plugins/) and its skill the reference Agent Skills
//! validator (npm `skills-ref`, installed into tests/skills-ref/ by .ci/run). Writing again
//! replaces the package's files and leaves every other file as it was.
//!
//! Without node or the installed skills validator that one check is skipped with a loud
//! message, except under CI (`CI` set), where it fails. The schemas need nothing installed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// `pas-gen --agent plugin SPEC --out OUT`, which must succeed; its reply.
fn pas_gen_plugin(spec: &str, out: &Path) -> Value {
    let assert = assert_cmd::Command::cargo_bin("pas-gen")
        .unwrap()
        .args(["--agent", "plugin", spec, "--out"])
        .arg(out)
        .current_dir(repo())
        .env_remove("PAS_AGENT")
        .assert()
        .success();
    serde_json::from_slice(&assert.get_output().stdout).unwrap()
}

/// The runtime's CLI for a spec (a binary of pas-testbins, built by `cargo test --workspace`),
/// in machine mode (`PAS_AGENT`, which every profile takes).
fn spec_cli(spec: &str, args: &[&str]) -> Output {
    let exe = Path::new(env!("CARGO_BIN_EXE_pas-gen"))
        .with_file_name(format!("pas-spec-cli{}", std::env::consts::EXE_SUFFIX));
    assert!(
        exe.exists(),
        "{} is missing: run `cargo build -p pas-testbins` (or `cargo test --workspace`)",
        exe.display()
    );
    Command::new(exe)
        .args(args)
        .current_dir(repo())
        .env("PAS_SPEC_CLI_SPEC", spec)
        .env("PAS_AGENT", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Every example spec, pas-gen's own and the hostile one, relative to the repository.
fn specs() -> Vec<String> {
    let mut paths: Vec<String> = std::fs::read_dir(repo().join("specs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .map(|p| format!("specs/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    paths.sort();
    paths.push("pas-gen/pas-gen.yaml".to_owned());
    paths.push("tests/fixtures/injection/hostile-strings.yaml".to_owned());
    paths
}

/// Every file under `dir`, by path relative to it.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

fn expected_files(name: &str) -> Value {
    json!([
        "plugin.json",
        format!("skills/{name}/SKILL.md"),
        format!("skills/{name}/references/{name}.llm"),
        "mcp.json",
    ])
}

#[test]
fn the_written_package_is_what_the_built_cli_writes() {
    let out = tempfile::tempdir().unwrap();
    for spec in specs() {
        let (from_spec, from_cli) = (out.path().join("gen"), out.path().join("cli"));
        let reply = pas_gen_plugin(&spec, &from_spec);
        let name = reply["name"].as_str().unwrap().to_owned();
        assert_eq!(reply["files"], expected_files(&name), "{spec}");
        let dir = from_spec.join(&name);
        assert_eq!(reply["dir"], json!(dir.display().to_string()), "{spec}");

        let output = spec_cli(
            &spec,
            &["--builtin", "docs", "--plugin", from_cli.to_str().unwrap()],
        );
        assert!(output.status.success(), "{spec}: {output:?}");
        let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(answer["name"], json!(name), "{spec}");
        assert_eq!(answer["files"], reply["files"], "{spec}");

        let (written, built) = (tree(&dir), tree(&from_cli.join(&name)));
        assert_eq!(
            written.keys().collect::<Vec<_>>(),
            built.keys().collect::<Vec<_>>(),
            "{spec}"
        );
        for (path, bytes) in &written {
            assert_eq!(
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(&built[path]),
                "{spec}: {path}, pas-gen plugin vs the CLI's docs --plugin"
            );
        }
        std::fs::remove_dir_all(out.path().join("gen")).unwrap();
        std::fs::remove_dir_all(out.path().join("cli")).unwrap();
    }
}

/// The format's schema of `file` (`plugin` or `mcp`), as published.
fn schema(file: &str) -> jsonschema::Validator {
    let path = repo().join(format!(
        "tests/fixtures/agent-plugins/1.0.0/{file}.schema.json"
    ));
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::draft202012::new(&schema).unwrap()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_written_package_passes_the_format_s_schemas() {
    let (manifests, mcps) = (schema("plugin"), schema("mcp"));
    let out = tempfile::tempdir().unwrap();
    for spec in specs() {
        let reply = pas_gen_plugin(&spec, out.path());
        let dir = PathBuf::from(reply["dir"].as_str().unwrap());
        for (file, validator) in [("plugin.json", &manifests), ("mcp.json", &mcps)] {
            let value = read_json(&dir.join(file));
            let errors: Vec<String> = validator
                .iter_errors(&value)
                .map(|e| format!("{e} at {}", e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{spec}: {file}: {errors:#?}");
        }
        // The package's directory and its server are the manifest's name.
        let name = reply["name"].as_str().unwrap();
        assert_eq!(dir.file_name().unwrap().to_str(), Some(name), "{spec}");
        assert_eq!(read_json(&dir.join("plugin.json"))["name"], json!(name));
        assert!(read_json(&dir.join("mcp.json"))["mcpServers"][name].is_object());
    }
}

/// The reference Agent Skills validator's CLI, when installed.
fn skills_validator() -> Option<PathBuf> {
    let cli = repo().join("tests/skills-ref/node_modules/skills-ref/dist/cli.js");
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if node && cli.is_file() {
        return Some(cli);
    }
    let why = "the reference Agent Skills validator is not installed: run `npm ci --prefix tests/skills-ref` (node needed)";
    assert!(std::env::var_os("CI").is_none(), "{why}");
    eprintln!("\n!!! SKIPPED the skills-ref validation of the plugins' skills: {why} !!!\n");
    None
}

#[test]
fn every_package_s_skill_passes_the_reference_validator() {
    let Some(cli) = skills_validator() else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    for spec in specs() {
        let reply = pas_gen_plugin(&spec, out.path());
        let name = reply["name"].as_str().unwrap();
        let skill = PathBuf::from(reply["dir"].as_str().unwrap()).join(format!("skills/{name}"));
        let output = Command::new("node")
            .arg(&cli)
            .arg("validate")
            .arg(&skill)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{spec}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// Writing into a package's directory again replaces the package's own files (the reply names
/// each) and leaves a user's other files there as they were; pas-gen and the CLI alike.
#[test]
fn writing_again_replaces_the_package_s_files_and_keeps_the_rest() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("todo");
    std::fs::create_dir_all(dir.join("skills/todo")).unwrap();
    std::fs::write(dir.join("README.md"), "my notes\n").unwrap();
    std::fs::write(dir.join("skills/todo/extra.md"), "mine\n").unwrap();
    std::fs::write(dir.join("plugin.json"), "{}\n").unwrap();

    let reply = pas_gen_plugin("specs/todo.yaml", out.path());
    assert_eq!(reply["files"], expected_files("todo"));
    assert_eq!(read_json(&dir.join("plugin.json"))["name"], json!("todo"));
    let first = tree(&dir);
    assert_eq!(first["README.md"], b"my notes\n");
    assert_eq!(first["skills/todo/extra.md"], b"mine\n");

    std::fs::write(dir.join("plugin.json"), "{}\n").unwrap();
    let output = spec_cli(
        "specs/todo.yaml",
        &["docs", &format!("--plugin={}", out.path().display())],
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(tree(&dir), first, "the CLI writes the same, keeps the same");
}

#[test]
fn docs_plugin_needs_one_directory() {
    let missing = spec_cli("specs/todo.yaml", &["docs", "--plugin"]);
    assert!(!missing.status.success());
    let text = String::from_utf8_lossy(&missing.stdout) + String::from_utf8_lossy(&missing.stderr);
    assert!(text.contains("MISSING_ARGUMENT"), "{text}");
    assert!(text.contains("docs --plugin <dir>"), "{text}");

    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let extra = spec_cli("specs/todo.yaml", &["docs", "--plugin", dir, "more"]);
    assert!(!extra.status.success());
    let text = String::from_utf8_lossy(&extra.stdout) + String::from_utf8_lossy(&extra.stderr);
    assert!(text.contains("UNKNOWN_ARGUMENT"), "{text}");
    assert!(
        std::fs::read_dir(out.path()).unwrap().next().is_none(),
        "a refused call writes nothing"
    );
}

/// A person (no machine mode) is told in a sentence which files were written.
#[test]
fn a_person_reads_what_was_written() {
    let out = tempfile::tempdir().unwrap();
    let exe = Path::new(env!("CARGO_BIN_EXE_pas-gen"))
        .with_file_name(format!("pas-spec-cli{}", std::env::consts::EXE_SUFFIX));
    let output = Command::new(exe)
        .args(["--builtin", "docs", "--plugin"])
        .arg(out.path())
        .current_dir(repo())
        .env("PAS_SPEC_CLI_SPEC", "specs/word-counter.yaml")
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.starts_with("wrote the plugin word-counter in ")
            && text.contains("plugin.json, skills/word-counter/SKILL.md"),
        "{text}"
    );
}
