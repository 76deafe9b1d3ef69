//! `pas-gen import openapi` on real documents nobody here wrote: GitHub's REST description (npm
//! `@octokit/openapi`), the example documents of npm `@readme/oas-examples`, and the OpenAPI 3.1
//! document FastAPI (PyPI `fastapi`) generates for tests/fixtures/openapi/fastapi_app.py. Each
//! imported spec passes `pas-gen check`, and each import's report is a snapshot.
//!
//! The npm packages are installed by `.ci/run` (`npm ci --prefix pas-gen/tests/openapi-docs`),
//! FastAPI in `target/fastapi-venv` (or `PAS_FASTAPI_PYTHON`). Without them a test prints
//! SKIPPED and passes, except under `CI`, where a missing document is a failure.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn pas_gen() -> Command {
    let mut cmd = Command::cargo_bin("pas-gen").unwrap();
    cmd.current_dir(repo())
        .env_remove("PAS_AGENT")
        .env("NO_COLOR", "1");
    cmd
}

/// The npm documents' directory, or `None` (SKIPPED) outside CI when they are not installed.
fn npm_docs(test: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/openapi-docs/node_modules");
    if dir.join("@octokit/openapi").is_dir() && dir.join("@readme/oas-examples").is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run {test}: the OpenAPI documents are not installed (.ci/run runs `npm ci --prefix pas-gen/tests/openapi-docs`)"
    );
    eprintln!(
        "\n!!!!!!!! SKIPPED {test}: the OpenAPI documents are not installed.\n\
         !!!!!!!! Install them: npm ci --prefix pas-gen/tests/openapi-docs\n"
    );
    None
}

/// Import `doc` into `out` (extra arguments after), then check the spec; the report without
/// its machine-dependent `out`.
fn import_and_check(doc: &Path, out: &Path, extra: &[&str]) -> Value {
    let output = pas_gen()
        .args(["--agent", "import", "openapi"])
        .arg(doc)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "import of {} failed: {}",
        doc.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let mut report: Value = serde_json::from_slice(&output.stdout).unwrap();
    report.as_object_mut().unwrap().remove("out");
    let check = pas_gen().arg("check").arg(out).output().unwrap();
    assert!(
        check.status.success(),
        "pas-gen check refuses the import of {}: {}",
        doc.display(),
        String::from_utf8_lossy(&check.stderr)
    );
    report
}

