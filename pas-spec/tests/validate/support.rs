//! Registries for rule tests: a small valid spec, changed one field at a time.

use pas_spec::{Diagnostic, Registry, Severity, validate::validate};
use serde_json::{Value, json};

/// A valid two-command tool that exercises most fields without any diagnostic.
pub fn base() -> Value {
    json!({
        "specVersion": 1,
        "name": "task-tool",
        "version": "1.0.0",
        "summary": "Manage tasks.",
        "globalFlags": [
            {"name": "verbose", "short": "v", "type": "boolean", "description": "Say more."}
        ],
        "exitCodes": [
            {"code": 100, "name": "NOT_FOUND", "meaning": "No such task"}
        ],
        "examples": [
            {"command": "task-tool task list --agent --limit 5"}
        ],
        "commands": [
            {
                "name": "task.create",
                "description": "Create a task.",
                "effect": "write",
                "parameters": [
                    {"name": "title", "kind": "positional", "required": true, "description": "The title."},
                    {"name": "priority", "short": "p", "enum": ["low", "high"], "default": "low", "description": "How urgent."}
                ],
                "errors": ["INVALID_ARGUMENT"],
                "examples": [{"command": "task-tool task create \"Buy milk\" -p high --agent"}]
            },
            {
                "name": "task.list",
                "description": "List tasks.",
                "output": "list",
                "outputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
                "parameters": [
                    {"name": "limit", "type": "integer", "default": 20, "description": "Page size."},
                    {"name": "cursor", "description": "Where to start."}
                ],
                "paging": {"limit": "limit", "cursor": "cursor"},
                "errors": ["NOT_FOUND"]
            }
        ]
    })
}

/// The diagnostics of `spec`, read the way the brief asks rule tests to: JSON text to a registry.
pub fn diagnostics(spec: &Value) -> Vec<Diagnostic> {
    let registry: Registry =
        serde_json::from_str(&spec.to_string()).expect("the test spec has the registry's shape");
    validate(&registry)
}

/// The diagnostics of the base spec after `change`.
pub fn check(change: impl FnOnce(&mut Value)) -> Vec<Diagnostic> {
    let mut spec = base();
    change(&mut spec);
    diagnostics(&spec)
}

/// (code, pointer) of each diagnostic, for compact assertions.
pub fn found(diagnostics: &[Diagnostic]) -> Vec<(&str, &str)> {
    diagnostics
        .iter()
        .map(|d| (d.code, d.pointer.as_str()))
        .collect()
}

/// Assert `code` was reported at `pointer` (and say what was found when it was not).
#[track_caller]
pub fn assert_has(diagnostics: &[Diagnostic], code: &str, pointer: &str) {
    assert!(
        diagnostics
            .iter()
            .any(|d| d.code == code && d.pointer == pointer),
        "expected {code} at {pointer}, found {:#?}",
        found(diagnostics)
    );
}

/// Assert `code` was not reported anywhere.
#[track_caller]
pub fn assert_lacks(diagnostics: &[Diagnostic], code: &str) {
    assert!(
        diagnostics.iter().all(|d| d.code != code),
        "did not expect {code}, found {:#?}",
        found(diagnostics)
    );
}

/// Assert exactly these (code, pointer) pairs were reported, in this order.
#[track_caller]
pub fn assert_exactly(diagnostics: &[Diagnostic], expected: &[(&str, &str)]) {
    assert_eq!(found(diagnostics), expected, "{diagnostics:#?}");
}

/// The severity of the first diagnostic with `code`.
pub fn severity(diagnostics: &[Diagnostic], code: &str) -> Severity {
    diagnostics
        .iter()
        .find(|d| d.code == code)
        .map(|d| d.severity)
        .expect("the code was reported")
}
