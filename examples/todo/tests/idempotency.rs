//! `--idempotency-key` makes a `todo task create` happen at most once (issue 28, item 2): the
//! key is reserved before the handler runs, so concurrent calls with one key make one task;
//! the key stands for the whole effective input, so the same key on another store (`TODO_DB`,
//! a config file's `db`) is refused instead of replaying the first store's reply; a record that
//! cannot be read, or a state directory that cannot be written, fails the call before any
//! effect.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use support::{Call, Env};

/// `todo --db DB ARGS...` with the runtime's state (the idempotency records) inside the temp dir.
fn todo(env: &Env, args: &[&str]) -> Command {
    let mut cmd = env.command(args);
    cmd.env("XDG_STATE_HOME", state(env));
    cmd
}

fn state(env: &Env) -> PathBuf {
    env.dir.path().join("state")
}

fn records(env: &Env) -> PathBuf {
    state(env).join("todo/idempotency")
}

fn create(env: &Env, title: &str, key: &str) -> Command {
    todo(
        env,
        &["task", "create", "--title", title, "--idempotency-key", key],
    )
}

fn run(mut cmd: Command) -> Call {
    Call::from(cmd.output().expect("todo runs"))
}

/// How many tasks the store at `db` holds (read with SQLite itself, not through todo).
fn tasks(db: &Path) -> i64 {
    if !db.exists() {
        return 0;
    }
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("SELECT count(*) FROM tasks", [], |row| row.get(0))
        .unwrap_or(0)
}

/// The one record file of the temp dir's state (there is one key per test that uses this).
fn record_file(env: &Env) -> PathBuf {
    let found: Vec<PathBuf> = std::fs::read_dir(records(env))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found.into_iter().next().unwrap()
}

fn reason(call: &Call) -> &str {
    call.envelope["error"]["details"]["reason"]
        .as_str()
        .unwrap_or_else(|| panic!("a reason: {call:?}"))
}

fn spawn_all(cmds: Vec<Command>) -> Vec<Call> {
    let children: Vec<_> = cmds
        .into_iter()
        .map(|mut cmd| {
            cmd.stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("todo starts")
        })
        .collect();
    children
        .into_iter()
        .map(|child| Call::from(child.wait_with_output().unwrap()))
        .collect()
}

#[test]
fn ten_concurrent_creates_with_one_key_make_one_task_and_all_answer_it() {
    let env = Env::new();
    let calls = spawn_all(
        (0..10)
            .map(|_| create(&env, "Pay rent", "rent-2026-11"))
            .collect(),
    );
    assert_eq!(tasks(&env.db()), 1, "{calls:#?}");
    let first: Vec<&Call> = calls
        .iter()
        .filter(|c| c.envelope["meta"]["replayed"] != true)
        .collect();
    assert_eq!(first.len(), 1, "one call ran the handler: {calls:#?}");
    for call in &calls {
        assert_eq!(call.exit, 0, "the others waited and replayed: {call:?}");
        assert_eq!(call.data(), first[0].data(), "{call:?}");
    }
}

#[test]
fn the_same_key_on_another_store_is_refused_not_replayed() {
    let env = Env::new();
    let a = run(create(&env, "Pay rent", "k1"));
    assert_eq!(a.exit, 0, "{a:?}");

    // Store B through TODO_DB: the key's input differs (the effective --db does).
    let b = env.dir.path().join("b.db");
    let mut cmd = env.bare(&[
        "task",
        "create",
        "--title",
        "Pay rent",
        "--idempotency-key",
        "k1",
    ]);
    cmd.env("XDG_STATE_HOME", state(&env)).env("TODO_DB", &b);
    let refused = run(cmd);
    assert_eq!(refused.code(), "ARGUMENT_CONFLICT", "{refused:?}");
    assert_eq!(reason(&refused), "IDEMPOTENCY_KEY_REUSED");
    assert_ne!(refused.envelope["ok"], true);
    assert_eq!(tasks(&b), 0, "nothing was written to B");

    // Store C through the configuration file's `db`.
    let c = env.dir.path().join("c.db");
    let config = env.default_config();
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, format!("db = \"{}\"\n", c.display())).unwrap();
    let mut cmd = env.bare(&[
        "task",
        "create",
        "--title",
        "Pay rent",
        "--idempotency-key",
        "k1",
    ]);
    cmd.env("XDG_STATE_HOME", state(&env));
    let refused = run(cmd);
    assert_eq!(refused.code(), "ARGUMENT_CONFLICT", "{refused:?}");
    assert_eq!(reason(&refused), "IDEMPOTENCY_KEY_REUSED");
    assert_eq!(tasks(&c), 0, "nothing was written to C");

    // The same store given another way (TODO_DB instead of --db) is the same input: a replay.
    let mut cmd = env.bare(&[
        "task",
        "create",
        "--title",
        "Pay rent",
        "--idempotency-key",
        "k1",
    ]);
    cmd.env("XDG_STATE_HOME", state(&env))
        .env("TODO_DB", env.db());
    std::fs::remove_file(&config).unwrap();
    let replayed = run(cmd);
    assert_eq!(replayed.data(), a.data(), "{replayed:?}");
    assert_eq!(replayed.envelope["meta"]["replayed"], true);
    assert_eq!(tasks(&env.db()), 1);
}