#[test]
fn oas_examples_import_and_pass_check() {
    let Some(dir) = npm_docs("oas_examples_import_and_pass_check") else {
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    let mut imported = 0;
    for version in ["3.0", "3.1"] {
        let mut docs: Vec<PathBuf> =
            std::fs::read_dir(dir.join("@readme/oas-examples").join(version).join("json"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect();
        docs.sort();
        for doc in docs {
            let stem = format!(
                "oas-{version}-{}",
                doc.file_stem().unwrap().to_string_lossy()
            );
            if stem == "oas-3.1-webhooks" {
                // Only webhooks: requests the API makes, no operation a CLI could call.
                let output = pas_gen()
                    .args(["--agent", "import", "openapi"])
                    .arg(&doc)
                    .arg("--out")
                    .arg(scratch.path().join("w.yaml"))
                    .output()
                    .unwrap();
                assert_eq!(
                    output.status.code(),
                    Some(107),
                    "{}",
                    String::from_utf8_lossy(&output.stderr)
                );
                continue;
            }
            let report = import_and_check(&doc, &scratch.path().join(format!("{stem}.yaml")), &[]);
            insta::assert_json_snapshot!(stem, report);
            imported += 1;
        }
    }
    assert!(imported >= 40, "only {imported} documents imported");
}

#[test]
fn github_issues_import_and_pass_check() {
    let Some(dir) = npm_docs("github_issues_import_and_pass_check") else {
        return;
    };
    let doc = dir.join("@octokit/openapi/generated/api.github.com.json");
    let scratch = tempfile::tempdir().unwrap();
    let report = import_and_check(
        &doc,
        &scratch.path().join("github-issues.yaml"),
        &["--include", "issues", "--name", "github-issues"],
    );
    assert_eq!(report["commands"], 58, "{report}");
    insta::assert_json_snapshot!("github-issues", report);
}

/// The whole of GitHub's description (about 1,100 operations) as one tool is refused: the spec
/// would be past what pas reads, and the error names the groups to import one by one.
#[test]
#[ignore = "slow: a 13 MB document mapped whole (about two minutes in a debug build)"]
fn github_whole_document_is_refused_with_the_groups_to_import() {
    let Some(dir) = npm_docs("github_whole_document_is_refused_with_the_groups_to_import") else {
        return;
    };
    let doc = dir.join("@octokit/openapi/generated/api.github.com.json");
    let scratch = tempfile::tempdir().unwrap();
    let output = pas_gen()
        .args(["--agent", "import", "openapi"])
        .arg(&doc)
        .arg("--out")
        .arg(scratch.path().join("github.yaml"))
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(109),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let error: Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(error["error"], "SPEC_TOO_LARGE");
    assert!(
        error["suggestion"]
            .as_str()
            .unwrap()
            .contains("--include repos"),
        "{error}"
    );
}

/// The FastAPI document is generated by the fixture app with the interpreter that has FastAPI.
fn fastapi_document(test: &str) -> Option<String> {
    let python = std::env::var("PAS_FASTAPI_PYTHON").unwrap_or_else(|_| {
        repo()
            .join("target/fastapi-venv/bin/python")
            .display()
            .to_string()
    });
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/openapi/fastapi_app.py");
    let output = std::process::Command::new(&python).arg(&script).output();
    match output {
        Ok(output) if output.status.success() => Some(String::from_utf8(output.stdout).unwrap()),
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must run {test}: `{python}` cannot run FastAPI (.ci/run installs PyPI `fastapi` in target/fastapi-venv)"
            );
            eprintln!(
                "\n!!!!!!!! SKIPPED {test}: `{python}` has no FastAPI.\n\
                 !!!!!!!! Install it: python3 -m venv target/fastapi-venv && target/fastapi-venv/bin/pip install fastapi\n"
            );
            None
        }
    }
}

#[test]
fn fastapi_openapi_3_1_imports_and_passes_check() {
    let Some(text) = fastapi_document("fastapi_openapi_3_1_imports_and_passes_check") else {
        return;
    };
    let scratch = tempfile::tempdir().unwrap();
    let doc = scratch.path().join("fastapi.json");
    std::fs::write(&doc, text).unwrap();
    let out = scratch.path().join("todo-service.yaml");
    let report = import_and_check(&doc, &out, &[]);
    insta::assert_json_snapshot!("fastapi", report);
    let spec = std::fs::read_to_string(&out).unwrap();
    // The list pages, the delete needs --force, the server is the base URL's default.
    assert!(
        spec.contains("paging:\n      limit: limit\n      cursor: page"),
        "{spec}"
    );
    assert!(spec.contains("effect: destructive"), "{spec}");
    assert!(spec.contains("default: http://127.0.0.1:8000"), "{spec}");
}

/// A small document exercising each mapping rule at once, inline so it needs nothing installed.
const RULES: &str = r##"
openapi: 3.0.3
info: {title: Rules API, version: "2"}
servers: [{url: "https://api.example.test/v1"}]
security: [{token: []}]
components:
  securitySchemes:
    token: {type: http, scheme: bearer}
  schemas:
    Item: {type: object, properties: {id: {type: integer}, name: {type: string, nullable: true}}}
paths:
  /items:
    get:
      tags: [items]
      operationId: listItems
      parameters:
        - {name: per_page, in: query, schema: {type: integer, minimum: 1, maximum: 100, default: 30}}
        - {name: page, in: query, schema: {type: integer, default: 1}}
        - {name: sort, in: query, schema: {type: string, enum: [name, created], default: name}}
        - {name: X-Trace, in: header, description: A trace id, schema: {type: string}}
        - {name: session, in: cookie, schema: {type: string}}
        - {name: help, in: query, schema: {type: boolean}}
        - {name: Accept, in: header, schema: {type: string}}
      responses:
        "200":
          description: ok
          headers: {Link: {schema: {type: string}}}
          content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Item"}}}}
        "404": {description: none}
        "429": {description: slow down}
    post:
      tags: [items]
      operationId: createItem
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: "#/components/schemas/Item"}}}
      responses:
        "201": {description: made, content: {application/json: {schema: {$ref: "#/components/schemas/Item"}}}}
        "422": {description: invalid}
  /items/{itemId}:
    delete:
      tags: [items]
      operationId: deleteItem
      security: []
      parameters: [{name: itemId, in: path, required: true, schema: {type: string}}]
      responses: {"204": {description: gone}}
"##;

#[test]
fn each_mapping_rule_on_a_small_document() {
    let scratch = tempfile::tempdir().unwrap();
    let doc = scratch.path().join("rules.yaml");
    std::fs::write(&doc, RULES).unwrap();
    let out = scratch.path().join("rules-spec.yaml");
    let report = import_and_check(&doc, &out, &[]);
    insta::assert_json_snapshot!("rules-report", report);
    insta::assert_snapshot!("rules-spec", std::fs::read_to_string(&out).unwrap());
}

