//! word-counter at the end of a pipe, as an agent's shell runs it: `| head -1` on 10,000
//! files, SIGTERM half-way through a long count, and the same bytes on every run.

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

fn word_counter(dir: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_word-counter"));
    cmd.current_dir(dir)
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null());
    cmd
}

fn read_all(stream: impl Read) -> String {
    let mut text = String::new();
    BufReader::new(stream).read_to_string(&mut text).unwrap();
    text
}

/// Every line of `stdout` is one whole JSON value, and nothing follows the last newline.
fn assert_whole_lines(stdout: &str) {
    assert!(
        stdout.is_empty() || stdout.ends_with('\n'),
        "ends mid-line: {:?}",
        &stdout[stdout.len().saturating_sub(80)..]
    );
    for line in stdout.lines() {
        serde_json::from_str::<Value>(line).expect("every line is whole JSON");
    }
}

/// `word-counter --agent f00000.txt ... f09999.txt | head -1`: the reader takes one line and
/// closes the pipe long before the 10,000 lines are written. The one line is valid JSON, the
/// tool says nothing on stderr (no panic, no "broken pipe") and exits 0.
#[test]
fn ten_thousand_files_into_head_one() {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..10_000).map(|i| format!("f{i:05}.txt")).collect();
    for name in &names {
        fs::write(dir.path().join(name), "three little words").unwrap();
    }
    let mut child = word_counter(dir.path())
        .arg("--agent")
        .args(&names)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    reader.read_line(&mut first).unwrap();
    drop(reader); // head -1 exits: the pipe's read end closes.
    let stderr = read_all(child.stderr.take().unwrap());
    let status = child.wait().unwrap();

    let line: Value = serde_json::from_str(&first).expect("one valid JSON line");
    assert_eq!(
        line,
        serde_json::json!({ "file": "f00000.txt", "words": 3 })
    );
    assert_eq!(stderr, "", "nothing on stderr");
    assert_eq!(status.code(), Some(0), "a closed pipe is a quiet exit");
}

fn signal(child: &Child, name: &str) {
    let sent = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// SIGTERM while a long count runs (one 4 MiB file named 20,000 times: minutes of work): exit
/// 143, a TERMINATED error line on stderr, and stdout holds only whole lines.
#[test]
fn sigterm_during_a_long_count_exits_143_with_whole_lines() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("big.txt"), "word ".repeat(800 * 1024)).unwrap();
    let mut child = word_counter(dir.path())
        .arg("--agent")
        .args(std::iter::repeat_n("big.txt", 20_000))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    for _ in 0..2 {
        stdout.read_line(&mut seen).unwrap();
    }
    signal(&child, "-TERM");
    stdout.read_to_string(&mut seen).unwrap();
    let stderr = read_all(child.stderr.take().unwrap());
    let status = child.wait().unwrap();

    assert_eq!(status.code(), Some(143), "{stderr}");
    assert!(seen.lines().count() >= 2);
    assert!(
        seen.lines().count() < 20_000,
        "the count was cut short, not finished"
    );
    assert_whole_lines(&seen);
    assert_eq!(stderr.matches('\n').count(), 1, "one error line: {stderr}");
    let error: Value = serde_json::from_str(stderr.trim_end()).unwrap();
    assert_eq!(error["error"], "TERMINATED");
    assert_eq!(error["code"], 143);
}

/// The same call twice gives the same bytes on stdout and stderr, whatever the output form
/// (NDJSON, array, text for people, agent help, an error after partial results).
#[test]
fn two_runs_give_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("a.txt", "one two"), ("b.txt", "x\ny\nz"), ("c.txt", "")] {
        fs::write(dir.path().join(name), text).unwrap();
    }
    let calls: [&[&str]; 5] = [
        &["--agent", "a.txt", "b.txt", "c.txt"],
        &["--agent", "--format=array", "a.txt", "b.txt", "c.txt"],
        &["a.txt", "b.txt", "c.txt"],
        &["--agent", "--help"],
        &["--agent", "a.txt", "gone.txt", "b.txt"],
    ];
    for args in calls {
        let runs: Vec<_> = (0..2)
            .map(|_| word_counter(dir.path()).args(args).output().unwrap())
            .collect();
        assert!(!runs[0].stdout.is_empty() || !runs[0].stderr.is_empty());
        assert_eq!(runs[0].status.code(), runs[1].status.code(), "{args:?}");
        assert_eq!(runs[0].stdout, runs[1].stdout, "{args:?}");
        assert_eq!(runs[0].stderr, runs[1].stderr, "{args:?}");
    }
}
