//! `--agent` anywhere in argv (or `PAS_AGENT=1`) gives the same bytes; without it, the human
//! behaviour; `--` still ends options; the same input gives the same bytes.

mod runtime_support;

use runtime_support::{code, demo, demo_path, run, stderr, stdout, without_request_id};

#[test]
fn agent_before_or_after_subcommands_and_values_gives_identical_bytes() {
    let placements: [&[&str]; 4] = [
        &["--agent", "item", "list", "-n", "2"],
        &["item", "--agent", "list", "-n", "2"],
        &["item", "list", "--agent", "-n", "2"],
        &["item", "list", "-n", "2", "--agent"],
    ];
    let first = run(placements[0]);
    assert_eq!(code(&first), 0);
    assert_eq!(
        stdout(&first),
        "{\"id\":0,\"name\":\"item-0\",\"tags\":[\"a\",\"b\"]}\n{\"id\":1,\"name\":\"item-1\",\"tags\":[\"a\",\"b\"]}\n"
    );
    for args in &placements[1..] {
        let other = run(args);
        assert_eq!(other.stdout, first.stdout, "{args:?}");
        assert_eq!(
            without_request_id(&other.stderr),
            without_request_id(&first.stderr),
            "{args:?}"
        );
        assert_eq!(other.status, first.status, "{args:?}");
    }
}

#[test]
fn agent_position_does_not_change_errors_either() {
    let a = run(&["--agent", "item", "get", "0"]);
    let b = run(&["item", "get", "0", "--agent"]);
    assert_eq!(code(&a), 100);
    assert_eq!(
        (a.stdout, without_request_id(&a.stderr), a.status),
        (b.stdout, without_request_id(&b.stderr), b.status)
    );
}

#[test]
fn the_environment_variable_turns_agent_mode_on() {
    let flag = run(&["--agent", "item", "get", "7"]);
    let env = demo(&["item", "get", "7"])
        .env("PAS_AGENT", "1")
        .output()
        .unwrap();
    assert_eq!(stdout(&env), "{\"id\":7,\"name\":\"item-7\"}\n");
    assert_eq!(env.stdout, flag.stdout);
    let off = demo(&["item", "get", "7"])
        .env("PAS_AGENT", "0")
        .output()
        .unwrap();
    assert_eq!(stdout(&off), "id: 7\nname: item-7\n");
}

#[test]
fn without_agent_the_output_is_for_people() {
    let object = run(&["item", "get", "7", "--verbose"]);
    // json! objects sort their keys; the text keeps whatever order the JSON has.
    assert_eq!(stdout(&object), "id: 7\nname: item-7\nhistory: created\n");
    let list = run(&["item", "list", "-n", "2"]);
    assert_eq!(
        stdout(&list),
        "id=0 name=item-0 tags=a,b\nid=1 name=item-1 tags=a,b\n"
    );
    let error = run(&["item", "get", "0"]);
    assert_eq!(code(&error), 100);
    assert_eq!(stdout(&error), "");
    assert_eq!(
        stderr(&error),
        "error: no item with id 0\nhint: list ids with `demo --agent item list`\n"
    );
}

#[test]
fn double_dash_ends_options_so_a_literal_agent_is_a_value() {
    // After `--`, `--agent` is the positional id: not stripped, so it is an invalid integer,
    // and since it was not taken as the flag the error is clap's human text.
    let out = run(&["item", "get", "--", "--agent"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("invalid value '--agent'"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).starts_with('{'));
}

#[test]
fn non_utf8_argv_is_accepted() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"\xff\xfe");
    let out = std::process::Command::new(demo_path())
        .arg("--agent")
        .arg("item")
        .arg("get")
        .arg(bad)
        .env_remove("PAS_AGENT")
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
    let error: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(error["error"], "INVALID_VALUE");
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    for args in [
        &["--agent", "item", "list", "-n", "50"][..],
        &["--agent", "--help"],
        &["--agent", "item", "get", "0"],
        &["--agent", "item", "list", "--bogus"],
        &["--agent", "watch"],
        &["--pas-spec"],
    ] {
        let a = run(args);
        let b = run(args);
        assert_eq!(
            (a.stdout, without_request_id(&a.stderr), a.status),
            (b.stdout, without_request_id(&b.stderr), b.status),
            "{args:?}"
        );
    }
}

#[test]
fn the_spec_flag_prints_the_registry_back() {
    let out = run(&["--pas-spec"]);
    assert_eq!(code(&out), 0);
    let printed: pas::spec::Registry = serde_json::from_slice(&out.stdout).unwrap();
    let original: pas::spec::Registry =
        serde_json::from_str(include_str!("bin/runtime-demo.json")).unwrap();
    assert_eq!(printed, original);
    assert_eq!(stdout(&out), pas::spec::write::to_json(&original));
}
