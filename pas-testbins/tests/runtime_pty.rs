//! On a terminal (a pseudo-terminal from util-linux `script`): a required stdin that is a
//! terminal fails at once in agent mode, and agent mode prints no ANSI, from us or from clap.

mod runtime_support;

use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use runtime_support::{code, demo, demo_path, on_pty, stdout};

fn demo_line(args: &str) -> String {
    format!("'{}' {args}", demo_path().display())
}

#[test]
fn a_terminal_on_a_required_stdin_fails_at_once_in_agent_mode() {
    let started = Instant::now();
    let (status, screen) = on_pty(&demo_line("--agent ingest"));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "did not wait for input"
    );
    assert_eq!(status, 2);
    let error: serde_json::Value = serde_json::from_str(screen.trim()).unwrap();
    assert_eq!(error["error"], "MISSING_INPUT");
}

#[test]
fn piped_stdin_is_read() {
    let mut child = demo(&["--agent", "ingest"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"one\ntwo\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "{\"lines\":2,\"bytes\":8}\n");
}

#[test]
fn agent_mode_on_a_terminal_has_no_ansi() {
    for args in [
        "--agent work --steps 2",
        "--agent item get x",
        "--agent --help",
        "--agent item list -n 2",
    ] {
        let (_, screen) = on_pty(&demo_line(args));
        assert!(!screen.is_empty(), "{args}");
        assert!(!screen.contains('\x1b'), "{args}: {screen:?}");
    }
}

#[test]
fn human_mode_on_a_terminal_does_colour_and_draw() {
    // The same calls without --agent: proof the test above would see ANSI if it leaked.
    let (_, error) = on_pty(&demo_line("item get x"));
    assert!(
        error.contains('\x1b'),
        "clap colours its errors on a terminal: {error:?}"
    );
    let (_, work) = on_pty(&demo_line("work --steps 2"));
    assert!(
        work.contains('\x1b'),
        "a progress bar is drawn on a terminal: {work:?}"
    );
    assert!(work.contains("#1 item-1"));
}
