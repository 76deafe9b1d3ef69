//! The limits of a call are declared or asked for, and the runtime's variables are parsed
//! strictly (issue 27 item 4, issue 28 item 5):
//! - no default time limit in one mode that the other lacks: a command's declared `timeout`
//!   ends a person's call as it ends an agent's, and the caller's `--timeout SECONDS` (or
//!   `PAS_TIMEOUT`) may only lower it;
//! - every `PAS_*` variable (and the tool's `<TOOL>_TRACE_ID`) holding a value the runtime
//!   cannot use is `CONFIG_INVALID` (exit 2) naming it and the accepted forms: never a panic,
//!   never ignored. `0` means "no limit" for every numeric one.

mod runtime_support;

use runtime_support::{code, error_json, limits_demo, ndjson, stdout};

#[test]
fn a_declared_timeout_ends_a_persons_call_too() {
    // Without --agent: the declared half second still applies (exit 124, as for an agent).
    let out = limits_demo(&["slow", "--seconds", "30"]).output().unwrap();
    assert_eq!(code(&out), 124, "{out:?}");
    let out = limits_demo(&["--agent", "slow", "--seconds", "30"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 124, "{out:?}");
}

#[test]
fn the_callers_timeout_flag_bounds_a_call_and_only_lowers_a_declared_limit() {
    // A lower --timeout tightens the declared limit, anywhere in argv.
    for args in [
        &["--agent", "--timeout", "0.2", "slow", "--seconds", "30"][..],
        &["--agent", "slow", "--seconds", "30", "--timeout=0.2"],
    ] {
        let out = limits_demo(args).output().unwrap();
        assert_eq!(code(&out), 124, "{args:?}: {out:?}");
        let error = error_json(&out);
        assert_eq!(error["error"], "TIMEOUT");
        assert_eq!(error["details"]["limit_ms"], 200, "{args:?}");
    }
    // A larger one, or 0, leaves the declared half second; the flag beats the variable.
    for value in ["10", "0"] {
        let out = limits_demo(&["--agent", "--timeout", value, "slow", "--seconds", "30"])
            .env("PAS_TIMEOUT", "0.1")
            .output()
            .unwrap();
        assert_eq!(
            error_json(&out)["details"]["limit_ms"],
            500,
            "{value}: {out:?}"
        );
    }
    // A call within its limit answers as usual.
    let out = limits_demo(&["--agent", "--timeout", "20", "slow", "--seconds", "0.01"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{out:?}");
    assert_eq!(ndjson(&out)[0]["slept"], 0.01);
    // A value the flag cannot use is an argument error naming the forms.
    for bad in ["garbage", "1e300", "-1"] {
        let out = limits_demo(&["--agent", "--timeout", bad, "slow", "--seconds", "0.01"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 2, "{bad}: {out:?}");
        let error = error_json(&out);
        assert_eq!(error["error"], "INVALID_ARGUMENT", "{bad}");
        assert!(
            error["suggestion"]
                .as_str()
                .unwrap()
                .contains("0: no limit")
        );
    }
    let out = limits_demo(&["--agent", "slow", "--seconds", "0.01", "--timeout"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{out:?}");
}

#[test]
fn every_runtime_variable_with_an_unusable_value_is_config_invalid() {
    let cases = [
        ("PAS_TIMEOUT", "1e300"),
        ("PAS_TIMEOUT", "garbage"),
        ("PAS_TIMEOUT", "-5"),
        ("PAS_OUTPUT_LIMIT", "-1"),
        ("PAS_OUTPUT_LIMIT", "64MiB"),
        ("PAS_INPUT_LIMIT", "1.5"),
        ("PAS_STDIN_WAIT", "soon"),
        ("PAS_LOCK_WAIT", "x"),
        ("PAS_ATTEMPT", "0"),
        ("PAS_ATTEMPT", "two"),
        ("PAS_META", "maybe"),
        ("PAS_UNMASK", "2"),
        ("PAS_NO_INJECTION_CHECK", "perhaps"),
        ("PAS_AGENT", "sometimes"),
        ("PAS_TRACE_ID", "a\u{1}b"),
        ("LIMITS_DEMO_TRACE_ID", "a\u{7}b"),
        ("PAS_JOB_RUN", "not-a-job"),
    ];
    for (name, value) in cases {
        let out = limits_demo(&["--agent", "slow", "--seconds", "0.01"])
            .env(name, value)
            .output()
            .unwrap();
        assert_eq!(code(&out), 2, "{name}={value:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{name}={value:?}: {out:?}");
        let error = error_json(&out);
        assert_eq!(error["error"], "CONFIG_INVALID", "{name}={value:?}");
        assert_eq!(error["details"]["variable"], name, "{name}={value:?}");
        assert!(error["message"].as_str().unwrap().contains(name));
        assert!(
            !error["details"]["accepted"].as_str().unwrap().is_empty(),
            "{name}"
        );
    }
    // A person's call is refused the same way (exit 2), in words.
    let out = limits_demo(&["slow", "--seconds", "0.01"])
        .env("PAS_TIMEOUT", "garbage")
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{out:?}");
}

#[test]
fn usable_values_pass_and_zero_or_empty_mean_no_limit_or_unset() {
    let cases = [
        ("PAS_TIMEOUT", "0"),
        ("PAS_TIMEOUT", ""),
        ("PAS_TIMEOUT", "20"),
        ("PAS_TIMEOUT", "2.5"),
        ("PAS_OUTPUT_LIMIT", "0"),
        ("PAS_INPUT_LIMIT", "0"),
        ("PAS_STDIN_WAIT", "0"),
        ("PAS_LOCK_WAIT", "0"),
        ("PAS_ATTEMPT", "3"),
        ("PAS_META", "off"),
        ("PAS_UNMASK", "0"),
        ("PAS_NO_INJECTION_CHECK", "TRUE"),
        ("PAS_TRACE_ID", "trace-42"),
    ];
    for (name, value) in cases {
        let out = limits_demo(&["--agent", "slow", "--seconds", "0.01"])
            .env(name, value)
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{name}={value:?}: {out:?}");
        assert_eq!(ndjson(&out)[0]["slept"], 0.01, "{name}={value:?}");
    }
}

#[test]
fn every_face_offers_the_timeout_flag_where_the_tool_does_not_own_it() {
    let help = stdout(&limits_demo(&["--agent", "--help"]).output().unwrap());
    assert!(help.contains("--timeout <seconds>"), "{help}");
    let docs = stdout(&limits_demo(&["docs"]).output().unwrap());
    assert!(docs.contains("`--timeout <seconds>`"), "{docs}");
    assert!(
        docs.contains("no time limit unless its command declares one"),
        "{docs}"
    );
    let skill = stdout(&limits_demo(&["docs", "--skill"]).output().unwrap());
    assert!(skill.contains("`--timeout SECONDS`"), "{skill}");
    let catalog: serde_json::Value = serde_json::from_str(&stdout(
        &limits_demo(&["--agent", "tools"]).output().unwrap(),
    ))
    .unwrap();
    let flag = catalog["globalFlags"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "timeout")
        .expect("the catalog lists --timeout");
    assert_eq!(flag["type"], "number");
    // A tool with a `--timeout` of its own keeps it: the faces name PAS_TIMEOUT instead.
    let weather = pas::spec::load::load_path(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../specs/weather.yaml"
    )))
    .unwrap()
    .1;
    assert!(!pas::spec::surface::runtime_timeout_flag(&weather));
    let llm = pas::faces::llm::render(&weather);
    assert!(llm.contains("`PAS_TIMEOUT=SECONDS`"), "{llm}");
    let catalog = pas::spec::faces::catalog::to_json(&weather);
    assert_eq!(
        catalog.matches("\"name\":\"timeout\"").count(),
        1,
        "{catalog}"
    );
}
