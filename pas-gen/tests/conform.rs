//! `pas-gen conform` on tools written without pas: the PAS-style shell and Python fixtures pass
//! level 2, and each check fails on the purpose-built fault that breaks its rule
//! (tests/fixtures/conform/bad.sh, one violation per `FAULT`). The level 3-4, compose and robot
//! checks are shown both ways on store.py, compose.py and robot.py, each with its own spec.

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
    conform_with("good.yaml", tool, fault)
}

/// The same with another spec of the fixtures.
fn conform_with(
    spec: &str,
    tool: &[&str],
    fault: Option<&str>,
) -> (i32, Vec<(String, String)>, Value) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pas-gen"));
    command
        .args(["--agent", "conform", "--spec", &fixture(spec), "--"])
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
    // good.yaml has no destructive command: safety.force has nothing to judge (guard.py shows it);
    // a tool not made with pas has no `changelog` built-in for fm22.schema_version to judge;
    // it has no job command for fm49.job_status (jobs-bad.sh shows it); its help lists no
    // BUILT-IN COMMANDS for docs.built to call (bad.sh's `unbuilt_builtin` shows it).
    let skips = [
        "safety.force",
        "fm22.schema_version",
        "fm49.job_status",
        "docs.built",
    ];
    let failed: Vec<_> = checks
        .iter()
        .filter(|(id, s)| s != "pass" && !(skips.contains(&id.as_str()) && s == "skip"))
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(summary["levelMet"], 2);
    assert_eq!(summary["ok"], true);
    assert_eq!(code, 0);
    // Every level 1 and 2 check of the pas contract ran.
    assert_eq!(checks.len(), 32, "{checks:?}");
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
    ("declared_exit_1", "errors.declared"),
    // The help lies: it documents FILE_NOT_FOUND as 104 (the tool exits 100), or it never names
    // --toon, which the tool accepts.
    ("help_lies", "docs.truth"),
    ("accepts_toon", "docs.truth"),
    // The help lists a built-in the binary answers FEATURE_NOT_BUILT (issue 29, item 3).
    ("unbuilt_builtin", "docs.built"),
    ("undeclared_code", "errors.known"),
    // The CLI Agent Spec's failure modes: colour on a pipe when CLICOLOR_FORCE asks, a read of a piped stdin the spec never declares, an
    // error message translated under a French locale, JSON folded at a narrow COLUMNS.
    ("colour_forced", "fm08.forced_colour"),
    // An argument error that does not say whether a retry can help.
    ("no_retryable", "fm19.retryable"),
    // A bare call that is a usage error instead of the root help.
    ("bare_usage", "fm21.bare_call"),
    ("read_stdin", "fm50.idle_stdin"),
    ("french_errors", "fm57.locale"),
    ("wrap_columns", "fm63.columns"),
    // --validate-only offered in the agent help, and ignored: the command runs.
    ("validate_runs", "fm54.validate_only"),
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
    for (id, _) in checks.iter().filter(|(_, status)| status != "skip") {
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
        .env("FAULT", "agent_help_always")
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("✗ help.human"), "{text}");
    assert!(text.contains("Conformance: Level 1 (Agent-Safe)"), "{text}");
    assert_eq!(out.status.code(), Some(105));
}

/// A fixture with its spec, the checks it shows both ways, and its faults: each breaks the
/// first check named; the rest are the checks the same violation also breaks, by necessity.
struct Contract {
    spec: &'static str,
    script: &'static str,
    level: u8,
    checks: &'static [&'static str],
    faults: &'static [(&'static str, &'static [&'static str])],
}

const STORE: Contract = Contract {
    spec: "store.yaml",
    script: "store.py",
    level: 4,
    checks: &[
        "nav.ls",
        "nav.cat",
        "nav.stat",
        "nav.paths",
        "fm70.many_paths",
        "state.rm_guard",
        "state.rm_container",
        "state.shapes",
        "state.sync_source",
    ],
    faults: &[
        // `ls /` is also the spec's example, so its outputSchema catches the same entries.
        ("ls_untyped", &["nav.ls", "output.schema"]),
        ("cat_text", &["nav.cat"]),
        ("stat_no_size", &["nav.stat"]),
        ("root_empty", &["nav.paths"]),
        ("trailing_slash", &["nav.paths"]),
        ("one_path_only", &["fm70.many_paths"]),
        ("rm_wildcard", &["state.rm_guard"]),
        ("rm_bare", &["state.rm_guard"]),
        // rm of the directory /notes goes ahead without --force.
        ("rm_container", &["state.rm_container"]),
        ("rm_shape", &["state.shapes"]),
        ("sync_event", &["state.shapes"]),
        ("feedback_status", &["state.shapes"]),
        ("sync_missing_ok", &["state.sync_source"]),
    ],
};