#[test]
fn a_record_that_cannot_be_read_is_an_error_naming_it_never_a_fresh_run() {
    let env = Env::new();
    let first = run(create(&env, "Renew passport", "passport"));
    assert_eq!(first.exit, 0, "{first:?}");
    let record = record_file(&env);
    let bytes = std::fs::read(&record).unwrap();

    let damaged: [(&str, Vec<u8>); 3] = [
        ("truncated", bytes[..bytes.len() / 2].to_vec()),
        ("empty", Vec::new()),
        ("garbage", b"\x00\xffnot json".to_vec()),
    ];
    for (what, content) in damaged {
        std::fs::write(&record, &content).unwrap();
        let retry = run(create(&env, "Renew passport", "passport"));
        assert_eq!(retry.code(), "GENERAL_ERROR", "{what}: {retry:?}");
        assert_eq!(reason(&retry), "IDEMPOTENCY_RECORD_UNREADABLE", "{what}");
        assert_eq!(
            retry.envelope["error"]["details"]["path"],
            record.display().to_string(),
            "{what}: the error names the record"
        );
        assert_eq!(tasks(&env.db()), 1, "{what}: the handler did not run again");
    }

    // A FIFO where the record should be: an error at once, not a read that waits forever.
    std::fs::remove_file(&record).unwrap();
    let made = Command::new("mkfifo").arg(&record).status().unwrap();
    assert!(made.success());
    let retry = run(create(&env, "Renew passport", "passport"));
    assert_eq!(reason(&retry), "IDEMPOTENCY_RECORD_UNREADABLE", "{retry:?}");
    assert_eq!(tasks(&env.db()), 1);
}

#[test]
fn a_state_directory_that_cannot_be_written_fails_before_any_effect() {
    // A file where the tool's state directory should be.
    let env = Env::new();
    std::fs::create_dir_all(state(&env)).unwrap();
    std::fs::write(state(&env).join("todo"), "not a directory").unwrap();
    let refused = run(create(&env, "Call the bank", "bank"));
    assert_eq!(refused.code(), "GENERAL_ERROR", "{refused:?}");
    assert_eq!(reason(&refused), "IDEMPOTENCY_NOT_RESERVED");
    assert_eq!(tasks(&env.db()), 0, "the handler never ran");

    // A read-only records directory (where permissions apply: not for root).
    let env = Env::new();
    let dir = records(&env);
    std::fs::create_dir_all(&dir).unwrap();
    set_mode(&dir, 0o555);
    let root_writes_anyway = std::fs::write(dir.join("probe"), "").is_ok();
    if !root_writes_anyway {
        let refused = run(create(&env, "Call the bank", "bank"));
        assert_eq!(reason(&refused), "IDEMPOTENCY_NOT_RESERVED", "{refused:?}");
        assert_eq!(tasks(&env.db()), 0, "the handler never ran");
    }
    set_mode(&dir, 0o755);
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn a_failed_call_gives_its_key_back_and_a_retry_runs() {
    let env = Env::new();
    // A store file that is not a database: the handler fails (it ran, and said so).
    let db = env.dir.path().join("tasks.db");
    std::fs::write(
        &db,
        "not a database, not even close to one; SQLite refuses it",
    )
    .unwrap();
    let keyed = || {
        let mut cmd = env.bare(&[
            "task",
            "create",
            "--title",
            "Water plants",
            "--idempotency-key",
            "k",
        ]);
        cmd.env("XDG_STATE_HOME", state(&env)).env("TODO_DB", &db);
        cmd
    };
    let failed = run(keyed());
    assert_eq!(failed.code(), "STORE_CORRUPT", "{failed:?}");
    // Fixed, the same call with the same key runs: a failure reserved nothing for good.
    std::fs::remove_file(&db).unwrap();
    let retried = run(keyed());
    assert_eq!(retried.data()["title"], "Water plants", "{retried:?}");
    assert_ne!(retried.envelope["meta"]["replayed"], true);
    assert_eq!(tasks(&db), 1);
}

#[test]
fn fifty_calls_with_one_key_and_fifty_with_their_own_make_fifty_one_tasks() {
    let env = Env::new();
    let mut cmds: Vec<Command> = Vec::new();
    for i in 0..50 {
        cmds.push(create(&env, "shared", "one-key"));
        cmds.push(create(&env, &format!("own {i}"), &format!("key-{i}")));
    }
    let calls = spawn_all(cmds);
    for call in &calls {
        assert_eq!(call.exit, 0, "{call:?}");
    }
    assert_eq!(
        tasks(&env.db()),
        51,
        "exactly one effect for the shared key, fifty for the others"
    );
    let shared: Vec<&Value> = calls
        .iter()
        .filter(|c| c.data()["title"] == "shared")
        .map(|c| &c.data()["id"])
        .collect();
    assert_eq!(shared.len(), 50);
    assert!(shared.iter().all(|id| *id == shared[0]), "{shared:?}");
}
