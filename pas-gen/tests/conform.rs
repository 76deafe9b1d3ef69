//! `pas-gen conform` on tools written without pas: the PAS-style shell and Python fixtures pass
//! level 2, and each check fails on the purpose-built fault that breaks its rule
//! (tests/fixtures/conform/bad.sh, one violation per `FAULT`).

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn fixture(name: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/conform");
    root.join(name).to_string_lossy().into_owned()
}

/// Runs `pas-gen --agent conform --spec good.yaml -- TOOL...` and returns the exit code, the
/// check lines by id, and the summary line.
fn conform(tool: &[&str], fault: Option<&str>) -> (i32, Vec<(String, String)>, Value) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pas-gen"));
    command
        .args(["--agent", "conform", "--spec", &fixture("good.yaml"), "--"])
        .args(tool);
    match fault {
        Some(fault) => command.env("FAULT", fault),
        None => command.env_remove("FAULT"),
    };
    let out = command.output().expect("pas-gen runs");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (summary, checks) = lines.split_last().expect("a summary line");
    assert_eq!(summary["kind"], "summary", "{text}");
    let checks = checks
        .iter()
        .map(|c| {
            (
                c["check"].as_str().unwrap().to_owned(),
                c["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (out.status.code().unwrap(), checks, summary.clone())
}

fn assert_all_pass(tool: &[&str]) {
    let (code, checks, summary) = conform(tool, None);
    let failed: Vec<_> = checks.iter().filter(|(_, s)| s != "pass").collect();
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(summary["levelMet"], 2);
    assert_eq!(summary["ok"], true);
    assert_eq!(code, 0);
    // Every level 1 and 2 check of the pas contract ran.
    assert_eq!(checks.len(), 18, "{checks:?}");
}

#[test]
fn a_bash_tool_in_the_pas_style_passes_level_2() {
    assert_all_pass(&[&fixture("good.sh")]);
}

#[test]
fn a_python_tool_in_the_pas_style_passes_level_2() {
    assert_all_pass(&["python3", &fixture("good.py")]);
}

/// The fault that breaks each check's rule.
const FAULTS: &[(&str, &str)] = &[
    ("json_broken", "output.json"),
    ("array_always", "output.ndjson"),
    ("words_string", "output.schema"),
    ("no_array", "output.format_array"),
    ("clock", "output.deterministic"),
    ("agent_first_only", "agent.any_position"),
    ("error_on_stdout", "errors.unknown_flag"),
    ("usage_exit_1", "exit_codes.usage"),
    ("no_agent_help", "help.agent"),
    ("agent_help_always", "help.human"),
    ("no_version", "version"),
    ("pipe_noise", "streams.pipe_close"),
    ("colour", "terminal.no_ansi"),
    ("prompt", "terminal.stdin"),
    ("ignore_term", "signals.sigterm"),
    ("concat", "errors.shape"),
    ("lowercase_error", "errors.shape"),
    ("undocumented_exit", "exit_codes.documented"),
    ("exit_3", "exit_codes.semantic"),
];

#[test]
fn every_check_fails_on_the_tool_that_breaks_its_rule() {
    // The faults run side by side: some wait out a timeout (a prompt, an ignored SIGTERM).
    let handles: Vec<_> = FAULTS
        .iter()
        .map(|(fault, check)| {
            std::thread::spawn(move || {
                let (code, checks, summary) = conform(&[&fixture("bad.sh")], Some(fault));
                (fault, check, code, checks, summary)
            })
        })
        .collect();
    for handle in handles {
        let (fault, check, code, checks, summary) = handle.join().unwrap();
        let status = checks
            .iter()
            .find(|(id, _)| id == check)
            .map(|(_, s)| s.as_str());
        assert_eq!(status, Some("fail"), "FAULT={fault}: {check} in {checks:?}");
        assert_eq!(code, 105, "FAULT={fault}: LEVEL_NOT_MET");
        assert_eq!(summary["ok"], false);
    }
    // Every check of levels 1 and 2 has a fault that breaks it.
    let (_, checks, _) = conform(&[&fixture("good.sh")], None);
    for (id, _) in &checks {
        assert!(FAULTS.iter().any(|(_, c)| c == id), "no fault breaks {id}");
    }
}

#[test]
fn the_human_report_is_a_table_with_the_level_met() {
    let out = Command::new(env!("CARGO_BIN_EXE_pas-gen"))
        .args([
            "conform",
            "--spec",
            &fixture("good.yaml"),
            "--",
            &fixture("bad.sh"),
        ])
        .env("FAULT", "usage_exit_1")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("✗ exit_codes.usage"), "{text}");
    assert!(text.contains("Conformance: Level 1 (Agent-Safe)"), "{text}");
    assert_eq!(out.status.code(), Some(105));
}
