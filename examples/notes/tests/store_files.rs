//! notes reads only regular files of its store, and none past the store's read limit
//! (`pas::store::READ_LIMIT`, 256 MiB): a FIFO in a note's place is `STORE_FILE_INVALID` at
//! once (it used to block `cat` for ever), a device or a note past the limit the same, naming
//! the file, never a read of the whole thing into memory.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// `notes --agent ARGS...` on the store `store`, with a hang guard: a call that has not ended
/// after a minute is killed (it is this test's own child) and the test fails.
fn notes(store: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_notes"))
        .env_remove("PAS_AGENT")
        .env("NOTES_STORE", store)
        .env("XDG_STATE_HOME", store.join("state"))
        .arg("--agent")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("notes {args:?} never ended");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn refused(store: &Path, args: &[&str], file: &Path) -> Value {
    let out = notes(store, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(106), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    let error: Value = serde_json::from_str(&stderr).unwrap();
    assert_eq!(error["error"], "STORE_FILE_INVALID", "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains(&file.display().to_string()),
        "{error}"
    );
    error
}

#[test]
fn a_fifo_in_the_store_is_refused_at_once_not_read_for_ever() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    std::fs::create_dir_all(store.join("inbox")).unwrap();
    let fifo = store.join("inbox/pipe.json");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let error = refused(&store, &["cat", "/notebooks/inbox/pipe"], &fifo);
    assert!(
        error["message"].as_str().unwrap().contains("a pipe"),
        "{error}"
    );
    // `search` reads every note `ls` lists, which a pipe is not: it ends, finding nothing.
    let searched = notes(&store, &["search", "milk"]);
    assert_eq!(searched.status.code(), Some(0), "{searched:?}");
    assert!(searched.stdout.is_empty(), "{searched:?}");
}

#[test]
fn a_note_past_the_read_limit_is_refused_by_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    std::fs::create_dir_all(store.join("inbox")).unwrap();
    // A 3 GB note, sparse: refused before a byte is read.
    let big = store.join("inbox/big.json");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(3_000_000_000).unwrap();
    drop(file);
    let error = refused(&store, &["cat", "/notebooks/inbox/big"], &big);
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains(&pas::store::READ_LIMIT.to_string()),
        "names the limit: {error}"
    );
    // A note within the limit is still read whole.
    std::fs::write(store.join("inbox/milk.json"), b"{\"title\":\"Milk\"}\n").unwrap();
    let out = notes(&store, &["cat", "/notebooks/inbox/milk"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let note: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(note["title"], "Milk");
}
