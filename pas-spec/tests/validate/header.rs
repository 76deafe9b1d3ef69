//! The tool's identity.

use serde_json::json;

use super::support::*;

#[test]
fn the_base_spec_is_clean() {
    assert_exactly(&diagnostics(&base()), &[]);
}

#[test]
fn spec_version_must_be_1() {
    let found = check(|s| s["specVersion"] = json!(2));
    assert_has(&found, "E010", "/specVersion");
}

#[test]
fn tool_name_must_be_kebab_case() {
    for bad in ["Task_Tool", "task--tool", "-task", "2task", ""] {
        let found = check(|s| s["name"] = json!(bad));
        assert_has(&found, "E011", "/name");
    }
}

#[test]
fn version_must_be_semver() {
    for bad in ["1.0", "v1.0.0", "latest"] {
        assert_has(&check(|s| s["version"] = json!(bad)), "E012", "/version");
    }
    assert_lacks(
        &check(|s| s["version"] = json!("1.2.3-beta.1+build.5")),
        "E012",
    );
}

#[test]
fn summary_must_not_be_empty() {
    assert_has(&check(|s| s["summary"] = json!("  ")), "E013", "/summary");
}

#[test]
fn robot_schema_version_must_be_semver() {
    let found = check(|s| {
        s["profile"] = json!("robot");
        s["schemaVersion"] = json!("one");
        s["exitCodes"] = json!([{"code": 0, "name": "OK", "meaning": "Done"}, {"code": 10, "name": "NOT_FOUND", "meaning": "No task"}, {"code": 11, "name": "INVALID_ARGUMENT", "meaning": "Bad input"}]);
    });
    assert_has(&found, "E014", "/schemaVersion");
}

#[test]
fn schema_version_outside_robot_warns() {
    let found = check(|s| s["schemaVersion"] = json!("1.0.0"));
    assert_has(&found, "W002", "/schemaVersion");
    assert_eq!(severity(&found, "W002"), pas_spec::Severity::Warning);
}

#[test]
fn a_tool_needs_commands_or_resources() {
    let found = check(|s| {
        s["commands"] = json!([]);
        s["examples"] = json!([]);
    });
    assert_has(&found, "E015", "/commands");
    let found = check(|s| {
        s["commands"] = json!([]);
        s["examples"] = json!([]);
        s["level"] = json!(3);
        s["resources"] = json!([{"path": "/tasks", "verbs": ["ls", "cat", "stat"]}]);
    });
    assert_lacks(&found, "E015");
}

/// The changelog (failure mode 22): released semantic versions, each once, dated YYYY-MM-DD.
#[test]
fn changelog_entries_are_released_versions_listed_once_with_real_dates() {
    let found = check(|s| {
        s["changelog"] = serde_json::json!([
            {"version": "0.1.0", "date": "2026-11-20", "changes": ["first"]},
            {"version": "0.1.0", "changes": ["again"]},
            {"version": "9.0.0"},
            {"version": "one"},
            {"version": "0.0.1", "date": "20 Nov 2026", "breaking": true},
        ]);
    });
    assert_exactly(
        &found,
        &[
            ("E097", "/changelog/1/version"),
            ("E097", "/changelog/2/version"),
            ("E097", "/changelog/3/version"),
            ("E097", "/changelog/4/date"),
        ],
    );
}
