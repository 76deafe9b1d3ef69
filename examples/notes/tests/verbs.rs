//! notes as an agent drives it: the level 3 and 4 verbs over a copy of the fixture store, each
//! output held to the shape PAS fixes (the schemas of `pas_spec::verbs`), each refusal a
//! structured error with stdout empty.

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};
use tempfile::TempDir;

/// A scratch directory holding `store/` (a copy of the fixture store) and `state/`.
struct Scratch {
    dir: TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/store");
        copy_tree(&fixture, &dir.path().join("store"));
        Scratch { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn store(&self) -> PathBuf {
        self.path().join("store")
    }

    fn run(&self, args: &[&str]) -> Run {
        let output = Command::cargo_bin("notes")
            .unwrap()
            .current_dir(self.path())
            .env_remove("PAS_AGENT")
            .env("NOTES_STORE", self.store())
            .env("XDG_STATE_HOME", self.path().join("state"))
            .args(args)
            .output()
            .unwrap();
        Run {
            code: output.status.code(),
            stdout: String::from_utf8(output.stdout).unwrap(),
            stderr: String::from_utf8(output.stderr).unwrap(),
        }
    }

    /// `--agent ARGS`, which must succeed quietly.
    fn ok(&self, args: &[&str]) -> String {
        let mut argv = vec!["--agent"];
        argv.extend(args);
        let run = self.run(&argv);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr, "", "{args:?}");
        run.stdout
    }

