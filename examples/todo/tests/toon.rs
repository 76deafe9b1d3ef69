//! `--toon` prints the same envelope object as the default JSON, for every command of the
//! example (success, list, error, argument error, blocked store and every built-in): the TOON is
//! decoded by the reference decoder (`@toon-format/toon` from the npm registry, installed into
//! tests/toon-decoder/ by .ci/run) and compared with the JSON envelope, `meta.elapsed` aside.
//!
//! Without node or the installed decoder the test is skipped with a loud message, except under
//! CI (`CI` set), where it fails.

mod support;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;
use support::{Call, Env, normalised};

fn decoder() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/toon-decoder");
    let ready = dir.join("node_modules/@toon-format/toon").is_dir()
        && Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    if ready {
        return Some(dir.join("decode.mjs"));
    }
    let why = "the reference TOON decoder is not installed: run `npm ci --prefix tests/toon-decoder` (node needed)";
    assert!(std::env::var_os("CI").is_none(), "{why}");
    eprintln!("\n!!! SKIPPED the TOON round trip: {why} !!!\n");
    None
}

fn decode(script: &PathBuf, toon: &str) -> Value {
    let mut child = Command::new("node")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(toon.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the reference decoder rejected:\n{toon}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the decoder prints JSON")
}

fn toon_call(env: &Env, args: &[&str]) -> Call {
    let mut with = args.to_vec();
    with.push("--toon");
    Call::from(env.command(&with).output().unwrap())
}

#[test]
fn toon_is_the_same_envelope_for_every_command() {
    let Some(script) = decoder() else { return };
    let env = Env::new();
    let seed = env.call(&[
        "task",
        "create",
        "--title",
        "Call the bank, then: \"the notary\"",
        "--tag",
        "admin",
        "--tag",
        "phone",
        "--due",
        "2026-03-01",
    ]);
    assert_eq!(seed.exit, 0);
    env.call(&[
        "task",
        "create",
        "--title",
        "second",
        "--notes",
        "multi\nline notes",
    ]);
    env.call(&["task", "create", "--title", "third"]);
    let cases: &[&[&str]] = &[
        &["tools"],
        &["tools", "task.create"],
        &["tools", "task.nope"],
        &["health"],
        &["config", "show"],
        &["task", "create", "--title", "x", "--dry-run"],
        &["task", "create", "--due", "nope"],
        &["task", "list", "--status", "all"],
        &["task", "list", "--limit", "1"],
        &["task", "list", "--tag", "nobody"],
        &["task", "get", "1"],
        &["task", "get", "999"],
        &["task", "update", "1", "--priority", "low", "--dry-run"],
        &["task", "done", "2", "--dry-run"],
        &["task", "delete", "3"],
        &["task", "delete", "3", "--dry-run"],
        &["task", "get", "not-a-number"],
        &["task", "nope"],
    ];
    for args in cases {
        let json = env.call(args);
        let toon = toon_call(&env, args);
        assert_eq!(json.exit, toon.exit, "{args:?}");
        assert!(
            !toon.stdout.trim_start().starts_with('{'),
            "{args:?} printed JSON with --toon"
        );
        let decoded = decode(&script, &toon.stdout);
        assert_eq!(
            unstamped(normalised(decoded)),
            unstamped(normalised(json.envelope.clone())),
            "{args:?}"
        );
    }

    // A blocked store: the error envelope, exit 2, in TOON too.
    std::fs::write(
        env.db(),
        b"not a database, not a database, not a database, not a database.",
    )
    .unwrap();
    let json = env.call(&["task", "list"]);
    let toon = toon_call(&env, &["task", "list"]);
    assert_eq!((json.exit, toon.exit), (2, 2));
    assert_eq!(
        normalised(decode(&script, &toon.stdout)),
        normalised(json.envelope)
    );
}

/// The envelope with the times a dry run stamps on the task it would write (`created`,
/// `updated`, `doneAt`: "now", read once per call) blanked: the JSON and the TOON call are two
/// calls, and may fall on either side of a second. Stored tasks keep their stored times, so
/// only a dry run's data is touched.
fn unstamped(mut envelope: Value) -> Value {
    if let Some(data) = envelope.get_mut("data").and_then(Value::as_object_mut)
        && data.get("dryRun") == Some(&Value::Bool(true))
    {
        for key in ["created", "updated", "doneAt"] {
            if let Some(value) = data.get_mut(key) {
                *value = Value::from("<now>");
            }
        }
    }
    envelope
}
