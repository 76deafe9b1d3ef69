//! word-counter as an agent runs it: the PAS Appendix A contract, byte for byte where the
//! appendix shows bytes.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use serde_json::{Value, json};
use tempfile::TempDir;

/// A directory with `a.txt` (3 words) and `b.txt` (4 words).
fn files() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.txt"), "hello world\nfoo\n").unwrap();
    fs::write(dir.path().join("b.txt"), "one two  three\tfour").unwrap();
    dir
}

fn word_counter(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("word-counter").unwrap();
    cmd.current_dir(dir).env_remove("PAS_AGENT");
    cmd
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(dir: &Path, args: &[&str]) -> Run {
    let output = word_counter(dir).args(args).output().unwrap();
    Run {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

fn error_line(stderr: &str) -> Value {
    assert_eq!(
        stderr.lines().count(),
        1,
        "one JSON line on stderr: {stderr:?}"
    );
    serde_json::from_str(stderr).unwrap()
}

#[test]
fn one_json_line_per_file_in_order() {
    let dir = files();
    let run = run(dir.path(), &["--agent", "a.txt", "b.txt"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(
        run.stdout,
        "{\"file\":\"a.txt\",\"words\":3}\n{\"file\":\"b.txt\",\"words\":4}\n"
    );
    assert_eq!(run.stderr, "");
}

#[test]
fn a_missing_file_exits_100_with_a_json_error_and_nothing_on_stdout() {
    let dir = files();
    let run = run(dir.path(), &["--agent", "nonexistent.txt"]);
    assert_eq!(run.code, Some(100));
    assert_eq!(run.stdout, "");
    let error = error_line(&run.stderr);
    assert_eq!(error["error"], "FILE_NOT_FOUND");
    assert_eq!(error["message"], "File not found: nonexistent.txt");
    assert_eq!(error["code"], 100);
    assert_eq!(error["details"], json!({ "file": "nonexistent.txt" }));
}

#[test]
fn a_file_that_cannot_be_read_exits_101() {
    let dir = files();
    fs::create_dir(dir.path().join("folder")).unwrap();
    let run = run(dir.path(), &["--agent", "folder"]);
    assert_eq!(run.code, Some(101));
    assert_eq!(run.stdout, "");
    let error = error_line(&run.stderr);
    assert_eq!(error["error"], "FILE_NOT_READABLE");
    assert_eq!(error["code"], 101);
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .starts_with("Cannot read file: folder")
    );
}

#[cfg(unix)]
#[test]
fn a_file_without_read_permission_exits_101() {
    use std::os::unix::fs::PermissionsExt;
    let dir = files();
    let secret = dir.path().join("secret.txt");
    fs::write(&secret, "hidden words").unwrap();
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read(&secret).is_ok() {
        // Running as root: permissions do not stop reads, so there is nothing to test.
        return;
    }
    let run = run(dir.path(), &["--agent", "secret.txt"]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(101), ""));
    assert_eq!(error_line(&run.stderr)["error"], "FILE_NOT_READABLE");
}

#[test]
fn a_failure_keeps_the_lines_already_written() {
    let dir = files();
    let run = run(dir.path(), &["--agent", "a.txt", "gone.txt", "b.txt"]);
    assert_eq!(run.code, Some(100));
    assert_eq!(run.stdout, "{\"file\":\"a.txt\",\"words\":3}\n");
    assert_eq!(error_line(&run.stderr)["error"], "FILE_NOT_FOUND");
}

#[test]
fn format_array_prints_one_json_array() {
    let dir = files();
    let run = run(dir.path(), &["--agent", "--format=array", "a.txt", "b.txt"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(
        run.stdout,
        "[{\"file\":\"a.txt\",\"words\":3},{\"file\":\"b.txt\",\"words\":4}]\n"
    );
}

#[test]
fn stable_output_keeps_the_files_in_the_order_given() {
    // The order of the results is the caller's: --stable-output never sorts it.
    let dir = files();
    let array = run(
        dir.path(),
        &[
            "--agent",
            "--stable-output",
            "--format=array",
            "b.txt",
            "a.txt",
        ],
    );
    assert_eq!(array.code, Some(0), "{}", array.stderr);
    assert_eq!(
        array.stdout,
        "[{\"file\":\"b.txt\",\"words\":4},{\"file\":\"a.txt\",\"words\":3}]\n"
    );
    let lines = run(
        dir.path(),
        &["--agent", "--stable-output", "b.txt", "a.txt"],
    );
    assert_eq!(
        lines.stdout,
        "{\"file\":\"b.txt\",\"words\":4}\n{\"file\":\"a.txt\",\"words\":3}\n"
    );
}

#[test]
fn built_ins_are_reached_with_the_builtin_flag() {
    let dir = files();
    let tools = run(dir.path(), &["--agent", "--builtin", "tools"]);
    assert_eq!(tools.code, Some(0), "{}", tools.stderr);
    let catalog: Value = serde_json::from_str(&tools.stdout).unwrap();
    assert_eq!(catalog["tool"], "word-counter");
    let changelog = run(dir.path(), &["--agent", "--builtin", "changelog"]);
    assert_eq!(changelog.code, Some(0), "{}", changelog.stderr);
    // Not a built-in word: an argument error naming the words.
    let wrong = run(dir.path(), &["--agent", "--builtin", "a.txt"]);
    assert_eq!(wrong.code, Some(2), "{}", wrong.stderr);
    let error = error_line(&wrong.stderr);
    assert_eq!(error["error"], "INVALID_ARGUMENT");
    assert!(error["suggestion"].as_str().unwrap().contains("docs"));
    let skill = run(dir.path(), &["--agent", "--builtin", "docs", "--skill"]);
    assert_eq!(skill.code, Some(0), "{}", skill.stderr);
}

#[test]
fn people_get_text_without_agent() {
    let dir = files();
    let run = run(dir.path(), &["a.txt", "b.txt"]);
    assert_eq!(run.code, Some(0));
    assert_eq!(run.stdout, "a.txt: 3 words\nb.txt: 4 words\n");
    let missing = word_counter(dir.path()).arg("gone.txt").output().unwrap();
    assert_eq!(missing.status.code(), Some(100));
    assert!(missing.stdout.is_empty());
}

#[test]
fn agent_anywhere_gives_the_same_bytes() {
    let dir = files();
    let outputs: Vec<Vec<u8>> = [
        &["--agent", "a.txt", "b.txt"][..],
        &["a.txt", "--agent", "b.txt"],
        &["a.txt", "b.txt", "--agent"],
    ]
    .iter()
    .map(|args| {
        let output = word_counter(dir.path()).args(*args).output().unwrap();
        assert!(output.status.success());
        output.stdout
    })
    .collect();
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
}

/// Any name a Unix file system allows gives valid JSON: quotes and backslashes are JSON
/// escapes; a name that is not UTF-8 is `file` with U+FFFD plus its exact `file_bytes`. `files`
/// is declared `format: path`, so a name holding a control or invisible character (a newline, a
/// tab, a zero-width space) is counted in machine mode as it is for a person, and comes back
/// unchanged.
#[cfg(unix)]
#[test]
fn odd_file_names_give_valid_json() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let dir = tempfile::tempdir().unwrap();
    let names: [&[u8]; 5] = [
        b"quo\"te.txt",
        b"back\\slash.txt",
        b"bad\xff\xfe.txt",
        b"new\nline.txt",
        b"tab\tand \xe2\x80\x8b.txt",
    ];
    for name in names {
        fs::write(dir.path().join(OsStr::from_bytes(name)), "two words").unwrap();
    }
    let output = word_counter(dir.path())
        .arg("--agent")
        .args(names.map(OsStr::from_bytes))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let lines: Vec<Value> = output
        .stdout
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        names.len(),
        "one line per file, newlines in names escaped"
    );
    for (line, name) in lines.iter().zip(names) {
        assert_eq!(line["words"], 2);
        assert_eq!(line["file"], String::from_utf8_lossy(name).as_ref());
        match std::str::from_utf8(name) {
            Ok(_) => assert!(line.get("file_bytes").is_none()),
            Err(_) => {
                let bytes: Vec<u8> = serde_json::from_value(line["file_bytes"].clone()).unwrap();
                assert_eq!(bytes, name);
            }
        }
    }
    // The error of a missing non-UTF-8 name is valid JSON too, and names the exact bytes.
    let missing = word_counter(dir.path())
        .args(["--agent".as_ref(), OsStr::from_bytes(b"gone\xff\"")])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(100));
    let error: Value = serde_json::from_slice(&missing.stderr).unwrap();
    assert_eq!(error["details"]["file_bytes"], json!(b"gone\xff\""));
}

#[test]
fn version_is_the_tool_s_and_agent_version_says_the_level() {
    let dir = files();
    let run_person = run(dir.path(), &["--version"]);
    assert_eq!(
        (run_person.code, run_person.stdout.as_str()),
        (Some(0), "word-counter 1.0.0\n")
    );
    let run = run(dir.path(), &["--agent", "--version"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), "word-counter 1.0.0 (PAS Level 2 Compliant)\n")
    );
}

#[test]
fn agent_help() {
    let dir = files();
    let run = run(dir.path(), &["--agent", "--help"]);
    assert_eq!(run.code, Some(0));
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn no_files_is_a_usage_error() {
    let dir = files();
    let run = run(dir.path(), &["--agent"]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(2), ""));
    assert_eq!(error_line(&run.stderr)["error"], "MISSING_ARGUMENT");
}