const COMPOSE: Contract = Contract {
    spec: "compose.yaml",
    script: "compose.py",
    level: 2,
    checks: &[
        "compose.envelope",
        "compose.error",
        "compose.tools",
        "compose.tools_order",
        "compose.tools_detail",
        "compose.health",
        "compose.config_show",
        "compose.toon",
        "compose.exit_codes",
        // The failure-mode checks' envelope branches (bad.sh shows them in the pas profile).
        "fm08.forced_colour",
        "fm57.locale",
    ],
    faults: &[
        ("two_lines", &["compose.envelope"]),
        ("no_hint", &["compose.error"]),
        ("no_global_flags", &["compose.tools"]),
        ("unsorted", &["compose.tools_order"]),
        ("detail_wrong", &["compose.tools_detail"]),
        ("health_status", &["compose.health"]),
        ("config_fails", &["compose.config_show"]),
        ("toon_json", &["compose.toon"]),
        ("colour_forced", &["fm08.forced_colour"]),
        ("french_errors", &["fm57.locale"]),
        // The triggered NOTE_NOT_FOUND exits 3 too.
        ("exit_3", &["compose.exit_codes", "errors.declared"]),
    ],
};

const ROBOT: Contract = Contract {
    spec: "robot.yaml",
    script: "robot.py",
    level: 2,
    checks: &[
        "robot.envelope",
        "robot.error",
        "robot.exit_codes",
        "robot.arguments",
        "robot.capabilities",
        "robot.sessions",
        "robot.fields",
        "robot.compact",
        "robot.gates",
        "robot.resume",
        "robot.confirm",
    ],
    faults: &[
        // The built-ins' envelopes lack it too.
        (
            "no_schema_version",
            &["robot.envelope", "robot.capabilities", "robot.sessions"],
        ),
        // An unknown flag exiting 4 also names USAGE_ERROR with ITEM_NOT_FOUND's number.
        ("usage_exit_4", &["robot.arguments", "robot.exit_codes"]),
        ("no_capabilities", &["robot.capabilities"]),
        ("sessions_no_total", &["robot.sessions"]),
        ("fields_ignored", &["robot.fields"]),
        ("compact_ignored", &["robot.compact"]),
        ("gates_all_passed_wrong", &["robot.gates"]),
        ("gate_undeclared", &["robot.gates"]),
        ("state_undeclared", &["robot.resume"]),
        ("resume_ignored", &["robot.resume"]),
        // robot confirms a destructive command with --yes: safety.force catches it too.
        ("delete_without_yes", &["robot.confirm", "safety.force"]),
        ("no_recoverable", &["robot.error"]),
        // The triggered ITEM_NOT_FOUND exits 9 too.
        ("exit_9", &["robot.exit_codes", "errors.declared"]),
    ],
};

/// The good tool meets its claimed level with its own checks passed, and nothing failed
/// (skips are allowed: no call of these tools runs long enough for the SIGTERM check).
fn assert_good(contract: &Contract) {
    let script = fixture(contract.script);
    let (code, checks, summary) = conform_with(contract.spec, &["python3", &script], None);
    let failed: Vec<_> = checks.iter().filter(|(_, s)| s == "fail").collect();
    assert!(failed.is_empty(), "{}: {failed:?}", contract.script);
    for id in contract.checks {
        let status = checks
            .iter()
            .find(|(c, _)| c == id)
            .map(|(_, s)| s.as_str());
        assert_eq!(
            status,
            Some("pass"),
            "{}: {id} in {checks:?}",
            contract.script
        );
    }
    // Every check of the families the table covers (nav.*, compose.*, ...) is one it names.
    let family = |id: &str| id.split('.').next().unwrap_or_default().to_owned();
    let families: Vec<String> = contract.checks.iter().map(|c| family(c)).collect();
    let stray: Vec<_> = checks
        .iter()
        .filter(|(id, _)| families.contains(&family(id)) && !contract.checks.contains(&id.as_str()))
        .collect();
    assert!(stray.is_empty(), "checks with no fault: {stray:?}");
    assert_eq!(summary["levelMet"], contract.level);
    assert_eq!(code, 0);
}

