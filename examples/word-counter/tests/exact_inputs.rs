//! Machine mode changes the form of a call, never its meaning: `files` is declared
//! `format: path`, so in `--agent` mode (and over MCP) every file name is taken exactly as the
//! operating system takes it and counted as the same file a person's call counts. Each case
//! below was once refused in machine mode by the parameter's *name*, with a `corrected_input`
//! that named another file (issue 27).

#![cfg(unix)]

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Output};

use proptest::prelude::*;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_word-counter");

fn word_counter(dir: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.current_dir(dir).env_remove("PAS_AGENT");
    cmd
}

/// The JSON lines of a successful agent call.
fn counts(output: &Output) -> Vec<Value> {
    assert!(output.status.success(), "{output:?}");
    output
        .stdout
        .split(|b| *b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_slice(line).unwrap())
        .collect()
}

/// `word-counter --agent NAME` run in `dir`: its one result.
fn agent_count(dir: &Path, name: &[u8]) -> Value {
    let output = word_counter(dir)
        .args([
            "--agent".as_ref(),
            OsStr::new("--"),
            OsStr::from_bytes(name),
        ])
        .output()
        .unwrap();
    let mut lines = counts(&output);
    assert_eq!(lines.len(), 1, "{output:?}");
    lines.remove(0)
}

/// `word-counter NAME` (a person's call) run in `dir`: `(name shown, words)` of its one line,
/// `NAME: N words`.
fn human_count(dir: &Path, name: &[u8]) -> (String, u64) {
    let output = word_counter(dir)
        .args([OsStr::new("--"), OsStr::from_bytes(name)])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    let line = text.strip_suffix('\n').unwrap_or(&text);
    let (shown, words) = line.rsplit_once(": ").expect("NAME: N words");
    let words = words.strip_suffix(" words").expect("N words");
    (shown.to_owned(), words.parse().unwrap())
}

/// A directory where each case's "correction" would name an existing, different file.
fn decoys() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("sub")).unwrap();
    fs::create_dir_all(root.join("d")).unwrap();
    for (name, text) in [
        ("x.txt", "one two three"),
        ("sub/x.txt", "decoy"),
        ("a.txt", "one two three four"),
        ("d/a.txt", "decoy"),
        ("report#1.txt", "one two"),
        ("report", "decoy decoy decoy decoy decoy"),
        ("R&D; v2.txt", "research and development"),
        ("R", "decoy"),
        ("null", "not nothing at all"),
    ] {
        fs::write(root.join(name), text).unwrap();
    }
    dir
}

#[test]
fn a_parent_path_from_a_subdirectory_is_that_file() {
    let dir = decoys();
    let count = agent_count(&dir.path().join("sub"), b"../x.txt");
    assert_eq!(count, json!({"file": "../x.txt", "words": 3}));
}

#[test]
fn a_dot_dot_inside_a_path_is_kept() {
    let dir = decoys();
    let count = agent_count(dir.path(), b"d/../a.txt");
    assert_eq!(count, json!({"file": "d/../a.txt", "words": 4}));
}

#[test]
fn a_hash_in_a_name_is_part_of_the_name() {
    let dir = decoys();
    let count = agent_count(dir.path(), b"report#1.txt");
    assert_eq!(count, json!({"file": "report#1.txt", "words": 2}));
}

#[test]
fn an_ampersand_and_a_semicolon_in_a_name_are_part_of_the_name() {
    let dir = decoys();
    let count = agent_count(dir.path(), b"R&D; v2.txt");
    assert_eq!(count, json!({"file": "R&D; v2.txt", "words": 3}));
}

#[test]
fn a_file_named_null_is_a_file() {
    let dir = decoys();
    let count = agent_count(dir.path(), b"null");
    assert_eq!(count, json!({"file": "null", "words": 4}));
}

