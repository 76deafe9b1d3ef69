//! Adopting pas does not change the person's tool (issue 29, item 6; PAS: the agent flag "MUST
//! NOT change existing behavior when the flag is absent"). `pas-twin-plain` is a clap CLI as it
//! was; `pas-twin-pas` is the same CLI with `#[derive(AgentTool)]` run by the runtime. Without
//! `--agent`, every call answers the same stdout, stderr and exit code, except `-h`/`--help`,
//! which gain one line saying where the agent contract is.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Each twin as a program named `twin` (clap names the program after argv[0]'s file name).
fn twins() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let link = |kind: &str, exe: &str| {
        let path = dir.path().join(kind).join("twin");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(exe, &path).unwrap();
        path
    };
    let plain = link("plain", env!("CARGO_BIN_EXE_pas-twin-plain"));
    let pas = link("pas", env!("CARGO_BIN_EXE_pas-twin-pas"));
    (dir, plain, pas)
}

#[derive(Debug, PartialEq)]
struct Seen {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(program: &Path, args: &[&str]) -> Seen {
    let out = Command::new(program)
        .args(args)
        .env_remove("PAS_AGENT")
        .env_remove("PAS_TIMEOUT")
        .env_remove("PAS_OUTPUT_LIMIT")
        .env("XDG_CONFIG_HOME", program.parent().unwrap())
        .output()
        .unwrap();
    Seen {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

const AGENT_LINE: &str = "\nAgents: add --agent for JSON output and JSON errors; `twin --agent --help` describes the contract.\n";

#[test]
fn calls_without_the_agent_flag_answer_as_the_plain_clap_tool() {
    let (_dir, plain, pas) = twins();
    for args in [
        // Calls that run.
        &["greet", "ada"][..],
        &["greet", "ada", "--shout"],
        &["--verbose", "sum", "1", "2", "3"],
        &["save", "ada"],
        // --version: clap's text, no PAS level.
        &["--version"],
        &["-V"],
        // Usage errors: clap's text on stderr, exit 2.
        &["greet"],
        &["greet", "ada", "--nope"],
        &["greet", "ada", "--verb"],
        &["sum", "1", "x"],
        &["nope"],
        &["nope", "--help"],
        // A command's help: the runtime's flags are not in it.
        &["greet", "-h"],
        &["save", "--help"],
        &["sum", "--help"],
    ] {
        assert_eq!(run(&plain, args), run(&pas, args), "twin {args:?}");
    }
}

#[test]
fn the_root_help_gains_one_line_and_the_bare_call_is_clap_s() {
    let (_dir, plain, pas) = twins();
    // The bare call: clap's (help on stderr, exit 2), not a help on stdout with exit 0.
    for args in [&[][..], &["-h"], &["--help"]] {
        let before = run(&plain, args);
        let after = run(&pas, args);
        assert_eq!(after.code, before.code, "{args:?}");
        let (text, was) = match before.stdout.is_empty() {
            true => (after.stderr.clone(), before.stderr.clone()),
            false => (after.stdout.clone(), before.stdout.clone()),
        };
        assert_eq!(text, format!("{was}{AGENT_LINE}"), "{args:?}");
    }
    assert_eq!(run(&pas, &[]).code, Some(2));
    insta::assert_snapshot!("twin_short_help", run(&pas, &["-h"]).stdout);
    insta::assert_snapshot!("twin_save_long_help", run(&pas, &["save", "--help"]).stdout);
}

#[test]
fn machine_mode_keeps_the_agent_faces() {
    let (_dir, _plain, pas) = twins();
    // `--agent --version` tells the level the tool backs.
    let version = run(&pas, &["--agent", "--version"]);
    assert_eq!(version.stdout, "twin 0.3.0 (PAS Level 2 Compliant)\n");
    // The runtime's flags are in the agent help, not in a person's.
    let agent = run(&pas, &["--agent", "save", "--help"]);
    assert_eq!(agent.code, Some(0), "{agent:?}");
    assert!(
        agent.stdout.contains("--idempotency-key"),
        "{}",
        agent.stdout
    );
    let root = run(&pas, &["--agent", "--help"]);
    for flag in ["--output-id", "--max-output", "--timeout", "--config"] {
        assert!(root.stdout.contains(flag), "{flag}: {}", root.stdout);
    }
    let person = run(&pas, &["save", "--help"]).stdout + &run(&pas, &["--help"]).stdout;
    for flag in [
        "--idempotency-key",
        "--output-id",
        "--max-output",
        "--timeout",
        "--config",
    ] {
        assert!(!person.contains(flag), "{flag}: {person}");
    }
    // A bare call in machine mode (PAS_AGENT=1) is the first-contact probe: help, exit 0.
    let out = Command::new(&pas).env("PAS_AGENT", "1").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("greet"));
    // The runtime's flags still work for a person.
    let run_keyed = run(&pas, &["greet", "ada", "--stable-output"]);
    assert_eq!(run_keyed.stdout, "hello ada\n");
}

#[test]
fn an_unknown_command_with_agent_help_is_unknown_command() {
    let (_dir, _plain, pas) = twins();
    for args in [
        &["--agent", "nope", "--help"][..],
        &["nope", "--agent", "--help"],
    ] {
        let seen = run(&pas, args);
        assert_eq!(seen.code, Some(2), "{seen:?}");
        assert!(seen.stdout.is_empty(), "{seen:?}");
        let error: serde_json::Value = serde_json::from_str(seen.stderr.trim()).unwrap();
        assert_eq!(error["error"], "UNKNOWN_COMMAND", "{error}");
    }
    // A known command's agent help still answers.
    assert_eq!(run(&pas, &["--agent", "greet", "--help"]).code, Some(0));
}

#[test]
fn a_command_flag_before_its_subcommand_word_is_read_where_it_belongs() {
    let (_dir, _plain, pas) = twins();
    assert_eq!(
        run(&pas, &["--shout", "greet", "ada"]).stdout,
        "HELLO ADA\n"
    );
    let agent = run(&pas, &["--agent", "--shout", "greet", "ada"]);
    assert_eq!(agent.stdout, "{\"text\":\"HELLO ADA\"}\n", "{agent:?}");
    // A flag no command of the call has stays an error.
    let seen = run(&pas, &["--agent", "--loud", "greet", "ada"]);
    assert_eq!(seen.code, Some(2));
    assert!(seen.stderr.contains("UNKNOWN_ARGUMENT"), "{seen:?}");
}
