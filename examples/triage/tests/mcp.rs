//! triage (robot profile) served over MCP (`triage mcp`): the data a call returns is the
//! `data` of the CLI's envelope (issue 12, item 7), and a destructive command is confirmed with
//! the `yes` argument, as its CLI needs `--yes` (robot 6.4), never with `force`.

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

#[allow(dead_code)]
mod support;

use std::path::Path;

use mcp_support::{
    Session, as_envelope, call, envelope_meaning, plan, run_clients, run_clients_over_http,
};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_triage");
/// Matches no process: the runs on either side see the same (empty) census.
const NOBODY: &str = "^zz-no-process-is-named-so-4f1c$";

/// The session id in a plan's `apply_command` (`triage apply --session ID ...`).
fn session_in(data: &Value) -> String {
    let command = data["apply_command"].as_str().unwrap_or_default();
    let mut words = command.split(' ');
    words.find(|w| *w == "--session");
    words.next().unwrap_or_default().to_owned()
}

/// The data without what differs between two runs by nature: the machine's uptime and load,
/// and a plan's session id.
fn settled(mut meaning: Value) -> Value {
    if let Some(data) = meaning.get_mut("data") {
        if let Some(map) = data.as_object_mut() {
            map.remove("system");
        }
        let id = session_in(data);
        if !id.is_empty() {
            *data = serde_json::from_str(&data.to_string().replace(&id, "<session>")).unwrap();
        }
    }
    meaning
}

#[test]
fn an_mcp_call_returns_the_data_of_the_cli_envelope() {
    let home = tempfile::tempdir().unwrap();
    let cli_home = home.path().join("cli");
    let mcp_home = home.path().join("mcp");
    let mut session = Session::start(Path::new(BIN), &[("XDG_DATA_HOME", &mcp_home)]);
    let steps: Vec<(Vec<&str>, &str, Value)> = vec![
        (
            vec!["snapshot", "--match", NOBODY],
            "snapshot",
            json!({"match": NOBODY}),
        ),
        (
            vec!["plan", "--match", NOBODY, "--min-age", "0"],
            "plan",
            json!({"match": NOBODY, "min-age": 0}),
        ),
        (vec!["plan", "--match", "("], "plan", json!({"match": "("})),
    ];
    for (argv, tool, arguments) in steps {
        let (_, envelope) = support::run(&cli_home, &argv);
        let expected = settled(envelope_meaning(&envelope));
        let got = settled(as_envelope(&session.call(tool, arguments.clone())));
        assert!(
            expected.get("data").is_some() || tool == "plan",
            "{argv:?}: {expected}"
        );
        if expected.get("error").is_some() {
            assert_eq!(got["error"]["code"], expected["error"]["code"], "{argv:?}");
        } else {
            assert_eq!(got, expected, "{argv:?} against {tool} {arguments}");
        }
    }
    session.end();
}

#[test]
fn a_destructive_robot_command_is_confirmed_with_yes() {
    let home = tempfile::tempdir().unwrap();
    let mut session = Session::start(Path::new(BIN), &[("XDG_DATA_HOME", home.path())]);
    let listed = session.request("tools/list", json!({}));
    let apply = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "apply")
        .unwrap()
        .clone();
    let properties = &apply["inputSchema"]["properties"];
    assert_eq!(properties["yes"]["type"], "boolean", "{apply}");
    assert!(properties.get("force").is_none(), "{apply}");

    // A plan over MCP starts a session; its id is in the plan's apply_command.
    let planned = session.call("plan", json!({"match": NOBODY, "min-age": 0}));
    let id = session_in(&planned["structuredContent"]);
    assert!(id.starts_with("triage-"), "{planned}");

    // Without `yes`: the CLI's refusal (the spec's confirmation code, its exit), with an MCP
    // hint.
    let refused = session.call("apply", json!({"session": id, "recommended": true}));
    assert_eq!(refused["isError"], true, "{refused}");
    let text: Value =
        serde_json::from_str(refused["content"][0]["text"].as_str().unwrap()).unwrap();
    let (cli_code, cli) = support::run(home.path(), &["apply", "--session", &id, "--recommended"]);
    assert_eq!(
        cli["error"]["details"]["requires_confirmation"], true,
        "{cli}"
    );
    assert_eq!(
        text["error"]["code"], cli["error"]["code"],
        "{text} vs {cli}"
    );
    assert_eq!(
        text["error"]["details"]["requires_confirmation"], true,
        "{text}"
    );
    assert_eq!(text["error"]["exitCode"], cli_code, "{text}");
    let hint = text["error"]["hint"].as_str().unwrap_or_default();
    assert!(hint.contains("`yes: true`"), "{hint}");

    // `force` is not robot's word.
    let forced = session.call(
        "apply",
        json!({"session": id, "recommended": true, "force": true}),
    );
    let text: Value = serde_json::from_str(forced["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(forced["isError"], true, "{forced}");
    assert_eq!(text["error"]["details"]["argument"], "force", "{text}");

    // A digest that is not the plan's is refused over MCP as on the command line.
    let digest = planned["structuredContent"]["plan_digest"]
        .as_str()
        .unwrap()
        .to_owned();
    let other = "0".repeat(64);
    // `apply --recommended --yes --plan DIGEST`, over MCP and on the command line.
    let mut apply_both = |plan: &str| {
        let mcp = as_envelope(&session.call(
            "apply",
            json!({"session": id, "recommended": true, "yes": true, "plan": plan}),
        ));
        let args = [
            "apply",
            "--session",
            &id,
            "--recommended",
            "--yes",
            "--plan",
            plan,
        ];
        (mcp, support::run(home.path(), &args).1)
    };
    let (wrong, cli) = apply_both(&other);
    assert_eq!(wrong["error"]["code"], "ERR_SESSION", "{wrong}");
    assert_eq!(wrong, envelope_meaning(&cli), "{wrong} vs {cli}");

    // With `yes` and the plan's digest, the confirmation passes and the session's plan is
    // applied as the CLI's `--yes --plan` applies it: a plan that matched nothing is complete
    // at once, both ways.
    let (applied, cli) = apply_both(&digest);
    assert!(
        cli["error"]["details"]["requires_confirmation"].is_null(),
        "{cli}"
    );
    assert_eq!(applied, envelope_meaning(&cli), "{applied} vs {cli}");
    session.end();
}

/// triage through both SDKs: tools/list equals `pas-gen mcp`, calls with valid and invalid
/// arguments, structuredContent checked against the output schemas; over stdio and over HTTP.
#[test]
fn triage_through_both_sdks() {
    let home = tempfile::tempdir().unwrap();
    let mut plan = plan(
        Path::new(BIN),
        "triage",
        json!({ "XDG_DATA_HOME": home.path() }),
    );
    plan["calls"] = json!([
        call("snapshot", json!({"match": NOBODY}), None),
        // Argument errors take the robot profile's code, as on the CLI.
        call("snapshot", json!({}), Some("ERR_ARGS")),
        call("plan", json!({"match": NOBODY, "min-age": 0}), None),
        call(
            "plan",
            json!({"match": NOBODY, "min-age": "old"}),
            Some("ERR_ARGS")
        ),
        // A session is required; an unknown one is the session error.
        call(
            "apply",
            json!({"recommended": true, "yes": true}),
            Some("ERR_ARGS")
        ),
        call(
            "apply",
            json!({"session": "triage-20000101-000000-aaaa", "yes": true}),
            Some("ERR_SESSION")
        ),
    ]);
    run_clients(&plan);
    // The same plan over streamable HTTP (`triage --builtin mcp --http`).
    run_clients_over_http(&plan);
}
