//! Secret parameters.

use serde_json::json;

use super::support::*;

fn with_token(change: impl FnOnce(&mut serde_json::Value)) -> Vec<pas_spec::Diagnostic> {
    check(|s| {
        s["globalFlags"] = json!([{"name": "token", "secret": true, "env": "TASK_TOKEN", "description": "API token."}]);
        change(s);
    })
}

#[test]
fn a_secret_has_no_default() {
    let found = with_token(|s| s["globalFlags"][0]["default"] = json!("hunter2"));
    assert_exactly(&found, &[("E060", "/globalFlags/0/default")]);
}

#[test]
fn a_secret_without_env_warns() {
    let found = check(|s| {
        s["commands"][0]["parameters"][1]["secret"] = json!(true);
        s["commands"][0]["parameters"][1]
            .as_object_mut()
            .unwrap()
            .remove("default");
        s["commands"][0]["examples"] = json!([]);
    });
    assert_exactly(&found, &[("W011", "/commands/0/parameters/1/secret")]);
}

#[test]
fn examples_show_placeholders_only() {
    let found = with_token(|s| {
        s["examples"] = json!([
            {"command": "task-tool task list --token hunter2"},
            {"command": "task-tool task list --token=$TASK_TOKEN"},
            {"command": "task-tool task list --token \"<token>\""},
            {"command": "TASK_TOKEN=hunter2 task-tool task list"},
            {"command": "TASK_TOKEN=$SECRET task-tool task list"}
        ]);
    });
    assert_exactly(
        &found,
        &[
            ("E061", "/examples/0/command"),
            ("E061", "/examples/3/command"),
        ],
    );
}

#[test]
fn secret_positionals_in_examples() {
    let found = check(|s| {
        s["commands"][0]["parameters"][0]["secret"] = json!(true);
        s["commands"][0]["parameters"][0]["env"] = json!("TITLE");
    });
    assert_exactly(&found, &[("E061", "/commands/0/examples/0/command")]);
}

#[test]
fn triggers_show_placeholders_only() {
    let found = with_token(|s| {
        s["exitCodes"][0]["trigger"] =
            json!("TASK_TOKEN=hunter2 task-tool task list --cursor gone");
    });
    assert_exactly(&found, &[("E061", "/exitCodes/0/trigger")]);
}
