//! Fuzzing in the normal test run (issue 19, item 8, the runtime's half), with proptest and a
//! bounded number of cases (cargo-fuzz needs a nightly toolchain). Each case runs a built tool
//! as a process, as an agent would:
//!
//! - argv of arbitrary bytes (not UTF-8 too), mixed with the tool's own words so that parsing
//!   gets past the first word, never panics: the call ends with success or a structured error,
//!   with an exit code from the documented set, and never with panic text or a signal;
//! - a canary secret given in any spelling (`--token C`, `--token=C`, glued, misspelt, after
//!   `--`) at any position, among other words, never appears on stdout, stderr or in the audit
//!   log.
//!
//! Finds are kept by proptest in `tests/runtime_fuzz.proptest-regressions` and replayed first.
//! `PROPTEST_CASES` raises the count for a longer run.

mod runtime_support;

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use serde_json::Value;

/// Words of the demo tool (tests/bin/runtime-demo.json), without the commands that sleep, run
/// long or crash on purpose (`sleep`, `work`, `crash`, `--delay-ms`, `--panic-at`), and without
/// `--validate-pas` (it runs the whole conformance suite) and `--audit-log` (it writes files).
const DEMO_WORDS: &[&str] = &[
    "item",
    "get",
    "list",
    "doc",
    "watch",
    "ingest",
    "login",
    "nothing",
    "docs",
    "tools",
    "completions",
    "bash",
    "man",
    "help",
    "--agent",
    "--help",
    "-h",
    "--version",
    "-V",
    "--format",
    "array",
    "ndjson",
    "--format=array",
    "--count",
    "-n",
    "--fail-at",
    "--kind",
    "--verbose",
    "-v",
    "--user",
    "--password",
    "-p",
    "--token",
    "--steps",
    "--",
    "-",
    "--config",
    "--pas-spec",
    "0",
    "1",
    "2",
    "-1",
    "13",
    "99999999999999999999",
    "=",
    "--x=y",
    "",
];

/// Words of the guard demo (tests/bin/guard_demo.rs).
const GUARD_WORDS: &[&str] = &[
    "list", "remove", "--force", "--agent", "--help", "-h", "--format", "array", "--", "-x",
    "rust", "keep", "", "docs", "tools", "=",
];

/// The exit codes a `pas` tool may end with: success, general, usage, the tool's table
/// (100-125), SIGINT and SIGTERM.
fn documented(code: i32) -> bool {
    matches!(code, 0 | 1 | 2 | 100..=125 | 130 | 143)
}

fn word(words: &'static [&'static str]) -> impl Strategy<Value = OsString> {
    prop_oneof![
        3 => proptest::sample::select(words).prop_map(OsString::from),
        // Any bytes but NUL, which no argv word can hold.
        1 => proptest::collection::vec(1u8..=255, 0..12).prop_map(OsString::from_vec),
        1 => "\\PC{0,10}".prop_map(OsString::from),
    ]
}

fn argv(words: &'static [&'static str]) -> impl Strategy<Value = Vec<OsString>> {
    proptest::collection::vec(word(words), 0..7)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        // Each case is a process: a few hundred in all keep this file well under a minute.
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(256),
        max_shrink_iters: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/runtime_fuzz.proptest-regressions"
        )))),
        ..ProptestConfig::default()
    }
}

/// Checks what every call must hold, whatever argv was.
fn holds(out: &Output, agent: bool) -> Result<(), TestCaseError> {
    let code = out.status.code();
    prop_assert!(code.is_some(), "ended by a signal: {:?}", out.status);
    let code = code.unwrap();
    prop_assert!(documented(code), "exit code {code} is not documented");
    let stderr = String::from_utf8_lossy(&out.stderr);
    prop_assert!(!stderr.contains("panicked"), "panic text: {stderr}");
    if agent {
        for line in stderr.lines() {
            let error: Value = serde_json::from_str(line).map_err(|e| {
                TestCaseError::fail(format!("stderr line is not JSON ({e}): {line}"))
            })?;
            prop_assert!(error["error"].is_string(), "{line}");
            prop_assert_ne!(&error["error"], "INTERNAL_ERROR", "{}", line);
        }
        if code != 0 {
            prop_assert!(!stderr.is_empty(), "a failure says why");
        }
    }
    Ok(())
}

