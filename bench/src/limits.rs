//! The default limits of a call (issue 17): a call with its wall-clock limit and output cap
//! armed (what every machine-mode call gets) against the same call with both off
//! (`PAS_TIMEOUT=0 PAS_OUTPUT_LIMIT=0`). Target: at most 1.05x.
//!
//! Both sides start through `env` (one sets the limits explicitly, the other turns them off),
//! so the extra exec is the same on both sides; their runs take turns.

use std::fmt::Write as _;

use crate::measure::{Measurement, Sink, compare, ratio};
use crate::{report, tools};

const STARTUP_RUNS: usize = 300;
const LIST_RUNS: usize = 15;
const TARGET: f64 = 1.05;

fn ms(m: Measurement) -> String {
    format!("{:.2} ms", m.median.as_secs_f64() * 1000.0)
}

/// `env VARS... BIN ARGS...`: the limits armed (`on`) or off.
fn with_limits(on: bool, bin: &std::path::Path, args: &[&str]) -> Vec<String> {
    let vars = if on {
        ["PAS_TIMEOUT=300", "PAS_OUTPUT_LIMIT=67108864"]
    } else {
        ["PAS_TIMEOUT=0", "PAS_OUTPUT_LIMIT=0"]
    };
    ["env", vars[0], vars[1], "PAS_AGENT=0"]
        .iter()
        .map(|s| (*s).to_owned())
        .chain(std::iter::once(bin.display().to_string()))
        .chain(args.iter().map(|s| (*s).to_owned()))
        .collect()
}

/// Run the benchmark, print its table and write it into BENCHMARKS.md.
pub fn run() {
    let word_counter = tools::release_binary("word-counter", "word-counter");
    let list_runtime = tools::release_binary("pas-bench", "list_runtime");
    let (dir, file) = tools::words_file("limits", 100);

    let mut out = String::new();
    out.push_str("## Default limits: timeout and output cap armed vs off\n\n");
    out.push_str("Command: `cargo run --release -p pas-bench -- limits`. Each call runs through `env` with `PAS_TIMEOUT=300 PAS_OUTPUT_LIMIT=67108864` (the defaults of a machine-mode call, armed) or `PAS_TIMEOUT=0 PAS_OUTPUT_LIMIT=0` (off), runs taking turns; median wall time, stdout a pipe the bench drains.\n\n");
    out.push_str("| case | limits off | limits armed | ratio | target |\n|---|---|---|---|---|\n");
    let cases: [(&str, &std::path::Path, Vec<&str>, usize); 2] = [
        (
            "one call: `word-counter --agent FILE`",
            &word_counter,
            vec!["--agent", &file],
            STARTUP_RUNS,
        ),
        (
            "1,000,000 items: `list_runtime --agent list`",
            &list_runtime,
            vec!["--agent", "list", "--count", "1000000"],
            LIST_RUNS,
        ),
    ];
    for (what, bin, args, runs) in cases {
        let off = with_limits(false, bin, &args);
        let on = with_limits(true, bin, &args);
        let m = compare(&[&off, &on], runs, Sink::Pipe);
        let met = m[1].median.as_secs_f64() <= m[0].median.as_secs_f64() * TARGET;
        let _ = writeln!(
            out,
            "| {what} | {} | {} | {} | <= {TARGET}x: {} |",
            ms(m[0]),
            ms(m[1]),
            ratio(m[0].median, m[1].median),
            if met { "met" } else { "missed" }
        );
    }
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned());
    let _ = writeln!(out, "\n1-minute load average when measured: {load}.\n");
    print!("{out}");
    let _ = std::fs::remove_dir_all(&dir);
    report::update_section(&tools::workspace().join("BENCHMARKS.md"), "limits", &out)
        .expect("write BENCHMARKS.md");
}
