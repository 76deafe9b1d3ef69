//! The configuration file of a tool without global flags (word-counter): its binary links no
//! TOML reader (`linked_profiles.rs`), so it checks only that the file sets nothing. A blank
//! or comments-only file is read and the call runs; a file that sets anything is refused with
//! `CONFIG_INVALID` (exit 2) before the handler, naming the file and the key (or the line),
//! exactly as the TOML reader names an unknown key.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

/// A directory with `a.txt` (2 words), and a config directory of its own so no user file
/// interferes.
fn sandbox() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.txt"), "hello world\n").unwrap();
    dir
}

/// word-counter run in `dir`, with its default config location there too.
fn word_counter(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("word-counter").unwrap();
    cmd.current_dir(dir)
        .env_remove("PAS_AGENT")
        .env("XDG_CONFIG_HOME", dir.join("config"));
    cmd
}

/// `word-counter --agent a.txt` with the file `config` holds named by `--config`.
fn count_with(dir: &Path, config: &str) -> std::process::Output {
    let file = dir.join("word-counter.toml");
    fs::write(&file, config).unwrap();
    word_counter(dir)
        .arg("--agent")
        .arg("--config")
        .arg(&file)
        .arg("a.txt")
        .output()
        .unwrap()
}

fn error(output: &std::process::Output, dir: &Path) -> Value {
    assert!(output.stdout.is_empty(), "{output:?}");
    let text = String::from_utf8(output.stderr.clone())
        .unwrap()
        .replace(&dir.display().to_string(), "[DIR]");
    assert_eq!(text.lines().count(), 1, "one JSON line on stderr: {text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_blank_or_comments_only_file_is_read_and_the_call_runs() {
    let dir = sandbox();
    for config in [
        "",
        "\n\n",
        "# word-counter has no settings\r\n\t# none at all\n",
    ] {
        let output = count_with(dir.path(), config);
        assert_eq!(output.status.code(), Some(0), "{config:?}: {output:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            "{\"file\":\"a.txt\",\"words\":2}\n"
        );
        assert!(output.stderr.is_empty(), "{output:?}");
    }
}

#[test]
fn a_key_is_refused_naming_file_and_key() {
    let dir = sandbox();
    let output = count_with(dir.path(), "# settings\nlimit = 3\n");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let error = error(&output, dir.path());
    assert_eq!(error["error"], "CONFIG_INVALID");
    assert_eq!(
        error["message"],
        "[DIR]/word-counter.toml:limit: `limit` is not a global flag of word-counter"
    );
    assert_eq!(
        error["suggestion"],
        "remove `limit` from [DIR]/word-counter.toml: word-counter has no global flags to configure"
    );
    assert_eq!(error["details"]["key"], "limit");
    assert_eq!(error["details"]["file"], "[DIR]/word-counter.toml");
}

#[test]
fn anything_else_is_refused_naming_the_line() {
    let dir = sandbox();
    // A quoted key and a stray control character in a comment: no bare key to name.
    for (config, line) in [("\n\"limit\" = 3\n", 2), ("# a bell \u{7}\n", 1)] {
        let output = count_with(dir.path(), config);
        assert_eq!(output.status.code(), Some(2), "{config:?}: {output:?}");
        let error = error(&output, dir.path());
        assert_eq!(error["error"], "CONFIG_INVALID");
        assert_eq!(
            error["message"],
            format!(
                "[DIR]/word-counter.toml:{line}: word-counter has no global flags to configure, so its configuration file can set nothing"
            )
        );
        assert_eq!(error["details"]["key"], Value::Null);
    }
}

#[test]
fn a_named_file_that_is_missing_is_refused() {
    let dir = sandbox();
    let output = word_counter(dir.path())
        .env("WORD_COUNTER_CONFIG", dir.path().join("nope.toml"))
        .args(["--agent", "a.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let error = error(&output, dir.path());
    assert_eq!(error["error"], "CONFIG_INVALID");
    assert_eq!(
        error["message"],
        "the configuration file [DIR]/nope.toml does not exist"
    );
}
