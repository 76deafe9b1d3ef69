//! The claimed level and the resources behind it.

use serde_json::json;

use super::support::*;

#[test]
fn level_must_be_1_to_4() {
    assert_has(&check(|s| s["level"] = json!(5)), "E016", "/level");
    assert_has(&check(|s| s["level"] = json!(0)), "E016", "/level");
    assert_lacks(&check(|s| s["level"] = json!(2)), "E016");
}

#[test]
fn level_3_needs_ls_cat_and_stat() {
    let found = check(|s| {
        s["level"] = json!(3);
        s["resources"] = json!([{"path": "/tasks", "verbs": ["ls", "cat"]}]);
    });
    assert_has(&found, "E017", "/level");
    assert!(
        found.iter().any(|d| d.message.contains("`stat`")),
        "{found:#?}"
    );
    // The verbs may come from several resources together.
    let found = check(|s| {
        s["level"] = json!(3);
        s["resources"] = json!([{"path": "/tasks", "verbs": ["ls", "cat"]}, {"path": "/tasks/{id}", "verbs": ["stat"]}]);
    });
    assert_lacks(&found, "E017");
}

#[test]
fn level_3_without_any_resource() {
    assert_has(&check(|s| s["level"] = json!(3)), "E017", "/level");
}

#[test]
fn level_4_needs_the_state_verbs_too() {
    let found = check(|s| {
        s["level"] = json!(4);
        s["resources"] = json!([{"path": "/", "verbs": ["ls", "cat", "stat", "cp", "rm"]}]);
    });
    assert_has(&found, "E017", "/level");
    let message = &found.iter().find(|d| d.code == "E017").unwrap().message;
    assert!(message.contains("`sync` and `feedback`"), "{message}");
    let found = check(|s| {
        s["level"] = json!(4);
        s["resources"] =
            json!([{"path": "/", "verbs": ["ls", "cat", "stat", "cp", "rm", "sync", "feedback"]}]);
    });
    assert_lacks(&found, "E017");
}

#[test]
fn resources_below_level_3_warn() {
    let found = check(|s| s["resources"] = json!([{"path": "/tasks", "verbs": ["ls"]}]));
    assert_has(&found, "W001", "/resources");
}

#[test]
fn resource_paths_must_be_well_formed() {
    for bad in [
        "tasks",
        "/tasks/",
        "/tasks//x",
        "/tasks/{id",
        "/tasks/id}",
        "/my tasks",
    ] {
        let found = check(|s| {
            s["level"] = json!(3);
            s["resources"] = json!([{"path": bad, "verbs": ["ls", "cat", "stat"]}]);
        });
        assert_has(&found, "E018", "/resources/0/path");
    }
    let found = check(|s| {
        s["level"] = json!(3);
        s["resources"] = json!([{"path": "/", "verbs": ["ls", "cat", "stat"]}]);
    });
    assert_lacks(&found, "E018");
}

#[test]
fn placeholders_are_identifiers_named_once() {
    let found = check(|s| {
        s["level"] = json!(3);
        s["resources"] = json!([
            {"path": "/users/{user-id}", "verbs": ["ls", "cat", "stat"]},
            {"path": "/users/{id}/tasks/{id}", "verbs": ["ls"]}
        ]);
    });
    assert_has(&found, "E019", "/resources/0/path");
    assert_has(&found, "E019", "/resources/1/path");
}

#[test]
fn duplicate_templates_and_verbs() {
    let found = check(|s| {
        s["level"] = json!(3);
        s["resources"] = json!([
            {"path": "/users/{id}", "verbs": ["ls", "cat", "stat"]},
            {"path": "/users/{uid}", "verbs": ["cat", "cat"]},
            {"path": "/empty", "verbs": []}
        ]);
    });
    assert_has(&found, "E020", "/resources/1/path");
    assert_has(&found, "E021", "/resources/1/verbs/1");
    assert_has(&found, "E021", "/resources/2/verbs");
}
