//! `pas-gen check` and `pas-gen schema` as a user runs them: exit codes, streams and texts.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn pas_gen() -> Command {
    let mut cmd = Command::cargo_bin("pas-gen").unwrap();
    cmd.current_dir(repo())
        .env_remove("PAS_AGENT")
        .env("NO_COLOR", "1");
    cmd
}

fn example_specs() -> Vec<String> {
    let mut specs: Vec<String> = std::fs::read_dir(repo().join("specs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .map(|p| format!("specs/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    specs.sort();
    specs
}

fn invalid_fixtures() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(repo().join("tests/fixtures/invalid"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            format!(
                "tests/fixtures/invalid/{}",
                p.file_name().unwrap().to_string_lossy()
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn example_specs_and_own_spec_are_clean() {
    let mut specs = example_specs();
    assert!(specs.len() >= 4, "the four example specs exist: {specs:?}");
    specs.push("pas-gen/pas-gen.yaml".to_owned());
    let output = pas_gen().arg("check").args(&specs).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.stdout.is_empty(), "not even a warning: {stdout}");
    assert_eq!(
        stderr,
        format!("checked {} specs: no problems\n", specs.len()),
        "a clean run ends with a one-line summary on stderr"
    );
}

#[test]
fn agent_mode_prints_nothing_for_clean_specs() {
    let output = pas_gen()
        .args(["--agent", "check"])
        .args(example_specs())
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(
        output.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn each_invalid_fixture_fails_with_snippets() {
    for fixture in invalid_fixtures() {
        let output = pas_gen().arg("check").arg(&fixture).output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{fixture} must fail");
        let stderr = String::from_utf8(output.stderr).unwrap();
        let verdict = "error: 1 of 1 spec(s) have errors\n\
                       hint: fix the errors listed above; each names its file:line:col and a hint\n";
        let diagnostics = stderr.strip_suffix(verdict);
        assert!(diagnostics.is_some(), "the verdict ends stderr: {stderr}");
        assert!(output.stdout.is_empty(), "human diagnostics go to stderr");
        let stdout = diagnostics.unwrap().to_owned();
        assert!(!stdout.contains('\u{1b}'), "no ANSI in {fixture}");
        let name = Path::new(&fixture)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        insta::assert_snapshot!(format!("human-{name}"), stdout);
    }
}

#[test]
fn each_invalid_fixture_gives_ndjson_diagnostics_in_agent_mode() {
    for fixture in invalid_fixtures() {
        let output = pas_gen()
            .args(["check", &fixture, "--agent"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{fixture} must fail");
        let error: serde_json::Value = serde_json::from_slice(&output.stderr).unwrap();
        assert_eq!(
            error["error"], "GENERAL_ERROR",
            "the verdict: one JSON error on stderr"
        );
        assert_eq!(error["code"], 1);
        let stdout = String::from_utf8(output.stdout).unwrap();
        let lines: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert!(
            lines.len() > 1,
            "{fixture}: several problems are reported at once"
        );
        for line in &lines {
            assert!(line["code"].as_str().unwrap().len() == 4);
            assert!(
                line["line"].as_u64().unwrap() >= 1,
                "{fixture}: every diagnostic is located: {line}"
            );
            assert_eq!(line["file"], fixture.as_str());
        }
        let name = Path::new(&fixture)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        insta::assert_snapshot!(format!("agent-{name}"), stdout);
    }
}

#[test]
fn agent_flag_position_does_not_change_the_bytes() {
    let fixture = &invalid_fixtures()[0];
    let runs = [
        vec!["--agent", "check", fixture.as_str()],
        vec!["check", "--agent", fixture.as_str()],
        vec!["check", fixture.as_str(), "--agent"],
    ];
    let outputs: Vec<_> = runs
        .iter()
        .map(|args| pas_gen().args(args).output().unwrap())
        .collect();
    assert!(
        outputs
            .windows(2)
            .all(|w| w[0].stdout == w[1].stdout && w[0].status == w[1].status)
    );
    let by_env = pas_gen()
        .args(["check", fixture.as_str()])
        .env("PAS_AGENT", "1")
        .output()
        .unwrap();
    assert_eq!(
        by_env.stdout, outputs[0].stdout,
        "PAS_AGENT=1 is the same as --agent"
    );
}

#[test]
fn unreadable_inputs_are_diagnostics_not_crashes() {
    let dir = tempfile::tempdir().unwrap();
    let output = pas_gen()
        .args(["--agent", "check", "no/such/spec.yaml"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let codes: Vec<String> = stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["code"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(codes, ["E001", "E001"], "{stdout}");
}

#[test]
fn stdin_is_read_when_named_dash() {
    let spec = std::fs::read(repo().join("specs/word-counter.yaml")).unwrap();
    pas_gen()
        .args(["check", "-"])
        .write_stdin(spec)
        .assert()
        .success();
    pas_gen()
        .args(["--agent", "check", "-"])
        .write_stdin("specVersion: 1\nname: x\n")
        .assert()
        .code(1);
}

#[test]
fn usage_errors_are_json_on_stderr_in_agent_mode() {
    for args in [
        vec!["--agent", "check"],
        vec!["--agent", "frobnicate"],
        vec!["check", "--bogus", "x", "--agent"],
    ] {
        let output = pas_gen().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}: stdout stays empty");
        let stderr = String::from_utf8(output.stderr).unwrap();
        let error: serde_json::Value = serde_json::from_str(stderr.trim_end()).unwrap();
        assert!(
            error["error"]
                .as_str()
                .unwrap()
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_')
        );
        assert!(error["message"].is_string());
    }
    let human = pas_gen().args(["check", "--bogus", "x"]).output().unwrap();
    assert_eq!(human.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&human.stderr).contains("--bogus"),
        "human mode keeps clap's text"
    );
}

#[test]
fn schema_command_prints_the_committed_schema() {
    let output = pas_gen().arg("schema").output().unwrap();
    assert!(output.status.success());
    let committed = std::fs::read(repo().join("specs/pas-spec.schema.json")).unwrap();
    assert_eq!(
        output.stdout, committed,
        "specs/pas-spec.schema.json is what `pas-gen schema` prints"
    );
    let schema: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(schema["$schema"].as_str().unwrap().contains("2020-12"));
}

#[test]
fn agent_help_is_the_runtime_s_rendering_of_pas_gen_yaml() {
    let first = pas_gen().args(["--agent", "--help"]).output().unwrap();
    let second = pas_gen().args(["--help", "--agent"]).output().unwrap();
    assert!(first.status.success());
    assert_eq!(first.stdout, second.stdout);
    let text = String::from_utf8(first.stdout).unwrap();
    for section in [
        "USAGE:",
        "COMMON PATTERNS:",
        "ERROR CODES:",
        "ANTI-PATTERNS:",
    ] {
        assert!(text.contains(section), "{section} in:\n{text}");
    }
    insta::assert_snapshot!("agent-help", text);
    let check = pas_gen()
        .args(["check", "--agent", "--help"])
        .output()
        .unwrap();
    insta::assert_snapshot!("agent-help-check", String::from_utf8(check.stdout).unwrap());
}

#[test]
fn version_names_the_backed_level() {
    pas_gen()
        .args(["--agent", "--version"])
        .assert()
        .success()
        .stdout("pas-gen 0.1.0 (PAS Level 2 Compliant)\n");
    pas_gen()
        .arg("--version")
        .assert()
        .success()
        .stdout("pas-gen 0.1.0\n");
}

#[test]
fn agent_mode_schema_is_one_compact_json_object() {
    let output = pas_gen().args(["schema", "--agent"]).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one line of JSON");
    let committed: serde_json::Value =
        serde_json::from_slice(&std::fs::read(repo().join("specs/pas-spec.schema.json")).unwrap())
            .unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&text).unwrap(),
        committed
    );
}

#[test]
fn parse_level_mistakes_are_all_reported_in_one_run() {
    // Two misspelt keys, a wrong type and an unknown value: serde stops at the first, check
    // reports every one, each located, with a hint where one helps.
    let fixture = "tests/fixtures/parse-level/three-mistakes.yaml";
    let output = pas_gen().args(["check", fixture]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    insta::assert_snapshot!("human-parse-level", stderr);
    let agent = pas_gen()
        .args(["--agent", "check", fixture])
        .output()
        .unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(agent.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let found: Vec<(String, u64)> = lines
        .iter()
        .map(|l| {
            (
                l["code"].as_str().unwrap().to_owned(),
                l["line"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected = [("E007", 9), ("E006", 12), ("E007", 14), ("E006", 21)];
    let expected: Vec<(String, u64)> = expected
        .iter()
        .map(|(c, l)| ((*c).to_owned(), *l))
        .collect();
    assert_eq!(found, expected);
}

#[test]
fn misspelt_keys_and_semantic_problems_come_in_the_same_run() {
    // Once the misspelt key is read as the key it was meant to be, the validator runs too.
    let spec = "specVersion: 1\nname: bookmarks\nversion: 0.1.0\nsummary: Keep bookmarks.\n\
                commands:\n  - name: list\n    descripton: List them.\n    effect: read\n    \
                errors: [VAR_NOTFOUND]\n";
    let output = pas_gen()
        .args(["--agent", "check", "-"])
        .write_stdin(spec)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let codes: Vec<String> = stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["code"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(codes, ["E007", "E029"], "{stdout}");
}

#[test]
fn a_duplicate_exit_code_is_named_by_the_code_s_name() {
    let spec = "specVersion: 1\nname: bookmarks\nversion: 0.1.0\nsummary: Keep bookmarks.\n\
                exitCodes:\n  - {code: 100, name: NOT_FOUND, meaning: Gone}\n  \
                - {code: 100, name: TAKEN, meaning: Taken}\n\
                commands:\n  - name: list\n    description: List them.\n    effect: read\n";
    let output = pas_gen()
        .args(["--agent", "check", "-"])
        .write_stdin(spec)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("The exit code 100 is already used by `NOT_FOUND`."),
        "{stdout}"
    );
}
