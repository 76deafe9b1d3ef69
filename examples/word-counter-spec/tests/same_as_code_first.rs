//! The spec-first build (`word-counter-spec`, from `specs/word-counter.yaml` through
//! `pas::include_spec!`) and the code-first build (`word-counter`, `#[derive(AgentTool)]` by
//! hand) are one tool: over the same inputs they print the same bytes on stdout and stderr, exit
//! with the same codes, and print the same catalog (`--pas-spec`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A binary of the workspace (the code-first one is built by the `word-counter` package; cargo
/// puts every binary of the workspace in the same directory).
fn binary(name: &str) -> PathBuf {
    let me = PathBuf::from(env!("CARGO_BIN_EXE_word-counter-spec"));
    let path = me.with_file_name(name);
    if !path.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let status = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "-p",
                "word-counter",
                "--bin",
                "word-counter",
            ])
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building word-counter failed");
    }
    path
}

#[derive(PartialEq)]
struct Run {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("code", &self.code)
            .field("stdout", &String::from_utf8_lossy(&self.stdout))
            .field("stderr", &String::from_utf8_lossy(&self.stderr))
            .finish()
    }
}

fn run(bin: &Path, dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .env_remove("PAS_AGENT")
        .output()
        .unwrap();
    Run {
        code: output.status.code(),
        stdout: output.stdout,
        stderr: output.stderr,
    }
}

#[test]
fn both_builds_answer_every_call_alike() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.txt"), "hello world\nfoo\n").unwrap();
    fs::write(dir.path().join("b.txt"), "one two  three\tfour").unwrap();
    fs::write(dir.path().join("quote\"d.txt"), "x").unwrap();
    fs::create_dir(dir.path().join("folder")).unwrap();
    let spec_first = binary("word-counter-spec");
    let code_first = binary("word-counter");
    let calls: &[&[&str]] = &[
        &["--agent", "a.txt", "b.txt"],
        &["a.txt", "b.txt"],
        &["--agent", "a.txt", "--format=array", "b.txt"],
        &["--agent", "quote\"d.txt"],
        &["--agent", "a.txt", "nonexistent.txt", "b.txt"],
        &["nonexistent.txt"],
        &["--agent", "folder"],
        &["--agent"],
        &["--agent", "--bogus", "a.txt"],
        &["--bogus"],
        &["--agent", "--help"],
        &["--help"],
        &["--version"],
        &["--pas-spec"],
    ];
    for args in calls {
        let mine = run(&spec_first, dir.path(), args);
        let theirs = run(&code_first, dir.path(), args);
        assert_eq!(mine, theirs, "word-counter {args:?} (left: spec-first)");
    }
}

/// The catalog the spec-first build prints is the spec it was built from.
#[test]
fn the_printed_spec_is_the_spec() {
    let dir = tempfile::tempdir().unwrap();
    let printed = run(&binary("word-counter-spec"), dir.path(), &["--pas-spec"]);
    let source = pas::spec::Source::new(
        "--pas-spec",
        String::from_utf8(printed.stdout).unwrap(),
        pas::spec::Format::Json,
    );
    let printed = pas::spec::load::parse(&source).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../specs/word-counter.yaml");
    let (_, spec) = pas::spec::load::load_path(&path).unwrap();
    assert_eq!(printed, spec);
}
