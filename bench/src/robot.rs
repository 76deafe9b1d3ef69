//! The robot profile (issue 16): its envelope against the `pas` profile on the same handler
//! (one object; 100,000 list items), target at most 1.1x; `sessions` over 10,000 stored
//! sessions, target under 100 ms; and its peak memory the same at 1,000 and at 10,000
//! sessions (it keeps one page, not every session).

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::measure::{Sink, compare, ratio};
use crate::{report, tools};

const RUNS: usize = 15;
const LIST: &str = "100000";

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// `count` sessions as the runtime stores them (manifests written directly: the bench
/// measures the listing, not the writing).
fn store_sessions(home: &Path, count: usize) {
    let root = home.join("robot-runtime/sessions");
    std::fs::create_dir_all(&root).expect("the sessions directory");
    for i in 0..count {
        let suffix: String = [i % 32, (i / 32) % 32, (i / 1024) % 32, 0]
            .iter()
            .map(|d| char::from(b"abcdefghijklmnopqrstuvwxyz234567"[*d]))
            .collect();
        let id = format!("bench-20260101-{:06}-{suffix}", i / 32768);
        let state = if i % 3 == 0 { "planned" } else { "complete" };
        let manifest = serde_json::json!({
            "format": 1, "session_id": id, "tool": "robot-runtime", "created_by": "plan",
            "state": state, "created_at": "2026-01-01T00:00:00.000Z",
            "updated_at": "2026-01-01T00:05:00.000Z", "updated_ms": 1_767_225_900_000u64,
            "history": [{"state": "planned", "at": "2026-01-01T00:00:00.000Z"}],
            "completed": [], "summary": {"candidates_found": i % 7, "actions_applied": 0},
            "data": {"plan": {"candidates": (0..5).collect::<Vec<_>>()}},
        });
        let dir = root.join(&id);
        std::fs::create_dir_all(&dir).expect("a session directory");
        std::fs::write(
            dir.join("manifest.json"),
            serde_json::to_vec_pretty(&manifest).unwrap(),
        )
        .expect("a manifest");
    }
}

pub fn run() {
    let bin = tools::release_binary("pas-bench", "robot_runtime")
        .display()
        .to_string();
    let argv = |words: &[&str]| -> Vec<String> {
        std::iter::once(bin.clone())
            .chain(words.iter().map(|s| (*s).to_owned()))
            .collect()
    };
    let mut out = String::from("## Robot profile: the envelope, sessions\n\n");
    let _ = writeln!(
        out,
        "Same handler, two profiles, runs taking turns (median of {RUNS}; stdout through a pipe the bench drains).\n\n| call | pas profile | robot envelope | ratio (target <= 1.1x) |\n|---|---|---|---|"
    );
    for (what, args) in [
        ("one object", vec!["one"]),
        ("100,000 list items", vec!["list", "--count", LIST]),
    ] {
        let mut pas = vec!["pas", "--agent"];
        pas.extend(&args);
        let mut robot = vec!["robot"];
        robot.extend(&args);
        let m = compare(&[&argv(&pas), &argv(&robot)], RUNS, Sink::Pipe);
        let met = m[1].median.as_secs_f64() <= m[0].median.as_secs_f64() * 1.1;
        let _ = writeln!(
            out,
            "| {what} | {} | {} | {} ({}) |",
            ms(m[0].median),
            ms(m[1].median),
            ratio(m[0].median, m[1].median),
            if met { "met" } else { "missed" }
        );
    }
    let _ = writeln!(
        out,
        "\n`robot_runtime robot sessions` over stored sessions (newest 50 listed, `total` and `resumable_count` of all):\n\n| stored sessions | median | peak RSS |\n|---|---|---|"
    );
    let mut peaks = Vec::new();
    for count in [1_000usize, 10_000] {
        let home =
            std::env::temp_dir().join(format!("pas-bench-robot-{}-{count}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        store_sessions(&home, count);
        // The data home reaches the measured binary through the environment.
        // SAFETY: the bench is single-threaded here; nothing reads the environment concurrently.
        unsafe { std::env::set_var("XDG_DATA_HOME", &home) };
        let m = compare(&[&argv(&["robot", "sessions"])], RUNS, Sink::Pipe);
        peaks.push(m[0].peak_kib);
        let target = if count == 10_000 {
            if m[0].median < Duration::from_millis(100) {
                " (target < 100 ms: met)"
            } else {
                " (target < 100 ms: missed)"
            }
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "| {count} | {}{target} | {} KiB |",
            ms(m[0].median),
            m[0].peak_kib
        );
        let _ = std::fs::remove_dir_all(&home);
    }
    let growth = peaks[1] as i64 - peaks[0] as i64;
    let _ = writeln!(
        out,
        "\nPeak at 10,000 sessions minus at 1,000: {growth} KiB (target: flat, within a few hundred KiB): {}.",
        if growth.abs() <= 512 { "met" } else { "missed" }
    );
    print!("{out}");
    let file = tools::workspace().join("BENCHMARKS.md");
    report::update_section(&file, "robot", &out).expect("BENCHMARKS.md is writable");
}
