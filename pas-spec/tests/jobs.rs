//! Async job commands (`output: job`, CLI Agent Spec failure mode 49): the `job` block round
//! trips, every problem of one is reported at once as E094 at its key (with a hint and a span),
//! and the faces document the job protocol (descriptor, `job` word, `--wait`, the JOB_* exit
//! codes) for a tool with a job command only.

use pas_spec::faces::{agent_help, catalog, llm, mcp};
use pas_spec::{Format, OutputKind, Registry, Source, load, validate::validate, write};
use serde_json::Value;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/jobs");

fn fixture(profile: &str) -> Registry {
    let path = format!("{FIXTURES}/{profile}.yaml");
    load::load_path(std::path::Path::new(&path)).unwrap().1
}

fn parse(text: &str) -> Registry {
    load::parse(&Source::new("jobs.yaml", text.to_owned(), Format::Yaml)).expect("the spec loads")
}

#[test]
fn the_job_fixtures_are_valid_and_round_trip() {
    for profile in ["pas", "compose", "robot"] {
        let registry = fixture(profile);
        assert!(
            validate(&registry).is_empty(),
            "{profile}: {:?}",
            validate(&registry)
        );
        let command = &registry.commands[0];
        assert_eq!(command.output, OutputKind::Job);
        assert_eq!(
            (command.job_poll_interval_ms(), command.job_timeout_ms()),
            (200, 60_000)
        );
        assert!(registry.offers_jobs());
        let json = write::to_json(&registry);
        assert!(json.contains("\"output\": \"job\""), "{json}");
        assert!(json.contains("\"pollIntervalMs\": 200"), "{json}");
        let again = load::parse(&Source::new("j.json", json, Format::Json)).unwrap();
        assert_eq!(again, registry);
        let yaml = write::to_yaml(&registry);
        assert_eq!(
            load::parse(&Source::new("j.yaml", yaml, Format::Yaml)).unwrap(),
            registry
        );
    }
}

#[test]
fn the_defaults_are_documented_numbers() {
    let registry = parse(
        "specVersion: 1\nname: t\nversion: 0.1.0\nsummary: T.\ncommands:\n  - name: go.run\n    description: Go.\n    output: job\n",
    );
    let command = &registry.commands[0];
    assert_eq!(
        command.job_poll_interval_ms(),
        pas_spec::job::DEFAULT_POLL_INTERVAL_MS
    );
    assert_eq!(command.job_timeout_ms(), pas_spec::job::DEFAULT_TIMEOUT_MS);
    assert!(validate(&registry).is_empty());
}

/// Every problem at once, each at its key, each with a hint.
#[test]
fn every_job_problem_is_e094_at_its_key() {
    let registry = parse(
        r#"
specVersion: 1
name: t
version: 0.1.0
summary: T.
exitCodes:
  - {code: 75, name: BUSY, meaning: Busy}
commands:
  - name: go.run
    description: Go.
    output: job
    timeout: 5
    job: {pollIntervalMs: 0, timeoutMs: 0}
  - name: go.slow
    description: Slow.
    output: job
    job: {pollIntervalMs: 5000, timeoutMs: 1000}
  - name: show
    path: []
    description: Show.
    job: {pollIntervalMs: 10}
  - name: job.list
    description: The tool's own job word.
    errors: [BUSY]
"#,
    );
    let found: Vec<(&str, String)> = validate(&registry)
        .iter()
        .filter(|d| d.code == "E094")
        .map(|d| {
            assert!(d.hint.as_ref().is_some_and(|h| !h.is_empty()), "{d:?}");
            (d.code, d.pointer.clone())
        })
        .collect();
    let want = [
        "/commands/0/job/pollIntervalMs",
        "/commands/0/job/timeoutMs",
        "/commands/0/timeout",
        "/commands/1/job/pollIntervalMs",
        "/commands/2/job",
        "/exitCodes/0/code",
        "/commands/3/name",
    ];
    for pointer in want {
        assert!(
            found.iter().any(|(_, p)| p == pointer),
            "{pointer} in {found:?}"
        );
    }
    // With spans: the checker points at the line.
    let text = std::fs::read_to_string(format!("{FIXTURES}/pas.yaml")).unwrap();
    let broken = text.replace("timeoutMs: 60000", "timeoutMs: 0");
    let (_, found) = pas_spec::check_source(&Source::new("pas.yaml", broken, Format::Yaml));
    let e094 = found.iter().find(|d| d.code == "E094").expect("E094");
    assert!(e094.location.is_some(), "{e094:?}");
}

