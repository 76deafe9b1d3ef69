//! CLI Agent Spec failure mode 12 (idempotency and safe retries), in every profile: a command
//! that changes state takes the runtime's `--idempotency-key`, a repeat with the same key and
//! input replays the first result without running the handler (effect `noop`, marked
//! `replayed`), the same key with other input is refused before the handler runs, and the
//! effect a handler reports (`Context::set_effect`) reaches each profile's metadata.

mod runtime_support;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use runtime_support::named;
use serde_json::Value;

fn shopping(dir: &Path, profile: &str, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-effects-demo"));
    if profile == "pas" {
        cmd.arg("--agent");
    }
    cmd.args(args)
        .env("EFFECTS_DIR", dir)
        .env("EFFECTS_PROFILE", profile)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("HOME", dir.join("home"))
        .env_remove("XDG_CACHE_HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("PAS_AGENT")
        .env_remove("PAS_META")
        .stdin(Stdio::null());
    cmd.output().expect("the effects demo runs")
}

fn runs(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("runs"))
        .map(|text| text.lines().count())
        .unwrap_or(0)
}

fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap_or_else(|err| {
        panic!("{err}: {}", String::from_utf8_lossy(bytes));
    })
}

/// The data, the effect and the replay marker of a successful call, where its profile puts
/// them: `pas` data on stdout and an `{"effect"}` line on stderr; compose `data` and `meta`;
/// robot `data` and the envelope's own fields.
fn success(profile: &str, out: &Output) -> (Value, Value, Value) {
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = json(&out.stdout);
    match profile {
        "pas" => {
            let stderr = json(&out.stderr);
            (stdout, stderr["effect"].clone(), stderr["replayed"].clone())
        }
        "compose" => (
            stdout["data"].clone(),
            stdout["meta"]["effect"].clone(),
            stdout["meta"]["replayed"].clone(),
        ),
        _ => (
            stdout["data"].clone(),
            stdout["effect"].clone(),
            stdout["replayed"].clone(),
        ),
    }
}

#[test]
fn a_repeat_with_the_same_idempotency_key_replays_without_running_in_every_profile() {
    for profile in ["pas", "compose", "robot"] {
        let dir = tempfile::tempdir().unwrap();
        let args = ["add", "milk", "--idempotency-key", "order-1"];
        let (data, effect, replayed) = success(profile, &shopping(dir.path(), profile, &args));
        assert_eq!(
            data,
            serde_json::json!({"name": "milk", "runs": 1}),
            "{profile}"
        );
        assert_eq!(effect, "created", "{profile}");
        assert_eq!(
            replayed,
            Value::Null,
            "{profile}: a first call is no replay"
        );

        // The key before the positional, `=`-joined: the same input.
        let again = ["add", "--idempotency-key=order-1", "milk"];
        let (data2, effect2, replayed2) = success(profile, &shopping(dir.path(), profile, &again));
        assert_eq!(data2, data, "{profile}: the replay answers the first data");
        assert_eq!(effect2, "noop", "{profile}");
        assert_eq!(replayed2, true, "{profile}");
        assert_eq!(runs(dir.path()), 1, "{profile}: the handler ran once");

        // Without a key a call runs, and says what it changed.
        let plain = shopping(dir.path(), profile, &["add", "milk"]);
        let (data3, effect3, _) = success(profile, &plain);
        assert_eq!(data3["runs"], 2, "{profile}");
        assert_eq!(effect3, "noop", "{profile}: milk was on the list already");
    }
}

