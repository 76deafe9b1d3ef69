//! `pas-gen new` and `pas-gen generate` end to end: every example spec (and the injection corpus)
//! becomes a project that builds offline and passes its own contract test; the binary prints
//! back the spec it was generated from (the round trip); `generate` after a spec change leaves
//! the user's files byte for byte alone. Snapshots pin each scaffolded tree. Each scaffold of
//! `specs/` passes `pas-gen conform` at level 1 with its stub handlers.
//!
//! The projects build in one target directory under the workspace's (`target/scaffolds`), so the
//! runtime and its dependencies compile once for all of them, with the workspace's Cargo.lock so
//! the versions are the ones already fetched.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use pas_spec::{Format, Registry, Source};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn pas_gen() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("pas-gen").unwrap()
}

fn scaffold_target() -> PathBuf {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| repo().join("target"), PathBuf::from);
    target.join("scaffolds")
}

/// Every example spec (levels 1 to 4) and the injection corpus.
fn specs() -> Vec<PathBuf> {
    let mut specs: Vec<PathBuf> = std::fs::read_dir(repo().join("specs"))
        .unwrap()
        .chain(std::fs::read_dir(repo().join("tests/fixtures/injection")).unwrap())
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "yaml"))
        .collect();
    specs.sort();
    specs
}

fn load(path: &Path) -> Registry {
    pas_spec::load::load_path(path)
        .unwrap_or_else(|d| panic!("{d:?}"))
        .1
}

fn new_project(spec: &Path, out: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    pas_gen()
        .arg("--agent")
        .arg("new")
        .arg(spec)
        .arg("--out")
        .arg(out)
        .args(extra)
        .assert()
}

