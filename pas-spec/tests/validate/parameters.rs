//! Flags and positionals.

use serde_json::{Value, json};

use super::support::*;

/// The base spec with `task.create`'s parameters replaced.
fn params(parameters: Value) -> Vec<pas_spec::Diagnostic> {
    check(|s| {
        s["commands"][0]["parameters"] = parameters;
        s["commands"][0]["examples"] = json!([]);
    })
}

#[test]
fn names_are_kebab_case() {
    let found = params(
        json!([{"name": "dryRun", "description": "x"}, {"name": "a--b", "description": "x"}]),
    );
    assert_has(&found, "E040", "/commands/0/parameters/0/name");
    assert_has(&found, "E040", "/commands/0/parameters/1/name");
}

#[test]
fn names_are_unique_including_global_flags() {
    let found = params(json!([
        {"name": "title", "description": "x"},
        {"name": "title", "kind": "positional", "description": "x"},
        {"name": "verbose", "type": "boolean", "description": "x"}
    ]));
    assert_has(&found, "E041", "/commands/0/parameters/1/name");
    assert_has(&found, "E041", "/commands/0/parameters/2/name");
    let found = check(|s| {
        s["globalFlags"] = json!([
            {"name": "quiet", "type": "boolean", "description": "x"},
            {"name": "quiet", "type": "boolean", "description": "x"}
        ])
    });
    assert_has(&found, "E041", "/globalFlags/1/name");
}

#[test]
fn short_flags() {
    let found = params(json!([
        {"name": "a", "short": "é", "description": "x"},
        {"name": "b", "short": "v", "description": "x"},
        {"name": "c", "short": "h", "description": "x"},
        {"name": "d", "short": "V", "description": "x"},
        {"name": "e", "short": "e", "description": "x"},
        {"name": "f", "short": "e", "description": "x"},
        {"name": "g", "kind": "positional", "short": "g", "description": "x"}
    ]));
    assert_exactly(
        &found,
        &[
            ("E042", "/commands/0/parameters/0/short"),
            ("E043", "/commands/0/parameters/1/short"),
            ("E043", "/commands/0/parameters/2/short"),
            ("E043", "/commands/0/parameters/3/short"),
            ("E043", "/commands/0/parameters/5/short"),
            ("E044", "/commands/0/parameters/6/short"),
        ],
    );
}

#[test]
fn built_in_flag_names_are_reserved() {
    for name in ["agent", "help", "version", "format", "audit-log"] {
        let found = params(json!([{"name": name, "description": "x"}]));
        assert_has(&found, "E045", "/commands/0/parameters/0/name");
    }
    // `--dry-run` only where the command has `dryRun`, `--force` only on destructive commands.
    assert_lacks(
        &params(
            json!([{"name": "dry-run", "type": "boolean", "description": "x"}, {"name": "force", "type": "boolean", "description": "x"}]),
        ),
        "E045",
    );
    let found = check(|s| {
        s["commands"][0]["dryRun"] = json!(true);
        s["commands"][0]["effect"] = json!("destructive");
        s["commands"][0]["parameters"] = json!([{"name": "dry-run", "type": "boolean", "description": "x"}, {"name": "force", "type": "boolean", "description": "x"}]);
        s["commands"][0]["examples"] = json!([]);
    });
    assert_has(&found, "E045", "/commands/0/parameters/0/name");
    assert_has(&found, "E045", "/commands/0/parameters/1/name");
    // A global flag reaches every command, including the one with `dryRun`.
    let found = check(|s| {
        s["commands"][0]["dryRun"] = json!(true);
        s["globalFlags"] = json!([{"name": "dry-run", "type": "boolean", "description": "x"}]);
    });
    assert_has(&found, "E045", "/globalFlags/0/name");
}

#[test]
fn profile_flags_are_reserved() {
    let found = check(|s| {
        s["profile"] = json!("compose");
        s["globalFlags"] = json!([{"name": "toon", "type": "boolean", "description": "x"}]);
    });
    assert_has(&found, "E045", "/globalFlags/0/name");
    assert_lacks(
        &check(|s| {
            s["globalFlags"] = json!([{"name": "toon", "type": "boolean", "description": "x"}])
        }),
        "E045",
    );
}

#[test]
fn positionals_order() {
    let found = params(json!([
        {"name": "a", "kind": "positional", "description": "x"},
        {"name": "b", "kind": "positional", "required": true, "description": "x"},
        {"name": "c", "kind": "variadic", "description": "x"},
        {"name": "d", "kind": "variadic", "description": "x"},
        {"name": "e", "kind": "positional", "description": "x"},
        {"name": "f", "description": "flags may come after the variadic"}
    ]));
    assert_exactly(
        &found,
        &[
            ("E047", "/commands/0/parameters/1/required"),
            ("E046", "/commands/0/parameters/3/kind"),
            ("E046", "/commands/0/parameters/4/kind"),
        ],
    );
}

