//! What notes tells an agent about itself: the agent help, the catalog with the synthesised
//! verbs, and the spec it prints, which reads back to the registry the derive builds.

use assert_cmd::Command;
use serde_json::Value;

fn stdout(args: &[&str]) -> String {
    let output = Command::cargo_bin("notes")
        .unwrap()
        .env_remove("PAS_AGENT")
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.success(), "{args:?}");
    assert!(output.stderr.is_empty(), "{args:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn agent_help() {
    insta::assert_snapshot!("agent-help", stdout(&["--agent", "--help"]));
    insta::assert_snapshot!("agent-help-rm", stdout(&["--agent", "rm", "--help"]));
}

#[test]
fn the_catalog_lists_every_verb_with_its_category() {
    let catalog: Value = serde_json::from_str(&stdout(&["--agent", "tools"])).unwrap();
    let tools = catalog["tools"].as_array().expect("a tools array");
    let named: Vec<(&str, &str)> = tools
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap(),
                t["category"].as_str().unwrap_or(""),
            )
        })
        .collect();
    for verb in ["ls", "cat", "stat"] {
        assert!(named.contains(&(verb, "navigation")), "{verb}: {named:?}");
    }
    for verb in ["cp", "rm", "sync", "feedback"] {
        assert!(named.contains(&(verb, "state")), "{verb}: {named:?}");
    }
    assert!(named.iter().any(|(name, _)| *name == "search"));
}

#[test]
fn the_printed_spec_is_clean_and_reads_back_to_the_same_registry() {
    let text = stdout(&["--pas-spec"]);
    let source = pas_spec::Source::new("notes.json", text, pas_spec::Format::Json);
    let (registry, diagnostics) = pas_spec::check_source(&source);
    let errors: Vec<_> = diagnostics
        .iter()
        .filter(|d| d.severity == pas_spec::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let registry = registry.unwrap();
    assert_eq!(registry.level, 4);
    assert_eq!(registry.resources.len(), 3);
    assert_eq!(
        stdout(&["--agent", "--version"]),
        "notes 0.3.0 (PAS Level 4 Compliant)\n"
    );
}
