//! The robot envelope around a streamed list (robot 3.1): one envelope per call, the items
//! streamed into `data`, the fields known at the end after it; a list that fails half-way is
//! still one valid envelope, `status: error`, with the whole items written before the failure.

use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> (Output, Value) {
    let home = std::env::temp_dir().join(format!("pas-robot-envelope-{}", std::process::id()));
    let output = Command::new(env!("CARGO_BIN_EXE_robot_runtime"))
        .arg("robot")
        .args(args)
        .env("XDG_DATA_HOME", &home)
        .output()
        .expect("robot_runtime runs");
    let stdout = String::from_utf8(output.stdout.clone()).expect("UTF-8");
    assert_eq!(
        stdout.lines().count(),
        1,
        "one envelope, one line: {stdout}"
    );
    let value = serde_json::from_str(&stdout).expect("stdout is one JSON value");
    (output, value)
}

fn ids(value: &Value) -> Vec<u64> {
    value["data"]
        .as_array()
        .expect("data is the array of items")
        .iter()
        .map(|i| i["id"].as_u64().unwrap())
        .collect()
}

#[test]
fn a_streamed_list_is_one_complete_envelope() {
    let (output, value) = run(&["list", "--count", "5"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(value["status"], "success");
    assert_eq!(ids(&value), [0, 1, 2, 3, 4]);
    for field in ["schema_version", "generated_at", "host_id", "command"] {
        assert!(value[field].is_string(), "{field}: {value}");
    }
    assert!(
        value["duration_ms"].is_u64() && value["warnings"].is_array(),
        "{value}"
    );
}

#[test]
fn fields_apply_item_by_item_while_streaming() {
    let (_, value) = run(&["list", "--count", "3", "--fields", "id"]);
    for item in value["data"].as_array().unwrap() {
        assert_eq!(item.as_object().unwrap().keys().collect::<Vec<_>>(), ["id"]);
    }
    let (_, value) = run(&["list", "--count", "3", "--fields", "id,name", "--compact"]);
    assert_eq!(value["data"][2]["name"], "item-2", "{value}");
}

#[test]
fn a_list_failing_half_way_ends_its_envelope_as_an_error() {
    let (output, value) = run(&["list", "--count", "6", "--fail-at", "3"]);
    assert_eq!(output.status.code(), Some(20), "{value}");
    assert_eq!(value["status"], "error");
    assert_eq!(value["error"]["code"], "ERR_INTERNAL");
    assert!(value["error"]["message"].is_string() && value["error"]["recoverable"].is_boolean());
    assert_eq!(
        ids(&value),
        [0, 1, 2],
        "the whole items written before the failure"
    );
    assert!(value["duration_ms"].is_u64() && value["warnings"].is_array());
}

#[test]
fn markdown_still_renders_the_whole_list() {
    let home = std::env::temp_dir();
    let output = Command::new(env!("CARGO_BIN_EXE_robot_runtime"))
        .args(["robot", "list", "--count", "2", "--format", "md"])
        .env("XDG_DATA_HOME", home)
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");
    assert!(text.contains("item-1"), "{text}");
}

/// To a file (a sink no reader waits on) the items go in batches of 64 KiB, each joined in
/// place into the `data` array: across many batches the envelope is still one valid JSON value
/// with every item once, in order.
#[test]
fn a_long_list_written_to_a_file_joins_its_batches_into_one_envelope() {
    let dir = std::env::temp_dir().join(format!("pas-robot-batches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("stdout.json");
    let count = 30_000u64;
    let status = Command::new(env!("CARGO_BIN_EXE_robot_runtime"))
        .args(["robot", "list", "--count", &count.to_string()])
        .env("XDG_DATA_HOME", dir.join("home"))
        .stdout(std::fs::File::create(&path).unwrap())
        .status()
        .expect("robot_runtime runs");
    assert_eq!(status.code(), Some(0));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.len() > 4 * 64 * 1024,
        "several batches: {} bytes",
        text.len()
    );
    assert_eq!(text.lines().count(), 1, "one envelope, one line");
    let value: Value = serde_json::from_str(&text).expect("stdout is one JSON value");
    assert_eq!(value["status"], "success");
    assert_eq!(ids(&value), (0..count).collect::<Vec<_>>());
    let _ = std::fs::remove_dir_all(&dir);
}
