//! notes never leaves its store: links to outside files and directories, `..` inside a link's
//! target, and a link swapped while calls run never let `cat`, `ls`, `stat`, `cp` (into the
//! store, and from a note), `rm`, `search` or `sync` read, write or delete outside the store.
//! Each reproduction of issue 19 is here: the `inbox/leak.json` link, `cp` through an `escape`
//! link, `sync` through a link planted at its temporary name, `rm` through a linked notebook;
//! and the concurrency ones: 20 parallel `feedback` calls get 20 ids, 12 parallel `sync` calls
//! into one directory all succeed.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;

/// The canary's content: it must never show up in any output.
const SECRET: &str = "{\"secret\":\"CANARY-7d1f\"}";

/// `store/` (a copy of the fixture), `outside/` (a canary the store must never reach) and a
/// working directory with a local note `in.json`.
struct Scratch {
    dir: TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/store");
        copy_tree(&fixture, &dir.path().join("store"));
        fs::create_dir_all(dir.path().join("outside")).unwrap();
        fs::write(dir.path().join("outside/secret.json"), SECRET).unwrap();
        fs::write(dir.path().join("in.json"), "{\"title\":\"in\"}").unwrap();
        Scratch { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn store(&self) -> PathBuf {
        self.path().join("store")
    }

    fn outside(&self) -> PathBuf {
        self.path().join("outside")
    }

    fn command(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_notes"));
        cmd.current_dir(self.path())
            .env_remove("PAS_AGENT")
            .env("NOTES_STORE", self.store())
            .env("XDG_STATE_HOME", self.path().join("state"))
            .arg("--agent")
            .args(args);
        cmd
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// The call fails with `code`/`error`, stdout empty, and no trace of the canary.
    fn refused(&self, args: &[&str], code: i32, error: &str) -> Value {
        let output = self.run(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(!stderr.contains("CANARY"), "{args:?}: {stderr}");
        let value: Value = serde_json::from_str(&stderr).unwrap();
        assert_eq!(value["error"], error, "{args:?}");
        value
    }

    fn ok(&self, args: &[&str]) -> String {
        let output = self.run(args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(!stdout.contains("CANARY"), "{args:?}: {stdout}");
        stdout
    }

    /// `outside/` holds the canary alone, unchanged.
    fn assert_outside_untouched(&self) {
        let mut names: Vec<String> = fs::read_dir(self.outside())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["secret.json"], "something was written outside");
        assert_eq!(
            fs::read_to_string(self.outside().join("secret.json")).unwrap(),
            SECRET
        );
    }
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

const ESCAPES: i32 = 104;

#[test]
fn a_note_linked_to_an_outside_file_is_never_read() {
    let s = Scratch::new();
    symlink(
        s.outside().join("secret.json"),
        s.store().join("inbox/leak.json"),
    )
    .unwrap();
    let error = s.refused(
        &["cat", "/notebooks/inbox/leak"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("inbox/leak.json")
    );
    assert!(error["suggestion"].as_str().is_some());
    s.refused(
        &["stat", "/notebooks/inbox/leak"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    // store -> store: copying the linked note reads nothing and writes nothing.
    s.refused(
        &["cp", "/notebooks/inbox/leak", "/notebooks/inbox/copy"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    assert!(!s.store().join("inbox/copy.json").exists());
    // ls and search do not see it; sync (store -> local) does not pull it.
    assert!(!s.ok(&["ls", "/notebooks/inbox"]).contains("leak"));
    assert_eq!(s.ok(&["search", "canary"]), "");
    s.ok(&["sync", "/notebooks/inbox", "./pulled"]);
    assert!(!s.path().join("pulled/leak.json").exists());
    s.assert_outside_untouched();
}

#[test]
fn a_notebook_linked_to_an_outside_directory_is_never_entered() {
    let s = Scratch::new();
    symlink(s.outside(), s.store().join("escape")).unwrap();
    // The reproduction: cp ./in.json /notebooks/escape/written.
    s.refused(
        &["cp", "./in.json", "/notebooks/escape/written"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    s.refused(&["ls", "/notebooks/escape"], ESCAPES, "PATH_ESCAPES_ROOT");
    s.refused(
        &["cat", "/notebooks/escape/secret"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    s.refused(
        &["stat", "/notebooks/escape/secret"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    s.refused(
        &["search", "x", "--notebook", "escape"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    // sync streams its `start` event before it lists, then fails with the escape.
    let sync = s.run(&["sync", "/notebooks/escape", "./pulled"]);
    assert_eq!(sync.status.code(), Some(ESCAPES));
    assert!(String::from_utf8_lossy(&sync.stderr).contains("PATH_ESCAPES_ROOT"));
    assert!(!String::from_utf8_lossy(&sync.stdout).contains("CANARY"));
    assert!(!s.path().join("pulled/secret").exists());
    // The issue's `notes rm` through a linked directory.
    s.refused(
        &["rm", "/notebooks/escape/secret"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    s.refused(
        &["rm", "/notebooks/escape/*", "--force"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    assert!(!s.ok(&["ls", "/notebooks"]).contains("escape"));
    s.assert_outside_untouched();
    // Removing the notebook removes the link, never what it points at.
    s.ok(&["rm", "/notebooks/escape", "--force"]);
    assert!(fs::symlink_metadata(s.store().join("escape")).is_err());
    s.assert_outside_untouched();
}

#[test]
fn dot_dot_inside_a_link_target_cannot_climb_out() {
    let s = Scratch::new();
    symlink("../outside", s.store().join("climb")).unwrap();
    symlink("../../outside/secret.json", s.store().join("inbox/up.json")).unwrap();
    s.refused(
        &["cat", "/notebooks/climb/secret"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    s.refused(
        &["cat", "/notebooks/inbox/up"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    s.refused(
        &["cp", "./in.json", "/notebooks/climb/new"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    s.refused(
        &["rm", "/notebooks/climb/secret"],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    s.assert_outside_untouched();
}

#[test]
fn sync_never_writes_through_a_link_in_the_local_directory() {
    let s = Scratch::new();
    let local = s.path().join("pulled");
    fs::create_dir_all(&local).unwrap();
    // The reproduction: a link at the temporary name an older sync used...
    symlink(
        s.outside().join("victim.json"),
        local.join("milk.pas-sync-partial"),
    )
    .unwrap();
    // ...and links at a file's own name.
    symlink(s.outside().join("secret.json"), local.join("call-ann")).unwrap();
    let out = s.ok(&["sync", "/notebooks/inbox", "./pulled"]);
    assert!(out.contains("\"complete\""), "{out}");
    s.assert_outside_untouched();
    let pulled = fs::symlink_metadata(local.join("call-ann")).unwrap();
    assert!(pulled.is_file(), "the link was replaced by the note itself");
    assert!(
        fs::read_to_string(local.join("milk"))
            .unwrap()
            .contains("Buy milk")
    );
}

/// A thread swaps `store/swap` between a notebook of its own and a link to the outside, as
/// fast as it can, while `cat`, `ls`, `stat`, `cp`, `rm` and `sync` run through it. Each call
/// either works inside the store or is refused; none reads, writes or deletes outside.
#[test]
fn a_link_swapped_during_calls_never_leads_out() {
    let s = Scratch::new();
    let swap = s.store().join("swap");
    let staging = s.store().join("staging-area");
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (swap, staging, outside, stop) = (
            swap.clone(),
            staging.clone(),
            s.outside(),
            Arc::clone(&stop),
        );
        std::thread::spawn(move || {
            let mut rounds = 0u64;
            while !stop.load(Ordering::Relaxed) {
                flip(&swap, &staging, |p| {
                    fs::create_dir_all(p).unwrap();
                    fs::write(p.join("secret.json"), "{\"inside\":true}").unwrap();
                });
                flip(&swap, &staging, |p| symlink(&outside, p).unwrap());
                rounds += 1;
            }
            rounds
        })
    };
    let calls: &[&[&str]] = &[
        &["cat", "/notebooks/swap/secret"],
        &["stat", "/notebooks/swap/secret"],
        &["ls", "/notebooks/swap"],
        &["cp", "./in.json", "/notebooks/swap/secret"],
        &["cp", "/notebooks/swap/secret", "/notebooks/inbox/copied"],
        &["rm", "/notebooks/swap/secret"],
        &["sync", "/notebooks/swap", "./pulled"],
    ];
    let deadline = Instant::now() + Duration::from_secs(4);
    let mut runs = 0;
    while Instant::now() < deadline {
        for args in calls {
            let output = s.run(args);
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            assert!(!text.contains("CANARY"), "{args:?} leaked: {text}");
            runs += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let rounds = swapper.join().unwrap();
    assert!(
        runs >= calls.len() && rounds > 10,
        "{runs} calls, {rounds} swaps"
    );
    s.assert_outside_untouched();
    if let Ok(pulled) = fs::read_to_string(s.path().join("pulled/secret")) {
        assert!(!pulled.contains("CANARY"));
    }
}

/// Puts a fresh `make(staging)` in place of `target` with one rename.
fn flip(target: &Path, staging: &Path, make: impl Fn(&Path)) {
    let _ = fs::remove_dir_all(staging).or_else(|_| fs::remove_file(staging));
    make(staging);
    if target.is_dir() && !target.is_symlink() {
        let _ = fs::remove_dir_all(target);
    }
    let _ = fs::rename(staging, target);
}

#[test]
fn parallel_feedback_gets_one_id_each() {
    let s = Scratch::new();
    let children: Vec<_> = (0..20)
        .map(|n| {
            s.command(&[
                "feedback",
                "/notebooks/inbox/milk",
                "--level",
                "info",
                "--message",
                &format!("report {n}"),
            ])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
        })
        .collect();
    let mut ids: Vec<u64> = children
        .into_iter()
        .map(|child| {
            let output = child.wait_with_output().unwrap();
            assert_eq!(output.status.code(), Some(0));
            let receipt: Value = serde_json::from_slice(&output.stdout).unwrap();
            receipt["issue_id"].as_str().unwrap().parse().unwrap()
        })
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, (1..=20).collect::<Vec<u64>>());
    let log = fs::read_to_string(s.path().join("state/notes/feedback.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 20);
}

#[test]
fn parallel_syncs_into_one_directory_never_fail_each_other() {
    let s = Scratch::new();
    let children: Vec<_> = (0..12)
        .map(|_| {
            s.command(&["sync", "/notebooks/inbox", "./pulled"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let mut names: Vec<String> = fs::read_dir(s.path().join("pulled"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["call-ann", "milk"], "no temporary file is left");
}

#[test]
fn an_empty_or_device_store_is_refused() {
    let s = Scratch::new();
    // An empty NOTES_STORE is refused before any handler runs (a usage error naming --store).
    let mut cmd = s.command(&["cp", "./in.json", "/notebooks/inbox/x"]);
    let output = cmd.env("NOTES_STORE", "").output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--store"), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(!s.path().join("inbox").exists() && !s.path().join("x.json").exists());
    for args in [
        &[
            "--store",
            "/dev/null",
            "cp",
            "./in.json",
            "/notebooks/inbox/x",
        ][..],
        &["--store", "/dev/null", "ls", "/notebooks"][..],
    ] {
        let value = s.refused(args, 105, "STORE_PATH_INVALID");
        assert!(value["message"].as_str().unwrap().contains("a device"));
        assert!(!value["suggestion"].as_str().unwrap().contains("mv "));
    }
    assert!(!Path::new("/dev/null-journal").exists());
}

#[test]
fn feedback_never_appends_through_a_planted_link() {
    let s = Scratch::new();
    let state = s.path().join("state/notes");
    fs::create_dir_all(&state).unwrap();
    symlink(
        s.outside().join("secret.json"),
        state.join("feedback.jsonl"),
    )
    .unwrap();
    s.refused(
        &[
            "feedback",
            "/notebooks/inbox/milk",
            "--level",
            "info",
            "--message",
            "hello",
        ],
        ESCAPES,
        "PATH_ESCAPES_ROOT",
    );
    s.assert_outside_untouched();
}