/// robot's exit codes are the spec's table: a robot tool with a job command names the states.
#[test]
fn a_robot_job_tool_names_the_job_codes() {
    let text = std::fs::read_to_string(format!("{FIXTURES}/robot.yaml")).unwrap();
    let without = text.replace(
        "  - {code: 75, name: JOB_RUNNING, meaning: The job still runs; poll again}\n",
        "",
    );
    let found = validate(&parse(&without));
    let e094: Vec<&pas_spec::Diagnostic> = found.iter().filter(|d| d.code == "E094").collect();
    assert_eq!(e094.len(), 1, "{found:?}");
    assert_eq!(e094[0].pointer, "/exitCodes");
    assert!(e094[0].message.contains("JOB_RUNNING"), "{:?}", e094[0]);
    let help = agent_help::render_tool(&fixture("robot"));
    assert!(
        help.contains("75  The job still runs; poll again (JOB_RUNNING)")
            || help.contains("JOB_RUNNING"),
        "{help}"
    );
}

#[test]
fn faces_document_the_job_protocol() {
    let registry = fixture("pas");
    let help = agent_help::render_tool(&registry);
    let run = agent_help::render(&registry, &["build".to_owned(), "run".to_owned()]).unwrap();
    let document = llm::render(&registry);
    assert!(
        help.contains("builder job status|cancel ID, list"),
        "{help}"
    );
    for code in [
        "75  `job status`",
        "76  `job status`",
        "77  `job status`",
        "78  `job status`",
        "74  `job status`",
    ] {
        assert!(help.contains(code), "{code} in {help}");
    }
    assert!(run.contains("--wait"), "{run}");
    assert!(run.contains("job descriptor"), "{run}");
    assert!(
        document.contains("`builder job status|cancel ID, list`")
            || document.contains("`builder job`"),
        "{document}"
    );
    assert!(document.contains("JOB_RUNNING"), "{document}");
    let tools: Value = serde_json::from_str(&mcp::render(&registry)).unwrap();
    let build = tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "build_run")
        .unwrap();
    // Over MCP the tool's output (at the job's end, or a task's inlined result) is the job's
    // result (or, past the call's output bound, the pointer to it).
    assert_eq!(
        build["outputSchema"]["anyOf"][0]["properties"]["built"]["type"], "boolean",
        "{build}"
    );
    assert_eq!(
        build["outputSchema"]["anyOf"][1]["required"],
        serde_json::json!(["output_file"]),
        "{build}"
    );
    // A client that takes MCP tasks gets the job as a task; any other gets its result.
    assert_eq!(
        build["_meta"][mcp::META_JOB],
        serde_json::json!({"task": "optional", "pollIntervalMs": 200, "timeoutMs": 60000}),
        "{build}"
    );
    let catalog: Value = serde_json::from_str(&catalog::to_json(&registry)).unwrap();
    let run = catalog["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "build.run")
        .unwrap();
    assert_eq!(
        run["job"],
        serde_json::json!({"pollIntervalMs": 200, "timeoutMs": 60000}),
        "{run}"
    );
    insta::assert_snapshot!("agent-help-jobs", help);
    insta::assert_snapshot!("agent-help-jobs-build-run", run);
    insta::assert_snapshot!("llm-jobs", document);

    // compose keeps 0/1/2: no JOB_* rows, and the word still listed.
    let compose = agent_help::render_tool(&fixture("compose"));
    assert!(
        compose.contains("builder job status|cancel ID, list"),
        "{compose}"
    );
    assert!(!compose.contains("75  "), "{compose}");
}

#[test]
fn a_tool_without_job_commands_has_no_job_word() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../specs/todo.yaml");
    let registry = load::load_path(std::path::Path::new(path)).unwrap().1;
    assert!(!registry.offers_jobs());
    let help = agent_help::render_tool(&registry);
    assert!(!help.contains(" job "), "{help}");
    assert!(!help.contains("JOB_"), "{help}");
}