#[test]
fn import_is_deterministic() {
    let scratch = tempfile::tempdir().unwrap();
    let doc = scratch.path().join("rules.yaml");
    std::fs::write(&doc, RULES).unwrap();
    let (a, b) = (
        scratch.path().join("a.yaml"),
        scratch.path().join("sub/b.yaml"),
    );
    import_and_check(&doc, &a, &[]);
    import_and_check(&doc, &b, &[]);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn include_and_exclude_curate_by_tag_and_path() {
    let scratch = tempfile::tempdir().unwrap();
    let doc = scratch.path().join("rules.yaml");
    std::fs::write(&doc, RULES).unwrap();
    let out = scratch.path().join("x.yaml");
    let report = import_and_check(&doc, &out, &["--include", "items", "--exclude", "/items/*"]);
    assert_eq!(
        (report["commands"].as_u64(), report["excluded"].as_u64()),
        (Some(2), Some(1))
    );
    let none = pas_gen()
        .args(["--agent", "import", "openapi"])
        .arg(&doc)
        .arg("--out")
        .arg(&out)
        .args(["--include", "nothing"])
        .output()
        .unwrap();
    assert_eq!(none.status.code(), Some(107));
}

#[test]
fn remote_refs_are_refused_all_at_once_with_their_lines() {
    let scratch = tempfile::tempdir().unwrap();
    let doc = scratch.path().join("remote.yaml");
    std::fs::write(
        &doc,
        "openapi: 3.1.0\ninfo: {title: t, version: 1.0.0}\npaths:\n  /a:\n    get:\n      responses:\n        \"200\":\n          $ref: \"https://example.test/r.yaml#/R\"\n        \"404\":\n          $ref: \"common.yaml#/NotFound\"\n",
    )
    .unwrap();
    let output = pas_gen()
        .args(["--agent", "import", "openapi"])
        .arg(&doc)
        .arg("--out")
        .arg(scratch.path().join("o.yaml"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(108));
    let error: Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(error["error"], "REMOTE_REF");
    let problems = error["details"]["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 2);
    assert_eq!(
        (problems[0]["line"].as_u64(), problems[1]["line"].as_u64()),
        (Some(8), Some(10))
    );
    assert!(problems[0]["hint"].as_str().unwrap().contains("bundle"));
    assert!(!scratch.path().join("o.yaml").exists());
}

#[test]
fn swagger_2_is_refused_with_a_hint() {
    let scratch = tempfile::tempdir().unwrap();
    let doc = scratch.path().join("old.json");
    std::fs::write(
        &doc,
        r#"{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {}}"#,
    )
    .unwrap();
    let output = pas_gen()
        .args(["--agent", "import", "openapi"])
        .arg(&doc)
        .arg("--out")
        .arg(scratch.path().join("o.yaml"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(107));
    let error: Value = serde_json::from_slice(&output.stderr).unwrap();
    assert!(
        error["message"].as_str().unwrap().contains("Swagger 2.0"),
        "{error}"
    );
}

#[test]
fn the_document_is_never_overwritten() {
    let scratch = tempfile::tempdir().unwrap();
    let doc = scratch.path().join("rules.yaml");
    std::fs::write(&doc, RULES).unwrap();
    let output = pas_gen()
        .args(["--agent", "import", "openapi"])
        .arg(&doc)
        .arg("--out")
        .arg(&doc)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(103));
    assert_eq!(std::fs::read_to_string(&doc).unwrap(), RULES);
}

/// `cargo ARGS` in a scaffold, offline, in the scaffolds' target directory (as scaffold.rs).
fn cargo_in(project: &Path, args: &[&str]) -> std::process::Output {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| repo().join("target"), PathBuf::from);
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    std::process::Command::new(cargo)
        .args(args)
        .args(["--offline", "--quiet"])
        .current_dir(project)
        .env("CARGO_TARGET_DIR", target.join("scaffolds"))
        .env("CARGO_NET_OFFLINE", "true")
        .env_remove("PAS_AGENT")
        .output()
        .unwrap()
}

/// An imported spec is a spec like any other: `pas-gen new` scaffolds it, the scaffold builds and
/// passes its contract test, a destructive operation asks for `--force`, and importing the same
/// document again over the project's spec leaves `generate` nothing to do.
#[test]
#[ignore = "slow: builds a scaffold with cargo; run with `cargo test -- --include-ignored` (.ci/run does)"]
fn an_imported_spec_scaffolds_builds_and_a_second_import_changes_nothing() {
    let scratch = tempfile::tempdir().unwrap();
    let doc = scratch.path().join("rules.yaml");
    std::fs::write(&doc, RULES).unwrap();
    let spec = scratch.path().join("rules-api.yaml");
    import_and_check(&doc, &spec, &[]);
    let project = scratch.path().join("rules-api");
    pas_gen()
        .args(["--agent", "new"])
        .arg(&spec)
        .arg("--out")
        .arg(&project)
        .assert()
        .success();
    let tested = cargo_in(&project, &["test"]);
    assert!(
        tested.status.success(),
        "{}",
        String::from_utf8_lossy(&tested.stderr)
    );

    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| repo().join("target"), PathBuf::from);
    let binary = target.join("scaffolds/debug/rules-api");
    let refused = std::process::Command::new(&binary)
        .args(["--agent", "items", "delete-item", "abc"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("FORCE_REQUIRED"));

    let project_spec = project.join("rules-api.yaml");
    assert!(
        project_spec.exists(),
        "new copies the spec into the project"
    );
    import_and_check(&doc, &project_spec, &[]);
    let generated = pas_gen()
        .args(["--agent", "generate"])
        .arg(&project_spec)
        .arg("--out")
        .arg(&project)
        .output()
        .unwrap();
    assert!(
        generated.status.success(),
        "{}",
        String::from_utf8_lossy(&generated.stderr)
    );
    let answer: Value = serde_json::from_slice(&generated.stdout).unwrap();
    assert_eq!(answer["changes"], serde_json::json!([]), "{answer}");
    assert!(
        answer["files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["status"] != "rewritten"),
        "{answer}"
    );
}
