//! A store todo cannot use is a blocked prerequisite: exit 2, a blocking code, a fix in the hint,
//! and `health` says `blocked` with a fix per check.

mod support;

use support::{Env, assert_def, assert_envelope};

fn assert_blocked(env: &Env, code: &str) {
    for args in [
        &["task", "list"][..],
        &["task", "create", "--title", "x"][..],
        &["task", "get", "1"][..],
    ] {
        let call = env.call(args);
        assert_envelope(&call, "blocked call");
        assert_eq!((call.exit, call.code()), (2, code), "{args:?}: {call:?}");
        let hint = call.envelope["error"]["hint"].as_str().unwrap();
        assert!(
            hint.contains("--db") || hint.contains("upgrade"),
            "the hint is a fix: {hint}"
        );
    }
    let health = env.call(&["health"]);
    assert_eq!(health.exit, 0, "health itself works: {health:?}");
    assert_def(health.data(), "health");
    assert_eq!(health.data()["status"], "blocked");
    let blocked: Vec<_> = health.data()["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] == "blocked")
        .collect();
    assert!(!blocked.is_empty());
    assert!(
        blocked
            .iter()
            .all(|c| c["fix"].as_str().is_some_and(|f| !f.is_empty()))
    );
}

#[test]
fn an_unreadable_store_blocks() {
    let env = Env::new();
    std::fs::write(
        env.db(),
        b"this is not a SQLite database, just some text that is long enough to have a header......",
    )
    .unwrap();
    assert_blocked(&env, "STORE_CORRUPT");
}

#[test]
fn a_directory_in_place_of_the_store_blocks() {
    let env = Env::new();
    std::fs::create_dir(env.db()).unwrap();
    assert_blocked(&env, "STORE_PATH_INVALID");
}

#[test]
fn a_newer_schema_blocks() {
    let env = Env::new();
    assert_eq!(env.call(&["task", "create", "--title", "x"]).exit, 0);
    let conn = rusqlite::Connection::open(env.db()).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    assert_blocked(&env, "SCHEMA_TOO_NEW");
    let call = env.call(&["task", "list"]);
    assert_eq!(call.envelope["error"]["details"]["found"], 99);
}
