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

#[test]
fn the_runtime_s_own_constants_are_not_the_tool_s() {
    let found = codes(json!([
        {"code": 100, "name": "TIMEOUT", "meaning": "a"},
        {"code": 101, "name": "INTERRUPTED", "meaning": "b"},
        {"code": 102, "name": "TERMINATED", "meaning": "c"},
        {"code": 103, "name": "FORCE_REQUIRED", "meaning": "d"},
        {"code": 104, "name": "JOB_LOST", "meaning": "e"},
        {"code": 105, "name": "UPSTREAM_TIMEOUT", "meaning": "f"},
        {"code": 106, "name": "LOCK_HELD", "meaning": "g"},
        {"code": 107, "name": "NOT_FOUND", "meaning": "h"}
    ]));
    assert_exactly(
        &found,
        &[
            ("E095", "/exitCodes/0/name"),
            ("E095", "/exitCodes/1/name"),
            ("E095", "/exitCodes/2/name"),
            ("E095", "/exitCodes/3/name"),
            ("E095", "/exitCodes/4/name"),
        ],
    );
    let timeout = found
        .iter()
        .find(|d| d.pointer == "/exitCodes/0/name")
        .unwrap();
    assert!(timeout.message.contains("exit code 124"), "{timeout:?}");
    assert!(
        timeout
            .hint
            .as_deref()
            .unwrap_or_default()
            .contains("UPSTREAM_TIMEOUT"),
        "{timeout:?}"
    );
    // compose prints the name too (its exit is 1 or 2 whatever the number).
    let compose = check(|s| {
        s["profile"] = json!("compose");
        s["exitCodes"] = json!([{"code": 100, "name": "TIMEOUT", "meaning": "a"}, {"code": 101, "name": "NOT_FOUND", "meaning": "b"}]);
    });
    assert_exactly(&compose, &[("E095", "/exitCodes/0/name")]);
}

#[test]
fn the_runtime_s_exit_124_is_not_the_tool_s() {
    let found = codes(
        json!([{"code": 124, "name": "SLOW", "meaning": "a"}, {"code": 100, "name": "NOT_FOUND", "meaning": "b"}]),
    );
    assert_exactly(&found, &[("E096", "/exitCodes/0/code")]);
    // compose exits 0, 1 or 2: its table's numbers are no process status.
    let compose = check(|s| {
        s["profile"] = json!("compose");
        s["exitCodes"] = json!([{"code": 124, "name": "SLOW", "meaning": "a"}, {"code": 100, "name": "NOT_FOUND", "meaning": "b"}]);
    });
    assert_exactly(&compose, &[]);
}

/// Regression (issue 29): weather declared `103 TIMEOUT`, the checker said nothing, and every
/// face showed `TIMEOUT (124)`. The old form is refused where it is written, with a hint.
#[test]
fn weather_s_old_timeout_is_refused_where_it_is_declared() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs/weather.yaml");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(
        text.contains("name: UPSTREAM_TIMEOUT"),
        "weather keeps its own name"
    );
    let old = text.replace("UPSTREAM_TIMEOUT", "TIMEOUT");
    let (_, diagnostics) = pas_spec::check_source(&pas_spec::Source::new(
        "weather.yaml",
        old,
        pas_spec::Format::Yaml,
    ));
    let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].code, "E095");
    assert_eq!(errors[0].pointer, "/exitCodes/3/name");
    let location = errors[0].location.as_ref().expect("located");
    assert_eq!(location.line, 43, "{location:?}");
}
