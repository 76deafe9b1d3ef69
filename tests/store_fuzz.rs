//! Fuzz (issue 19, item 8): arbitrary resource paths, through the runtime's normalisation and
//! then straight into the confined store (raw, as a handler that skipped normalising would pass
//! them), never read, write, list, rename or delete anything outside the store's root, whatever
//! links the store holds.
//!
//! Each case builds a fresh root beside an "outside" directory holding a canary, plants links
//! out of the root (to a file, to a directory, by an absolute target and by `..` in a relative
//! one) and links that stay inside, then runs every store operation on the generated path. The
//! case passes when the outside is byte for byte as it was and nothing appeared beside the
//! root. The number of cases is proptest's (`PROPTEST_CASES`, 256 by default; CI runs more in
//! a fixed time budget).

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use pas::ResourcePath;
use pas::store::Root;
use proptest::prelude::*;

/// A registry with one nested resource, so paths resolve to templates and placeholders.
fn registry() -> pas::spec::Registry {
    serde_json::from_value(serde_json::json!({
        "specVersion": 1, "name": "fuzz", "version": "0.0.0", "summary": "fuzz", "commands": [],
        "resources": [
            {"path": "/notebooks/{notebook}", "verbs": ["ls"]},
            {"path": "/notebooks/{notebook}/{note}", "verbs": ["cat"]}
        ]
    }))
    .unwrap()
}

/// Every file and link under `dir`, with its bytes or link target.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut queue = vec![dir.to_owned()];
    while let Some(next) = queue.pop() {
        for entry in std::fs::read_dir(&next).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                found.insert(path, target.into_os_string().into_encoded_bytes());
            } else if meta.is_dir() {
                found.insert(path.clone(), Vec::new());
                queue.push(path);
            } else {
                found.insert(path.clone(), std::fs::read(&path).unwrap());
            }
        }
    }
    found
}

/// A root full of links, an outside with a canary; returns (tempdir, root, outside).
fn fixture() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(root.join("notebooks/inbox")).unwrap();
    std::fs::create_dir_all(outside.join("deep")).unwrap();
    std::fs::write(outside.join("secret.json"), b"{\"canary\":1}").unwrap();
    std::fs::write(outside.join("deep/x.json"), b"{\"canary\":2}").unwrap();
    std::fs::write(root.join("notebooks/inbox/milk.json"), b"{}").unwrap();
    symlink(&outside, root.join("notebooks/escape")).unwrap();
    symlink(
        outside.join("secret.json"),
        root.join("notebooks/inbox/leak.json"),
    )
    .unwrap();
    symlink("../../../outside", root.join("notebooks/inbox/up")).unwrap();
    symlink("../outside/deep", root.join("climb")).unwrap();
    symlink("inbox", root.join("notebooks/alias")).unwrap();
    symlink("/", root.join("slash")).unwrap();
    (dir, root, outside)
}

/// Path segments an attacker (or a fuzzer) would try, and arbitrary text.
fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("..".to_owned()),
        Just(".".to_owned()),
        Just(String::new()),
        Just("notebooks".to_owned()),
        Just("inbox".to_owned()),
        Just("escape".to_owned()),
        Just("leak.json".to_owned()),
        Just("up".to_owned()),
        Just("climb".to_owned()),
        Just("alias".to_owned()),
        Just("slash".to_owned()),
        Just("outside".to_owned()),
        Just("secret.json".to_owned()),
        Just("deep".to_owned()),
        Just("x.json".to_owned()),
        Just("%2e%2e".to_owned()),
        Just("..\\..".to_owned()),
        Just("*".to_owned()),
        // The links' own paths, so deeper cases start at them often.
        Just("notebooks/escape".to_owned()),
        Just("notebooks/inbox/up".to_owned()),
        Just("notebooks/inbox/leak.json".to_owned()),
        Just("notebooks/alias".to_owned()),
        "[a-z.]{1,6}",
        "\\PC{0,8}",
    ]
}

fn raw_path() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        prop::collection::vec(segment(), 0..7),
        any::<bool>(),
    )
        .prop_map(|(leading, segments, trailing)| {
            let mut path = segments.join("/");
            if leading {
                path.insert(0, '/');
            }
            if trailing {
                path.push('/');
            }
            path
        })
}

/// Every operation of the store on `relative` (results ignored: only what they touch counts).
fn every_operation(root: &Root, relative: &str) {
    let _ = root.read(relative);
    let _ = root.metadata(relative);
    let _ = root.list(relative);
    let _ = root.write(relative, b"{\"written\":true}");
    let _ = root.write(format!("{relative}/new.json"), b"{}");
    let _ = root.create_dir_all(format!("{relative}/made"));
    let _ = root.open_append(format!("{relative}/log.jsonl"));
    let _ = root.rename(relative, "moved");
    let _ = root.rename("notebooks/inbox/milk.json", relative);
    let _ = root.remove_file(relative);
    let _ = root.remove_dir_all(relative);
}

proptest! {
    #[test]
    fn no_path_leads_the_store_outside_its_root(raw in raw_path()) {
        let (dir, root_path, outside) = fixture();
        let before = tree(&outside);
        let root = Root::open(&root_path).unwrap();
        // As a handler gets it: normalised, matched, its segments joined.
        if let Ok(path) = ResourcePath::resolve(&registry(), &raw) {
            prop_assert!(!path.segments().any(|s| s == ".." || s == "."));
            let relative = path.segments().collect::<Vec<_>>().join("/");
            every_operation(&root, &relative);
        }
        // As a careless handler would pass it: raw, without the leading slash, and whole.
        every_operation(&root, raw.trim_start_matches('/'));
        every_operation(&root, &raw);
        prop_assert_eq!(tree(&outside), before, "outside changed for {:?}", raw);
        let mut beside: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        beside.sort();
        prop_assert_eq!(beside, ["outside", "root"], "something appeared beside the root for {:?}", raw);
    }
}