fn run(tool: &Path, args: &[OsString], envs: &[(&str, &str)], cwd: &Path) -> Output {
    Command::new(tool)
        .args(args)
        .current_dir(cwd)
        .env_remove("PAS_AGENT")
        .env_remove("DEMO_TOKEN")
        .env_remove("DEMO_CONFIG")
        .env("XDG_CONFIG_HOME", cwd.join("config"))
        .envs(envs.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("the tool runs")
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_argv_ends_in_success_or_a_structured_error(agent in any::<bool>(), rest in argv(DEMO_WORDS)) {
        let dir = tempfile::tempdir().unwrap();
        let mut args = Vec::new();
        if agent {
            args.push(OsString::from("--agent"));
        }
        args.extend(rest);
        let out = run(&runtime_support::demo_path(), &args, &[], dir.path());
        holds(&out, agent)?;
    }

    #[test]
    fn any_argv_of_a_spec_first_and_a_derived_tool(derived in any::<bool>(), rest in argv(GUARD_WORDS)) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("rust"), "x").unwrap();
        let mut args = vec![OsString::from("--agent")];
        args.extend(rest);
        let mut envs = vec![("BOOKMARKS_DIR", dir.path().to_str().unwrap())];
        if derived {
            envs.push(("GUARD_DEMO_DERIVE", "1"));
        }
        let tool = Path::new(env!("CARGO_BIN_EXE_pas-guard-demo"));
        let out = run(tool, &args, &envs, dir.path());
        holds(&out, true)?;
        // Without --force nothing is removed, whatever else argv held.
        if !args.iter().any(|a| a == "--force") {
            prop_assert!(dir.path().join("rust").exists(), "removed without --force: {:?}", args);
        }
    }

    #[test]
    fn a_canary_secret_is_never_echoed(
        agent in any::<bool>(),
        canary in "[A-Za-z0-9]{8,16}",
        spelling in 0usize..14,
        before in argv(DEMO_WORDS),
        after in argv(DEMO_WORDS),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("audit.jsonl");
        let secret: Vec<String> = match spelling {
            0 => vec!["--token".into(), canary.clone()],
            1 => vec![format!("--token={canary}")],
            2 => vec![format!("--token{canary}")],
            3 => vec!["-p".into(), canary.clone()],
            4 => vec![format!("-p{canary}")],
            5 => vec![format!("-p={canary}")],
            6 => vec!["--password".into(), canary.clone()],
            7 => vec![format!("--password={canary}")],
            8 => vec![format!("--TOKEN={canary}")],
            9 => vec!["--tok_en".into(), canary.clone()],
            10 => vec![format!("--tokne={canary}")],
            11 => vec!["--passwrod".into(), canary.clone()],
            12 => vec!["--".into(), "--token".into(), canary.clone()],
            _ => vec![format!("--pass-word{canary}")],
        };
        let mut args: Vec<OsString> = vec!["--audit-log".into(), log.clone().into()];
        if agent {
            args.insert(0, "--agent".into());
        }
        args.extend(before);
        args.extend(secret.iter().map(OsString::from));
        args.extend(after);
        let out = run(&runtime_support::demo_path(), &args, &[], dir.path());
        let audit = std::fs::read_to_string(&log).unwrap_or_default();
        for (stream, text) in [
            ("stdout", String::from_utf8_lossy(&out.stdout).into_owned()),
            ("stderr", String::from_utf8_lossy(&out.stderr).into_owned()),
            ("audit log", audit),
        ] {
            prop_assert!(!text.contains(&canary), "{} shows the canary: {}", stream, text);
        }
    }
}