/// Each fault fails exactly the checks it names, and the run exits 105 LEVEL_NOT_MET; every check
/// the contract lists has a fault that breaks it.
fn assert_faults(contract: &Contract) {
    let handles: Vec<_> = contract
        .faults
        .iter()
        .map(|(fault, breaks)| {
            let script = fixture(contract.script);
            let spec = contract.spec;
            std::thread::spawn(move || {
                let (code, checks, _) = conform_with(spec, &["python3", &script], Some(fault));
                (fault, breaks, code, checks)
            })
        })
        .collect();
    for handle in handles {
        let (fault, breaks, code, checks) = handle.join().unwrap();
        let mut failed: Vec<&str> = checks
            .iter()
            .filter(|(_, s)| s == "fail")
            .map(|(id, _)| id.as_str())
            .collect();
        failed.sort_unstable();
        let mut expected = breaks.to_vec();
        expected.sort_unstable();
        assert_eq!(
            failed, expected,
            "FAULT={fault} {}: {checks:?}",
            contract.script
        );
        assert_eq!(code, 105, "FAULT={fault}: LEVEL_NOT_MET");
    }
    for id in contract.checks {
        let broken = contract.faults.iter().any(|(_, b)| b[0] == *id);
        assert!(broken, "no fault of {} breaks {id}", contract.script);
    }
}

#[test]
fn a_level_4_data_tool_passes_the_navigation_and_state_checks() {
    assert_good(&STORE);
}

#[test]
fn every_level_3_and_4_check_fails_on_the_fault_that_breaks_it() {
    assert_faults(&STORE);
}

#[test]
fn a_compose_tool_passes_every_compose_check() {
    assert_good(&COMPOSE);
}

#[test]
fn every_compose_check_fails_on_the_fault_that_breaks_it() {
    assert_faults(&COMPOSE);
}

#[test]
fn a_robot_tool_passes_every_robot_check() {
    assert_good(&ROBOT);
}

#[test]
fn every_robot_check_fails_on_the_fault_that_breaks_it() {
    assert_faults(&ROBOT);
}

/// safety.force: guard.py refuses `item delete` without --force and changes nothing; the fault
/// that deletes anyway, and the one that deletes then refuses, both fail it.
#[test]
fn a_destructive_command_without_force_is_refused_and_changes_nothing() {
    let script = fixture("guard.py");
    let status = |fault: Option<&str>| {
        let (code, checks, _) = conform_with("guard.yaml", &["python3", &script], fault);
        let status = checks
            .iter()
            .find(|(id, _)| id == "safety.force")
            .map(|(_, s)| s.clone());
        (code, status, checks)
    };
    let (code, good, checks) = status(None);
    assert_eq!(good.as_deref(), Some("pass"), "{checks:?}");
    assert_eq!(code, 0, "{checks:?}");
    for fault in ["no_guard", "late_guard"] {
        let (code, status, checks) = status(Some(fault));
        assert_eq!(status.as_deref(), Some("fail"), "FAULT={fault}: {checks:?}");
        assert_eq!(code, 105);
    }
}

/// Runs `pas-gen --agent conform ARGS` and returns (exit code, stdout, stderr).
fn pas_gen_conform(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pas-gen"))
        .args(["--agent", "conform"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_target_that_cannot_start_is_an_error_not_a_report() {
    let (code, stdout, stderr) = pas_gen_conform(&["--", "/nonexistent/pas-conform-tool"]);
    assert_eq!(code, 106, "{stderr}");
    assert!(stdout.is_empty(), "no check ran: {stdout}");
    let error: Value = serde_json::from_str(stderr.trim()).unwrap();
    assert_eq!(error["error"], "TARGET_NOT_STARTED");
}

#[test]
fn a_level_out_of_range_is_a_usage_error() {
    for level in ["0", "9"] {
        let (code, stdout, stderr) =
            pas_gen_conform(&["--level", level, "--", &fixture("good.sh")]);
        assert_eq!(code, 2, "--level {level}: {stderr}");
        assert!(stdout.is_empty());
        let error: Value = serde_json::from_str(stderr.trim()).unwrap();
        assert_eq!(error["error"], "INVALID_VALUE");
    }
}

/// Every process whose command line holds `marker` (the test's own, found by a unique marker).
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if !entry
            .file_name()
            .to_string_lossy()
            .chars()
            .all(|c| c.is_ascii_digit())
        {
            continue;
        }
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(marker) {
                found.push(format!("{}: {text}", entry.file_name().to_string_lossy()));
            }
        }
    }
    found
}

