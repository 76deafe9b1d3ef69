//! The code-first word-counter's documentation faces are the spec's: its `--agent docs` and
//! `--agent --help` are what `pas-gen llm|help specs/word-counter.yaml` render, and it has
//! completions and a man page like any built CLI.

use std::path::Path;

use assert_cmd::Command;
use pas_spec::faces::{agent_help, llm};

fn spec() -> pas_spec::Registry {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../specs/word-counter.yaml");
    pas_spec::load::load_path(&path).unwrap().1
}

fn run(args: &[&str]) -> String {
    let output = Command::cargo_bin("word-counter")
        .unwrap()
        .env_remove("PAS_AGENT")
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{args:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn derived_docs_and_help_match_the_spec_s() {
    let registry = spec();
    assert_eq!(
        run(&["--agent", "--builtin", "docs"]),
        llm::render(&registry)
    );
    assert_eq!(
        run(&["--agent", "--help"]),
        agent_help::render_tool(&registry)
    );
}

#[test]
fn derived_cli_has_completions_and_a_man_page() {
    assert!(run(&["--builtin", "completions", "bash"]).contains("word-counter"));
    assert!(run(&["--builtin", "completions", "fish"]).contains("word-counter"));
    assert!(run(&["--builtin", "man"]).contains(".TH word-counter 1"));
}

/// PAS-profile CLIs answer `--agent tools` with the compose catalog as raw JSON (no envelope):
/// the same bytes `pas-gen catalog` prints from the spec, and one line.
#[test]
fn agent_tools_is_the_catalog_as_raw_json() {
    let stdout = run(&["--agent", "--builtin", "tools"]);
    assert_eq!(stdout.lines().count(), 1, "one line of JSON");
    let catalog: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(
        catalog.get("ok").is_none(),
        "no compose envelope in the pas profile"
    );
    assert_eq!(catalog["tool"], "word-counter");
    assert_eq!(catalog["tools"][0]["name"], "count");
    assert_eq!(catalog["tools"][0]["parameters"][0]["name"], "files");
    assert!(
        catalog["globalFlags"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["name"] == "agent")
    );
    assert_eq!(
        stdout.trim_end(),
        pas_spec::faces::catalog::to_json(&spec())
    );
}
