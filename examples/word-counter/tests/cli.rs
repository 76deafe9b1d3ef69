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

/// Built-ins never shadow arguments (issue 27, item 6): word-counter's root command takes files,
/// so a bare word is always a file, never a built-in. A file named like each built-in is counted
/// (exit 0), with the same count as a person's call; `word-counter --agent mcp` counts the file
/// `mcp` and starts no server.
#[test]
fn a_file_named_like_a_built_in_is_counted() {
    let dir = files();
    let words: Vec<&str> = pas_spec::surface::BUILTIN_WORDS
        .iter()
        .filter(|b| b.profiles.contains(&pas_spec::Profile::Pas))
        .map(|b| b.word)
        .collect();
    for word in [
        "docs",
        "tools",
        "doctor",
        "changelog",
        "man",
        "mcp",
        "completions",
    ] {
        assert!(
            words.contains(&word),
            "{word} is a built-in of the pas profile"
        );
    }
    for word in words {
        fs::write(dir.path().join(word), "one two three").unwrap();
        // (A server started by mistake would answer no count: its stdin here is empty.)
        let agent = word_counter(dir.path())
            .args(["--agent", word])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&agent.stderr);
        assert_eq!(agent.status.code(), Some(0), "{word}: {stderr}");
        let line: Value = serde_json::from_slice(&agent.stdout).unwrap();
        assert_eq!(line, json!({"file": word, "words": 3}), "{word}");
        // A person's call counts the same file, the same number.
        let human = run(dir.path(), &[word]);
        assert_eq!(human.code, Some(0), "{word}: {}", human.stderr);
        assert_eq!(human.stdout, format!("{word}: 3 words\n"), "{word}");
        // After other files too, and with a built-in word's usual arguments.
        let many = run(dir.path(), &["--agent", "a.txt", word]);
        assert_eq!(
            many.stdout,
            format!("{{\"file\":\"a.txt\",\"words\":3}}\n{{\"file\":\"{word}\",\"words\":3}}\n"),
            "{word}"
        );
    }
    // A missing file named so is the file error, not a built-in.
    let empty = tempfile::tempdir().unwrap();
    let missing = run(empty.path(), &["--agent", "mcp"]);
    assert_eq!(missing.code, Some(100), "{}", missing.stderr);
    assert_eq!(error_line(&missing.stderr)["error"], "FILE_NOT_FOUND");
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
    // Every face writes the built-ins so: .llm, the skill and the agent help.
    let docs = run(dir.path(), &["--agent", "--builtin", "docs"]);
    assert!(
        docs.stdout.contains("`word-counter --builtin docs`")
            && docs.stdout.contains("`word-counter --builtin mcp`"),
        "{}",
        docs.stdout
    );
    assert!(skill.stdout.contains("`word-counter --builtin docs`"));
    let help = run(dir.path(), &["--agent", "--help"]);
    assert!(
        help.stdout.contains("word-counter --builtin mcp"),
        "{}",
        help.stdout
    );
    // The flag names the call's built-in: after a file it is an argument error, not a count.
    let late = run(dir.path(), &["--agent", "a.txt", "--builtin", "docs"]);
    assert_eq!(late.code, Some(2), "{}", late.stderr);
    assert!(late.stdout.is_empty());
    let error = error_line(&late.stderr);
    assert_eq!(error["error"], "INVALID_ARGUMENT");
    assert!(
        error["suggestion"]
            .as_str()
            .unwrap()
            .contains("word-counter --builtin docs"),
        "{error}"
    );
    // Global flags may come before it.
    let pinned = run(
        dir.path(),
        &[
            "--agent",
            "--schema-version",
            "1.0.0",
            "--builtin",
            "changelog",
        ],
    );
    assert_eq!(pinned.code, Some(0), "{}", pinned.stderr);
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
