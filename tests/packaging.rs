//! The published crates can be packaged as they stand: complete metadata, every path
//! dependency also a version one, every file read at compile time (`include_str!`,
//! `include_bytes!`) inside the crate that reads it and in its package, and the examples and the
//! bench kept out of publishing. `.ci/run` then packages and builds each crate for real
//! (`cargo package`, offline); this test finds the same mistakes in a second, naming the file.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn cargo() -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// `cargo metadata --no-deps` of the workspace.
fn metadata() -> Value {
    let output = cargo()
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The workspace members cargo would publish (no `publish = false`).
fn published(metadata: &Value) -> Vec<&Value> {
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["publish"].is_null())
        .collect()
}

fn dir(package: &Value) -> PathBuf {
    Path::new(package["manifest_path"].as_str().unwrap())
        .parent()
        .unwrap()
        .to_owned()
}

#[test]
fn the_published_crates_are_the_six_and_nothing_else() {
    let metadata = metadata();
    let mut names: Vec<&str> = published(&metadata)
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "pas-conform",
            "pas-emit",
            "pas-gen",
            "pas-kit",
            "pas-macros",
            "pas-spec"
        ],
        "examples, the bench and test-only crates need `publish = false`"
    );
}

#[test]
fn every_published_crate_has_complete_metadata() {
    let metadata = metadata();
    for package in published(&metadata) {
        let name = package["name"].as_str().unwrap();
        for key in [
            "description",
            "license",
            "repository",
            "readme",
            "rust_version",
        ] {
            assert!(
                package[key].as_str().is_some_and(|v| !v.trim().is_empty()),
                "{name}: `{key}` is missing"
            );
        }
        for key in ["keywords", "categories"] {
            let list = package[key].as_array().unwrap();
            assert!(!list.is_empty() && list.len() <= 5, "{name}: `{key}`");
        }
        let readme = dir(package).join(package["readme"].as_str().unwrap());
        assert!(
            readme.starts_with(dir(package)) && readme.is_file(),
            "{name}: the readme {} is not a file of the crate",
            readme.display()
        );
    }
}

#[test]
fn every_path_dependency_of_a_published_crate_has_a_version() {
    let metadata = metadata();
    for package in published(&metadata) {
        for dependency in package["dependencies"].as_array().unwrap() {
            // Dev-dependencies are stripped of their path when packaged and need no version.
            if dependency["path"].is_string() && dependency["kind"] != "dev" {
                assert_ne!(
                    dependency["req"], "*",
                    "{} depends on {} by path only",
                    package["name"], dependency["name"]
                );
            }
        }
    }
}

/// The string literal of every `include_str!(...)`/`include_bytes!(...)` in a Rust file.
fn included_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for marker in ["include_str!(\"", "include_bytes!(\""] {
        let mut rest = text;
        while let Some(at) = rest.find(marker) {
            rest = &rest[at + marker.len()..];
            if let Some(end) = rest.find('"') {
                paths.push(rest[..end].to_owned());
            }
        }
    }
    paths
}

fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// The files `cargo package` would put in the crate, relative to it.
fn package_list(name: &str) -> Vec<String> {
    let output = cargo()
        .args([
            "package",
            "--list",
            "--offline",
            "--allow-dirty",
            "-p",
            name,
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "cargo package --list -p {name}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_file_read_at_compile_time_is_inside_its_crate_and_packaged() {
    let metadata = metadata();
    for package in published(&metadata) {
        let name = package["name"].as_str().unwrap();
        let root = dir(package).canonicalize().unwrap();
        let listed = package_list(name);
        let mut sources = Vec::new();
        rust_files(&root.join("src"), &mut sources);
        for source in sources {
            let text = std::fs::read_to_string(&source).unwrap();
            // Tests of a crate are not compiled when it is packaged or used.
            let text = text.split("#[cfg(test)]").next().unwrap();
            for included in included_paths(text) {
                let path = source.parent().unwrap().join(&included);
                let path = path
                    .canonicalize()
                    .unwrap_or_else(|e| panic!("{}: {included}: {e}", source.display()));
                let relative = path.strip_prefix(&root).unwrap_or_else(|_| {
                    panic!(
                        "{} reads {} at compile time, outside the crate {name}: cargo package \
                         cannot ship it; move it into the crate",
                        source.display(),
                        path.display()
                    )
                });
                let relative = relative.to_string_lossy().replace('\\', "/");
                assert!(
                    listed.contains(&relative),
                    "{name}: {relative} (read by {}) is not in the package",
                    source.display()
                );
            }
        }
    }
}
