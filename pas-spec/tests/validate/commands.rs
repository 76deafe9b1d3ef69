//! Paging, deprecation, dry runs and the words agents read.

use serde_json::json;

use super::support::*;

#[test]
fn paging_names_the_commands_parameters() {
    let found = check(|s| s["commands"][1]["paging"] = json!({"limit": "size", "cursor": "cursr"}));
    assert_exactly(
        &found,
        &[
            ("E065", "/commands/1/paging/limit"),
            ("E065", "/commands/1/paging/cursor"),
        ],
    );
    assert!(
        found[1]
            .hint
            .as_deref()
            .unwrap()
            .ends_with("Did you mean `cursor`?")
    );
    let found =
        check(|s| s["commands"][1]["paging"] = json!({"limit": "limit", "cursor": "limit"}));
    assert_exactly(&found, &[("E065", "/commands/1/paging/cursor")]);
}

#[test]
fn paging_is_for_lists() {
    let found = check(|s| {
        s["commands"][1]["output"] = json!("object");
    });
    assert_exactly(&found, &[("E066", "/commands/1/paging")]);
}

#[test]
fn the_page_size_is_an_integer() {
    let found = check(|s| {
        s["commands"][1]["parameters"][0]["type"] = json!("string");
        s["commands"][1]["parameters"][0]["default"] = json!("20");
    });
    assert_exactly(&found, &[("W018", "/commands/1/paging/limit")]);
}

#[test]
fn replacements_exist() {
    let found = check(|s| s["commands"][1]["deprecated"] = json!({"replacement": "task.lsit"}));
    assert_exactly(&found, &[("E067", "/commands/1/deprecated/replacement")]);
    let found = check(|s| s["commands"][1]["deprecated"] = json!({"replacement": "task.list"}));
    assert_exactly(&found, &[("E067", "/commands/1/deprecated/replacement")]);
    assert_exactly(
        &check(|s| s["commands"][1]["deprecated"] = json!({"replacement": "task.create"})),
        &[],
    );
}

#[test]
fn dry_run_on_a_read_command_warns() {
    let found = check(|s| s["commands"][1]["dryRun"] = json!(true));
    assert_exactly(&found, &[("W015", "/commands/1/dryRun")]);
    assert_exactly(&check(|s| s["commands"][0]["dryRun"] = json!(true)), &[]);
}

#[test]
fn descriptions_and_anti_patterns() {
    let found = check(|s| {
        s["commands"][1]["description"] = json!("");
        s["antiPatterns"] = json!([{"pattern": "task-tool task list | head", "instead": ""}]);
        s["commands"][0]["antiPatterns"] = json!([{"pattern": " ", "instead": "Quote the title."}]);
    });
    assert_exactly(
        &found,
        &[
            ("W017", "/antiPatterns/0/instead"),
            ("W017", "/commands/0/antiPatterns/0/pattern"),
            ("W016", "/commands/1/description"),
        ],
    );
}

#[test]
fn required_stdin_with_a_variadic_is_fine() {
    let found = check(|s| {
        s["commands"][0]["stdin"] = json!("required");
        s["commands"][0]["parameters"][0]["kind"] = json!("variadic");
        s["commands"][0]["parameters"][0]["required"] = json!(false);
    });
    assert_exactly(&found, &[]);
}

/// Failure mode 17: a command that keeps background processes needs the runtime's `cleanup`
/// word to end them; a tool whose own command takes the word is warned.
#[test]
fn background_processes_need_the_cleanup_word() {
    let background = json!([{"kind": "background", "target": "server"}]);
    let found = check(|s| s["commands"][0]["sideEffects"] = background.clone());
    assert_lacks(&found, "W020");
    let found = check(|s| {
        s["commands"][0]["sideEffects"] = background.clone();
        s["commands"][1]["name"] = json!("cleanup");
    });
    assert_has(&found, "W020", "/commands/0/sideEffects/0/kind");
}
