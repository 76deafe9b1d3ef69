//! The runtime against programs written by hand for the same job (issue 3).
//!
//! Targets: start-up of `word-counter --agent --help` and of a one-file count at most 1.2x a
//! minimal clap binary (`wc_clap_baseline`); 1,000,000 list items through the runtime at most
//! 1.1x serde_json plus a BufWriter (`list_baseline`), to a pipe the bench drains (an agent
//! reading) and to /dev/null; the runtime list's peak memory the same at 100,000 and at
//! 1,000,000 items. Every pair is measured in the same run, its runs taking turns.

use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

use crate::measure::{Measurement, Sink, compare, ratio};
use crate::{report, tools};

const STARTUP_RUNS: usize = 300;
const LIST_RUNS: usize = 15;
const MEMORY_RUNS: usize = 3;
const MILLION: u64 = 1_000_000;

/// `1.23 ms`: start-up needs the second decimal.
fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn verdict(base: Measurement, m: Measurement, target: f64) -> &'static str {
    if m.median.as_secs_f64() <= base.median.as_secs_f64() * target {
        "met"
    } else {
        "missed"
    }
}

fn pair(out: &mut String, what: &str, sink: &str, base: Measurement, m: Measurement, target: f64) {
    let _ = writeln!(
        out,
        "| {what} | {sink} | {} | {} | {} | <= {target}x: {} |",
        ms(base.median),
        ms(m.median),
        ratio(base.median, m.median),
        verdict(base, m, target)
    );
}

fn argv(bin: &std::path::Path, args: &[&str]) -> Vec<String> {
    std::iter::once(bin.display().to_string())
        .chain(args.iter().map(|s| (*s).to_owned()))
        .collect()
}

/// stdout of one run, to check that a baseline does the same job as the runtime.
fn stdout_of(argv: &[String]) -> Vec<u8> {
    let output = Command::new(&argv[0])
        .args(&argv[1..])
        .env_remove("PAS_AGENT")
        .output()
        .expect("the command runs");
    assert!(output.status.success(), "{argv:?} failed");
    output.stdout
}

/// Run the benchmark, print its tables and write them into BENCHMARKS.md.
pub fn run() {
    let word_counter = tools::release_binary("word-counter", "word-counter");
    let wc_base = tools::release_binary("pas-bench", "wc_clap_baseline");
    let list_runtime = tools::release_binary("pas-bench", "list_runtime");
    let list_base = tools::release_binary("pas-bench", "list_baseline");

    let dir = std::env::temp_dir().join(format!("pas-bench-runtime-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("words.txt");
    std::fs::write(
        &file,
        "the quick brown fox jumps over the lazy dog\n".repeat(100),
    )
    .expect("write the counted file");
    let file = file.display().to_string();

    let wc_count = argv(&word_counter, &["--agent", &file]);
    let base_count = argv(&wc_base, &[&file]);
    assert_eq!(
        stdout_of(&wc_count),
        stdout_of(&base_count),
        "same job, same bytes"
    );
    let list = |bin: &std::path::Path, n: u64| -> Vec<String> {
        let n = n.to_string();
        if bin == list_runtime {
            argv(bin, &["--agent", "list", "--count", &n])
        } else {
            argv(bin, &[&n])
        }
    };
    assert_eq!(
        stdout_of(&list(&list_runtime, 1000)),
        stdout_of(&list(&list_base, 1000)),
        "same items, same bytes"
    );

    // The 1-minute load average (Linux), to read the figures with.
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned());
    let mut out = String::new();
    out.push_str("## Runtime: start-up, lists, memory\n\n");
    out.push_str("Command: `cargo run --release -p pas-bench -- runtime`. Each pair runs in the same process, its runs taking turns (a, b, a, b, ...); median wall time of each, from spawn to exit. \"pipe\": stdout is a pipe the bench reads to the end (an agent reading); \"null\": stdout is /dev/null.\n\n");
    out.push_str(
        "| case | stdout | hand-written | runtime | ratio | target |\n|---|---|---|---|---|---|\n",
    );

    let help = compare(
        &[
            &argv(&wc_base, &["--help"]),
            &argv(&word_counter, &["--agent", "--help"]),
        ],
        STARTUP_RUNS,
        Sink::Pipe,
    );
    pair(
        &mut out,
        "start-up: `word-counter --agent --help` vs `wc_clap_baseline --help`",
        "pipe",
        help[0],
        help[1],
        1.2,
    );
    let count = compare(&[&base_count, &wc_count], STARTUP_RUNS, Sink::Pipe);
    pair(
        &mut out,
        "start-up: `word-counter --agent FILE` vs `wc_clap_baseline FILE` (one 4 KiB file)",
        "pipe",
        count[0],
        count[1],
        1.2,
    );
    for sink in [Sink::Pipe, Sink::Null] {
        let m = compare(
            &[&list(&list_base, MILLION), &list(&list_runtime, MILLION)],
            LIST_RUNS,
            sink,
        );
        pair(
            &mut out,
            "1,000,000 items: `list_runtime --agent list` vs `list_baseline` (serde_json + BufWriter)",
            if sink == Sink::Pipe { "pipe" } else { "null" },
            m[0],
            m[1],
            1.1,
        );
    }

    out.push_str("\nPeak memory (RSS of one run, stdout to /dev/null):\n\n");
    out.push_str("| items | hand-written | runtime |\n|---|---|---|\n");
    let mut runtime_peaks = Vec::new();
    for n in [100_000, MILLION] {
        let m = compare(
            &[&list(&list_base, n), &list(&list_runtime, n)],
            MEMORY_RUNS,
            Sink::Null,
        );
        let _ = writeln!(
            out,
            "| {n} | {} KiB | {} KiB |",
            m[0].peak_kib, m[1].peak_kib
        );
        runtime_peaks.push(m[1].peak_kib);
    }
    let growth = runtime_peaks[1] as i64 - runtime_peaks[0] as i64;
    let _ = writeln!(
        out,
        "\nRuntime peak at 1,000,000 minus at 100,000: {growth} KiB (target: flat, i.e. within the noise of a few hundred KiB): {}.",
        if growth.abs() <= 512 { "met" } else { "missed" }
    );
    let _ = writeln!(
        out,
        "\nMachine: {} cores, load average {} when the run began (other work on the machine shows up as noise in both columns). Runs: start-up {STARTUP_RUNS} per binary, lists {LIST_RUNS} per binary and sink.\n",
        std::thread::available_parallelism().map_or(0, usize::from),
        load,
    );
    print!("{out}");
    report::update_section(&tools::workspace().join("BENCHMARKS.md"), "runtime", &out)
        .expect("write BENCHMARKS.md");
    let _ = std::fs::remove_dir_all(&dir);
}
