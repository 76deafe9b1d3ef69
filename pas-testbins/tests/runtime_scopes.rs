//! CLI Agent Spec failure mode 74: a command that declares the scopes it needs warns when the
//! caller's credentials grant more (`<TOOL>_SCOPES`), in the profile's warning channel, and
//! still runs. Driven through `pas-spec-cli` over `tests/fixtures/valid/declared.yaml` (compose:
//! `meta.warnings`) and the same spec under the `pas` profile (a `{"warning"}` line on stderr).

mod runtime_support;

use std::process::Output;

use runtime_support::{respelled, spec_cli};
use serde_json::Value;

const SPEC: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/valid/declared.yaml"
);

const REPLY: &str = r#"{"id":"n1","body":"b"}"#;

fn create(scopes: Option<&str>, spec: &str) -> Output {
    let mut cmd = spec_cli(spec, REPLY, &["note", "create", "ok"]);
    cmd.env("DECL_TOKEN", "a-long-enough-token")
        .env_remove("DECL_CONFIG");
    match scopes {
        Some(scopes) => cmd.env("DECL_SCOPES", scopes),
        None => cmd.env_remove("DECL_SCOPES"),
    };
    cmd.output().unwrap()
}

#[test]
fn granted_scopes_beyond_the_declared_ones_are_a_warning_and_the_call_runs() {
    let over = create(Some("notes:write, notes:read admin"), SPEC);
    assert_eq!(over.status.code(), Some(0), "{over:?}");
    let env: Value = serde_json::from_slice(&over.stdout).unwrap();
    assert_eq!(env["ok"], true);
    let warnings = env["meta"]["warnings"].as_array().expect("warnings");
    assert_eq!(warnings.len(), 1, "{env}");
    assert_eq!(warnings[0]["code"], "OVER_PRIVILEGED");
    assert_eq!(
        warnings[0]["affects"],
        serde_json::json!(["notes:read", "admin"])
    );

    // `--validate-only` is the pre-flight: the same report, and the handler never runs.
    let preflight = spec_cli(SPEC, REPLY, &["note", "create", "ok", "--validate-only"])
        .env("DECL_TOKEN", "a-long-enough-token")
        .env("DECL_SCOPES", "notes:write admin")
        .output()
        .unwrap();
    let env: Value = serde_json::from_slice(&preflight.stdout).unwrap();
    assert_eq!(env["data"]["ran"], false, "{env}");
    assert_eq!(env["meta"]["warnings"][0]["code"], "OVER_PRIVILEGED");

    let exact = create(Some("notes:write"), SPEC);
    let env: Value = serde_json::from_slice(&exact.stdout).unwrap();
    assert!(env["meta"].get("warnings").is_none(), "{env}");
    let unsaid = create(None, SPEC);
    let env: Value = serde_json::from_slice(&unsaid.stdout).unwrap();
    assert!(env["meta"].get("warnings").is_none(), "{env}");

    let lacking = create(Some("notes:read"), SPEC);
    let env: Value = serde_json::from_slice(&lacking.stdout).unwrap();
    let codes: Vec<&str> = env["meta"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["OVER_PRIVILEGED", "SCOPE_MISSING"]);
}

#[test]
fn the_pas_profile_warns_on_stderr_and_the_faces_name_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    let path = respelled(SPEC, "profile: compose", "profile: pas", dir.path());
    let out = spec_cli(&path, REPLY, &["--agent", "note", "create", "ok"])
        .env("DECL_TOKEN", "a-long-enough-token")
        .env("DECL_SCOPES", "notes:write admin")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let line: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(line["warning"]["code"], "OVER_PRIVILEGED", "{line}");
    assert_eq!(line["warning"]["affects"], serde_json::json!(["admin"]));

    let help = spec_cli(&path, REPLY, &["--agent", "note", "create", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(
        help.contains(
            "Required scopes: notes:write; granted scopes named in DECL_SCOPES beyond these are warned of (OVER_PRIVILEGED)."
        ),
        "{help}"
    );
}
