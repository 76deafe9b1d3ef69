//! The store stays beneath its root whatever links the directory holds.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::*;

/// A root and, beside it, a directory playing "outside" with a canary file.
struct Setup {
    _dir: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(root.join("inbox")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("secret.json"), b"{\"secret\":true}").unwrap();
        Setup {
            _dir: dir,
            root,
            outside,
        }
    }

    fn store(&self) -> Root {
        Root::open(&self.root).unwrap()
    }

    /// The outside directory holds exactly the canary, unchanged.
    fn assert_outside_untouched(&self) {
        let names: Vec<_> = std::fs::read_dir(&self.outside)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["secret.json"], "something was written outside");
        assert_eq!(
            std::fs::read(self.outside.join("secret.json")).unwrap(),
            b"{\"secret\":true}"
        );
    }
}

fn assert_escape(result: Result<impl std::fmt::Debug, Error>, path: &str) {
    let error = result.expect_err("an escape must fail");
    assert_eq!(error.code(), PATH_ESCAPES_ROOT, "{error:?}");
    assert!(error.message().contains(path), "{error:?}");
    assert!(error.suggestion().is_some());
}

#[test]
fn a_link_to_an_outside_file_is_never_read_stat_or_written_through() {
    let s = Setup::new();
    symlink(
        s.outside.join("secret.json"),
        s.root.join("inbox/leak.json"),
    )
    .unwrap();
    let store = s.store();
    assert_escape(store.read("inbox/leak.json"), "inbox/leak.json");
    assert_escape(store.metadata("inbox/leak.json"), "inbox/leak.json");
    // Writing replaces the link itself, never the file it points at.
    store.write("inbox/leak.json", b"{}").unwrap();
    assert!(
        !std::fs::symlink_metadata(s.root.join("inbox/leak.json"))
            .unwrap()
            .is_symlink()
    );
    s.assert_outside_untouched();
}

#[test]
fn a_link_to_an_outside_directory_is_never_entered() {
    let s = Setup::new();
    symlink(&s.outside, s.root.join("escape")).unwrap();
    let store = s.store();
    assert_escape(
        store.write("escape/written.json", b"{}"),
        "escape/written.json",
    );
    assert_escape(store.read("escape/secret.json"), "escape/secret.json");
    assert_escape(store.list("escape"), "escape");
    assert_escape(
        store.remove_file("escape/secret.json"),
        "escape/secret.json",
    );
    assert_escape(store.remove_dir_all("escape/x"), "escape/x");
    assert_escape(store.create_dir_all("escape/new"), "escape/new");
    assert_escape(
        store.rename("escape/secret.json", "stolen.json"),
        "escape/secret.json",
    );
    assert_escape(store.open_append("escape/log.jsonl"), "escape/log.jsonl");
    // Removing the linked directory removes the link, not what it points at.
    assert!(store.remove_dir_all("escape").unwrap());
    assert!(!s.root.join("escape").exists());
    s.assert_outside_untouched();
}

#[test]
fn dot_dot_inside_a_link_target_cannot_climb_out() {
    let s = Setup::new();
    symlink("../../outside", s.root.join("inbox/up")).unwrap();
    symlink("../outside/secret.json", s.root.join("climb.json")).unwrap();
    let store = s.store();
    assert_escape(store.read("inbox/up/secret.json"), "inbox/up/secret.json");
    assert_escape(store.read("climb.json"), "climb.json");
    assert_escape(store.write("inbox/up/x.json", b"{}"), "inbox/up/x.json");
    assert_escape(
        store.read("../outside/secret.json"),
        "../outside/secret.json",
    );
    assert_escape(
        store.read(s.outside.join("secret.json")),
        "outside/secret.json",
    );
    s.assert_outside_untouched();
}

#[test]
fn links_that_stay_inside_still_work() {
    let s = Setup::new();
    std::fs::write(s.root.join("inbox/milk.json"), b"{\"m\":1}").unwrap();
    symlink("inbox", s.root.join("alias")).unwrap();
    symlink("../inbox/milk.json", s.root.join("inbox/../alias2.json")).unwrap();
    let store = s.store();
    assert_eq!(
        store.read("alias/milk.json").unwrap().unwrap(),
        b"{\"m\":1}"
    );
    let names: Vec<_> = store
        .list("")
        .unwrap()
        .unwrap()
        .into_iter()
        .map(|e| (e.name, e.kind))
        .collect();
    assert_eq!(
        names,
        [
            ("alias".to_owned(), EntryKind::Dir),
            ("alias2.json".to_owned(), EntryKind::Other),
            ("inbox".to_owned(), EntryKind::Dir)
        ]
    );
}