#[test]
fn the_same_key_with_other_input_is_refused_before_the_handler_runs() {
    for (profile, exit) in [("pas", 2), ("compose", 1), ("robot", 2)] {
        let dir = tempfile::tempdir().unwrap();
        let first = shopping(
            dir.path(),
            profile,
            &["add", "milk", "--idempotency-key", "k"],
        );
        assert_eq!(first.status.code(), Some(0), "{first:?}");
        let reused = shopping(
            dir.path(),
            profile,
            &["add", "eggs", "--idempotency-key", "k"],
        );
        assert_eq!(reused.status.code(), Some(exit), "{profile}: {reused:?}");
        let (code, details) = match profile {
            "pas" => {
                assert!(reused.stdout.is_empty(), "{reused:?}");
                let error = json(&reused.stderr);
                (error["error"].clone(), error["details"].clone())
            }
            "compose" => {
                let env = json(&reused.stdout);
                (
                    env["error"]["code"].clone(),
                    env["error"]["details"].clone(),
                )
            }
            _ => {
                let env = json(&reused.stdout);
                (
                    env["error"]["details"]["kind"].clone(),
                    env["error"]["details"].clone(),
                )
            }
        };
        assert_eq!(code, "ARGUMENT_CONFLICT", "{profile}");
        assert_eq!(details["reason"], "IDEMPOTENCY_KEY_REUSED", "{profile}");
        assert_eq!(details["idempotency_key"], "k", "{profile}");
        assert_eq!(runs(dir.path()), 1, "{profile}: the refused call never ran");
        assert!(!dir.path().join("items/eggs").exists(), "{profile}");
    }
}

#[test]
fn a_dry_run_neither_replays_nor_records_and_a_bad_key_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let dry = shopping(
        dir.path(),
        "pas",
        &["add", "milk", "--dry-run", "--idempotency-key", "k"],
    );
    assert_eq!(json(&dry.stdout)["runs"], 0, "{dry:?}");
    // The key is still fresh: the real call runs and records.
    let real = shopping(
        dir.path(),
        "pas",
        &["add", "milk", "--idempotency-key", "k"],
    );
    assert_eq!(json(&real.stdout)["runs"], 1, "{real:?}");
    assert_eq!(runs(dir.path()), 1);

    let blank = shopping(
        dir.path(),
        "pas",
        &["add", "milk", "--idempotency-key", " "],
    );
    assert_eq!(blank.status.code(), Some(2), "{blank:?}");
    assert_eq!(json(&blank.stderr)["error"], "INVALID_VALUE");
    assert_eq!(runs(dir.path()), 1);
}

#[test]
fn every_face_offers_the_key_on_commands_that_change_state_only() {
    let dir = tempfile::tempdir().unwrap();
    let help = shopping(dir.path(), "pas", &["add", "--help"]);
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("--idempotency-key <KEY>"), "{help}");
    let read_help = shopping(dir.path(), "pas", &["list", "--help"]);
    let read_help = String::from_utf8(read_help.stdout).unwrap();
    assert!(!read_help.contains("idempotency"), "{read_help}");

    let llm = shopping(dir.path(), "pas", &["docs"]);
    let llm = String::from_utf8(llm.stdout).unwrap();
    assert!(
        llm.contains("--idempotency-key KEY replays a repeat"),
        "{llm}"
    );

    let catalog = json(&shopping(dir.path(), "compose", &["tools", "add"]).stdout);
    let key = named(&catalog["data"]["parameters"], "idempotency-key");
    assert_eq!(key["type"], "string");
    let read = json(&shopping(dir.path(), "compose", &["tools", "list"]).stdout);
    assert!(!read.to_string().contains("idempotency-key"), "{read}");

    // A read command refuses the flag: it has nothing to replay.
    let refused = shopping(dir.path(), "pas", &["list", "--idempotency-key", "k"]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
}

#[test]
fn a_derived_and_an_included_spec_command_replay_too() {
    for derived in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("rust"), "https://example.org\n").unwrap();
        let remove = |key: &str| {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-guard-demo"));
            cmd.args([
                "--agent",
                "remove",
                "--force",
                "--idempotency-key",
                key,
                "rust",
            ])
            .env("BOOKMARKS_DIR", dir.path())
            .env("XDG_STATE_HOME", dir.path().join("state"))
            .env_remove("PAS_AGENT")
            .stdin(Stdio::null());
            if derived {
                cmd.env("GUARD_DEMO_DERIVE", "1");
            } else {
                cmd.env_remove("GUARD_DEMO_DERIVE");
            }
            cmd.output().unwrap()
        };
        let first = remove("rm-1");
        assert_eq!(first.status.code(), Some(0), "{first:?}");
        // The bookmark is gone: a second run would fail NOT_FOUND, the replay answers as the first.
        let again = remove("rm-1");
        assert_eq!(again.status.code(), Some(0), "derived {derived}: {again:?}");
        assert_eq!(again.stdout, first.stdout);
        assert_eq!(json(&again.stderr)["replayed"], true);
        let other = remove("rm-2");
        assert_eq!(other.status.code(), Some(100), "a new key runs: {other:?}");
    }
}

