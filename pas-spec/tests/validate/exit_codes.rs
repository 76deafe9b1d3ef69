//! Exit codes and the errors commands name.

use serde_json::json;

use super::support::*;

fn codes(codes: serde_json::Value) -> Vec<pas_spec::Diagnostic> {
    check(|s| s["exitCodes"] = codes)
}

#[test]
fn names_are_upper_snake_case_and_unique() {
    let found = codes(json!([
        {"code": 100, "name": "NotFound", "meaning": "a"},
        {"code": 101, "name": "NOT_FOUND", "meaning": "b"},
        {"code": 102, "name": "NOT_FOUND", "meaning": "c"},
        {"code": 103, "name": "GENERAL_ERROR", "meaning": "d"}
    ]));
    assert_has(&found, "E022", "/exitCodes/0/name");
    assert_has(&found, "E023", "/exitCodes/2/name");
    assert_has(&found, "E023", "/exitCodes/3/name");
}

#[test]
fn numbers_are_unique_and_fit_a_byte() {
    let found = codes(json!([
        {"code": 100, "name": "NOT_FOUND", "meaning": "a"},
        {"code": 100, "name": "GONE", "meaning": "b"},
        {"code": 300, "name": "HUGE", "meaning": "c"}
    ]));
    assert_has(&found, "E024", "/exitCodes/1/code");
    assert_has(&found, "E025", "/exitCodes/2/code");
}

#[test]
fn pas_ranges() {
    let found = codes(json!([
        {"code": 100, "name": "NOT_FOUND", "meaning": "a"},
        {"code": 2, "name": "BAD", "meaning": "b"},
        {"code": 70, "name": "SOFTWARE", "meaning": "c"},
        {"code": 126, "name": "TOO_HIGH", "meaning": "d"},
        {"code": 99, "name": "TOO_LOW", "meaning": "e"},
        {"code": 125, "name": "LAST", "meaning": "f"}
    ]));
    assert_exactly(
        &found,
        &[
            ("E026", "/exitCodes/1/code"),
            ("E027", "/exitCodes/2/code"),
            ("E028", "/exitCodes/3/code"),
            ("E028", "/exitCodes/4/code"),
        ],
    );
}

#[test]
fn compose_keeps_the_pas_ranges() {
    let found = check(|s| {
        s["profile"] = json!("compose");
        s["exitCodes"] = json!([{"code": 100, "name": "NOT_FOUND", "meaning": "a"}, {"code": 1, "name": "FAIL", "meaning": "b", "blocking": true}]);
    });
    assert_exactly(&found, &[("E026", "/exitCodes/1/code")]);
}

#[test]
fn robot_owns_the_whole_range() {
    let found = check(|s| {
        s["profile"] = json!("robot");
        s["exitCodes"] = json!([
            {"code": 0, "name": "OK_CLEAN", "meaning": "a"},
            {"code": 1, "name": "OK_CANDIDATES", "meaning": "b", "success": true},
            {"code": 10, "name": "INVALID_ARGUMENT", "meaning": "c", "role": "arguments"},
            {"code": 20, "name": "BUG", "meaning": "f", "role": "internal"},
            {"code": 70, "name": "NOT_FOUND", "meaning": "d"},
            {"code": 70, "name": "AGAIN", "meaning": "e"}
        ]);
    });
    assert_exactly(&found, &[("E024", "/exitCodes/5/code")]);
}

#[test]
fn flags_of_other_profiles_warn() {
    let found = codes(json!([
        {"code": 100, "name": "NOT_FOUND", "meaning": "", "blocking": true, "success": true}
    ]));
    assert_exactly(
        &found,
        &[
            ("W005", "/exitCodes/0/meaning"),
            ("W003", "/exitCodes/0/blocking"),
            ("W004", "/exitCodes/0/success"),
        ],
    );
}

#[test]
fn errors_must_name_declared_codes() {
    let found = check(|s| {
        s["commands"][1]["errors"] = json!(["NOT_FUOND", "GENERAL_ERROR", "NOT_FOUND", "NOT_FOUND"])
    });
    assert_exactly(
        &found,
        &[
            ("E029", "/commands/1/errors/0"),
            ("W006", "/commands/1/errors/3"),
        ],
    );
    assert_eq!(
        found[0].hint.as_deref(),
        Some(
            "Declare `NOT_FUOND` under `exitCodes`, or name one that is. Did you mean `NOT_FOUND`?"
        )
    );
}

#[test]
fn robot_has_no_implicit_codes() {
    let found = check(|s| {
        s["profile"] = json!("robot");
        s["exitCodes"] = json!([{"code": 0, "name": "OK", "meaning": "a"}, {"code": 3, "name": "NOT_FOUND", "meaning": "b"}]);
    });
    assert_exactly(&found, &[("E029", "/commands/0/errors/0")]);
}
