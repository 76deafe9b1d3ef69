//! The record file of a key read from any bytes (a structured error or a correct read, never a
//! panic, a hang or a read past the limit), and the reservation's answers: in progress while the
//! first call holds the key, unknown once it ended unrecorded, a replay once it recorded, a fresh
//! run once a failed call gave the key back.

use std::path::Path;
use std::time::Duration;

use proptest::prelude::*;

use super::*;

fn registry() -> Registry {
    serde_json::from_value(serde_json::json!({
        "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "s",
        "commands": [
            {"name": "item.add", "description": "d", "effect": "write",
             "parameters": [{"name": "name", "kind": "positional"}]},
            {"name": "item.list", "description": "d", "output": "list"}
        ]
    }))
    .unwrap()
}

fn matches(name: &str) -> clap::ArgMatches {
    clap::Command::new("t")
        .subcommand(
            clap::Command::new("item").subcommand(
                clap::Command::new("add")
                    .arg(clap::Arg::new("name"))
                    .arg(clap::Arg::new(KEY_ID).long("idempotency-key")),
            ),
        )
        .try_get_matches_from(["t", "item", "add", name, "--idempotency-key", "k"])
        .unwrap()
}

fn reserve(dir: &Path, registry: &Registry, name: &str, wait: Duration) -> Result<Begin, Error> {
    let matches = matches(name);
    let key = "k".to_owned();
    Begun {
        registry,
        command: &registry.commands[0],
        matches: &matches,
        stdin: None,
        key: &key,
    }
    .reserve(dir, wait)
}

fn reason(error: &Error) -> String {
    error.details().map_or(String::new(), |d| {
        d["reason"].as_str().unwrap_or_default().to_owned()
    })
}

fn fresh(begun: Result<Begin, Error>) -> Keyed {
    match begun {
        Ok(Begin::Fresh(keyed)) => keyed,
        Ok(Begin::Replay(_)) => panic!("a replay, not a fresh call"),
        Ok(Begin::Unkeyed) => panic!("unkeyed"),
        Err(error) => panic!("{error:?}"),
    }
}

#[test]
fn a_held_key_is_in_progress_a_dead_reservation_unknown_and_a_record_replays() {
    let dir = tempfile::tempdir().unwrap();
    let registry = registry();
    let wait = Duration::from_millis(30);
    let first = fresh(reserve(dir.path(), &registry, "milk", wait));

    // While the first call holds the key, a repeat waits, then is told to come back.
    let Err(busy) = reserve(dir.path(), &registry, "milk", wait) else {
        panic!("a second call ran while the first held the key");
    };
    assert_eq!(reason(&busy), IN_PROGRESS, "{busy:?}");
    assert!(
        busy.retryable() && busy.retry_after_ms().is_some(),
        "{busy:?}"
    );

    // The first call ends without recording (killed): its reservation stays, unknown.
    drop(first);
    let Err(unknown) = reserve(dir.path(), &registry, "milk", wait) else {
        panic!("a reservation left by an ended call was run again");
    };
    assert_eq!(reason(&unknown), OUTCOME_UNKNOWN, "{unknown:?}");
    assert!(!unknown.retryable());
    assert!(
        unknown.suggestion().unwrap().contains("`t item list`"),
        "the hint names a read command: {unknown:?}"
    );
    // Other input with the key is still a conflict, not an unknown outcome.
    let Err(other) = reserve(dir.path(), &registry, "eggs", wait) else {
        panic!("other input ran");
    };
    assert_eq!(reason(&other), KEY_REUSED, "{other:?}");
}

#[test]
fn a_recorded_key_replays_and_a_given_back_key_runs_again() {
    let dir = tempfile::tempdir().unwrap();
    let registry = registry();
    let wait = Duration::from_millis(30);

    let failed = fresh(reserve(dir.path(), &registry, "milk", wait));
    failed.abandon();
    let keyed = fresh(reserve(dir.path(), &registry, "milk", wait));

    let done = Record {
        key: keyed.key.clone(),
        command: keyed.command.clone(),
        input: keyed.input.clone(),
        state: State::Done,
        owner: None,
        effect: Some(Change::Created),
        reply: Some(Recorded::Object {
            json: "{\"name\":\"milk\"}".to_owned(),
            text: None,
        }),
    };
    keyed
        .slot
        .write(&serde_json::to_vec(&done).unwrap())
        .unwrap();
    drop(keyed);
    match reserve(dir.path(), &registry, "milk", wait) {
        Ok(Begin::Replay(reply)) => match reply.body {
            Body::Object(object) => {
                assert_eq!(object.json.unwrap(), b"{\"name\":\"milk\"}".to_vec());
            }
            _ => panic!("the recorded object"),
        },
        _ => panic!("a replay"),
    }
}