#[test]
fn cleanup_lists_then_removes_only_what_the_declared_side_effects_left_inside_the_tool_homes() {
    for profile in ["pas", "compose", "robot"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        let added = shopping(
            dir.path(),
            profile,
            &["add", "milk", "--idempotency-key", "k"],
        );
        assert_eq!(added.status.code(), Some(0), "{added:?}");
        let cache = dir.path().join("home/.cache/shopping");
        let history = dir.path().join("home/.shopping-history");
        let records = dir.path().join("state/shopping/idempotency");
        assert!(cache.join("index").exists() && history.exists() && records.exists());

        let data = |out: &Output| {
            assert_eq!(out.status.code(), Some(0), "{profile}: {out:?}");
            let value = json(&out.stdout);
            if profile == "pas" {
                value
            } else {
                value["data"].clone()
            }
        };
        // Without a flag: an inventory, and nothing removed.
        let listed = data(&shopping(dir.path(), profile, &["cleanup"]));
        assert_eq!(listed["mode"], "list", "{profile}");
        let paths = listed["paths"].as_array().unwrap();
        assert_eq!(paths.len(), 3, "{listed}");
        assert_eq!(paths[0]["path"], cache.display().to_string());
        assert_eq!(paths[0]["exists"], true);
        assert_eq!(paths[0]["files"], 1);
        assert_eq!(paths[0]["commands"], serde_json::json!(["add"]));
        assert!(
            paths[1]["refused"].as_str().unwrap().contains("outside"),
            "{listed}"
        );
        assert_eq!(paths[2]["source"], "runtime");
        assert!(cache.exists() && records.exists());

        let dry = data(&shopping(dir.path(), profile, &["cleanup", "--dry-run"]));
        assert_eq!(dry["mode"], "dry-run");
        assert!(dry["freed_bytes"].as_u64().unwrap() > 0, "{dry}");
        assert!(cache.exists() && records.exists());

        let confirm = if profile == "robot" {
            "--yes"
        } else {
            "--force"
        };
        let removed = data(&shopping(dir.path(), profile, &["cleanup", confirm]));
        assert_eq!(removed["mode"], "remove");
        assert_eq!(removed["paths"][0]["removed"], true, "{removed}");
        assert!(!cache.exists(), "{profile}: the declared cache is gone");
        let left: Vec<String> = std::fs::read_dir(&records)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.ends_with(".json"))
            .collect();
        assert!(
            left.is_empty(),
            "{profile}: the finished record is gone: {left:?}"
        );
        assert_eq!(removed["paths"][2]["records"]["removed"], 1, "{removed}");
        assert!(
            history.exists(),
            "{profile}: a path outside the homes is never touched"
        );
    }
}

