//! A file larger than the input limit is FILE_NOT_READABLE (exit 101), not a count that never
//! ends (issue 19: `word-counter --agent /dev/zero`).

use std::process::Command;

fn word_counter(args: &[&str], limit: Option<&str>) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_word-counter"));
    cmd.args(args).env_remove("PAS_AGENT");
    match limit {
        Some(bytes) => cmd.env("PAS_INPUT_LIMIT", bytes),
        None => cmd.env_remove("PAS_INPUT_LIMIT"),
    };
    cmd.output().unwrap()
}

#[test]
fn dev_zero_ends_at_the_input_limit() {
    for (limit, bytes) in [(Some("100000"), "100000"), (None, "268435456")] {
        let out = word_counter(&["--agent", "/dev/zero"], limit);
        assert_eq!(out.status.code(), Some(101), "{out:?}");
        assert!(out.stdout.is_empty());
        let error: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
        assert_eq!(error["error"], "FILE_NOT_READABLE");
        assert_eq!(
            error["message"],
            format!(
                "Cannot read file: /dev/zero (/dev/zero is larger than the input limit of {bytes} bytes)"
            )
        );
        assert_eq!(
            error["suggestion"],
            "count a smaller file, or raise the limit with PAS_INPUT_LIMIT=BYTES"
        );
    }
}

#[test]
fn a_file_at_the_limit_counts_and_one_past_it_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("words.txt");
    std::fs::write(&file, "one two\n").unwrap();
    let path = file.to_str().unwrap();
    let out = word_counter(&["--agent", path], Some("8"));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let out = word_counter(&["--agent", path], Some("7"));
    assert_eq!(out.status.code(), Some(101), "{out:?}");
}

#[test]
fn a_closed_stdout_is_an_error() {
    // Issue 19: `word-counter --agent FILE >&-` exited 0 having written nothing.
    let out = Command::new("sh")
        .args(["-c", "\"$0\" --agent Cargo.toml >&-"])
        .arg(env!("CARGO_BIN_EXE_word-counter"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("PAS_AGENT")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let error: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(error["error"], "GENERAL_ERROR");
}