/// `cargo ARGS` in a scaffolded project, offline (the network cut: its seeded Cargo.lock must
/// be enough), in the shared target directory.
fn cargo_output(project: &Path, args: &[&str]) -> std::process::Output {
    assert!(
        project.join("Cargo.lock").exists(),
        "new seeds the scaffold's lockfile"
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    Command::new(cargo)
        .args(args)
        .args(["--offline", "--quiet"])
        .current_dir(project)
        .env("CARGO_TARGET_DIR", scaffold_target())
        .env("CARGO_NET_OFFLINE", "true")
        .env_remove("PAS_AGENT")
        .output()
        .unwrap()
}

/// `cargo ARGS` in a scaffolded project, which must succeed.
fn cargo(project: &Path, args: &[&str]) {
    let output = cargo_output(project, args);
    assert!(
        output.status.success(),
        "cargo {args:?} in {}:\n{}\n{}",
        project.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn every_spec_scaffolds_builds_passes_its_tests_and_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    for spec in specs() {
        let registry = load(&spec);
        let out = dir.path().join(&registry.name);
        new_project(&spec, &out, &[]).success();
        cargo(&out, &["test"]);
        let binary = scaffold_target().join("debug").join(&registry.name);
        let printed = Command::new(&binary).arg("--pas-spec").output().unwrap();
        assert!(printed.status.success());
        let source = Source::new(
            "--pas-spec",
            String::from_utf8(printed.stdout).unwrap(),
            Format::Json,
        );
        let printed = pas_spec::load::parse(&source).unwrap();
        assert_eq!(
            pas_emit::canonical(&printed),
            pas_emit::canonical(&registry),
            "{} does not round-trip",
            spec.display()
        );
        if spec.starts_with(repo().join("specs")) {
            conforms_at_level_1(&binary);
        }
    }
}

/// A scaffold (every handler a NOT_IMPLEMENTED stub) still keeps level 1 of its contract:
/// structured errors, nothing interactive, `--agent` anywhere. `pas-gen conform` reads the
/// spec and the contract from the binary's own `--pas-spec`.
fn conforms_at_level_1(binary: &Path) {
    let output = pas_gen()
        .args(["--agent", "conform", "--level", "1", "--"])
        .arg(binary)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{} does not conform at level 1:\n{}\n{}",
        binary.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Each scaffolded tree, file by file (with a version dependency, so no local path is pinned).
#[test]
fn scaffolded_trees_are_pinned() {
    for spec in specs() {
        let dir = tempfile::tempdir().unwrap();
        new_project(&spec, dir.path(), &["--pas-version", "0.1.0"]).success();
        let mut files = BTreeMap::new();
        collect(dir.path(), dir.path(), &mut files);
        // The seeded lockfile is this workspace's, whatever it holds today.
        let lock = files.remove("Cargo.lock").expect("a seeded Cargo.lock");
        assert_eq!(
            lock,
            std::fs::read_to_string(repo().join("Cargo.lock")).unwrap()
        );
        let tree: String = files
            .iter()
            .map(|(path, text)| format!("===== {path}\n{text}\n"))
            .collect();
        let name = spec.file_name().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(format!("tree__{name}"), tree);
    }
}

fn collect(root: &Path, dir: &Path, files: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(root, &path, files);
        } else {
            let relative = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            files.insert(relative, std::fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn a_directory_that_is_not_empty_is_refused_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mine.txt"), "keep").unwrap();
    let spec = repo().join("specs/weather.yaml");
    let assert = new_project(&spec, dir.path(), &[]).code(102);
    assert!(assert.get_output().stdout.is_empty());
    new_project(&spec, dir.path(), &["--force"]).success();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("mine.txt")).unwrap(),
        "keep"
    );
}

#[test]
fn generate_after_a_spec_change_keeps_user_files_and_names_the_new_handlers() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("weather.yaml");
    std::fs::copy(repo().join("specs/weather.yaml"), &spec).unwrap();
    let out = dir.path().join("project");
    new_project(&spec, &out, &[]).success();
    // The user writes code in the files that are theirs.
    let handlers = out.join("src/handlers.rs");
    let mut text = std::fs::read_to_string(&handlers).unwrap();
    text.push_str("\n// my own code\n");
    std::fs::write(&handlers, &text).unwrap();
    let mut before = BTreeMap::new();
    collect(&out, &out, &mut before);

    // The spec gains a command.
    let changed = std::fs::read_to_string(&spec).unwrap()
        + "\n  - name: alerts\n    description: Weather alerts now in effect.\n    output: list\n";
    std::fs::write(&spec, changed).unwrap();
    let assert = pas_gen()
        .args(["--agent", "generate"])
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let report: serde_json::Value = serde_json::from_slice(&assert.get_output().stdout).unwrap();
    assert_eq!(report["files"][0]["status"], "rewritten");
    assert_eq!(report["files"][1]["path"], "docs/weather.llm");
    assert_eq!(report["files"][1]["status"], "rewritten");
    assert_eq!(report["neededHandlers"][0]["method"], "alerts");

    let mut after = BTreeMap::new();
    collect(&out, &out, &mut after);
    for (path, text) in &before {
        // README.md: only its @generated part (the agent help) follows the spec.
        if path != "src/generated.rs" && path != "docs/weather.llm" && path != "README.md" {
            assert_eq!(Some(text), after.get(path), "{path} changed");
        }
    }
    assert!(after["src/generated.rs"].contains("fn alerts("));
    assert!(after["docs/weather.llm"].contains("### alerts"));
    assert_eq!(report["files"][2]["path"], "README.md");
    assert_eq!(report["files"][2]["status"], "rewritten");
    let readme_head = |text: &str| text.split("<!-- @generated").next().unwrap().to_owned();
    assert_eq!(
        readme_head(&before["README.md"]),
        readme_head(&after["README.md"]),
        "the README outside its @generated part is the user's"
    );

    // Again: nothing to do. A generated file the user took over (no header) is left alone.
    let again = pas_gen()
        .args(["--agent", "generate"])
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let report: serde_json::Value = serde_json::from_slice(&again.get_output().stdout).unwrap();
    assert_eq!(report["files"][0]["status"], "unchanged");
    assert_eq!(report["files"][1]["status"], "unchanged");
    let owned = "// mine now\nfn main() {}\n";
    std::fs::write(out.join("src/generated.rs"), owned).unwrap();
    let kept = pas_gen()
        .args(["--agent", "generate"])
        .arg(&spec)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let report: serde_json::Value = serde_json::from_slice(&kept.get_output().stdout).unwrap();
    assert_eq!(report["files"][0]["status"], "kept");
    assert_eq!(
        std::fs::read_to_string(out.join("src/generated.rs")).unwrap(),
        owned
    );
}

/// Writes `handlers` as the scaffold's src/handlers.rs (the stubs replaced by the user's code).
fn fill_handlers(project: &Path, body: &str) {
    let text = format!(
        "use pas::{{Context, Error, Items}};\nuse crate::generated::*;\n\npub struct Tool;\n\n\
         impl Handlers for Tool {{\n{body}\n    fn forecast(&self, _g: &Globals, _a: ForecastArgs, _c: &Context) -> Result<Items<ForecastItem>, Error> {{ Ok(Items::ok(Vec::new())) }}\n\
         fn search(&self, _g: &Globals, _a: SearchArgs, _c: &Context) -> Result<Items<SearchItem>, Error> {{ Ok(Items::ok(Vec::new())) }}\n}}\n"
    );
    std::fs::write(project.join("src/handlers.rs"), text).unwrap();
}

#[test]
fn error_codes_are_typed_a_misspelt_one_does_not_compile_and_an_undeclared_string_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("weather");
    new_project(&repo().join("specs/weather.yaml"), &out, &[]).success();

    // A misspelt variant of the generated ErrorCode is a compile error naming it.
    fill_handlers(
        &out,
        "    fn current(&self, _g: &Globals, _a: CurrentArgs, _c: &Context) -> Result<CurrentOutput, Error> { Err(ErrorCode::CityNotFund.error(\"no such city\")) }",
    );
    let failed = cargo_output(&out, &["build"]);
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(!failed.status.success(), "a misspelt code must not build");
    assert!(stderr.contains("CityNotFund"), "{stderr}");

    // Spelt right, the typed code is the spec's constant and exit code.
    fill_handlers(
        &out,
        "    fn current(&self, _g: &Globals, _a: CurrentArgs, _c: &Context) -> Result<CurrentOutput, Error> { Err(ErrorCode::CityNotFound.error(\"no such city\")) }",
    );
    cargo(&out, &["build"]);
    let binary = scaffold_target().join("debug/weather");
    let run = Command::new(&binary)
        .args(["--agent", "current", "Atlantis"])
        .env("WEATHER_API_KEY", "k-test-123456")
        .output()
        .unwrap();
    let error: serde_json::Value = serde_json::from_slice(&run.stderr).unwrap();
    assert_eq!(error["error"], "CITY_NOT_FOUND", "{error}");
    assert_eq!(run.status.code(), Some(100));

    // A string code the spec does not declare still compiles; a debug build reports it.
    fill_handlers(
        &out,
        "    fn current(&self, _g: &Globals, _a: CurrentArgs, _c: &Context) -> Result<CurrentOutput, Error> { Err(Error::new(\"CITY_NOTFOUND\", \"no such city\")) }",
    );
    cargo(&out, &["build"]);
    let run = Command::new(&binary)
        .args(["--agent", "current", "Atlantis"])
        .env("WEATHER_API_KEY", "k-test-123456")
        .output()
        .unwrap();
    let error: serde_json::Value = serde_json::from_slice(&run.stderr).unwrap();
    assert_eq!(error["error"], "INTERNAL_ERROR", "{error}");
    assert_eq!(error["details"]["undeclared"], "CITY_NOTFOUND", "{error}");
    assert!(error["message"].as_str().unwrap().contains("CITY_NOTFOUND"));

    // And conform, running the spec's examples, fails the tool for it.
    let output = pas_gen()
        .args(["--agent", "conform", "--level", "2", "--"])
        .arg(&binary)
        .env("WEATHER_API_KEY", "k-test-123456")
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let known = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|l| l["check"] == "errors.known")
        .unwrap_or_else(|| panic!("errors.known ran: {text}"));
    assert_eq!(known["status"], "fail", "{known}");
}

