//! Examples parse against the commands they illustrate.

use serde_json::json;

use super::support::*;

/// The diagnostics of tool-level examples `lines` on the base spec (after `change`).
fn tool_examples(
    lines: &[&str],
    change: impl FnOnce(&mut serde_json::Value),
) -> Vec<pas_spec::Diagnostic> {
    check(|s| {
        s["examples"] = lines.iter().map(|line| json!({"command": line})).collect();
        change(s);
    })
}

fn lines(lines: &[&str]) -> Vec<pas_spec::Diagnostic> {
    tool_examples(lines, |_| {})
}

#[test]
fn good_examples() {
    let found = lines(&[
        "task-tool task list --agent",
        "task-tool --agent task list --limit=5 --cursor abc",
        "task-tool task list --limit <n> | jq .id",
        "task-tool task list --limit $LIMIT > tasks.ndjson 2>/dev/null",
        "task-tool -v task create 'Buy milk' --priority low",
        "task-tool task create -phigh -- --not-a-flag",
        "task-tool task create <title> --format=array --audit-log ./audit.jsonl",
        "task-tool --help",
        "task-tool task --help",
        "task-tool task create -h",
        "task-tool --version",
        "task-tool help task",
        "task-tool task help create",
        "cd /tmp && ./bin/task-tool task list",
    ]);
    assert_exactly(&found, &[]);
}

#[test]
fn pipelines_find_the_tool_after_a_pipe() {
    let found = check(|s| {
        s["commands"][0]["parameters"][0]["kind"] = json!("variadic");
        s["examples"] =
            json!([{"command": "find . -name \"*.md\" | xargs task-tool task create --agent"}]);
    });
    assert_exactly(&found, &[]);
}

#[test]
fn not_a_shell_line() {
    let found = lines(&["task-tool task create 'Buy milk", ""]);
    assert_exactly(
        &found,
        &[
            ("E070", "/examples/0/command"),
            ("E070", "/examples/1/command"),
        ],
    );
}

#[test]
fn the_tool_must_run() {
    let found = lines(&["tasktool task list", "echo task list"]);
    assert_exactly(
        &found,
        &[
            ("E071", "/examples/0/command"),
            ("E071", "/examples/1/command"),
        ],
    );
}

#[test]
fn selecting_a_command() {
    let found = lines(&[
        "task-tool --agent",
        "task-tool task",
        "task-tool task lsit",
        "task-tool tsak list",
    ]);
    assert_exactly(
        &found,
        &[
            ("E072", "/examples/0/command"),
            ("E072", "/examples/1/command"),
            ("E072", "/examples/2/command"),
            ("E072", "/examples/3/command"),
        ],
    );
    assert!(
        found[2]
            .hint
            .as_deref()
            .unwrap()
            .contains("Did you mean `list`?"),
        "{found:#?}"
    );
}

#[test]
fn a_command_example_runs_its_command() {
    let found = check(|s| {
        s["commands"][0]["examples"] = json!([
            {"command": "task-tool task list"},
            {"command": "task-tool help"},
            {"command": "task-tool --help"},
            {"command": "task-tool task create --help"}
        ]);
    });
    assert_exactly(
        &found,
        &[
            ("E072", "/commands/0/examples/0/command"),
            ("E072", "/commands/0/examples/1/command"),
            ("E072", "/commands/0/examples/2/command"),
        ],
    );
}

#[test]
fn aliases_select_too() {
    let found = check(|s| {
        s["commands"][1]["aliases"] = json!(["ls"]);
        s["commands"][1]["examples"] = json!([{"command": "task-tool task ls --agent"}]);
    });
    assert_exactly(&found, &[]);
}

#[test]
fn unknown_flags() {
    let found = lines(&[
        "task-tool task list --limt 5",
        "task-tool task list -x",
        "task-tool --limit 5 task list",
        "task-tool task list --force",
    ]);
    assert_exactly(
        &found,
        &[
            ("E073", "/examples/0/command"),
            ("E073", "/examples/1/command"),
            ("E073", "/examples/2/command"),
            ("E073", "/examples/3/command"),
        ],
    );
    assert_eq!(found[0].hint.as_deref(), Some("Did you mean `--limit`?"));
}

#[test]
fn command_built_in_flags() {
    let found = check(|s| {
        s["commands"][0]["effect"] = json!("destructive");
        s["commands"][0]["dryRun"] = json!(true);
        s["commands"][0]["examples"] =
            json!([{"command": "task-tool task create x --force --dry-run"}]);
    });
    assert_exactly(&found, &[]);
    let found = check(|s| {
        s["profile"] = json!("compose");
        s["examples"] = json!([{"command": "task-tool task list --toon"}, {"command": "task-tool tools --toon"}, {"command": "task-tool config show"}]);
    });
    assert_exactly(&found, &[]);
    assert_has(
        &lines(&["task-tool task list --toon"]),
        "E073",
        "/examples/0/command",
    );
}

