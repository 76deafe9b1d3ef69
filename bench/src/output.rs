//! Output throughput and bounded output (issue 27): 1,000,000 NDJSON items through the runtime
//! against the hand-written serde_json baseline (`list_baseline`), to a pipe and to /dev/null
//! (target: at most 1.1x, as in the `runtime` suite); and one 100 MB object written whole
//! against the same call with `--max-output 65536` (the object written to a file in the cache
//! directory, the answer a pointer): time and peak memory of each.

use std::fmt::Write as _;

use crate::measure::{Measurement, Sink, compare, ratio};
use crate::{report, tools};

const MILLION: u64 = 1_000_000;
const LIST_RUNS: usize = 15;
const OBJECT_RUNS: usize = 5;
const OBJECT_BYTES: u64 = 100_000_000;
const TARGET: f64 = 1.1;

fn ms(m: Measurement) -> String {
    format!("{:.1} ms", m.median.as_secs_f64() * 1000.0)
}

fn argv(bin: &std::path::Path, args: &[&str]) -> Vec<String> {
    std::iter::once(bin.display().to_string())
        .chain(args.iter().map(|s| (*s).to_owned()))
        .collect()
}

/// Run the benchmark, print its table and write it into BENCHMARKS.md.
pub fn run() {
    let list_runtime = tools::release_binary("pas-bench", "list_runtime");
    let list_base = tools::release_binary("pas-bench", "list_baseline");
    let million = MILLION.to_string();
    let runtime = argv(&list_runtime, &["--agent", "list", "--count", &million]);
    let base = argv(&list_base, &[&million]);

    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned());
    let mut out = String::new();
    out.push_str("## Output: NDJSON throughput and bounded output\n\n");
    out.push_str("Command: `cargo run --release --offline -p pas-bench -- output`. Runs take turns (a, b, a, b, ...); median wall time from spawn to exit; peak memory is the RSS of one run. \"pipe\": stdout is a pipe the bench reads to the end; \"null\": /dev/null.\n\n");
    out.push_str(
        "| case | stdout | hand-written | runtime | ratio | target |\n|---|---|---|---|---|---|\n",
    );
    for sink in [Sink::Pipe, Sink::Null] {
        let m = compare(&[&base, &runtime], LIST_RUNS, sink);
        let met = m[1].median.as_secs_f64() <= m[0].median.as_secs_f64() * TARGET;
        let _ = writeln!(
            out,
            "| 1,000,000 items: `list_runtime --agent list` vs `list_baseline` (serde_json + BufWriter) | {} | {} | {} | {} | <= {TARGET}x: {} |",
            if sink == Sink::Pipe { "pipe" } else { "null" },
            ms(m[0]),
            ms(m[1]),
            ratio(m[0].median, m[1].median),
            if met { "met" } else { "missed" }
        );
    }

    // The output files go to a cache directory of the bench's own, removed after.
    let cache = std::env::temp_dir().join(format!("pas-bench-output-{}", std::process::id()));
    let bytes = OBJECT_BYTES.to_string();
    let object = |bound: Option<&str>| -> Vec<String> {
        let mut args = vec![
            "env".to_owned(),
            format!("XDG_CACHE_HOME={}", cache.display()),
            list_runtime.display().to_string(),
            "--agent".to_owned(),
            "object".to_owned(),
            "--bytes".to_owned(),
            bytes.clone(),
        ];
        if let Some(bound) = bound {
            args.extend(["--max-output".to_owned(), bound.to_owned()]);
        }
        args
    };
    let whole = object(None);
    let bounded = object(Some("65536"));
    out.push_str("\n| one 100 MB object (`list_runtime --agent object --bytes 100000000`) | stdout | time | peak memory |\n|---|---|---|---|\n");
    let m = compare(&[&whole, &bounded], OBJECT_RUNS, Sink::Pipe);
    let _ = writeln!(
        out,
        "| written whole to stdout | pipe | {} | {} KiB |",
        ms(m[0]),
        m[0].peak_kib
    );
    let _ = writeln!(
        out,
        "| `--max-output 65536`: written whole to a file, a pointer on stdout | pipe | {} ({}) | {} KiB |",
        ms(m[1]),
        ratio(m[0].median, m[1].median),
        m[1].peak_kib
    );
    let _ = std::fs::remove_dir_all(&cache);
    let _ = writeln!(
        out,
        "\nMachine: {} cores, 1-minute load average {load} when the run began (other work on the machine shows up as noise in both columns). Runs: lists {LIST_RUNS} per binary and sink, the object {OBJECT_RUNS} per case.\n",
        std::thread::available_parallelism().map_or(0, usize::from),
    );
    print!("{out}");
    report::update_section(&tools::workspace().join("BENCHMARKS.md"), "output", &out)
        .expect("write BENCHMARKS.md");
}