    /// `--agent ARGS`, which must fail with `code` and one JSON error naming `error`.
    fn fails(&self, args: &[&str], code: i32, error: &str) -> Value {
        let mut argv = vec!["--agent"];
        argv.extend(args);
        let run = self.run(&argv);
        assert_eq!(run.code, Some(code), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        let value: Value = serde_json::from_str(&run.stderr).unwrap();
        assert_eq!(value["error"], error, "{args:?}");
        assert_eq!(value["code"], code, "{args:?}");
        value
    }
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn one(text: &str) -> Value {
    assert_eq!(text.lines().count(), 1, "{text:?}");
    serde_json::from_str(text).unwrap()
}

/// The PAS schema of a verb's output (one item of `ls`, one event of `sync`).
fn schema_of(verb: &str) -> jsonschema::Validator {
    let registry: pas_spec::Registry = serde_json::from_value(json!({
        "specVersion": 1, "name": "x", "version": "0.0.0", "summary": "x", "commands": [],
        "resources": [{"path": "/x", "verbs": ["ls", "cat", "stat", "cp", "rm", "sync", "feedback"]}]
    }))
    .unwrap();
    let command = pas_spec::verbs::verb_commands(&registry)
        .into_iter()
        .find(|c| c.name == verb)
        .unwrap();
    jsonschema::validator_for(&command.output_schema.unwrap()).unwrap()
}

fn assert_shape(verb: &str, values: &[Value]) {
    let schema = schema_of(verb);
    assert!(!values.is_empty(), "{verb}: no output");
    for value in values {
        if let Some(error) = schema.iter_errors(value).next() {
            panic!("{verb}: {value} does not fit PAS: {error}");
        }
    }
}

#[test]
fn ls_walks_from_the_root_and_fits_pas() {
    let s = Scratch::new();
    let root = s.ok(&["ls", "/"]);
    assert_eq!(root, "{\"path\":\"/notebooks\",\"type\":\"dir\"}\n");
    assert_shape("ls", &lines(&root));
    let notebooks = lines(&s.ok(&["ls", "/notebooks"]));
    assert_eq!(
        notebooks,
        [
            json!({"path": "/notebooks/inbox", "type": "dir", "name": "inbox"}),
            json!({"path": "/notebooks/recipes", "type": "dir", "name": "recipes"}),
        ]
    );
    let inbox = lines(&s.ok(&["ls", "/notebooks/inbox"]));
    let paths: Vec<&str> = inbox.iter().map(|e| e["path"].as_str().unwrap()).collect();
    assert_eq!(
        paths,
        ["/notebooks/inbox/call-ann", "/notebooks/inbox/milk"]
    );
    assert_shape("ls", &inbox);
}

#[test]
fn the_spellings_of_one_path_give_the_same_bytes() {
    let s = Scratch::new();
    assert_eq!(s.ok(&["ls", "/"]), s.ok(&["ls", ""]));
    assert_eq!(s.ok(&["ls", "/notebooks"]), s.ok(&["ls", "/notebooks/"]));
    assert_eq!(s.ok(&["ls", "/notebooks"]), s.ok(&["ls", "notebooks"]));
    assert_eq!(
        s.ok(&["cat", "/notebooks/inbox/milk"]),
        s.ok(&["cat", "//notebooks//inbox/milk/"])
    );
    // `--format=array` holds the same entries.
    let array: Value =
        serde_json::from_str(&s.ok(&["ls", "/notebooks", "--format=array"])).unwrap();
    assert_eq!(array, Value::Array(lines(&s.ok(&["ls", "/notebooks"]))));
}

#[test]
fn cat_and_stat() {
    let s = Scratch::new();
    let note = one(&s.ok(&["cat", "/notebooks/inbox/milk"]));
    assert_eq!(note, json!({"title": "Buy milk", "tags": ["shopping"]}));
    let stat = one(&s.ok(&["stat", "/notebooks/inbox/milk"]));
    assert_shape("stat", std::slice::from_ref(&stat));
    let size = fs::metadata(s.store().join("inbox/milk.json"))
        .unwrap()
        .len();
    assert_eq!(stat["size"], size);
    assert_eq!(stat["type"], "file");
    assert!(stat["modified"].as_str().unwrap().ends_with('Z'));
    // Directories, the ones the runtime knows from the templates included.
    for dir in ["/", "/notebooks", "/notebooks/inbox"] {
        let stat = one(&s.ok(&["stat", dir]));
        assert_eq!(stat["type"], "dir", "{dir}");
        assert_eq!(stat["path"], dir);
        assert_shape("stat", &[stat]);
    }
}

#[test]
fn wrong_paths_are_structured_errors() {
    let s = Scratch::new();
    let dir = s.fails(&["cat", "/notebooks"], 2, "INVALID_ARGUMENT");
    assert_eq!(dir["suggestion"], "notes --agent ls /notebooks");
    let nowhere = s.fails(&["ls", "/elsewhere"], 2, "INVALID_ARGUMENT");
    assert!(
        nowhere["suggestion"]
            .as_str()
            .unwrap()
            .contains("/notebooks/{notebook}")
    );
    let inbox = s.fails(&["cat", "/notebooks/inbox"], 2, "INVALID_ARGUMENT");
    assert!(
        inbox["message"]
            .as_str()
            .unwrap()
            .contains("is a directory"),
        "{inbox}"
    );
    let verb = s.fails(
        &[
            "feedback",
            "/notebooks",
            "--level",
            "info",
            "--message",
            "x",
        ],
        2,
        "INVALID_ARGUMENT",
    );
    assert_eq!(verb["message"], "/notebooks offers ls, stat, not feedback");
    let note = s.fails(&["ls", "/notebooks/inbox/milk"], 2, "INVALID_ARGUMENT");
    assert_eq!(
        note["message"],
        "/notebooks/inbox/milk (a /notebooks/{notebook}/{note} path) offers cat, stat, cp, rm, feedback, not ls"
    );
    s.fails(&["ls", "/notebooks/../etc"], 2, "INVALID_ARGUMENT");
    s.fails(&["ls", "\\notebooks"], 2, "INVALID_ARGUMENT");
    s.fails(&["cat", "/notebooks/inbox/nothing"], 100, "NOT_FOUND");
    s.fails(&["ls"], 2, "MISSING_ARGUMENT");
}

/// Issue 27: `rm` is destructive, and a notebook is a container: deleting it deletes every
/// note in it, so without --force it is refused before the handler runs and nothing goes. In
/// human mode too: the guard is the call's meaning, not its form.
#[test]
fn rm_of_a_notebook_needs_force() {
    let s = Scratch::new();
    let refused = s.fails(&["rm", "/notebooks/recipes"], 1, "FORCE_REQUIRED");
    assert_eq!(
        refused["message"],
        "rm /notebooks/recipes deletes a container (/notebooks/{notebook}) with everything in \
         it, which needs --force"
    );
    assert_eq!(
        refused["suggestion"],
        "see what it holds with `notes --agent ls /notebooks/recipes`, then confirm with \
         `notes --agent rm /notebooks/recipes --force`"
    );
    let human = s.run(&["rm", "/notebooks/recipes"]);
    assert_eq!((human.code, human.stdout.as_str()), (Some(1), ""));
    assert!(human.stderr.contains("needs --force"), "{}", human.stderr);
    assert!(
        s.store().join("recipes/bread.json").exists(),
        "nothing deleted"
    );
    // Among several paths, the notebook is refused and the note beside it is removed.
    let run = s.run(&[
        "--agent",
        "rm",
        "/notebooks/inbox/milk",
        "/notebooks/recipes",
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(!s.store().join("inbox/milk.json").exists());
    assert!(s.store().join("recipes/bread.json").exists());

    let forced = one(&s.ok(&["rm", "/notebooks/recipes", "--force"]));
    assert_eq!(
        forced,
        json!({"status": "success", "path": "/notebooks/recipes", "deleted": true})
    );
    assert!(!s.store().join("recipes").exists());
}

#[test]
fn rm_needs_an_explicit_path_or_force() {
    let s = Scratch::new();
    s.fails(&["rm"], 2, "MISSING_ARGUMENT");
    let refused = s.fails(&["rm", "/notebooks/inbox/*"], 1, "FORCE_REQUIRED");
    assert!(refused["suggestion"].as_str().unwrap().contains("--force"));
    s.fails(&["rm", "/*"], 1, "FORCE_REQUIRED");
    assert!(
        s.store().join("inbox/milk.json").exists(),
        "nothing deleted"
    );

    let forced = one(&s.ok(&["rm", "/notebooks/inbox/m*", "--force"]));
    assert_eq!(
        forced,
        json!({"status": "success", "path": "/notebooks/inbox/m*", "deleted": true})
    );
    assert!(!s.store().join("inbox/milk.json").exists());
    assert!(s.store().join("inbox/call-ann.json").exists());

    let removed = one(&s.ok(&["rm", "/notebooks/inbox/call-ann"]));
    assert_shape("rm", std::slice::from_ref(&removed));
    assert_eq!(removed["deleted"], true);
    // Again: the state asked for holds, and says nothing was there.
    let again = one(&s.ok(&["rm", "/notebooks/inbox/call-ann"]));
    assert_eq!(again["deleted"], false);
}

#[test]
fn cp_uploads_and_copies() {
    let s = Scratch::new();
    fs::write(s.path().join("note.json"), "{\"title\": \"Bread\"}").unwrap();
    fs::write(s.path().join("plain.txt"), "just words\n").unwrap();
    fs::write(s.path().join("list.json"), "[1, 2]").unwrap();

    let copied = one(&s.ok(&["cp", "./note.json", "/notebooks/new/bread"]));
    assert_shape("cp", std::slice::from_ref(&copied));
    assert_eq!(copied["path"], "/notebooks/new/bread");
    let written = fs::metadata(s.store().join("new/bread.json"))
        .unwrap()
        .len();
    assert_eq!(copied["bytes"], written);
    assert_eq!(
        one(&s.ok(&["cat", "/notebooks/new/bread"])),
        json!({"title": "Bread"})
    );

    s.ok(&["cp", "plain.txt", "/notebooks/new/words"]);
    assert_eq!(
        one(&s.ok(&["cat", "/notebooks/new/words"])),
        json!({"text": "just words\n"})
    );

    s.ok(&["cp", "/notebooks/inbox/milk", "/notebooks/new/milk"]);
    assert_eq!(
        s.ok(&["cat", "/notebooks/new/milk"]),
        s.ok(&["cat", "/notebooks/inbox/milk"])
    );

    s.fails(
        &["cp", "list.json", "/notebooks/new/list"],
        101,
        "INVALID_NOTE",
    );
    s.fails(
        &["cp", "missing.json", "/notebooks/new/x"],
        103,
        "SOURCE_UNREADABLE",
    );
    s.fails(
        &["cp", "note.json", "/notebooks/new"],
        2,
        "INVALID_ARGUMENT",
    );
    s.fails(
        &["cp", "note.json", "/notebooks/new/bad name"],
        2,
        "INVALID_ARGUMENT",
    );
}

#[test]
fn sync_pulls_only_what_changed() {
    let s = Scratch::new();
    let first = lines(&s.ok(&["sync", "/notebooks/inbox", "./copy"]));
    assert_shape("sync", &first);
    assert_eq!(
        first,
        [
            json!({"event": "start", "remote": "/notebooks/inbox", "local": "./copy"}),
            json!({"event": "scanning", "total": 2}),
            json!({"event": "downloading", "file": "call-ann", "progress": 0.5}),
            json!({"event": "downloading", "file": "milk", "progress": 1.0}),
            json!({"event": "complete", "downloaded": 2, "skipped": 0, "errors": 0}),
        ]
    );
    // Each local file is the note as `cat` prints it.
    let local: Value =
        serde_json::from_slice(&fs::read(s.path().join("copy/milk")).unwrap()).unwrap();
    assert_eq!(local, one(&s.ok(&["cat", "/notebooks/inbox/milk"])));

    let second = lines(&s.ok(&["sync", "/notebooks/inbox", "./copy"]));
    assert_eq!(
        second.last().unwrap(),
        &json!({"event": "complete", "downloaded": 0, "skipped": 2, "errors": 0})
    );

    fs::write(
        s.store().join("inbox/milk.json"),
        "{\"title\": \"Oat milk\"}",
    )
    .unwrap();
    let third = lines(&s.ok(&["sync", "/notebooks/inbox", "./copy"]));
    assert_eq!(
        third[2..],
        [
            json!({"event": "downloading", "file": "milk", "progress": 1.0}),
            json!({"event": "complete", "downloaded": 1, "skipped": 1, "errors": 0}),
        ]
    );
}

#[test]
fn sync_of_a_path_that_offers_no_sync_is_refused() {
    let s = Scratch::new();
    s.fails(&["sync", "/notebooks", "./copy"], 2, "INVALID_ARGUMENT");
    assert!(!s.path().join("copy").exists());
}

#[test]
fn feedback_is_recorded_in_the_state_directory() {
    let s = Scratch::new();
    let args = [
        "feedback",
        "/notebooks/inbox/milk",
        "--level",
        "warn",
        "--message",
        "The title is empty",
    ];
    let first = one(&s.ok(&args));
    assert_shape("feedback", std::slice::from_ref(&first));
    assert_eq!(first["issue_id"], "1");
    let log = s.path().join("state/notes/feedback.jsonl");
    assert_eq!(first["tracked_at"], format!("file://{}", log.display()));
    assert_eq!(one(&s.ok(&args))["issue_id"], "2");
    let recorded = lines(&fs::read_to_string(&log).unwrap());
    assert_eq!(recorded.len(), 2);
    assert_eq!(recorded[0]["path"], "/notebooks/inbox/milk");
    assert_eq!(recorded[0]["message"], "The title is empty");
    s.fails(
        &[
            "feedback",
            "/notebooks/inbox/milk",
            "--level",
            "loud",
            "--message",
            "x",
        ],
        2,
        "INVALID_VALUE",
    );
}

#[test]
fn people_see_paths_not_json() {
    let s = Scratch::new();
    let run = s.run(&["ls", "/notebooks"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(run.stdout, "/notebooks/inbox/\n/notebooks/recipes/\n");
}

#[test]
fn search_is_an_ordinary_command_beside_the_verbs() {
    let s = Scratch::new();
    let found = lines(&s.ok(&["search", "FLOUR"]));
    assert_eq!(
        found,
        [json!({"path": "/notebooks/recipes/bread", "notebook": "recipes", "note": "bread"})]
    );
}
