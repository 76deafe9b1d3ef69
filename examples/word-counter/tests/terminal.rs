//! word-counter on a terminal (a pseudo-terminal from util-linux `script`, which puts stdin,
//! stdout and stderr on the pty): agent mode prints no ANSI, and a terminal on stdin never
//! makes it wait, since word-counter does not read stdin.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `word-counter ARGS` on a pseudo-terminal in `dir`: its exit code, everything the pty
/// showed, and how long it took.
fn on_pty(dir: &Path, args: &str) -> (i32, String, Duration) {
    let line = format!("'{}' {args}", env!("CARGO_BIN_EXE_word-counter"));
    let started = Instant::now();
    let output = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(dir)
        .env_remove("PAS_AGENT")
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null())
        .output()
        .expect("util-linux `script` runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        started.elapsed(),
    )
}

fn files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.txt"), "hello world\nfoo\n").unwrap();
    dir
}

#[test]
fn agent_mode_on_a_terminal_has_no_ansi() {
    let dir = files();
    for (args, code) in [
        ("--agent a.txt", 0),
        ("--agent --format=array a.txt", 0),
        ("--agent --help", 0),
        ("--agent gone.txt", 100),
        ("--agent --bogus a.txt", 2),
        ("--agent", 2),
    ] {
        let (status, screen, _) = on_pty(dir.path(), args);
        assert_eq!(status, code, "{args}: {screen:?}");
        assert!(!screen.is_empty(), "{args}");
        assert!(!screen.contains('\x1b'), "{args}: {screen:?}");
    }
    let (_, screen, _) = on_pty(dir.path(), "--agent a.txt");
    let line: serde_json::Value = serde_json::from_str(screen.trim()).unwrap();
    assert_eq!(line, serde_json::json!({ "file": "a.txt", "words": 3 }));
}

#[test]
fn people_on_a_terminal_do_get_clap_colours() {
    // Proof the test above would see ANSI if agent mode leaked it: clap colours its usage
    // error for people on a terminal.
    let dir = files();
    let (status, screen, _) = on_pty(dir.path(), "--bogus a.txt");
    assert_eq!(status, 2);
    assert!(screen.contains('\x1b'), "{screen:?}");
}

#[test]
fn a_terminal_on_stdin_never_blocks() {
    // Nothing types on the pty: a tool that read stdin would wait until the timeout below.
    let dir = files();
    for args in ["--agent a.txt", "a.txt", "--agent --format=array a.txt"] {
        let (status, screen, took) = on_pty(dir.path(), args);
        assert_eq!(status, 0, "{args}: {screen:?}");
        assert!(took < Duration::from_secs(5), "{args} waited {took:?}");
    }
    // With no file at all it is a usage error at once, not a read of the terminal.
    let (status, _, took) = on_pty(dir.path(), "--agent");
    assert_eq!(status, 2);
    assert!(took < Duration::from_secs(5), "waited {took:?}");
}
