//! The runtime against programs written by hand for the same job (issues 3 and 15).
//!
//! Targets: start-up of `word-counter --agent --help` and of a one-file count at most 1.2x a
//! minimal clap binary (`wc_clap_baseline`), and the stripped binary at most 2x its size, for
//! `word-counter` and `word-counter-spec` on pas-kit's default features (the same figures with
//! every optional face on are reported beside them); 1,000,000 list items through the runtime at most
//! 1.1x serde_json plus a BufWriter (`list_baseline`), to a pipe the bench drains (an agent
//! reading) and to /dev/null; the runtime list's peak memory the same at 100,000 and at
//! 1,000,000 items. Every pair is measured in the same run, its runs taking turns.

use std::fmt::Write as _;
use std::path::PathBuf;
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

/// `1,234 KiB`.
fn kib(bytes: u64) -> String {
    let k = bytes.div_ceil(1024);
    if k >= 1000 {
        format!("{},{:03} KiB", k / 1000, k % 1000)
    } else {
        format!("{k} KiB")
    }
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

/// One build of a measured tool: the package's binary with one set of features.
struct Build {
    /// `word-counter` or `word-counter-spec`.
    tool: &'static str,
    /// How it was built, as the table says it.
    features: &'static str,
    path: PathBuf,
}

/// The four builds: each word-counter with pas-kit's default features (the example's own
/// features off) and with every optional face on (`--features full`).
fn builds() -> Vec<Build> {
    let mut builds = Vec::new();
    for tool in ["word-counter", "word-counter-spec"] {
        builds.push(Build {
            tool,
            features: "default",
            path: tools::release_binary_as(tool, tool, &["--no-default-features"], "default"),
        });
        builds.push(Build {
            tool,
            features: "full",
            path: tools::release_binary_as(
                tool,
                tool,
                &["--no-default-features", "--features", "full"],
                "full",
            ),
        });
    }
    builds
}

/// The target of a build: the default build is held to it, the full one only reported.
fn target_of(build: &Build, target: f64) -> Option<f64> {
    (build.features == "default").then_some(target)
}

/// Start-up of every build against the baseline, all in one interleaved comparison.
fn startup_rows(
    out: &mut String,
    case: &str,
    base: &[String],
    runs: &[Vec<String>],
    builds: &[Build],
) {
    let mut argvs: Vec<&[String]> = vec![base];
    argvs.extend(runs.iter().map(Vec::as_slice));
    let m = compare(&argvs, STARTUP_RUNS, Sink::Pipe);
    for (i, build) in builds.iter().enumerate() {
        let measured = m[i + 1];
        let target = match target_of(build, 1.2) {
            Some(target) => format!("<= {target}x: {}", verdict(m[0], measured, target)),
            None => "reported".to_owned(),
        };
        let _ = writeln!(
            out,
            "| start-up: `{} {case} | {} | {} | {} | {} | {target} |",
            build.tool,
            build.features,
            ms(m[0].median),
            ms(measured.median),
            ratio(m[0].median, measured.median),
        );
    }
}

/// A folder with the release binaries `word-counter` (pas-kit's default features) and
/// `list_runtime` of an earlier commit: the runtime is then measured against itself before a
/// change, side by side in the same run (a move of the runtime's code must cost nothing).
const BEFORE_ENV: &str = "PAS_BENCH_BEFORE";

/// Start-up and lists of the earlier build against this one, runs taking turns.
fn before_rows(
    out: &mut String,
    before: &std::path::Path,
    now: &Build,
    file: &str,
    list_runtime: &std::path::Path,
) {
    let million = MILLION.to_string();
    let list = |bin: &std::path::Path| argv(bin, &["--agent", "list", "--count", &million]);
    let old_wc = before.join("word-counter");
    let old_list = before.join("list_runtime");
    let _ = writeln!(
        out,
        "\nBefore and after, in the same run (`{BEFORE_ENV}={}`: the binaries of an earlier commit, built as this run's default builds):\n\n| case | stdout | before | now | ratio |\n|---|---|---|---|---|",
        before.display()
    );
    for (case, args) in [
        (
            "start-up: `word-counter --agent --help`",
            vec!["--agent", "--help"],
        ),
        (
            "start-up: `word-counter --agent FILE`",
            vec!["--agent", file],
        ),
    ] {
        let old = argv(&old_wc, &args);
        let new = argv(&now.path, &args);
        assert_eq!(stdout_of(&old), stdout_of(&new), "same job, same bytes");
        let m = compare(&[&old, &new], STARTUP_RUNS, Sink::Pipe);
        let _ = writeln!(
            out,
            "| {case} | pipe | {} | {} | {} |",
            ms(m[0].median),
            ms(m[1].median),
            ratio(m[0].median, m[1].median)
        );
    }
    for sink in [Sink::Pipe, Sink::Null] {
        let m = compare(&[&list(&old_list), &list(list_runtime)], LIST_RUNS, sink);
        let _ = writeln!(
            out,
            "| 1,000,000 items: `list_runtime --agent list` | {} | {} | {} | {} |",
            if sink == Sink::Pipe { "pipe" } else { "null" },
            ms(m[0].median),
            ms(m[1].median),
            ratio(m[0].median, m[1].median)
        );
    }
}

/// Run the benchmark, print its tables and write them into BENCHMARKS.md.
pub fn run() {
    let builds = builds();
    let wc_base = tools::release_binary("pas-bench-baseline", "wc_clap_baseline");
    let list_runtime = tools::release_binary("pas-bench", "list_runtime");
    let list_base = tools::release_binary("pas-bench", "list_baseline");

    let (dir, file) = tools::words_file("runtime", 100);

    let base_count = argv(&wc_base, &[&file]);
    let counts: Vec<Vec<String>> = builds
        .iter()
        .map(|b| argv(&b.path, &["--agent", &file]))
        .collect();
    for count in &counts {
        assert_eq!(
            stdout_of(count),
            stdout_of(&base_count),
            "same job, same bytes"
        );
    }
    let helps: Vec<Vec<String>> = builds
        .iter()
        .map(|b| argv(&b.path, &["--agent", "--help"]))
        .collect();
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
    out.push_str("## Runtime: start-up, size, lists, memory\n\n");
    out.push_str("Command: `cargo run --release --offline -p pas-bench -- runtime`. Each comparison runs in the same process, its runs taking turns (a, b, a, b, ...); median wall time of each, from spawn to exit. \"pipe\": stdout is a pipe the bench reads to the end (an agent reading); \"null\": stdout is /dev/null.\n\n");
    out.push_str("Features: \"default\" is the tool on pas-kit's default features, built with `cargo build --release -p word-counter --no-default-features` (the examples turn every face on by default, since their tests drive them; `--no-default-features` turns the example's own features off, leaving pas-kit's defaults); \"full\" adds every optional face (`--no-default-features --features full`, i.e. pas-kit's `full`: `mcp`, `validate-pas`, `completions`, `man`, `load`). The targets hold for the default build; the full build is reported. Release profile: the workspace's (`debug = 0`, nothing else set).\n\n");
    out.push_str(
        "| case | features | hand-written | runtime | ratio | target |\n|---|---|---|---|---|---|\n",
    );
    startup_rows(
        &mut out,
        "--agent --help` vs `wc_clap_baseline --help`",
        &argv(&wc_base, &["--help"]),
        &helps,
        &builds,
    );
    startup_rows(
        &mut out,
        "--agent FILE` vs `wc_clap_baseline FILE` (one 4 KiB file)",
        &base_count,
        &counts,
        &builds,
    );

    out.push_str("\nBinary size, stripped (`strip` on a copy of the release binary):\n\n");
    out.push_str(
        "| binary | features | stripped | vs hand-written | target |\n|---|---|---:|---:|---|\n",
    );
    let base_size = tools::stripped_size(&wc_base);
    let _ = writeln!(
        out,
        "| `wc_clap_baseline` (hand-written) | - | {} | 1.00x | - |",
        kib(base_size)
    );
    for build in &builds {
        let size = tools::stripped_size(&build.path);
        let times = size as f64 / base_size as f64;
        let target = match target_of(build, 2.0) {
            Some(target) => format!(
                "<= {target}x: {}",
                if times <= target { "met" } else { "missed" }
            ),
            None => "reported".to_owned(),
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {times:.2}x | {target} |",
            build.tool,
            build.features,
            kib(size)
        );
    }
    out.push_str("\nWhat the default binary is made of, by crate and module: `cargo run --release --offline -p pas-bench -- size` (section \"Size\" below).\n");

    out.push_str(
        "\n| case | stdout | hand-written | runtime | ratio | target |\n|---|---|---|---|---|---|\n",
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

    if let Some(before) = std::env::var_os(BEFORE_ENV) {
        before_rows(
            &mut out,
            &PathBuf::from(before),
            &builds[0],
            &file,
            &list_runtime,
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
