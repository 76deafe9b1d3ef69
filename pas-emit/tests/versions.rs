//! The emitter keeps what a spec declares of its output stability (CLI Agent Spec failure mode
//! 22): a command's `stability` and the tool's `changelog` become derive keys.

use pas_spec::{Format, Source, check_source};
use serde_json::json;

#[test]
fn stability_and_changelog_become_derive_keys() {
    let spec = json!({
        "specVersion": 1, "name": "notes", "version": "1.1.0", "summary": "Keep notes.",
        "changelog": [{"version": "1.1.0", "changes": ["preview added"], "breaking": false}],
        "commands": [
            {"name": "get", "description": "Get one.", "output": "object"},
            {"name": "preview", "description": "Try it.", "output": "object", "stability": "beta"},
        ],
    });
    let source = Source::new("notes.json", spec.to_string(), Format::Json);
    let (registry, diagnostics) = check_source(&source);
    assert!(diagnostics.iter().all(|d| !d.is_error()), "{diagnostics:?}");
    let code = pas_emit::emit_file(&registry.unwrap(), "notes.json").unwrap();
    assert_eq!(code.matches("stability = \"beta\"").count(), 1, "{code}");
    assert!(
        code.contains(r#"changelog = "[{\"version\":\"1.1.0\",\"changes\":[\"preview added\"]}]""#),
        "{code}"
    );
}
