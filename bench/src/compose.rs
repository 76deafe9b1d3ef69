//! The compose profile's output: `todo tools` and `todo task list` over 1,000 tasks, JSON
//! against TOON (`--toon`): wall time (median, stdout read through a pipe as an agent would)
//! and the size of what an agent reads, in bytes and in o200k tokens (tiktoken's `o200k_base`).

use std::fmt::Write as _;
use std::process::{Command, Stdio};

use crate::measure::{Sink, compare, millis};
use crate::{report, tools};

const RUNS: usize = 15;
const TASKS: usize = 1000;
/// The spec's largest page: 1,000 tasks are two pages.
const PAGE: &str = "500";

/// One call's stdout.
fn stdout(argv: &[String]) -> String {
    let out = Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {argv:?}: {e}"));
    assert!(out.status.success(), "{argv:?} failed: {out:?}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

pub fn run() {
    let todo = tools::release_binary("todo", "todo").display().to_string();
    let dir = std::env::temp_dir().join(format!("pas-bench-compose-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db = dir.join("tasks.db").display().to_string();
    let cmd = |args: &[&str]| -> Vec<String> {
        [todo.as_str(), "--db", db.as_str()]
            .iter()
            .chain(args)
            .map(|s| (*s).to_owned())
            .collect()
    };
    let tags = ["admin", "home", "work", "phone", "errand"];
    for i in 0..TASKS {
        let title = format!("Task number {i}: renew the thing before it lapses");
        let due = format!("2026-{:02}-{:02}", i % 12 + 1, i % 28 + 1);
        let args = [
            "task",
            "create",
            "--title",
            &title,
            "--due",
            &due,
            "--tag",
            tags[i % 5],
        ];
        stdout(&cmd(&args));
    }
    let first = stdout(&cmd(&["task", "list", "--status", "all", "--limit", PAGE]));
    let value: serde_json::Value = serde_json::from_str(&first).expect("an envelope");
    let cursor = value["meta"]["cursor"]
        .as_str()
        .expect("1,000 tasks are more than one page")
        .to_owned();

    let cases: Vec<(&str, Vec<String>)> = vec![
        ("`todo tools`", cmd(&["tools"])),
        (
            "`todo task list --status all --limit 500` (page 1 of 2)",
            cmd(&["task", "list", "--status", "all", "--limit", PAGE]),
        ),
        (
            "`... --cursor C` (page 2 of 2)",
            cmd(&[
                "task", "list", "--status", "all", "--limit", PAGE, "--cursor", &cursor,
            ]),
        ),
    ];
    let bpe = tiktoken_rs::o200k_base().expect("o200k_base ships with tiktoken-rs");
    let mut out = String::new();
    out.push_str("## compose output: JSON against TOON\n\n");
    out.push_str("Command: `cargo run --release -p pas-bench -- compose`. The `todo` example (release build) on a store of 1,000 tasks (title, due date, one tag). Median wall time of repeated runs with stdout read through a pipe; size of one run's stdout in bytes and in o200k tokens (tiktoken-rs `o200k_base`). TOON is `--toon`: the same envelope.\n\n");
    out.push_str("| command | JSON time | TOON time | JSON bytes | TOON bytes | JSON tokens | TOON tokens | TOON/JSON tokens |\n|---|---|---|---|---|---|---|---|\n");
    let mut totals = [0usize; 4];
    for (index, (what, json)) in cases.iter().enumerate() {
        let mut toon = json.clone();
        toon.push("--toon".to_owned());
        let m = compare(&[json, &toon], RUNS, Sink::Pipe);
        let (json_out, toon_out) = (stdout(json), stdout(&toon));
        let json_tokens = bpe.encode_with_special_tokens(&json_out).len();
        let toon_tokens = bpe.encode_with_special_tokens(&toon_out).len();
        if index > 0 {
            totals[0] += json_out.len();
            totals[1] += toon_out.len();
            totals[2] += json_tokens;
            totals[3] += toon_tokens;
        }
        let _ = writeln!(
            out,
            "| {what} | {} | {} | {} | {} | {json_tokens} | {toon_tokens} | {:.2} |",
            millis(m[0].median),
            millis(m[1].median),
            json_out.len(),
            toon_out.len(),
            toon_tokens as f64 / json_tokens as f64
        );
    }
    let _ = writeln!(
        out,
        "| all 1,000 tasks (both pages) | | | {} | {} | {} | {} | {:.2} |",
        totals[0],
        totals[1],
        totals[2],
        totals[3],
        totals[3] as f64 / totals[2] as f64
    );
    let _ = writeln!(
        out,
        "\nMachine: {} cores. `meta.elapsed` varies by a few bytes between runs.\n",
        std::thread::available_parallelism().map_or(0, usize::from)
    );
    print!("{out}");
    report::update_section(&tools::workspace().join("BENCHMARKS.md"), "compose", &out)
        .expect("write BENCHMARKS.md");
    let _ = std::fs::remove_dir_all(&dir);
}
