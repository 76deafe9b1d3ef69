//! What a spec declares for the runtime to enforce before a handler runs reaches the derive:
//! the tool's `auth` and `requirements` and each command's `auth`, `scopes`, `needs`,
//! `sideEffects`, `untrusted` and parameter constraints become `declared = "..."` keys holding
//! the spec's JSON, and so do the global flags' constraints (the tool's key, by flag name).

use pas_spec::derive_declared::{CommandDeclared, ToolDeclared};
use pas_spec::{Format, Registry, Source, check_source};
use serde_json::{Value, json};

fn registry(spec: &Value) -> Registry {
    let source = Source::new("spec.json", spec.to_string(), Format::Json);
    let (registry, diagnostics) = check_source(&source);
    assert!(diagnostics.iter().all(|d| !d.is_error()), "{diagnostics:?}");
    registry.unwrap()
}

fn declared_fixture() -> Registry {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/valid/declared.yaml"
    );
    let source = pas_spec::load::read_path(std::path::Path::new(path)).unwrap();
    check_source(&source).0.unwrap()
}

/// The JSON text of every `declared = "..."` key in `code`, unescaped.
fn declared_keys(code: &str) -> Vec<Value> {
    code.split("declared = ")
        .skip(1)
        .map(|piece| serde_json::from_str(&unescaped::literal(piece)).unwrap())
        .collect()
}

/// The string literal at the start of Rust text, unescaped.
mod unescaped {
    pub fn literal(text: &str) -> String {
        {
            let mut out = String::new();
            let mut chars = text.strip_prefix('"').expect("a string literal").chars();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => match chars.next() {
                        Some('n') => out.push('\n'),
                        Some('t') => out.push('\t'),
                        Some(other) => out.push(other),
                        None => break,
                    },
                    other => out.push(other),
                }
            }
            out
        }
    }
}

#[test]
fn every_declaration_of_the_fixture_becomes_a_declared_key_with_the_specs_json() {
    let registry = declared_fixture();
    let code = pas_emit::emit_file(&registry, "declared.yaml").unwrap();
    let keys = declared_keys(&code);
    // The tool's, then each command's that declares something (all three do).
    assert_eq!(keys.len(), 4, "{code}");
    let tool: ToolDeclared = serde_json::from_value(keys[0].clone()).unwrap();
    assert_eq!(Some(tool), ToolDeclared::of(&registry));
    for (key, command) in keys[1..].iter().zip(&registry.commands) {
        let declared: CommandDeclared = serde_json::from_value(key.clone()).unwrap();
        assert_eq!(
            Some(declared),
            CommandDeclared::of(command),
            "{}",
            command.name
        );
    }
    assert_eq!(keys[1]["parameters"]["title"]["pattern"], "^[a-z ]+$");
    assert_eq!(keys[1]["auth"], true);
    assert_eq!(keys[2]["untrusted"], json!(["body"]));
}

#[test]
fn a_spec_without_declarations_gets_no_declared_key() {
    let spec = json!({
        "specVersion": 1, "name": "plain", "version": "1.0.0", "summary": "Plain.",
        "commands": [{"name": "go", "description": "Go.", "parameters": [
            {"name": "title", "description": "A title."},
        ]}],
    });
    let code = pas_emit::emit(&registry(&spec)).unwrap().to_string();
    assert!(!code.contains("declared"), "{code}");
}

#[test]
fn a_global_flags_constraints_travel_in_the_tools_declared_key() {
    let spec = json!({
        "specVersion": 1, "name": "decl", "version": "1.0.0", "summary": "Declare.",
        "globalFlags": [
            {"name": "profile", "description": "A profile.", "pattern": "^[a-z]+$", "maxLength": 9},
            {"name": "level", "type": "integer", "description": "A level.", "minimum": 1},
        ],
        "commands": [{"name": "go", "description": "Go."}],
    });
    let registry = registry(&spec);
    let code = pas_emit::emit_file(&registry, "decl.json").unwrap();
    let keys = declared_keys(&code);
    assert_eq!(keys.len(), 1, "{code}");
    assert_eq!(
        keys[0],
        json!({"globalFlags": {
            "level": {"minimum": 1},
            "profile": {"maxLength": 9, "pattern": "^[a-z]+$"},
        }})
    );
    let tool: ToolDeclared = serde_json::from_value(keys[0].clone()).unwrap();
    assert_eq!(Some(tool), ToolDeclared::of(&registry));
}