#[test]
fn values() {
    let found = lines(&[
        "task-tool task list --limit ten",
        "task-tool task create x -p urgent",
        "task-tool -v=yes task list",
        "task-tool task list --limit",
        "task-tool task list --limit 1 --limit 2",
    ]);
    assert_exactly(
        &found,
        &[
            ("E074", "/examples/0/command"),
            ("E074", "/examples/1/command"),
            ("E074", "/examples/2/command"),
            ("E074", "/examples/3/command"),
            ("E074", "/examples/4/command"),
        ],
    );
    let found = lines(&["task-tool --verbose=yes task list"]);
    assert_exactly(&found, &[("E074", "/examples/0/command")]);
}

#[test]
fn typed_positionals_and_arrays() {
    let found = check(|s| {
        s["commands"][0]["parameters"] = json!([
            {"name": "count", "kind": "positional", "type": "integer", "description": "x"},
            {"name": "tag", "type": "array", "items": "string", "enum": ["a", "b"], "description": "x"}
        ]);
        s["commands"][0]["examples"] = json!([
            {"command": "task-tool task create 3 --tag a --tag b"},
            {"command": "task-tool task create three --tag c"}
        ]);
    });
    assert_exactly(
        &found,
        &[
            ("E074", "/commands/0/examples/1/command"),
            ("E074", "/commands/0/examples/1/command"),
        ],
    );
}

#[test]
fn required_parameters() {
    let found = check(|s| {
        s["commands"][0]["parameters"][1]["required"] = json!(true);
        s["commands"][0]["parameters"][1]
            .as_object_mut()
            .unwrap()
            .remove("default");
        s["commands"][0]["examples"] = json!([
            {"command": "task-tool task create"},
            {"command": "task-tool task create --help"},
            {"command": "echo x | xargs task-tool task create -p low"}
        ]);
    });
    assert_exactly(
        &found,
        &[
            ("E075", "/commands/0/examples/0/command"),
            ("E075", "/commands/0/examples/0/command"),
        ],
    );
    assert!(found.iter().any(|d| d.message.contains("`--priority`")));
    assert!(found.iter().any(|d| d.message.contains("`<title>`")));
}

#[test]
fn a_required_flag_with_env_may_be_left_out() {
    let found = check(|s| {
        s["commands"][1]["parameters"][1]["required"] = json!(true);
        s["commands"][1]["parameters"][1]["env"] = json!("TASK_CURSOR");
    });
    assert_exactly(&found, &[]);
}

#[test]
fn too_many_positionals() {
    let found = lines(&["task-tool task create a b", "task-tool task list extra"]);
    assert_exactly(
        &found,
        &[
            ("E076", "/examples/0/command"),
            ("E076", "/examples/1/command"),
        ],
    );
}

#[test]
fn generated_verbs_parse_too() {
    let found = tool_examples(
        &[
            "task-tool ls /tasks --agent",
            "task-tool cat",
            "task-tool rm /tasks/1",
        ],
        |s| {
            s["level"] = json!(3);
            s["resources"] = json!([{"path": "/tasks", "verbs": ["ls", "cat", "stat"]}]);
        },
    );
    assert_exactly(
        &found,
        &[
            ("E075", "/examples/1/command"),
            ("E072", "/examples/2/command"),
        ],
    );
}

#[test]
fn single_command_tools() {
    let found = check(|s| {
        s["commands"] = json!([{"name": "count", "path": [], "description": "Count words.",
            "parameters": [{"name": "file", "kind": "positional", "required": true, "format": "path", "description": "A file."}]}]);
        s["examples"] = json!([
            {"command": "task-tool --agent a.txt"},
            {"command": "task-tool a.txt b.txt"},
            {"command": "task-tool"}
        ]);
    });
    assert_exactly(
        &found,
        &[
            ("E076", "/examples/1/command"),
            ("E075", "/examples/2/command"),
        ],
    );
}

/// An exit code's trigger is parsed like an example, and must reach one of the tool's commands.
#[test]
fn triggers_parse_like_examples_and_run_a_command() {
    let found = check(|s| {
        s["exitCodes"] = json!([
            {"code": 100, "name": "NOT_FOUND", "meaning": "No such task", "trigger": "task-tool --agent task list --cursor gone"},
            {"code": 101, "name": "BAD_LIMIT", "meaning": "Bad limit", "trigger": "task-tool task list --limit many"},
            {"code": 102, "name": "ONLY_HELP", "meaning": "Help", "trigger": "task-tool --help"},
            {"code": 103, "name": "BUILT_IN", "meaning": "Built-in", "trigger": "task-tool help"},
            {"code": 104, "name": "OTHER_TOOL", "meaning": "Other", "trigger": "other-tool task list"},
            {"code": 105, "name": "NO_TRIGGER", "meaning": "None"}
        ]);
    });
    assert_exactly(
        &found,
        &[
            ("E074", "/exitCodes/1/trigger"),
            ("E077", "/exitCodes/2/trigger"),
            ("E077", "/exitCodes/3/trigger"),
            ("E071", "/exitCodes/4/trigger"),
        ],
    );
    assert!(found.iter().any(|d| d.message.contains("`ONLY_HELP`")));
}