#[test]
fn new_run_twice_finds_its_own_scaffold_and_keeps_the_user_s_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("weather");
    let spec = repo().join("specs/weather.yaml");
    new_project(&spec, &out, &[]).success();
    let handlers = out.join("src/handlers.rs");
    std::fs::write(&handlers, "// mine\n").unwrap();
    // Cargo rewrites the seeded lockfile on the first build.
    std::fs::write(out.join("Cargo.lock"), "# rewritten by cargo\n").unwrap();
    std::fs::remove_file(out.join("docs/weather.llm")).unwrap();
    let again = new_project(&spec, &out, &[]).success();
    let report: serde_json::Value = serde_json::from_slice(&again.get_output().stdout).unwrap();
    assert_eq!(report["files"], serde_json::json!(["docs/weather.llm"]));
    assert_eq!(std::fs::read_to_string(&handlers).unwrap(), "// mine\n");
    assert_eq!(
        std::fs::read_to_string(out.join("Cargo.lock")).unwrap(),
        "# rewritten by cargo\n"
    );
    // Another spec's scaffold is still not overwritten.
    new_project(&repo().join("specs/todo.yaml"), &out, &[]).code(102);
}

#[test]
fn generate_after_adding_a_flag_names_it_and_refreshes_the_readme() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("weather.yaml");
    let text = std::fs::read_to_string(repo().join("specs/weather.yaml")).unwrap();
    std::fs::write(&spec, &text).unwrap();
    let out = dir.path().join("project");
    new_project(&spec, &out, &[]).success();
    let generate = || {
        let output = pas_gen()
            .arg("generate")
            .arg(&spec)
            .arg("--out")
            .arg(&out)
            .env_remove("PAS_AGENT")
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    insta::assert_snapshot!("generate-nothing-to-do", generate());

    // `current` gains a flag and an error, loses nothing; `search` changes its parameter's type.
    let changed = text
        .replacen(
            "        description: City name, optionally with a country code (`Paris,FR`).\n",
            "        description: City name, optionally with a country code (`Paris,FR`).\n      - name: untagged\n        type: boolean\n        description: Only untagged ones.\n",
            1,
        );
    assert_ne!(changed, text, "the spec changed");
    std::fs::write(&spec, &changed).unwrap();
    let report = generate();
    assert!(
        report.contains("current: new parameter --untagged (boolean)"),
        "{report}"
    );
    assert!(report.contains("README.md: rewritten"), "{report}");
    insta::assert_snapshot!("generate-after-adding-a-flag", report);
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(
        readme.contains("--untagged"),
        "the README's agent help is refreshed"
    );
}
