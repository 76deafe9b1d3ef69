//! A user outside this repository: the published crates are packaged, pas-gen is installed from
//! its package into a temporary root (`cargo install --path` of the unpacked package, offline),
//! and that pas-gen scaffolds a spec in an empty directory outside the repository. The scaffold
//! depends on the registry's pas-kit of pas-gen's own version, names no path into the repository
//! in any file, and builds and passes its tests against the packaged runtime (the unpacked
//! packages stand in for the registry through `[patch.crates-io]`, given on the command line so
//! the project's files stay as the user gets them).
//!
//! It builds pas-gen and the scaffold from scratch (minutes), so `cargo test` skips it and
//! `.ci/run` runs it: `cargo test -p pas-gen --test outside -- --ignored`.

use std::path::{Path, PathBuf};
use std::process::Command;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The crates a user gets from the registry, dependencies first.
const PUBLISHED: [&str; 6] = [
    "pas-spec",
    "pas-emit",
    "pas-macros",
    "pas-conform",
    "pas-kit",
    "pas-gen",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

/// Not the workspace's target directory (the running `cargo test` holds it), but the one the
/// scaffold tests build in (`target/scaffolds`, tests/scaffold.rs, run after this one): the
/// third-party crates a scaffold needs are compiled once for both.
fn target() -> PathBuf {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| repo().join("target"), PathBuf::from);
    target.join("scaffolds")
}

/// Runs cargo offline in `dir` with this test's target directory; panics with its output on
/// failure.
fn cargo(dir: &Path, args: &[&str]) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(args)
        .arg("--offline")
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target())
        .env_remove("PAS_AGENT")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo {args:?} in {}:\n{}\n{}",
        dir.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `--config` arguments that take each library crate from its unpacked package.
fn patches(packages: &Path) -> Vec<String> {
    PUBLISHED
        .iter()
        .filter(|name| **name != "pas-gen")
        .flat_map(|name| {
            let dir = packages.join(format!("{name}-{VERSION}"));
            [
                "--config".to_owned(),
                format!("patch.crates-io.{name}.path={:?}", dir.to_str().unwrap()),
            ]
        })
        .collect()
}

fn files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, into);
        } else {
            into.push(path);
        }
    }
}

#[test]
#[ignore = "packages the crates and builds pas-gen and a scaffold from scratch; .ci/run runs it"]
fn an_installed_pas_gen_scaffolds_a_project_that_builds_outside_the_repository() {
    let work = tempfile::tempdir().unwrap();
    let work = work.path().canonicalize().unwrap();
    assert!(
        !work.starts_with(repo()),
        "the temporary directory is outside"
    );

    // The packages, as a user's cargo would download them.
    let mut package = vec!["package", "--no-verify", "--allow-dirty"];
    for name in PUBLISHED {
        package.extend(["-p", name]);
    }
    cargo(&repo(), &package);
    let packages = work.join("packages");
    std::fs::create_dir_all(&packages).unwrap();
    for name in PUBLISHED {
        let crate_file = target().join(format!("package/{name}-{VERSION}.crate"));
        let status = Command::new("tar")
            .arg("xzf")
            .arg(&crate_file)
            .arg("-C")
            .arg(&packages)
            .status()
            .unwrap();
        assert!(status.success(), "unpack {}", crate_file.display());
    }
    let patches = patches(&packages);
    let patch_args: Vec<&str> = patches.iter().map(String::as_str).collect();

    // `cargo install pas-gen`, from its package.
    let root = work.join("root");
    let mut install = vec![
        "install",
        "--debug",
        "--path",
        packages
            .join(format!("pas-gen-{VERSION}"))
            .to_str()
            .unwrap(),
        "--root",
        root.to_str().unwrap(),
    ]
    .into_iter()
    .map(str::to_owned)
    .collect::<Vec<String>>();
    install.extend(patches.iter().cloned());
    let install: Vec<&str> = install.iter().map(String::as_str).collect();
    cargo(&work, &install);
    let pas_gen = root.join(format!("bin/pas-gen{}", std::env::consts::EXE_SUFFIX));

    // Scaffold in an empty directory, from a spec that lives there too.
    let anywhere = work.join("anywhere");
    std::fs::create_dir_all(&anywhere).unwrap();
    std::fs::copy(
        repo().join("specs/word-counter.yaml"),
        anywhere.join("word-counter.yaml"),
    )
    .unwrap();
    let output = Command::new(&pas_gen)
        .args(["--agent", "new", "word-counter.yaml", "--out", "project"])
        .current_dir(&anywhere)
        .env_remove("PAS_AGENT")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let project = anywhere.join("project");

    let manifest = std::fs::read_to_string(project.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains(&format!(
            "pas-kit = {{ version = \"{VERSION}\", features = [\"mcp\"] }}"
        )),
        "the runtime of pas-gen's version, from the registry:\n{manifest}"
    );
    assert!(project.join("skills/word-counter/SKILL.md").is_file());
    let mut written = Vec::new();
    files(&project, &mut written);
    let repo_path = repo().display().to_string();
    for file in &written {
        let text = String::from_utf8_lossy(&std::fs::read(file).unwrap()).into_owned();
        assert!(
            !text.contains(&repo_path),
            "{} names the repository ({repo_path})",
            file.display()
        );
    }

    // It builds and passes its own tests against the packaged runtime.
    let mut test = vec!["test"];
    test.extend(&patch_args);
    cargo(&project, &test);
}

/// `pas-gen new` from this checkout's build, with `args` added; the scaffold's Cargo.toml.
fn scaffold_manifest(args: &[&str]) -> (std::process::Output, Option<String>) {
    let out = tempfile::tempdir().unwrap();
    let project = out.path().join("project");
    let output = Command::new(env!("CARGO_BIN_EXE_pas-gen"))
        .args(["--agent", "new", "specs/word-counter.yaml", "--out"])
        .arg(&project)
        .args(args)
        .current_dir(repo())
        .env_remove("PAS_AGENT")
        .output()
        .unwrap();
    let manifest = std::fs::read_to_string(project.join("Cargo.toml")).ok();
    (output, manifest)
}

#[test]
fn inside_a_checkout_the_scaffold_depends_on_it_by_path() {
    let (output, manifest) = scaffold_manifest(&[]);
    assert!(output.status.success());
    let path = repo().display().to_string();
    assert!(
        manifest.unwrap().contains(&format!(
            "pas-kit = {{ path = {path:?}, features = [\"mcp\"] }}"
        )),
        "{path}"
    );
}

#[test]
fn pas_version_and_pas_path_choose_the_runtime() {
    let (_, manifest) = scaffold_manifest(&["--pas-version", "9.8.7"]);
    assert!(
        manifest
            .unwrap()
            .contains(r#"pas-kit = { version = "9.8.7", features = ["mcp"] }"#)
    );

    let elsewhere = tempfile::tempdir().unwrap();
    let dir = elsewhere.path().canonicalize().unwrap();
    let (_, manifest) = scaffold_manifest(&["--pas-path", dir.to_str().unwrap()]);
    assert!(manifest.unwrap().contains(&format!(
        "pas-kit = {{ path = {:?}, features = [\"mcp\"] }}",
        dir.to_str().unwrap()
    )));

    let (output, manifest) = scaffold_manifest(&[
        "--pas-version",
        "1.0.0",
        "--pas-path",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2), "a usage error");
    assert!(manifest.is_none(), "nothing written");
    let error: serde_json::Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(error["error"], "ARGUMENT_CONFLICT");
}