#[test]
fn listing_never_follows_a_link_out() {
    let s = Setup::new();
    symlink(
        s.outside.join("secret.json"),
        s.root.join("inbox/leak.json"),
    )
    .unwrap();
    symlink(&s.outside, s.root.join("inbox/dir")).unwrap();
    std::fs::write(s.root.join("inbox/milk.json"), b"{}").unwrap();
    let entries = s.store().list("inbox").unwrap().unwrap();
    let kinds: Vec<_> = entries
        .iter()
        .map(|e| (e.name.as_str(), e.kind, e.size))
        .collect();
    assert_eq!(
        kinds,
        [
            ("dir", EntryKind::Other, 0),
            ("leak.json", EntryKind::Other, 0),
            ("milk.json", EntryKind::File, 2)
        ]
    );
}

#[test]
fn writes_are_atomic_and_leave_no_temporary_file() {
    let s = Setup::new();
    let store = s.store();
    assert_eq!(store.write("a/b/c.json", b"12345").unwrap(), 5);
    assert_eq!(store.read("a/b/c.json").unwrap().unwrap(), b"12345");
    store.write("a/b/c.json", b"6").unwrap();
    assert_eq!(store.read("a/b/c.json").unwrap().unwrap(), b"6");
    let names: Vec<_> = store
        .list("a/b")
        .unwrap()
        .unwrap()
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert_eq!(names, ["c.json"]);
    assert_eq!(store.read("a/missing").unwrap(), None);
    assert_eq!(store.metadata("missing").unwrap(), None);
    assert!(!store.remove_file("missing").unwrap());
    assert!(store.remove_file("a/b/c.json").unwrap());
}

#[test]
fn concurrent_writers_of_one_file_never_fail_each_other() {
    let s = Setup::new();
    let store = Arc::new(s.store());
    let threads: Vec<_> = (0..12)
        .map(|n| {
            let store = Arc::clone(&store);
            std::thread::spawn(move || {
                for _ in 0..20 {
                    store
                        .write("inbox/shared.json", format!("{n}").as_bytes())
                        .unwrap();
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let names: Vec<_> = store
        .list("inbox")
        .unwrap()
        .unwrap()
        .into_iter()
        .map(|e| e.name)
        .collect();
    assert_eq!(names, ["shared.json"]);
}

#[test]
fn an_empty_or_device_root_is_refused() {
    let error = Root::open("").unwrap_err();
    assert_eq!(error.code(), STORE_PATH_INVALID);
    let error = Root::open("/dev/null").unwrap_err();
    assert_eq!(error.code(), STORE_PATH_INVALID);
    assert!(error.message().contains("a device"), "{error:?}");
    let s = Setup::new();
    let file = s.root.join("inbox/file");
    std::fs::write(&file, b"x").unwrap();
    assert_eq!(Root::open(&file).unwrap_err().code(), STORE_PATH_INVALID);
    assert!(Root::open_existing(s.root.join("nope")).unwrap().is_none());
}

/// A thread swaps `inbox/swap` between a directory inside the root and a link to the outside,
/// as fast as it can, while the store reads, lists, stats, writes and removes through it. Every
/// call either works inside the root or is refused; nothing outside is ever touched.
#[test]
fn a_link_swapped_during_calls_never_leads_out() {
    let s = Setup::new();
    let store = s.store();
    let swap = s.root.join("inbox/swap");
    let staging = s.root.join("inbox/staging");
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (swap, staging, outside, stop) = (
            swap.clone(),
            staging.clone(),
            s.outside.clone(),
            Arc::clone(&stop),
        );
        std::thread::spawn(move || {
            let mut rounds = 0u64;
            while !stop.load(Ordering::Relaxed) {
                flip(&swap, &staging, |p| std::fs::create_dir_all(p).unwrap());
                flip(&swap, &staging, |p| symlink(&outside, p).unwrap());
                rounds += 1;
            }
            rounds
        })
    };
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut calls = 0;
    while Instant::now() < deadline {
        let _ = store.write("inbox/swap/secret.json", b"overwritten");
        let _ = store.read("inbox/swap/secret.json");
        let _ = store.metadata("inbox/swap/secret.json");
        let _ = store.list("inbox/swap");
        let _ = store.remove_file("inbox/swap/secret.json");
        let _ = store.remove_dir_all("inbox/swap/sub");
        calls += 1;
    }
    stop.store(true, Ordering::Relaxed);
    let rounds = swapper.join().unwrap();
    assert!(calls > 10 && rounds > 10, "{calls} calls, {rounds} swaps");
    s.assert_outside_untouched();
}

/// Puts a fresh `make(staging)` in place of `target` with one rename.
fn flip(target: &Path, staging: &Path, make: impl Fn(&Path)) {
    let _ = std::fs::remove_dir_all(staging).or_else(|_| std::fs::remove_file(staging));
    make(staging);
    // A directory cannot be renamed over a non-empty one: clear the old one first.
    if target.is_dir() && !target.is_symlink() {
        let _ = std::fs::remove_dir_all(target);
    }
    let _ = std::fs::rename(staging, target);
}

#[test]
fn a_tool_name_is_one_plain_directory() {
    for bad in ["", ".", "..", "a/b", "a\\b", "a\0b"] {
        assert!(Root::tool_data(bad).is_err(), "{bad:?}");
    }
}