/// Every case at once, in both modes: the same files, the same counts, in the order given.
#[test]
fn machine_mode_counts_what_a_person_counts() {
    let dir = decoys();
    let names = [
        "d/../a.txt",
        "report#1.txt",
        "R&D; v2.txt",
        "null",
        "sub/../x.txt",
    ];
    let agent = word_counter(dir.path())
        .arg("--agent")
        .args(names)
        .output()
        .unwrap();
    let person = word_counter(dir.path()).args(names).output().unwrap();
    assert!(person.status.success(), "{person:?}");
    let human: Vec<String> = String::from_utf8(person.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let machine: Vec<String> = counts(&agent)
        .iter()
        .map(|c| format!("{}: {} words", c["file"].as_str().unwrap(), c["words"]))
        .collect();
    assert_eq!(machine, human);
}

/// The tool's own documented pattern, in a real shell: `find -print0 | xargs -0` counts every
/// file in machine mode, names holding `&`, `#`, `;` and spaces included, as it does for a
/// person.
#[test]
fn find_print0_xargs0_counts_every_file_in_a_real_shell() {
    let dir = tempfile::tempdir().unwrap();
    let names = [
        "plain.md",
        "a&b.md",
        "notes#2.md",
        "R&D; v2.md",
        "$(id).md",
        "what?.md",
        "100%25.md",
    ];
    for (i, name) in names.iter().enumerate() {
        fs::write(dir.path().join(name), "word ".repeat(i + 1)).unwrap();
    }
    let run = |agent: &str| {
        let script = format!("find . -name '*.md' -print0 | xargs -0 '{BIN}' {agent}");
        let output = Command::new("sh")
            .args(["-c", &script])
            .current_dir(dir.path())
            .env_remove("PAS_AGENT")
            .output()
            .unwrap();
        assert!(output.status.success(), "{script}: {output:?}");
        output
    };
    let mut machine: Vec<(String, u64)> = counts(&run("--agent"))
        .iter()
        .map(|c| {
            (
                c["file"].as_str().unwrap().to_owned(),
                c["words"].as_u64().unwrap(),
            )
        })
        .collect();
    machine.sort();
    let mut expected: Vec<(String, u64)> = names
        .iter()
        .enumerate()
        .map(|(i, name)| (format!("./{name}"), i as u64 + 1))
        .collect();
    expected.sort();
    assert_eq!(machine, expected);
    let mut human: Vec<String> = String::from_utf8(run("").stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    human.sort();
    let mut shown: Vec<String> = machine
        .iter()
        .map(|(file, words)| format!("{file}: {words} words"))
        .collect();
    shown.sort();
    assert_eq!(shown, human);
}

/// Over MCP the arguments reach the tool as they are: the same names, the same counts, both
/// through the official SDKs and read back on a pipe.
#[test]
fn mcp_counts_the_same_names_as_given() {
    let dir = decoys();
    let root = dir.path().display();
    let names: Vec<String> = [
        "sub/../x.txt",
        "d/../a.txt",
        "report#1.txt",
        "R&D; v2.txt",
        "null",
    ]
    .iter()
    .map(|name| format!("{root}/{name}"))
    .collect();
    let mut session = mcp_support::Session::start(Path::new(BIN), &[]);
    let result = session.call("count", json!({ "files": names }));
    session.end();
    let data = mcp_support::as_envelope(&result)["data"].clone();
    let expected: Vec<Value> = names
        .iter()
        .zip([3, 4, 2, 3, 4])
        .map(|(file, words)| json!({"file": file, "words": words}))
        .collect();
    assert_eq!(data, json!(expected), "{result}");

    let mut plan = mcp_support::plan(Path::new(BIN), "word-counter", json!({}));
    plan["calls"] = json!([mcp_support::call("count", json!({ "files": names }), None)]);
    plan["calls"][0]["items"] = json!(names.len());
    mcp_support::run_clients(&plan);
}

/// A byte a Unix file name component may hold: anything but `/` and NUL.
fn name_byte() -> impl Strategy<Value = u8> {
    any::<u8>().prop_filter("not / or NUL", |b| *b != b'/' && *b != 0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// For any file name a Unix file system allows in one component, `--agent` reports the
    /// same count for the same file as a person's call, and gives the name back unchanged
    /// (`file`, plus `file_bytes` when it is not UTF-8).
    #[test]
    fn any_file_name_is_counted_as_a_person_counts_it(
        name in proptest::collection::vec(name_byte(), 1..48)
            // A name spelled like a built-in word is a file too (issue 27, item 6).
            .prop_filter("not . or ..", |n| n != b"." && n != b".."),
        words in 0usize..20,
    ) {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(OsStr::from_bytes(&name)), "w ".repeat(words)).unwrap();
        let agent = agent_count(dir.path(), &name);
        let (shown, counted) = human_count(dir.path(), &name);
        prop_assert_eq!(agent["words"].as_u64(), Some(counted));
        prop_assert_eq!(counted, words as u64);
        let lossy = String::from_utf8_lossy(&name);
        prop_assert_eq!(agent["file"].as_str(), Some(lossy.as_ref()));
        prop_assert_eq!(&shown, lossy.as_ref());
        match std::str::from_utf8(&name) {
            Ok(_) => prop_assert!(agent.get("file_bytes").is_none()),
            Err(_) => prop_assert_eq!(&agent["file_bytes"], &json!(name)),
        }
    }
}
