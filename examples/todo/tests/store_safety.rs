//! The store keeps its data, and errors say what happened (issue 19): an empty or device path
//! is refused before SQLite opens anything; a damaged store is STORE_CORRUPT and `health` says
//! so (SQLite's quick_check); a read-only store is STORE_READ_ONLY for writes while reads work,
//! and `health` reports it degraded; a lock held by another process shows in `health`. No hint
//! proposes moving a file.

mod support;

use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

use support::{Call, Env, assert_envelope};

fn assert_refused(call: &Call, code: &str) {
    assert_envelope(call, "refused call");
    assert_eq!(call.envelope["ok"], false, "{}", call.stderr);
    assert_eq!((call.exit, call.code()), (2, code), "{call:?}");
    let hint = call.envelope["error"]["hint"].as_str().unwrap();
    assert!(!hint.contains("mv "), "a hint never moves files: {hint}");
    assert!(!hint.contains("retry"), "{hint}");
}

fn health(env: &Env, db: &str) -> serde_json::Value {
    let call = Call::from(env.bare(&["--db", db, "health"]).output().unwrap());
    assert_eq!(call.exit, 0, "{call:?}");
    call.data().clone()
}

fn check<'a>(health: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    health["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no check {name}: {health}"))
}

#[test]
fn an_empty_store_path_is_refused_not_a_throwaway_database() {
    let env = Env::new();
    let from_env = Call::from(
        env.bare(&["task", "create", "--title", "x"])
            .env("TODO_DB", "")
            .output()
            .unwrap(),
    );
    assert_refused(&from_env, "STORE_PATH_INVALID");
    assert!(
        from_env.envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("empty")
    );
    let from_flag = Call::from(
        env.bare(&["--db", "", "task", "create", "--title", "x"])
            .output()
            .unwrap(),
    );
    assert_refused(&from_flag, "STORE_PATH_INVALID");
    let health = health(&env, "");
    assert_eq!(health["status"], "blocked");
}

#[test]
fn a_device_is_refused_and_left_alone() {
    let env = Env::new();
    for args in [
        &["--db", "/dev/null", "task", "create", "--title", "x"][..],
        &["--db", "/dev/null", "task", "list"][..],
    ] {
        let call = Call::from(env.bare(args).output().unwrap());
        assert_refused(&call, "STORE_PATH_INVALID");
        assert!(
            call.envelope["error"]["message"]
                .as_str()
                .unwrap()
                .contains("a device")
        );
    }
    let health = health(&env, "/dev/null");
    assert_eq!(health["status"], "blocked");
    for check in health["checks"].as_array().unwrap() {
        assert!(
            !check["fix"].as_str().unwrap_or("").contains("mv "),
            "{check}"
        );
    }
    assert!(!Path::new("/dev/null-journal").exists());
}

#[test]
fn a_directory_is_refused() {
    let env = Env::new();
    std::fs::create_dir(env.db()).unwrap();
    assert_refused(&env.call(&["task", "list"]), "STORE_PATH_INVALID");
}

/// A store of 400 tasks (many pages), with a page in the middle (one of the tasks table's,
/// which fills most of the file) overwritten by bytes that are no b-tree page.
fn damaged_store(env: &Env) {
    assert_eq!(env.call(&["task", "create", "--title", "first"]).exit, 0);
    let mut conn = rusqlite::Connection::open(env.db()).unwrap();
    let tx = conn.transaction().unwrap();
    let notes = "n".repeat(300);
    for n in 0..400 {
        tx.execute(
            "INSERT INTO tasks (title, notes, created, updated) VALUES (?1, ?2, 'c', 'u')",
            rusqlite::params![format!("task {n}"), notes],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    let page_size: i64 = conn
        .pragma_query_value(None, "page_size", |row| row.get(0))
        .unwrap();
    let page_size = page_size as u64;
    let pages: i64 = conn
        .pragma_query_value(None, "page_count", |row| row.get(0))
        .unwrap();
    assert!(pages > 20, "{pages} pages");
    let page = pages as u64 / 2;
    drop(conn);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(env.db())
        .unwrap();
    file.seek(SeekFrom::Start((page - 1) * page_size)).unwrap();
    // A fixed pseudo-random pattern (xorshift), so the damage is the same on every run.
    let mut state: u32 = 0x9e37_79b9;
    let bytes: Vec<u8> = (0..page_size)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as u8
        })
        .collect();
    file.write_all(&bytes).unwrap();
}

