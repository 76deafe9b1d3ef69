//! The level 3/4 verbs of a spec-driven app (`pas::App::new(registry).resources(..)`), over
//! `specs/docstore.yaml` and the `Echo` handlers of `tests/bin/spec_cli.rs`: which paths reach a
//! handler and with what, which the runtime answers itself, and which it refuses.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};

fn docstore() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).join("specs/docstore.yaml")
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(dir: &Path, args: &[&str]) -> Run {
    let output = Command::cargo_bin("pas-spec-cli")
        .unwrap()
        .current_dir(dir)
        .env("PAS_SPEC_CLI_SPEC", docstore())
        .env("XDG_STATE_HOME", dir.join("state"))
        .env_remove("PAS_AGENT")
        .env_remove("DOCSTORE_URL")
        .env_remove("DOCSTORE_TOKEN")
        .args(args)
        .output()
        .unwrap();
    Run {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

fn ok(dir: &Path, args: &[&str]) -> Vec<Value> {
    let run = run(dir, args);
    assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
    assert_eq!(run.stderr, "", "{args:?}");
    run.stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn refused(dir: &Path, args: &[&str], code: i32, error: &str) -> Value {
    let run = run(dir, args);
    assert_eq!(run.code, Some(code), "{args:?}: {}", run.stderr);
    assert_eq!(run.stdout, "", "{args:?}");
    let value: Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(value["error"], error, "{args:?}");
    value
}

#[test]
fn a_matched_path_reaches_the_handler_with_its_placeholders() {
    let dir = tempfile::tempdir().unwrap();
    let cat = ok(
        dir.path(),
        &["--agent", "cat", "collections/books/docs/42/"],
    );
    assert_eq!(
        cat,
        [json!({
            "path": "/collections/books/docs/42",
            "template": "/collections/{collection}/docs/{id}",
            "params": {"collection": "books", "id": "42"}
        })]
    );
    let ls = ok(dir.path(), &["--agent", "ls", "/collections/books"]);
    assert_eq!(
        ls,
        [
            json!({"path": "/collections/books/one", "type": "dir"}),
            json!({"path": "/collections/books/two", "type": "file", "size": 2}),
        ]
    );
}

#[test]
fn the_runtime_answers_for_the_directories_above_the_templates() {
    let dir = tempfile::tempdir().unwrap();
    for root in ["/", ""] {
        assert_eq!(
            ok(dir.path(), &["--agent", "ls", root]),
            [json!({"path": "/collections", "type": "dir"})]
        );
    }
    assert_eq!(
        ok(dir.path(), &["--agent", "ls", "/collections/books"]).len(),
        2,
        "a template offering ls goes to the handler"
    );
    assert_eq!(
        ok(dir.path(), &["--agent", "stat", "/collections/books/docs"]),
        [json!({"path": "/collections/books/docs", "type": "dir"})]
    );
    // Its children are `{id}`s: only a handler could list them, and none is declared there.
    refused(
        dir.path(),
        &["--agent", "ls", "/collections/books/docs"],
        2,
        "INVALID_ARGUMENT",
    );
}

#[test]
fn verbs_a_path_does_not_offer_are_refused_with_the_paths_that_do() {
    let dir = tempfile::tempdir().unwrap();
    let error = refused(
        dir.path(),
        &["--agent", "cp", "./x.json", "/collections/books"],
        2,
        "INVALID_ARGUMENT",
    );
    assert_eq!(
        error["message"],
        "/collections/books (a /collections/{collection} path) offers ls, stat, rm, sync, feedback, not cp"
    );
    assert_eq!(
        error["suggestion"],
        "cp works on /collections/{collection}/docs/{id}; `docstore --agent ls /` shows the top"
    );
    refused(
        dir.path(),
        &["--agent", "stat", "/nowhere"],
        2,
        "INVALID_ARGUMENT",
    );
}

#[test]
fn cp_tells_local_files_from_resource_paths() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("book.json"), "{\"title\": \"Dune\"}").unwrap();
    assert_eq!(
        ok(
            dir.path(),
            &["--agent", "cp", "./book.json", "/collections/books/docs/43"]
        ),
        [json!({"status": "success", "path": "/collections/books/docs/43", "bytes": 17})]
    );
    // A resource path as the source is not read from disk.
    assert_eq!(
        ok(
            dir.path(),
            &[
                "--agent",
                "cp",
                "/collections/a/docs/1",
                "/collections/b/docs/1"
            ]
        ),
        [json!({"status": "success", "path": "/collections/b/docs/1"})]
    );
    // A local absolute path no template matches is a local file.
    let missing = dir.path().join("missing.json");
    let error = refused(
        dir.path(),
        &[
            "--agent",
            "cp",
            missing.to_str().unwrap(),
            "/collections/b/docs/1",
        ],
        1,
        "GENERAL_ERROR",
    );
    assert!(error["message"].as_str().unwrap().contains("No such file"));
}

#[test]
fn rm_of_a_wildcard_needs_force_in_the_pas_profile() {
    let dir = tempfile::tempdir().unwrap();
    let error = refused(
        dir.path(),
        &["--agent", "rm", "/collections/books/docs/*"],
        1,
        "FORCE_REQUIRED",
    );
    assert!(error["suggestion"].as_str().unwrap().contains("--force"));
    // An explicit path needs no confirmation in the pas profile; a wildcard goes with --force.
    assert_eq!(
        ok(dir.path(), &["--agent", "rm", "/collections/books/docs/42"])[0]["deleted"],
        true
    );
    assert_eq!(
        ok(
            dir.path(),
            &["--agent", "rm", "/collections/books/docs/*", "--force"]
        )[0]["path"],
        "/collections/books/docs/*"
    );
}

#[test]
fn rm_of_a_container_needs_force_and_never_reaches_the_handler_without() {
    let dir = tempfile::tempdir().unwrap();
    // A collection holds documents (`/collections/{collection}/docs/{id}` lies below it).
    let error = refused(
        dir.path(),
        &["--agent", "rm", "/collections/books"],
        1,
        "FORCE_REQUIRED",
    );
    assert_eq!(
        error["message"],
        "rm /collections/books deletes a container (/collections/{collection}) with everything \
         in it, which needs --force"
    );
    assert!(
        error["suggestion"]
            .as_str()
            .unwrap()
            .ends_with("`docstore --agent rm /collections/books --force`"),
        "{error}"
    );
    assert_eq!(
        ok(
            dir.path(),
            &["--agent", "rm", "/collections/books", "--force"]
        )[0]["path"],
        "/collections/books"
    );
}

#[test]
fn sync_stops_with_the_runtime_error_on_a_child_no_template_describes() {
    let dir = tempfile::tempdir().unwrap();
    // Echo lists a directory `one` under every path, and `one` is a collection's child that
    // matches no template: the walk fails on it with the runtime's error. The walk is the
    // source check, made before the first event: stdout stays empty (PAS 2.1.1).
    let run = run(
        dir.path(),
        &["--agent", "sync", "/collections/books", "./copy"],
    );
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(run.stdout, "");
    let error: Value = serde_json::from_str(&run.stderr).unwrap();
    assert_eq!(error["error"], "INVALID_ARGUMENT");
}

#[test]
fn feedback_by_default_is_a_json_line_in_the_state_directory() {
    let dir = tempfile::tempdir().unwrap();
    let receipt = ok(
        dir.path(),
        &[
            "--agent",
            "feedback",
            "/collections/books",
            "--level",
            "error",
            "--message",
            "500 on every read",
            "--email",
            "agent@example.com",
        ],
    );
    let log = dir.path().join("state/docstore/feedback.jsonl");
    assert_eq!(
        receipt,
        [
            json!({"status": "sent", "issue_id": "1", "tracked_at": format!("file://{}", log.display())})
        ]
    );
    let line: Value = serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
    assert_eq!(
        line,
        json!({"path": "/collections/books", "level": "error", "message": "500 on every read",
               "email": "agent@example.com", "context": null})
    );
}