/// `cleanup --force` forgets finished idempotency records only (issue 28): a record whose key a
/// running call holds, a pending record of a call that ended before recording its outcome, and a
/// record that cannot be read all stay, counted, since removing any of them could run a call
/// twice; a dry run counts the same and removes nothing.
#[test]
fn cleanup_keeps_the_idempotency_records_a_retry_still_needs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    let added = shopping(
        dir.path(),
        "pas",
        &["add", "milk", "--idempotency-key", "done"],
    );
    assert_eq!(added.status.code(), Some(0), "{added:?}");
    let records = dir.path().join("state/shopping/idempotency");
    let finished: Vec<_> = std::fs::read_dir(&records)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    assert_eq!(finished.len(), 1, "{finished:?}");
    let done = std::fs::read(&finished[0]).unwrap();
    // A call still running with its key: it holds the key's lock (this test holds it).
    std::fs::write(records.join("aa.json"), &done).unwrap();
    let held = std::fs::File::create(records.join("aa.lock")).unwrap();
    held.lock().unwrap();
    // A call killed after reserving its key: pending, nobody holds it.
    let pending = String::from_utf8(done)
        .unwrap()
        .replace(r#""state":"done""#, r#""state":"pending""#);
    assert!(pending.contains(r#""state":"pending""#), "{pending}");
    std::fs::write(records.join("bb.json"), pending).unwrap();
    // Not a record at all.
    std::fs::write(records.join("cc.json"), "not json").unwrap();

    let kept = serde_json::json!({"running": 1, "outcome_unknown": 1, "unreadable": 1});
    let dry = shopping(dir.path(), "pas", &["cleanup", "--dry-run"]);
    let dry = json(&dry.stdout);
    let counted = &dry["paths"][2]["records"];
    assert_eq!(counted["removed"], 1, "{dry}");
    for (kind, count) in kept.as_object().unwrap() {
        assert_eq!(&counted[kind], count, "{kind}: {dry}");
    }
    assert!(finished[0].exists(), "a dry run removes nothing");

    let out = shopping(dir.path(), "pas", &["cleanup", "--force"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let removed = json(&out.stdout);
    assert_eq!(removed["paths"][2]["records"]["removed"], 1, "{removed}");
    assert!(!finished[0].exists(), "the finished record is forgotten");
    for name in ["aa.json", "bb.json", "cc.json", "aa.lock"] {
        assert!(records.join(name).exists(), "{name} stays: {removed}");
    }
    drop(held);
}

#[test]
fn the_faces_tell_of_cleanup_where_side_effects_are_declared() {
    let dir = tempfile::tempdir().unwrap();
    let help = shopping(dir.path(), "pas", &["add", "--help"]);
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(
        help.contains(
            "(`shopping cleanup` lists the files, `shopping cleanup --force` removes them)"
        ),
        "{help}"
    );
    let llm = String::from_utf8(shopping(dir.path(), "pas", &["docs"]).stdout).unwrap();
    assert!(
        llm.contains("`shopping cleanup --force` removes them"),
        "{llm}"
    );
}

/// Failure mode 19 in the robot profile: a retrying caller's attempt (`PAS_ATTEMPT`) comes back
/// in the envelope's own fields, on a success as on an error; none when the caller gives none.
#[test]
fn the_robot_envelope_echoes_the_callers_attempt() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-effects-demo"));
    cmd.args(["add", "milk"])
        .env("EFFECTS_DIR", dir.path())
        .env("EFFECTS_PROFILE", "robot")
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("HOME", dir.path().join("home"))
        .env("PAS_ATTEMPT", "2")
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null());
    let out = cmd.output().unwrap();
    let envelope = json(&out.stdout);
    assert_eq!(envelope["status"], "success", "{envelope}");
    assert_eq!(envelope["attempt"], 2, "{envelope}");
    let out = shopping(dir.path(), "robot", &["add", "bread"]);
    assert_eq!(json(&out.stdout).get("attempt"), None);
}

#[test]
fn a_repeat_in_machine_mode_replays_a_first_call_a_person_made() {
    // `--agent` changes the form of a call, never its input: the key stands for the same call.
    let dir = tempfile::tempdir().unwrap();
    let mut human = Command::new(env!("CARGO_BIN_EXE_pas-effects-demo"));
    human
        .args(["add", "milk", "--idempotency-key", "k"])
        .env("EFFECTS_DIR", dir.path())
        .env("EFFECTS_PROFILE", "pas")
        .env("XDG_STATE_HOME", dir.path().join("state"))
        .env("HOME", dir.path().join("home"))
        .env_remove("XDG_CACHE_HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("PAS_AGENT")
        .env_remove("PAS_META")
        .stdin(Stdio::null());
    let first = human.output().unwrap();
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    let agent = shopping(
        dir.path(),
        "pas",
        &["add", "milk", "--idempotency-key", "k"],
    );
    let (data, effect, replayed) = success("pas", &agent);
    assert_eq!(data, serde_json::json!({"name": "milk", "runs": 1}));
    assert_eq!(effect, "noop");
    assert_eq!(replayed, true);
    assert_eq!(runs(dir.path()), 1, "the handler ran once");
}
