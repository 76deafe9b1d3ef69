//! A destructive command refuses to run without `--force` in every profile and every way a
//! tool is built (issue 19): a structured `FORCE_REQUIRED` error whose hint is the call to
//! make, exit 1, nothing on stdout, and the handler never runs (its file is still there).
//! With `--force` it runs. The compose profile's refusal is `examples/todo`'s test
//! (`refused_delete_changes_nothing` in examples/todo/tests/envelopes.rs).

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn guard_demo(dir: &Path, derived: bool, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-guard-demo"));
    cmd.args(args)
        .env("BOOKMARKS_DIR", dir)
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null());
    if derived {
        cmd.env("GUARD_DEMO_DERIVE", "1");
    } else {
        cmd.env_remove("GUARD_DEMO_DERIVE");
    }
    cmd.output().expect("the guard demo runs")
}

fn store() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["rust", "-x", "keep"] {
        std::fs::write(dir.path().join(name), "https://example.org\n").unwrap();
    }
    dir
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn error_line(out: &Output) -> serde_json::Value {
    let text = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(text.lines().count(), 1, "one error line: {text}");
    serde_json::from_str(&text).expect("stderr is one JSON line")
}

fn refuses_then_obeys(derived: bool, tool: &str) {
    let dir = store();
    let before = names(dir.path());

    let refused = guard_demo(dir.path(), derived, &["--agent", "remove", "rust"]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(refused.stdout.is_empty(), "{refused:?}");
    let error = error_line(&refused);
    assert_eq!(error["error"], "FORCE_REQUIRED");
    assert_eq!(error["message"], "remove is destructive and needs --force");
    assert_eq!(
        error["suggestion"],
        format!("add --force to confirm: `{tool} --agent remove --force rust`")
    );
    assert_eq!(
        names(dir.path()),
        before,
        "the refused call changed nothing"
    );

    // A value that looks like a flag goes after `--` in the hint, as it must on the command line.
    let dashed = guard_demo(dir.path(), derived, &["--agent", "remove", "--", "-x"]);
    assert_eq!(
        error_line(&dashed)["suggestion"],
        format!("add --force to confirm: `{tool} --agent remove --force -- -x`")
    );
    // People get the same refusal in words.
    let human = guard_demo(dir.path(), derived, &["remove", "rust"]);
    assert_eq!(human.status.code(), Some(1));
    let text = String::from_utf8(human.stderr).unwrap();
    assert!(
        text.contains(&format!("`{tool} remove --force rust`")),
        "{text}"
    );
    assert_eq!(names(dir.path()), before, "still nothing changed");

    let forced = guard_demo(
        dir.path(),
        derived,
        &["--agent", "remove", "rust", "--force"],
    );
    assert_eq!(forced.status.code(), Some(0), "{forced:?}");
    let data: serde_json::Value = serde_json::from_slice(&forced.stdout).unwrap();
    assert_eq!(data, serde_json::json!({"removed": "rust"}));
    assert_eq!(names(dir.path()), ["-x", "keep"]);
}

#[test]
fn a_spec_first_destructive_command_refuses_without_force() {
    refuses_then_obeys(false, "bookmarks");
}

#[test]
fn a_derived_destructive_command_refuses_without_force() {
    refuses_then_obeys(true, "bookmarks-derived");
}

#[test]
fn the_runtime_parser_of_a_spec_offers_and_enforces_force() {
    // `App::new(registry)` builds clap from the registry at run time: the destructive command
    // still gets `--force` and the refusal comes before the (missing) handler would be asked.
    let out = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"))
        .args(["--agent", "remove", "rust"])
        .env(
            "PAS_SPEC_CLI_SPEC",
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bin/guard-demo.yaml"),
        )
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(error_line(&out)["error"], "FORCE_REQUIRED");
    let help = Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"))
        .args(["remove", "--help"])
        .env(
            "PAS_SPEC_CLI_SPEC",
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bin/guard-demo.yaml"),
        )
        .output()
        .unwrap();
    assert!(String::from_utf8(help.stdout).unwrap().contains("--force"));
}
