//! A spec that declares what the runtime enforces before a handler runs is never emitted without
//! it: every declaration the derive cannot carry is refused with `UNSUPPORTED_SPEC`, named by
//! its key and JSON pointer, so a generated tool can never silently skip a declared check.

use pas_spec::{Format, Registry, Source, check_source};
use serde_json::{Value, json};

fn registry(spec: &Value) -> Registry {
    let source = Source::new("spec.json", spec.to_string(), Format::Json);
    let (registry, diagnostics) = check_source(&source);
    assert!(diagnostics.iter().all(|d| !d.is_error()), "{diagnostics:?}");
    registry.unwrap()
}

fn base() -> Value {
    json!({
        "specVersion": 1, "name": "decl", "version": "1.0.0", "summary": "Declare.",
        "commands": [{"name": "go", "description": "Go.", "parameters": [
            {"name": "title", "description": "A title."},
            {"name": "other", "description": "Another."},
            {"name": "count", "type": "integer", "description": "How many."},
        ]}],
    })
}

/// How a case changes the base spec.
type Change = Box<dyn Fn(&mut Value)>;

/// `spec` is refused at `pointer`, by `emit`, `check` and `handler_signatures` alike.
fn assert_refused(spec: Value, pointer: &str, key: &str) {
    let registry = registry(&spec);
    for err in [
        pas_emit::emit(&registry).map(drop).unwrap_err(),
        pas_emit::check(&registry).unwrap_err(),
        pas_emit::handler_signatures(&registry)
            .map(drop)
            .unwrap_err(),
    ] {
        assert_eq!(err.code, pas_emit::UNSUPPORTED_SPEC, "{err:?}");
        assert_eq!(err.pointer, pointer, "{err:?}");
        assert!(
            err.message.contains(&format!("`{key}` at {pointer}")),
            "{err:?}"
        );
        assert!(err.hint.contains("pas::App::new"), "{err:?}");
        assert!(err.hint.contains("load"), "{err:?}");
    }
}

#[test]
fn each_declaration_the_derive_cannot_carry_is_refused_where_it_is() {
    let cases: Vec<(&str, &str, Change)> = vec![
        (
            "/auth",
            "auth",
            Box::new(|s| s["auth"] = json!({"env": ["DECL_TOKEN"]})),
        ),
        (
            "/requirements",
            "requirements",
            Box::new(|s| {
                s["requirements"] =
                    json!([{"name": "sh", "kind": "program", "target": "sh", "fix": "install sh"}])
            }),
        ),
        (
            "/commands/0/sideEffects",
            "sideEffects",
            Box::new(|s| {
                s["commands"][0]["sideEffects"] =
                    json!([{"kind": "filesystem", "target": "~/.cache/decl/"}])
            }),
        ),
        (
            "/commands/0/untrusted",
            "untrusted",
            Box::new(|s| s["commands"][0]["untrusted"] = json!(["body"])),
        ),
        (
            "/commands/0/parameters/0/pattern",
            "pattern",
            Box::new(|s| s["commands"][0]["parameters"][0]["pattern"] = json!("^[a-z]+$")),
        ),
        (
            "/commands/0/parameters/0/minLength",
            "minLength",
            Box::new(|s| s["commands"][0]["parameters"][0]["minLength"] = json!(1)),
        ),
        (
            "/commands/0/parameters/0/maxLength",
            "maxLength",
            Box::new(|s| s["commands"][0]["parameters"][0]["maxLength"] = json!(9)),
        ),
        (
            "/commands/0/parameters/2/minimum",
            "minimum",
            Box::new(|s| s["commands"][0]["parameters"][2]["minimum"] = json!(1)),
        ),
        (
            "/commands/0/parameters/2/maximum",
            "maximum",
            Box::new(|s| s["commands"][0]["parameters"][2]["maximum"] = json!(5)),
        ),
        (
            "/commands/0/parameters/0/requires",
            "requires",
            Box::new(|s| s["commands"][0]["parameters"][0]["requires"] = json!(["other"])),
        ),
        (
            "/commands/0/parameters/0/conflicts",
            "conflicts",
            Box::new(|s| s["commands"][0]["parameters"][0]["conflicts"] = json!(["other"])),
        ),
    ];
    for (pointer, key, change) in cases {
        let mut spec = base();
        change(&mut spec);
        assert_refused(spec, pointer, key);
    }
}

#[test]
fn a_command_needing_a_requirement_is_refused() {
    let mut spec = base();
    spec["requirements"] =
        json!([{"name": "sh", "kind": "program", "target": "sh", "fix": "install sh"}]);
    spec["commands"][0]["needs"] = json!(["sh"]);
    let err = pas_emit::check(&registry(&spec)).unwrap_err();
    assert_eq!(err.pointer, "/requirements", "{err:?}");
    assert!(
        err.message.contains("`needs` at /commands/0/needs"),
        "{err:?}"
    );
}

#[test]
fn a_command_needing_credentials_or_scopes_is_refused() {
    let mut spec = base();
    spec["auth"] = json!({"env": ["T"], "scopes": [{"name": "w", "description": "Write."}]});
    spec["commands"][0]["auth"] = json!(true);
    spec["commands"][0]["scopes"] = json!(["w"]);
    let err = pas_emit::check(&registry(&spec)).unwrap_err();
    assert_eq!(err.pointer, "/auth");
    for listed in [
        "`auth` at /commands/0/auth",
        "`scopes` at /commands/0/scopes",
    ] {
        assert!(err.message.contains(listed), "{err:?}");
    }
}

#[test]
fn the_declared_fixture_is_refused_and_a_plain_spec_is_not() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/valid/declared.yaml"
    );
    let source = pas_spec::load::read_path(std::path::Path::new(path)).unwrap();
    let (registry, _) = check_source(&source);
    let err = pas_emit::check(&registry.unwrap()).unwrap_err();
    assert_eq!(err.code, pas_emit::UNSUPPORTED_SPEC);
    assert!(err.message.contains("and 7 more"), "{err:?}");
    pas_emit::check(&registry_of_base()).unwrap();
}

fn registry_of_base() -> Registry {
    registry(&base())
}
