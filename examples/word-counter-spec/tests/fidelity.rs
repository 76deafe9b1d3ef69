//! Fidelity (issue 27, "exact by default") of the spec-first build: `files` is declared
//! `format: path`, so for any file names a Unix file system allows in a component, given in any
//! order, a person's call (`word-counter-spec NAMES`), the pas `--agent` form and the `count`
//! tool over `word-counter-spec mcp` count the same files, give the names back unchanged and
//! keep the order given. (The code-first build has the same property in
//! examples/word-counter/tests/exact_inputs.rs.)

#![cfg(unix)]

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

#[path = "../../../tests/fidelity_support/mod.rs"]
mod fidelity_support;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Stdio};

use mcp_support::{Session, as_envelope};
use proptest::prelude::*;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_word-counter-spec");

fn word_counter(dir: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.current_dir(dir)
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null());
    cmd
}

/// `word-counter-spec [--agent] -- NAMES...` in `dir`: its stdout (the call must succeed).
fn run(dir: &Path, agent: bool, names: &[Vec<u8>]) -> String {
    let mut cmd = word_counter(dir);
    if agent {
        cmd.arg("--agent");
    }
    cmd.arg("--")
        .args(names.iter().map(|n| OsStr::from_bytes(n)));
    let output = cmd.output().unwrap();
    assert!(output.status.success(), "{names:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// The agent's NDJSON lines.
fn machine(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A byte a Unix file name component may hold: anything but `/` and NUL.
fn name_byte() -> impl Strategy<Value = u8> {
    any::<u8>().prop_filter("not / or NUL", |b| *b != b'/' && *b != 0)
}

/// A component name: any bytes a Unix file name may hold (UTF-8 or not), or any Unicode text
/// (which also travels over MCP). The spec's `format: path` makes `files` a `Vec<PathBuf>`, as
/// in the code-first build, so every such name reaches the handler.
fn name() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(name_byte(), 1..40),
        "[^/\u{0}]{1,30}".prop_map(String::into_bytes),
    ]
    .prop_filter("not . or ..", |n| n != b"." && n != b"..")
    .prop_filter("fits a component", |n| n.len() <= 255)
    .prop_filter("not a built-in word", |n| {
        !BUILT_INS.contains(&n.as_slice())
    })
}

/// Built-in words a one-command tool's first positional may collide with (issue 27, item 6,
/// is the `builtins` work): not what this test is about.
const BUILT_INS: &[&[u8]] = &[b"docs", b"tools", b"doctor", b"changelog", b"man", b"mcp"];

/// Distinct names in a random order, each with its number of words.
fn files() -> impl Strategy<Value = Vec<(Vec<u8>, usize)>> {
    proptest::collection::vec((name(), 0usize..12), 1..5)
        .prop_map(|mut files| {
            let mut seen = std::collections::HashSet::new();
            files.retain(|(name, _)| seen.insert(name.clone()));
            files
        })
        .prop_shuffle()
}

proptest! {
    #![proptest_config(fidelity_support::config(32))]

    #[test]
    fn any_names_are_counted_alike_in_every_form(files in files()) {
        let dir = tempfile::tempdir().unwrap();
        for (name, words) in &files {
            std::fs::write(dir.path().join(OsStr::from_bytes(name)), "w ".repeat(*words)).unwrap();
        }
        let names: Vec<Vec<u8>> = files.iter().map(|(name, _)| name.clone()).collect();

        // A person's call: every file, in the order given, one `NAME: N words` each (a name
        // may hold a newline, so the whole text is compared).
        let person = run(dir.path(), false, &names);
        let expected: String = files
            .iter()
            .map(|(name, words)| format!("{}: {words} words\n", String::from_utf8_lossy(name)))
            .collect();
        prop_assert_eq!(&person, &expected);

        // The agent: the same files, counts and order, each name given back unchanged
        // (`file_bytes` holds a name that is not UTF-8).
        let agent = machine(&run(dir.path(), true, &names));
        prop_assert_eq!(agent.len(), files.len());
        for (item, (name, words)) in agent.iter().zip(&files) {
            prop_assert_eq!(&item["file"], &json!(String::from_utf8_lossy(name)));
            prop_assert_eq!(&item["words"], &json!(words));
            match std::str::from_utf8(name) {
                Ok(_) => prop_assert!(item.get("file_bytes").is_none(), "{}", item),
                Err(_) => prop_assert_eq!(&item["file_bytes"], &json!(name)),
            }
        }

        // Over MCP (JSON strings: the UTF-8 names), in the same directory: the agent's items.
        let text: Vec<(String, &Value)> = names
            .iter()
            .zip(&agent)
            .filter_map(|(name, item)| Some((String::from_utf8(name.clone()).ok()?, item)))
            .collect();
        if !text.is_empty() {
            let mut server = word_counter(dir.path());
            server.stderr(Stdio::null());
            let mut session = Session::spawn(server);
            let given: Vec<&String> = text.iter().map(|(name, _)| name).collect();
            let result = session.call("count", json!({ "files": given }));
            session.end();
            let expected: Vec<&Value> = text.iter().map(|(_, item)| *item).collect();
            prop_assert_eq!(&as_envelope(&result)["data"], &json!(expected), "{}", result);
        }
    }
}

/// A name that is not UTF-8: the spec's `format: path` makes the field a `PathBuf`, so the
/// spec-first build counts it as the code-first build does, for a person and an agent alike
/// (the item's `file` is the name made readable, `file_bytes` its exact bytes).
#[test]
fn a_name_that_is_not_utf8_is_counted_alike_in_both_modes() {
    let dir = tempfile::tempdir().unwrap();
    let name = b"caf\xe9.txt";
    std::fs::write(dir.path().join(OsStr::from_bytes(name)), "one two").unwrap();
    let person = word_counter(dir.path())
        .arg("--")
        .arg(OsStr::from_bytes(name))
        .output()
        .unwrap();
    let agent = word_counter(dir.path())
        .args(["--agent", "--"])
        .arg(OsStr::from_bytes(name))
        .output()
        .unwrap();
    assert_eq!(person.status.code(), Some(0), "{person:?}");
    assert_eq!(agent.status.code(), Some(0), "{agent:?}");
    assert_eq!(
        String::from_utf8_lossy(&person.stdout),
        "caf\u{fffd}.txt: 2 words\n"
    );
    let item: Value =
        serde_json::from_slice(&agent.stdout).unwrap_or_else(|e| panic!("{e}: {agent:?}"));
    assert_eq!(item["words"], json!(2), "{item}");
    assert_eq!(item["file"], json!("caf\u{fffd}.txt"), "{item}");
    assert_eq!(
        item["file_bytes"],
        json!(name.iter().map(|b| u64::from(*b)).collect::<Vec<_>>()),
        "{item}"
    );
}