/// A tool that ignores SIGTERM, SIGHUP and SIGINT and never ends: every call of it times out,
/// on a pipe and on a pseudo-terminal, and conform must leave none of its processes behind.
#[test]
fn conform_leaves_no_process_behind() {
    let marker = format!("301.{}", std::process::id());
    let script = format!("trap '' TERM HUP INT; sleep {marker}");
    let (code, _, stderr) = pas_gen_conform(&["--", "sh", "-c", &script]);
    assert_ne!(code, 0, "{stderr}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let left = processes_with(&marker);
    // Clean up after a failure, so one broken run does not leave sleeps for hours.
    for line in &left {
        if let Some(pid) = line.split(':').next() {
            let _ = Command::new("kill").args(["-KILL", pid]).status();
        }
    }
    assert!(left.is_empty(), "orphans: {left:?}");
}

/// The runtime's CLI of a spec with no handlers (`pas-spec-cli`, built beside pas-gen).
fn spec_cli() -> String {
    let exe = std::path::Path::new(env!("CARGO_BIN_EXE_pas-gen")).with_file_name("pas-spec-cli");
    assert!(exe.exists(), "run `cargo build -p pas-testbins` first");
    exe.to_string_lossy().into_owned()
}

/// docs.truth on the robot fixture (tests/fixtures/valid/robot.yaml) as the runtime serves it:
/// its agent help's exit codes and flags are what the binary does.
#[test]
fn the_robot_fixture_tells_the_truth() {
    let spec = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/valid/robot.yaml");
    let out = Command::new(env!("CARGO_BIN_EXE_pas-gen"))
        .args(["--agent", "conform", "--level", "1", "--", &spec_cli()])
        .env("PAS_SPEC_CLI_SPEC", &spec)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let truth: Value = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|l| l["check"] == "docs.truth")
        .unwrap_or_else(|| panic!("docs.truth ran: {text}"));
    assert_eq!(truth["status"], "pass", "{truth}");
}

/// A tool with nothing to show (an empty store: every list prints nothing and exits 0) gets
/// `skip` with a reason from the checks that judge output, never a `pass` on empty evidence.
#[test]
fn no_data_is_a_skip_never_a_pass() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("empty.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\n# Prints nothing, successfully.\nexit 0\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let (_, checks, _) = conform(&[script.to_str().unwrap()], None);
    for id in [
        "output.json",
        "output.ndjson",
        "output.schema",
        "output.format_array",
        "output.deterministic",
        "streams.pipe_close",
    ] {
        let status = checks
            .iter()
            .find(|(c, _)| c == id)
            .map(|(_, s)| s.as_str());
        assert_eq!(status, Some("skip"), "{id} in {checks:?}");
    }
}

/// fm49.job_status (CLI Agent Spec §49): a tool whose `job status` exits 0 while the job still
/// runs fails it; a tool without a job command skips it (the pas tools' passes are in
/// pas-testbins/tests/runtime_jobs.rs).
#[test]
fn job_status_exiting_0_while_running_fails_fm49() {
    let jobs_spec =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/jobs/pas.yaml");
    let out = Command::new(env!("CARGO_BIN_EXE_pas-gen"))
        .args(["--agent", "conform", "--spec"])
        .arg(&jobs_spec)
        .arg("--")
        .arg(fixture("jobs-bad.sh"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let check: Value = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|c| c["check"] == "fm49.job_status")
        .expect("the check ran");
    assert_eq!(check["status"], "fail", "{check}");
    assert!(
        check["reason"]
            .as_str()
            .unwrap()
            .contains("exited 0 while the job is"),
        "{check}"
    );
    let (_, checks, _) = conform(&[&fixture("good.sh")], None);
    assert!(
        checks.contains(&("fm49.job_status".to_owned(), "skip".to_owned())),
        "{checks:?}"
    );
}

/// Issue 27: conform ends every descendant of its target, those that daemonised included.
/// daemon.sh leaves, on every call, a `sleep 600` double-forked into a session of its own and
/// writes its pid to a file; once conform is over, none of those pids is a live sleep. Should
/// one be (the promise broken), the test ends exactly those pids before failing.
#[test]
fn conform_ends_the_daemons_its_target_leaves() {
    let pids = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pas-gen"))
        .args([
            "--agent",
            "conform",
            "--spec",
            &fixture("good.yaml"),
            "--",
            &fixture("daemon.sh"),
        ])
        .env("PAS_DAEMON_PIDS", pids.path())
        .env_remove("FAULT")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"kind\":\"summary\""), "{text}");
    let daemons: Vec<u32> = std::fs::read_dir(pids.path())
        .unwrap()
        .filter_map(|entry| {
            let path = entry.unwrap().path();
            (path.extension()? == "pid").then_some(())?;
            std::fs::read_to_string(path).ok()?.trim().parse().ok()
        })
        .collect();
    assert!(daemons.len() > 20, "every call left a daemon: {daemons:?}");
    let alive: Vec<u32> = daemons
        .into_iter()
        .filter(|pid| a_live_sleep(*pid))
        .collect();
    for pid in &alive {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    assert!(alive.is_empty(), "daemons left running: {alive:?}");
}

/// Whether `pid` is a running (not zombie) `sleep`: the daemon, not a process that reused its
/// pid.
fn a_live_sleep(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let Some(close) = stat.rfind(')') else {
        return false;
    };
    let comm = stat[..close].split_once('(').map_or("", |(_, c)| c);
    let state = stat[close + 1..].split_whitespace().next().unwrap_or("");
    comm == "sleep" && state != "Z"
}