#[test]
fn a_damaged_store_is_corrupt_and_health_says_so() {
    let env = Env::new();
    damaged_store(&env);
    let call = env.call(&["task", "list", "--status", "all", "--limit", "500"]);
    assert_refused(&call, "STORE_CORRUPT");
    let health = health(&env, env.db().to_str().unwrap());
    assert_eq!(health["status"], "blocked", "{health}");
    let store = check(&health, "store");
    assert_eq!(store["status"], "blocked");
    assert!(
        store["message"].as_str().unwrap().contains("damaged"),
        "{store}"
    );
}

#[test]
fn a_file_that_is_no_database_is_corrupt() {
    let env = Env::new();
    std::fs::write(
        env.db(),
        "text where a task store should be, long enough for a header ......",
    )
    .unwrap();
    assert_refused(&env.call(&["task", "get", "1"]), "STORE_CORRUPT");
}

/// Runs todo so that it cannot write the store: as `nobody` when the tests run as root (root
/// writes any file), else with the file and its directory made read-only.
fn read_only_call(env: &Env, args: &[&str]) -> Call {
    let mut cmd = env.command(args);
    if is_root() {
        let program = cmd.get_program().to_owned();
        let mut wrapped = std::process::Command::new("setpriv");
        wrapped
            .args(["--reuid", "65534", "--regid", "65534", "--clear-groups"])
            .arg(program)
            .args(cmd.get_args())
            .envs(cmd.get_envs().filter_map(|(k, v)| Some((k, v?))))
            .env_remove("TODO_DB")
            .env_remove("TODO_CONFIG")
            .env_remove("PAS_AGENT")
            .stdin(std::process::Stdio::null());
        cmd = wrapped;
    }
    Call::from(cmd.output().unwrap())
}

fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .and_then(|l| l.split_whitespace().nth(2))
        == Some("0")
}

fn make_read_only(env: &Env) {
    use std::os::unix::fs::PermissionsExt;
    let set = |path: &Path, mode| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    if is_root() {
        // `nobody` may enter and read, not write.
        set(env.dir.path(), 0o755);
        set(&env.db(), 0o644);
    } else {
        set(&env.db(), 0o444);
        set(env.dir.path(), 0o555);
    }
}

#[test]
fn a_read_only_store_says_so_and_still_reads() {
    let env = Env::new();
    assert_eq!(env.call(&["task", "create", "--title", "kept"]).exit, 0);
    make_read_only(&env);
    let write = read_only_call(&env, &["task", "create", "--title", "lost"]);
    assert_refused(&write, "STORE_READ_ONLY");
    let read = read_only_call(&env, &["task", "list"]);
    assert_eq!(read.exit, 0, "{read:?}");
    assert_eq!(read.data()[0]["title"], "kept");
    let health = read_only_call(&env, &["health"]);
    assert_eq!(health.data()["status"], "degraded", "{health:?}");
    let writable = check(health.data(), "writable");
    assert_eq!(writable["status"], "degraded");
    assert!(writable["message"].as_str().unwrap().contains("read-only"));
    // Let the temporary directory be removed.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(env.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_store_locked_by_another_process_shows_in_health() {
    let env = Env::new();
    assert_eq!(env.call(&["task", "create", "--title", "x"]).exit, 0);
    let conn = rusqlite::Connection::open(env.db()).unwrap();
    conn.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let health = health(&env, env.db().to_str().unwrap());
    let writable = check(&health, "writable");
    assert_eq!(writable["status"], "degraded", "{health}");
    assert!(writable["message"].as_str().unwrap().contains("locked"));
    conn.execute_batch("ROLLBACK").unwrap();
    assert_eq!(health_status(&env), "ready");
}

fn health_status(env: &Env) -> String {
    health(env, env.db().to_str().unwrap())["status"]
        .as_str()
        .unwrap()
        .to_owned()
}
