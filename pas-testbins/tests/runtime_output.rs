//! Success and failure output of the `pas` profile in agent mode: one object, NDJSON streamed
//! line by line, `--format=array`, partial lists, Markdown, events, nothing.

mod runtime_support;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use runtime_support::{code, demo, error_json, ndjson, run, stderr, stdout};

#[test]
fn one_object_is_one_json_line() {
    let out = run(&["--agent", "item", "get", "42"]);
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "{\"id\":42,\"name\":\"item-42\"}\n");
    assert_eq!(stderr(&out), "");
}

#[test]
fn a_list_is_ndjson() {
    let out = run(&["--agent", "item", "list", "-n", "1000"]);
    assert_eq!(code(&out), 0);
    let items = ndjson(&out);
    assert_eq!(items.len(), 1000);
    assert_eq!(items[999]["id"], 999);
    assert_eq!(stderr(&out), "");
}

#[test]
fn format_array_is_one_json_array() {
    let out = run(&["--agent", "item", "list", "-n", "3", "--format=array"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(text.starts_with('[') && text.ends_with("]\n"), "{text}");
    let items: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(items.len(), 3);
    let empty = run(&["--agent", "item", "list", "-n", "0", "--format", "array"]);
    assert_eq!(stdout(&empty), "[]\n");
    let explicit = run(&["--agent", "item", "list", "-n", "2", "--format", "ndjson"]);
    assert_eq!(ndjson(&explicit).len(), 2);
}

#[test]
fn a_list_failing_half_way_keeps_the_whole_lines_then_reports_the_error() {
    let out = run(&["--agent", "item", "list", "-n", "10", "--fail-at", "4"]);
    assert_eq!(code(&out), 101, "STORE_FAILED's registry code");
    let items = ndjson(&out);
    assert_eq!(
        items
            .iter()
            .map(|i| i["id"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        [0, 1, 2, 3]
    );
    let error = error_json(&out);
    assert_eq!(error["error"], "STORE_FAILED");
    assert_eq!(error["code"], 101);
    assert_eq!(error["message"], "the store failed at item 4");
}

#[test]
fn a_failed_array_is_still_valid_json_with_the_partial_items() {
    let out = run(&[
        "--agent",
        "item",
        "list",
        "-n",
        "10",
        "--fail-at",
        "2",
        "--format=array",
    ]);
    assert_eq!(code(&out), 101);
    let items: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(error_json(&out)["error"], "STORE_FAILED");
}

#[test]
fn a_panic_half_way_through_a_list_keeps_whole_lines() {
    let out = demo(&["--agent", "item", "list", "-n", "10", "--panic-at", "3"])
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert_eq!(ndjson(&out).len(), 3);
    let error = error_json(&out);
    assert_eq!(error["error"], "INTERNAL_ERROR");
    assert_eq!(error["details"]["panic"], "the demo panics at item 3");
}

#[test]
fn a_document_is_clean_markdown() {
    let out = run(&["--agent", "doc"]);
    assert_eq!(code(&out), 0);
    insta::assert_snapshot!(stdout(&out), @r"
    # Demo

    Use `demo --agent item list` to list items.

    ```sh
    demo --agent item get 1
    ```
    ");
    assert!(stdout(&out).ends_with("```\n"));
}

#[test]
fn events_are_ndjson_with_progress_events_in_agent_mode() {
    let out = run(&["--agent", "watch", "--steps", "2"]);
    assert_eq!(code(&out), 0);
    insta::assert_snapshot!(stdout(&out), @r#"
    {"event":"progress","position":0,"total":2,"message":"starting"}
    {"event":"progress","position":1,"total":2,"message":"starting"}
    {"event":"progress","position":2,"total":2,"message":"starting"}
    {"event":"progress","position":2,"total":2,"message":"starting","done":true}
    {"event":"done","steps":2}
    "#);
}

#[test]
fn progress_is_silent_in_agent_mode_for_lists_and_off_a_terminal_for_people() {
    let agent = run(&["--agent", "work", "--steps", "2"]);
    assert_eq!(ndjson(&agent).len(), 2);
    assert_eq!(stderr(&agent), "");
    let human = run(&["work", "--steps", "2"]);
    assert_eq!(
        stdout(&human),
        "#0 item-0\n#1 item-1\n",
        "the handler's own text per item"
    );
    assert_eq!(stderr(&human), "", "no bar when stderr is not a terminal");
}

#[test]
fn nothing_is_nothing() {
    let out = run(&["--agent", "nothing"]);
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

#[test]
fn a_list_streams_each_line_as_it_is_produced() {
    // 4 items, 400 ms apart: the first line must arrive long before the last is produced.
    let started = Instant::now();
    let mut child = demo(&["--agent", "item", "list", "-n", "4", "--delay-ms", "400"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let first_at = started.elapsed();
    assert_eq!(
        first,
        "{\"id\":0,\"name\":\"item-0\",\"tags\":[\"a\",\"b\"]}"
    );
    assert!(
        child.try_wait().unwrap().is_none(),
        "still producing when the first line arrived"
    );
    assert!(
        first_at < Duration::from_millis(1200),
        "first line after {first_at:?}"
    );
    assert_eq!(lines.count(), 3);
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_line_to_mask_reaches_a_pipe_masked_while_the_handler_blocks_after_it() {
    // A fast list (its lines go over in batches once the flusher runs), whose item 3000 holds
    // the call's secret, after which the handler blocks for a minute: that line still reaches
    // the reader within the flusher's latency, scrubbed, before the handler goes on.
    const JWT: &str = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyXzEyMyIsImlhdCI6MTcxMDAwMDAwMCwiZXhwIjoxNzEwMDAzNjAwfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
    let mut child = demo(&["--agent", "item", "list", "-n", "100000"])
        .env("DEMO_TOKEN_AT", "3000")
        .env("DEMO_LIST_TOKEN", JWT)
        .env("DEMO_TOKEN", JWT)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (sent, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if sent.send(line).is_err() {
                return;
            }
        }
    });
    let started = Instant::now();
    let mut got = Vec::new();
    while got.len() <= 3000 {
        let left = Duration::from_secs(30).saturating_sub(started.elapsed());
        match received.recv_timeout(left) {
            Ok(line) => got.push(line),
            Err(_) => break,
        }
    }
    let blocked = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(got.len(), 3001, "every line made, none held back");
    assert!(blocked, "the handler still blocks");
    for (n, line) in got.iter().enumerate() {
        let item: serde_json::Value = serde_json::from_str(line).expect("whole JSON lines");
        assert_eq!(item["id"], n);
    }
    let last = &got[3000];
    assert!(last.contains("[REDACTED]"), "{last}");
    assert!(!last.contains("SflKxwRJ"), "{last}");
}
