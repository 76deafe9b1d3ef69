//! CLI Agent Spec 70: `cat`, `stat` and `rm` take several paths in one call. Each path answers
//! one item, in order, `{"path", "ok", "result" | "error"}`; a failed path never stops the
//! others, and any failure makes the whole call fail (non-zero exit, `ok: false`, robot's
//! `status: error`) with every item still there. One path keeps the PAS shape. Over
//! `specs/docstore.yaml` and the `Echo` handlers of `tests/bin/spec_cli.rs`.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::{Value, json};

const DOC_1: &str = "/collections/books/docs/1";
const DOC_2: &str = "/collections/books/docs/2";

/// docstore.yaml in `profile` (its own is pas), written to `dir`.
fn spec_in(dir: &Path, profile: &str) -> PathBuf {
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs/docstore.yaml");
    let text = std::fs::read_to_string(spec).unwrap();
    assert!(text.contains("\nprofile: pas\n"));
    let text = text.replacen("\nprofile: pas\n", &format!("\nprofile: {profile}\n"), 1);
    let path = dir.join("docstore.yaml");
    std::fs::write(&path, text).unwrap();
    path
}

fn run(profile: &str, args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("pas-spec-cli")
        .unwrap()
        .current_dir(dir.path())
        .env("PAS_SPEC_CLI_SPEC", spec_in(dir.path(), profile))
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env_remove("PAS_AGENT")
        .env_remove("DOCSTORE_URL")
        .env_remove("DOCSTORE_TOKEN")
        .args(args)
        .output()
        .unwrap()
}

fn lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn paths_and_oks(items: &[Value]) -> Vec<(String, bool)> {
    items
        .iter()
        .map(|i| (i["path"].as_str().unwrap().to_owned(), i["ok"] == true))
        .collect()
}

#[test]
fn several_paths_answer_one_item_each_in_order() {
    let out = run("pas", &["--agent", "cat", DOC_2, DOC_1]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let items = lines(&out);
    assert_eq!(
        paths_and_oks(&items),
        [(DOC_2.to_owned(), true), (DOC_1.to_owned(), true)]
    );
    assert_eq!(items[0]["result"]["params"]["id"], "2");
    // One path: the object itself, as PAS level 3 fixes it.
    let one = lines(&run("pas", &["--agent", "stat", DOC_1]));
    assert_eq!(one.len(), 1);
    assert_eq!(one[0]["path"], DOC_1);
    assert_eq!(one[0]["type"], "file");
    assert!(one[0].get("ok").is_none(), "{one:?}");
}

#[test]
fn a_failed_path_is_its_own_item_and_fails_the_call() {
    let out = run("pas", &["--agent", "rm", DOC_1, "/nope", DOC_2]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let items = lines(&out);
    assert_eq!(
        paths_and_oks(&items),
        [
            (DOC_1.to_owned(), true),
            ("/nope".to_owned(), false),
            (DOC_2.to_owned(), true)
        ]
    );
    assert_eq!(items[0]["result"]["deleted"], true);
    assert_eq!(items[1]["error"]["code"], "INVALID_ARGUMENT");
    let error: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(error["error"], "INVALID_ARGUMENT");
    assert_eq!(error["details"]["failed"], json!(["/nope"]));
    assert_eq!(error["details"]["total"], 3);
}

#[test]
fn compose_and_robot_say_ok_false_and_keep_every_item() {
    let compose = run("compose", &["cat", DOC_1, "/nope"]);
    assert_ne!(compose.status.code(), Some(0));
    let envelope: Value = serde_json::from_slice(&compose.stdout).unwrap();
    assert_eq!(envelope["ok"], false);
    let results = envelope["error"]["details"]["results"].as_array().unwrap();
    assert_eq!(
        paths_and_oks(results),
        [(DOC_1.to_owned(), true), ("/nope".to_owned(), false)]
    );
    let ok = run("compose", &["cat", DOC_1, DOC_2]);
    let envelope: Value = serde_json::from_slice(&ok.stdout).unwrap();
    assert_eq!(envelope["ok"], true);
    assert_eq!(envelope["data"].as_array().unwrap().len(), 2);

    let robot = run("robot", &["stat", DOC_1, "/nope"]);
    let envelope: Value = serde_json::from_slice(&robot.stdout).unwrap();
    assert_eq!(envelope["status"], "error");
    assert_eq!(
        paths_and_oks(envelope["data"].as_array().unwrap()),
        [(DOC_1.to_owned(), true), ("/nope".to_owned(), false)]
    );
}

#[test]
fn every_face_says_cat_stat_and_rm_take_several_paths() {
    let tools = run("compose", &["tools", "rm"]);
    let tool: Value = serde_json::from_slice(&tools.stdout).unwrap();
    let path = &tool["data"]["parameters"][0];
    assert_eq!(path["kind"], "variadic", "{tool}");
    for face in [vec!["--agent", "cat", "--help"], vec!["docs"]] {
        let text = run("pas", &face);
        let text = String::from_utf8_lossy(&text.stdout);
        assert!(text.contains("<path>..."), "{face:?}: {text}");
        assert!(text.contains("one JSON item per path"), "{face:?}: {text}");
    }
}