#[test]
fn global_flags_are_flags() {
    let found = check(|s| {
        s["globalFlags"] = json!([{"name": "file", "kind": "positional", "description": "x"}])
    });
    assert_has(&found, "E048", "/globalFlags/0/kind");
}

#[test]
fn items_need_an_array() {
    let found = params(json!([
        {"name": "a", "items": "integer", "description": "x"},
        {"name": "b", "type": "array", "items": "array", "description": "x"},
        {"name": "c", "type": "array", "items": "integer", "description": "x"}
    ]));
    assert_exactly(
        &found,
        &[
            ("E049", "/commands/0/parameters/0/items"),
            ("E049", "/commands/0/parameters/1/items"),
        ],
    );
}

#[test]
fn enums_are_for_strings() {
    let found = params(json!([
        {"name": "a", "type": "integer", "enum": ["1", "2"], "description": "x"},
        {"name": "b", "type": "array", "enum": ["x", "y"], "description": "x"},
        {"name": "c", "enum": [], "description": "x"},
        {"name": "d", "enum": ["x", "x"], "description": "x"}
    ]));
    assert_exactly(
        &found,
        &[
            ("E050", "/commands/0/parameters/0/enum"),
            ("E051", "/commands/0/parameters/2/enum"),
            ("E051", "/commands/0/parameters/3/enum/1"),
        ],
    );
}

#[test]
fn defaults_match_type_and_enum() {
    let found = params(json!([
        {"name": "a", "type": "integer", "default": "10", "description": "x"},
        {"name": "b", "type": "integer", "default": 1.5, "description": "x"},
        {"name": "c", "enum": ["x", "y"], "default": "z", "description": "x"},
        {"name": "d", "type": "array", "items": "integer", "default": [1, "2"], "description": "x"},
        {"name": "e", "kind": "variadic", "default": "a.txt", "description": "x"},
        {"name": "f", "type": "number", "default": 1, "description": "fine: an integer is a number"}
    ]));
    assert_exactly(
        &found,
        &[
            ("E052", "/commands/0/parameters/0/default"),
            ("E052", "/commands/0/parameters/1/default"),
            ("E053", "/commands/0/parameters/2/default"),
            ("E052", "/commands/0/parameters/3/default"),
            ("E052", "/commands/0/parameters/4/default"),
        ],
    );
}

#[test]
fn env_names() {
    let found = params(json!([{"name": "token", "env": "api-token", "description": "x"}]));
    assert_has(&found, "E054", "/commands/0/parameters/0/env");
    assert_lacks(
        &params(json!([{"name": "token", "env": "API_TOKEN", "description": "x"}])),
        "E054",
    );
}

#[test]
fn warnings() {
    let found = params(json!([
        {"name": "a", "required": true, "default": "x", "description": "x"},
        {"name": "b", "type": "boolean", "default": true, "description": "x"},
        {"name": "c", "kind": "variadic", "type": "array", "description": "x"},
        {"name": "d"}
    ]));
    assert_exactly(
        &found,
        &[
            ("W007", "/commands/0/parameters/0/default"),
            ("W008", "/commands/0/parameters/1/default"),
            ("W009", "/commands/0/parameters/2/type"),
            ("W010", "/commands/0/parameters/3"),
        ],
    );
}

/// A parameter's name decides nothing: a string parameter named like an id or a path without a
/// `format` is only warned about (W021, with the hint), and `format` fits string values only.
#[test]
fn id_and_path_like_names_without_a_format_are_warned_about() {
    let found = params(json!([
        {"name": "user-id", "description": "x"},
        {"name": "output-file", "description": "x"},
        {"name": "name", "format": "id", "description": "x"},
        {"name": "files", "kind": "variadic", "format": "path", "description": "x"},
        {"name": "key", "agentHardening": false, "description": "x"},
        {"name": "title", "description": "x"}
    ]));
    assert_exactly(
        &found,
        &[
            ("W021", "/commands/0/parameters/0"),
            ("W021", "/commands/0/parameters/1"),
        ],
    );
    let w021 = found.iter().find(|d| d.code == "W021").unwrap();
    assert_eq!(
        w021.hint.as_deref(),
        Some("declare `format: id` to refuse hallucinated spellings, or `format: path`")
    );
    let found = params(json!([
        {"name": "count", "type": "integer", "format": "id", "description": "x"}
    ]));
    assert_has(&found, "E085", "/commands/0/parameters/0/format");
}
