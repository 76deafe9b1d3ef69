//! Lean by default (issue 15): the runtime a tool links with pas-kit's default features carries
//! none of the tooling. `cargo tree` over pas-kit's normal dependencies (proc macros left out:
//! they run in the compiler and are not linked) must not name the JSON Schema validator, the
//! regex engines, the template engine, the YAML loader, the conformance engine, the
//! completion and man page generators or the MCP stack; with `--features full` it names them all
//! (so this test can see them when they come back).

use std::collections::BTreeSet;
use std::process::Command;

/// Crates only tooling needs, each behind a feature of pas-kit or pas-spec.
const TOOLING: [&str; 11] = [
    "jsonschema",
    "regex",
    "fancy-regex",
    "minijinja",
    "serde-saphyr",
    "serde_path_to_error",
    "pas-conform",
    "clap_complete",
    "clap_mangen",
    "rmcp",
    "tokio",
];

/// The names of the crates in pas-kit's normal dependency tree, built with `features`.
fn tree(features: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args([
            "tree",
            "--offline",
            "-p",
            "pas-kit",
            "-e",
            "normal,no-proc-macro",
        ])
        .args(["--prefix", "none", "--format", "{p}"])
        .args(features)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_default_runtime_links_no_tooling() {
    let default = tree(&[]);
    assert!(
        default.contains("pas-spec") && default.contains("clap"),
        "{default:?}"
    );
    let tooling: Vec<&str> = TOOLING
        .into_iter()
        .filter(|name| default.contains(*name))
        .collect();
    assert!(
        tooling.is_empty(),
        "pas-kit's default features pull {tooling:?} again; put them behind a feature (Cargo.toml)"
    );
}

#[test]
fn every_optional_face_brings_its_tooling() {
    let full = tree(&["--features", "full"]);
    for name in [
        "jsonschema",
        "minijinja",
        "serde-saphyr",
        "pas-conform",
        "clap_complete",
        "clap_mangen",
        "rmcp",
    ] {
        assert!(
            full.contains(name),
            "{name} missing from the full tree: {full:?}"
        );
    }
}
