//! Command names, argv paths and aliases.

use serde_json::json;

use super::support::*;

#[test]
fn names_are_dotted_kebab_case() {
    for bad in [
        "Task.create",
        "task..create",
        "task.",
        "task_create",
        ".task",
    ] {
        let found = check(|s| s["commands"][0]["name"] = json!(bad));
        assert_has(&found, "E030", "/commands/0/name");
    }
}

#[test]
fn names_are_unique() {
    let found = check(|s| s["commands"][1]["name"] = json!("task.create"));
    assert_has(&found, "E031", "/commands/1/name");
    // The path derived from the same name is not reported a second time.
    assert_lacks(&found, "E033");
}

#[test]
fn path_words_and_aliases_are_kebab_case() {
    let found = check(|s| {
        s["commands"][0]["path"] = json!(["task", "New"]);
        s["commands"][1]["aliases"] = json!(["l s"]);
    });
    assert_has(&found, "E032", "/commands/0/path/1");
    assert_has(&found, "E032", "/commands/1/aliases/0");
}

#[test]
fn paths_and_aliases_are_unique() {
    let found = check(|s| {
        s["commands"][0]["path"] = json!(["task", "list"]);
        s["commands"][1]["aliases"] = json!(["ls", "ls"]);
    });
    // `task list` is command 1's implicit path, reported where command 1 defines it (its name).
    assert_has(&found, "E033", "/commands/1/name");
    assert_has(&found, "E033", "/commands/1/aliases/1");
}

#[test]
fn an_alias_may_not_take_another_commands_word() {
    let found = check(|s| s["commands"][1]["aliases"] = json!(["create"]));
    assert_has(&found, "E033", "/commands/1/aliases/0");
}

#[test]
fn a_command_cannot_also_be_a_group() {
    let found = check(|s| {
        let extra = json!({"name": "task", "description": "Show the task board."});
        s["commands"].as_array_mut().unwrap().push(extra);
    });
    assert_has(&found, "E034", "/commands/2/name");
}

#[test]
fn an_empty_path_is_for_single_command_tools() {
    let found = check(|s| s["commands"][0]["path"] = json!([]));
    assert_has(&found, "E035", "/commands/0/path");
    let found = check(|s| {
        s["commands"] = json!([{"name": "count", "path": [], "description": "Count words.",
            "parameters": [{"name": "files", "kind": "variadic", "format": "path", "description": "Files."}]}]);
        s["examples"] = json!([{"command": "task-tool --agent a.txt b.txt"}]);
    });
    assert_exactly(&found, &[]);
}

#[test]
fn help_is_reserved_at_every_level() {
    let found = check(|s| {
        s["commands"][0]["path"] = json!(["task", "help"]);
        s["commands"][1]["path"] = json!(["help"]);
    });
    assert_has(&found, "E036", "/commands/0/path");
    assert_has(&found, "E036", "/commands/1/path");
}

#[test]
fn compose_and_robot_words_are_reserved() {
    let found = check(|s| {
        s["profile"] = json!("compose");
        s["commands"][0]["path"] = json!(["tools"]);
        s["commands"][0]["examples"] = json!([]);
        s["commands"][1]["aliases"] = json!(["health"]);
    });
    // `health` replaces the last word only: `task health` is free.
    assert_exactly(&found, &[("E036", "/commands/0/path")]);
    let found = check(|s| {
        s["profile"] = json!("compose");
        s["commands"][0]["path"] = json!(["config"]);
        s["commands"][1]["path"] = json!(["tasks"]);
        s["commands"][1]["aliases"] = json!(["health"]);
        s["examples"] = json!([]);
    });
    assert_has(&found, "E036", "/commands/0/path");
    assert_has(&found, "E036", "/commands/1/aliases/0");
    let found = check(|s| {
        s["profile"] = json!("robot");
        s["exitCodes"] = json!([{"code": 0, "name": "OK", "meaning": "a"}, {"code": 10, "name": "NOT_FOUND", "meaning": "b"}, {"code": 2, "name": "INVALID_ARGUMENT", "meaning": "c"}]);
        s["commands"][0]["path"] = json!(["capabilities"]);
        s["examples"] = json!([]);
        s["commands"][0]["examples"] = json!([]);
    });
    assert_exactly(&found, &[("E036", "/commands/0/path")]);
}

#[test]
fn generated_verbs_are_reserved() {
    let found = check(|s| {
        s["level"] = json!(3);
        s["resources"] = json!([{"path": "/tasks", "verbs": ["ls", "cat", "stat"]}]);
        s["commands"][1]["path"] = json!(["ls"]);
        s["examples"] = json!([]);
    });
    assert_exactly(&found, &[("E036", "/commands/1/path")]);
    // A verb no resource offers is not generated, so the word is free.
    let found = check(|s| {
        s["level"] = json!(3);
        s["resources"] = json!([{"path": "/tasks", "verbs": ["ls", "cat", "stat"]}]);
        s["commands"][1]["path"] = json!(["sync"]);
        s["examples"] = json!([]);
    });
    assert_exactly(&found, &[]);
}

/// A one-command compose tool that takes a positional at its root would read `tools` as its
/// value: refused, located at the positional, with a hint. Flags only keep the built-ins
/// reachable; the pas profile answers its built-in words before parsing, so it may.
#[test]
fn a_one_command_compose_tool_keeps_its_built_ins_reachable() {
    let one_command = |profile: &str, kind: &str| {
        check(|s| {
            s["profile"] = json!(profile);
            s["commands"] = json!([{
                "name": "count",
                "path": [],
                "description": "Count words.",
                "parameters": [
                    {"name": "verbose", "type": "boolean", "description": "More."},
                    {"name": "files", "kind": kind, "description": "The files."}
                ]
            }]);
            s["examples"] = json!([]);
        })
    };
    let found = one_command("compose", "variadic");
    assert_has(&found, "E084", "/commands/0/parameters/1");
    let hint = &found.iter().find(|d| d.code == "E084").unwrap().hint;
    assert!(format!("{hint:?}").contains("path"), "{hint:?}");
    assert_lacks(&one_command("compose", "flag"), "E084");
    assert_lacks(&one_command("pas", "variadic"), "E084");
}