#[test]
fn a_state_directory_that_is_a_file_fails_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("idempotency");
    std::fs::write(&file, "x").unwrap();
    let Err(error) = reserve(&file, &registry(), "milk", Duration::ZERO) else {
        panic!("reserved in a file");
    };
    assert_eq!(reason(&error), slot::NOT_RESERVED, "{error:?}");
}

fn slot_in(dir: &Path) -> Slot {
    Slot::open(dir, "0123456789abcdef0123456789abcdef".to_owned(), "k").unwrap()
}

fn unreadable(result: Result<Option<Record>, Error>) -> Error {
    match result {
        Err(error) => {
            assert_eq!(reason(&error), slot::RECORD_UNREADABLE, "{error:?}");
            error
        }
        Ok(_) => panic!("read as a record"),
    }
}

#[test]
fn a_record_too_large_a_fifo_or_a_link_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let slot = slot_in(dir.path());
    let path = slot.record_path();

    // Sparse: the limit is checked before a byte is read.
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(slot::RECORD_MAX + 1).unwrap();
    let error = unreadable(read(&slot));
    assert!(error.message().contains("larger than"), "{error:?}");
    assert_eq!(error.details().unwrap()["path"], path.display().to_string());

    std::fs::remove_file(&path).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    if made.is_ok_and(|s| s.success()) {
        // Opened without blocking: no writer ever comes, and the read still ends.
        unreadable(read(&slot));
        std::fs::remove_file(&path).unwrap();
    }

    let target = dir.path().join("elsewhere.json");
    std::fs::write(&target, "{}").unwrap();
    std::os::unix::fs::symlink(&target, &path).unwrap();
    unreadable(read(&slot));
}

fn valid_record() -> Vec<u8> {
    let record = Record {
        key: "k".to_owned(),
        command: "item.add".to_owned(),
        input: "ab".repeat(32),
        state: State::Done,
        owner: None,
        effect: Some(Change::Created),
        reply: Some(Recorded::List {
            items: vec!["{\"id\":1}".to_owned(), "{\"id\":2}".to_owned()],
            page: Some(RecordedPage {
                total: Some(2),
                has_more: false,
                next_cursor: None,
            }),
        }),
    };
    serde_json::to_vec(&record).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any bytes at all: a record, or the structured error naming the file.
    #[test]
    fn any_bytes_read_as_a_record_or_a_structured_error(
        bytes in proptest::collection::vec(any::<u8>(), 0..2048)
    ) {
        let dir = tempfile::tempdir().unwrap();
        let slot = slot_in(dir.path());
        std::fs::write(slot.record_path(), &bytes).unwrap();
        match read(&slot) {
            Ok(Some(record)) => {
                // A correct read: the bytes are the JSON of that record.
                let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                prop_assert_eq!(&value["key"], &serde_json::json!(record.key));
            }
            Ok(None) => prop_assert!(false, "a file that exists read as no record"),
            Err(error) => prop_assert_eq!(reason(&error), slot::RECORD_UNREADABLE),
        }
    }

    /// A real record cut anywhere (a crash mid-write without the atomic rename) or with one
    /// byte changed: never a panic, and a cut one is never read as a record.
    #[test]
    fn a_cut_or_changed_record_is_an_error_never_a_fresh_run(
        cut in 0usize..1000,
        at in 0usize..1000,
        byte in any::<u8>(),
    ) {
        let whole = valid_record();
        let dir = tempfile::tempdir().unwrap();
        let slot = slot_in(dir.path());

        let cut = cut % whole.len();
        std::fs::write(slot.record_path(), &whole[..cut]).unwrap();
        prop_assert_eq!(reason(&unreadable(read(&slot))), slot::RECORD_UNREADABLE);

        let mut changed = whole.clone();
        let at = at % changed.len();
        changed[at] = byte;
        std::fs::write(slot.record_path(), &changed).unwrap();
        match read(&slot) {
            Ok(Some(_)) => {}
            Ok(None) => prop_assert!(false, "a file that exists read as no record"),
            Err(error) => prop_assert_eq!(reason(&error), slot::RECORD_UNREADABLE),
        }

        std::fs::write(slot.record_path(), &whole).unwrap();
        let record = read(&slot).unwrap().unwrap();
        prop_assert_eq!(record.state, State::Done);
        prop_assert_eq!(serde_json::to_vec(&record).unwrap(), whole);
    }
}
