//! The Rust names parameters and commands map to.

use serde_json::{Value, json};

use super::support::*;

fn params(parameters: Value) -> Vec<pas_spec::Diagnostic> {
    check(|s| {
        s["commands"][0]["parameters"] = parameters;
        s["commands"][0]["examples"] = json!([]);
    })
}

#[test]
fn raw_keywords_are_fine() {
    let found = params(json!([
        {"name": "type", "description": "x"},
        {"name": "match", "description": "x"},
        {"name": "async", "description": "x"},
        {"name": "gen", "description": "x"}
    ]));
    assert_exactly(&found, &[]);
}

#[test]
fn keywords_that_cannot_be_raw_need_rust_name() {
    let found = params(json!([
        {"name": "self", "description": "x"},
        {"name": "super", "description": "x"},
        {"name": "crate", "description": "x"},
        {"name": "crate-name", "format": "id", "description": "fine: crate_name"}
    ]));
    assert_exactly(
        &found,
        &[
            ("E055", "/commands/0/parameters/0/name"),
            ("E055", "/commands/0/parameters/1/name"),
            ("E055", "/commands/0/parameters/2/name"),
        ],
    );
    assert_exactly(
        &params(json!([{"name": "self", "rustName": "self_", "description": "x"}])),
        &[],
    );
}

#[test]
fn rust_name_must_be_a_plain_identifier() {
    let found = params(json!([
        {"name": "a", "rustName": "self", "description": "x"},
        {"name": "b", "rustName": "type", "description": "x"},
        {"name": "c", "rustName": "Kind", "description": "x"},
        {"name": "d", "rustName": "my-field", "description": "x"},
        {"name": "e", "rustName": "_", "description": "x"}
    ]));
    for index in 0..5 {
        assert_has(
            &found,
            "E056",
            &format!("/commands/0/parameters/{index}/rustName"),
        );
    }
}

#[test]
fn two_parameters_one_field() {
    let found = params(json!([
        {"name": "dry-run", "description": "x"},
        {"name": "other", "rustName": "dry_run", "description": "x"}
    ]));
    assert_exactly(&found, &[("E057", "/commands/0/parameters/1")]);
    // Against a global flag too (clap flattens them into the same arguments).
    let found = params(json!([{"name": "loud", "rustName": "verbose", "description": "x"}]));
    assert_exactly(&found, &[("E057", "/commands/0/parameters/0")]);
}

#[test]
fn command_types() {
    let found = check(|s| {
        s["commands"][0]["name"] = json!("self");
        s["commands"][0]["path"] = json!(["task", "create"]);
    });
    assert_has(&found, "E058", "/commands/0/name");
    let found = check(|s| {
        s["commands"][0]["name"] = json!("task-list");
        s["commands"][0]["path"] = json!(["task", "new"]);
        s["commands"][0]["examples"] = json!([]);
    });
    assert_exactly(&found, &[("E059", "/commands/1/name")]);
    // `self` inside a longer name is fine (`SelfUpdate`).
    let found = check(|s| {
        s["commands"][0]["name"] = json!("self.update");
        s["commands"][0]["examples"] = json!([]);
    });
    assert_exactly(&found, &[]);
}
