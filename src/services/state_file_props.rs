//! Property tests over the bytes of every state file the runtime reads (session manifests, job
//! manifests, the kept-children file, configuration files): whatever the file holds, the read is
//! a structured error or a correct read, never a panic, a hang, or memory past the kind's limit.
//!
//! Each case writes the bytes to a real file and reads it through the same function the
//! runtime uses; a file past its kind's limit is refused before a byte is read (checked with a
//! sparse file, so no test allocates the limit).

use std::path::Path;

use proptest::prelude::*;
use serde_json::json;

use crate::stdio::state_file::{self, Kind, Refusal};

/// Bytes that look like what each file holds (JSON objects, TOML lines) as well as noise.
fn file_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..512),
        // JSON-ish text: braces, quotes, digits, keys the readers look for.
        proptest::string::string_regex(
            r#"[{}\[\]":,0-9a-z_ \n-]{0,64}(format|session_id|children|pid|status|db)?[{}\[\]":,0-9a-z_ \n.=-]{0,64}"#
        )
        .unwrap()
        .prop_map(String::into_bytes),
        // Valid-looking manifests with values of any JSON type in their fields.
        (any::<u32>(), any::<i64>(), "[a-z]{0,8}").prop_map(|(n, pid, word)| {
            json!({
                "format": n, "session_id": word, "tool": word, "created_by": word,
                "state": word, "created_at": word, "updated_at": word, "updated_ms": n,
                "history": [{"state": word, "at": word}],
                "children": [{"pid": pid, "start_time": n, "command_line": word,
                              "command": word, "recorded_at": n}],
                "id": format!("job-{word}"), "command": word, "argv": [word], "pid": pid,
                "status": "running", "started_at": word, "started_ms": n,
                "poll_interval_ms": n, "timeout_ms": n, "status_command": word,
                "cancel_command": word,
            })
            .to_string()
            .into_bytes()
        }),
    ]
}

/// `bytes` written to a file in `dir`, read as `kind`: the bytes back, whole.
fn read_back(dir: &Path, bytes: &[u8], kind: Kind) -> Vec<u8> {
    let path = dir.join("state.json");
    std::fs::write(&path, bytes).unwrap();
    state_file::read(&path, kind, true).expect("a regular file within the limit is read")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn session_manifests_parse_or_give_the_session_error(bytes in file_bytes()) {
        let dir = tempfile::tempdir().unwrap();
        let read = read_back(dir.path(), &bytes, state_file::SESSION_MANIFEST);
        prop_assert_eq!(&read, &bytes);
        let path = dir.path().join("state.json");
        match crate::services::sessions::Manifest::parse(&read, &path, "ERR_SESSION") {
            Ok(manifest) => prop_assert!(manifest.format <= 1),
            Err(error) => {
                prop_assert_eq!(error.code(), "ERR_SESSION");
                prop_assert!(error.message().contains(&path.display().to_string()));
            }
        }
    }

    #[test]
    fn job_manifests_read_or_give_an_error_naming_the_file(bytes in file_bytes()) {
        let dir = tempfile::tempdir().unwrap();
        let root = crate::services::store::Root::open(dir.path()).unwrap();
        let id = "job-abcdefghijkl";
        std::fs::create_dir_all(dir.path().join(id)).unwrap();
        std::fs::write(dir.path().join(id).join("manifest.json"), &bytes).unwrap();
        match crate::services::jobs::store::read(&root, id) {
            Ok(Some(manifest)) => prop_assert!(!manifest.id.is_empty()),
            Ok(None) => prop_assert!(false, "a file is there"),
            Err(error) => prop_assert!(error.message().contains("manifest.json"), "{:?}", error),
        }
    }

    #[test]
    fn kept_children_files_parse_or_fail_without_a_panic(bytes in file_bytes()) {
        let dir = tempfile::tempdir().unwrap();
        let read = read_back(dir.path(), &bytes, state_file::KEPT_CHILDREN);
        if let Ok(children) = crate::services::children::kept_children::parse(&read) {
            // A parsed entry is only data: whatever pid it names, none that may not be
            // signalled passes the check `cleanup` applies before any signal.
            for kept in children {
                if kept.pid <= 1 {
                    prop_assert!(!crate::services::children::kept_children::signallable(kept.pid));
                }
            }
        }
    }

    #[test]
    fn configuration_files_load_or_give_config_invalid(bytes in file_bytes()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, &bytes).unwrap();
        let registry = config_registry();
        let mut redactor = crate::guards::redact::Redactor::new(&registry);
        match crate::parse::config_file::load(&registry, Some(&path), &mut |value, source| redactor.add_secret(value, source)) {
            Ok(file) => prop_assert!(file.is_some()),
            Err(error) => {
                prop_assert_eq!(error.code(), crate::codes::CONFIG_INVALID);
                prop_assert!(error.message().contains(&path.display().to_string()), "{:?}", error);
            }
        }
    }
}

fn config_registry() -> pas_spec::Registry {
    serde_json::from_value(json!({
        "specVersion": 1, "name": "fuzzed", "version": "1.0.0", "summary": "A test tool.",
        "globalFlags": [
            {"name": "db", "type": "string", "description": "A path."},
            {"name": "limit", "type": "integer", "description": "A number."},
        ],
        "commands": [{"name": "run", "description": "Runs."}]
    }))
    .expect("the test registry")
}

/// Every kind's limit holds without reading: a sparse file one byte past it is refused by its
/// size, before any byte is read (no allocation of the limit).
#[test]
fn every_kind_refuses_a_file_past_its_limit_before_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    for kind in [
        state_file::CONFIG,
        state_file::SESSION_MANIFEST,
        state_file::SESSION_ARTIFACT,
        state_file::JOB_MANIFEST,
        state_file::KEPT_CHILDREN,
        state_file::STORE_FILE,
    ] {
        let path = dir.path().join("big");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(kind.limit + 1).unwrap();
        drop(file);
        let refused = state_file::read(&path, kind, true);
        assert!(
            matches!(refused, Err(Refusal::TooLarge(size)) if size == kind.limit + 1),
            "{}: {refused:?}",
            kind.name
        );
    }
}

/// A configuration file that is a device or a FIFO is `CONFIG_INVALID` naming it, at once.
#[test]
#[cfg(unix)]
fn a_device_or_fifo_in_the_configurations_place_is_config_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("config.toml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let registry = config_registry();
    for path in [Path::new("/dev/zero"), fifo.as_path()] {
        let mut redactor = crate::guards::redact::Redactor::new(&registry);
        let error = crate::parse::config_file::load(&registry, Some(path), &mut |value, source| {
            redactor.add_secret(value, source)
        })
        .expect_err("not a regular file");
        assert_eq!(error.code(), crate::codes::CONFIG_INVALID);
        assert!(
            error.message().contains(&path.display().to_string())
                && error.message().contains("not a regular file"),
            "{error:?}"
        );
        assert_eq!(error.details().unwrap()["limit"], state_file::CONFIG.limit);
    }
}
