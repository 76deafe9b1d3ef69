//! Release-profile advice, measured (issue 15): what LTO, one codegen unit, `panic = "abort"`,
//! `opt-level = "s"` and stripping are worth on `word-counter` (pas-kit's default features)
//! and on the hand-written clap baseline, in stripped size and in start-up.
//!
//! Each row adds one setting to the row above, set through cargo's `CARGO_PROFILE_RELEASE_*`
//! variables in a target directory of its own (`<target>/pas-bench-profiles`), so the other
//! suites' release builds are left alone. Start-up is `word-counter --agent FILE` against
//! `wc_clap_baseline FILE`, every build's runs taking turns in one comparison.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::measure::{Sink, compare};
use crate::{report, tools};

const RUNS: usize = 200;

/// One profile: its name in the table and the cargo variables that make it.
struct Variant {
    name: &'static str,
    env: &'static [(&'static str, &'static str)],
}

const LTO: (&str, &str) = ("CARGO_PROFILE_RELEASE_LTO", "fat");
const CGU1: (&str, &str) = ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "1");
const ABORT: (&str, &str) = ("CARGO_PROFILE_RELEASE_PANIC", "abort");
const OPT_S: (&str, &str) = ("CARGO_PROFILE_RELEASE_OPT_LEVEL", "s");

const VARIANTS: [Variant; 5] = [
    Variant {
        name: "cargo's release profile",
        env: &[],
    },
    Variant {
        name: "+ `lto = \"fat\"`",
        env: &[LTO],
    },
    Variant {
        name: "+ `codegen-units = 1`",
        env: &[LTO, CGU1],
    },
    Variant {
        name: "+ `panic = \"abort\"`",
        env: &[LTO, CGU1, ABORT],
    },
    Variant {
        name: "+ `opt-level = \"s\"`",
        env: &[LTO, CGU1, ABORT, OPT_S],
    },
];

/// Build `package`'s `bin` with one variant's profile and copy it out under `label`.
fn build(
    target: &Path,
    variant: &Variant,
    package: &str,
    bin: &str,
    args: &[&str],
    label: usize,
) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut command = Command::new(cargo);
    command
        .args([
            "build",
            "--quiet",
            "--release",
            "--offline",
            "-p",
            package,
            "--bin",
            bin,
        ])
        .args(args)
        .current_dir(tools::workspace())
        .env("CARGO_TARGET_DIR", target)
        // The workspace sets `debug = 0`; every other setting starts from cargo's default.
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0");
    for (key, value) in variant.env {
        command.env(key, value);
    }
    let status = command.status().expect("cargo runs");
    assert!(
        status.success(),
        "building {package} for {} failed",
        variant.name
    );
    let copy = target.join(format!("{bin}-{label}"));
    std::fs::copy(target.join("release").join(bin), &copy).expect("copy the binary");
    copy
}

fn kib(bytes: u64) -> String {
    format!("{} KiB", bytes.div_ceil(1024))
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// Run the benchmark, print its table and write it into BENCHMARKS.md.
pub fn run() {
    let main_target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| tools::workspace().join("target"), PathBuf::from);
    let target = main_target.join("pas-bench-profiles");
    let (dir, file) = tools::words_file("profile", 100);

    let mut pairs = Vec::new();
    for (i, variant) in VARIANTS.iter().enumerate() {
        let tool = build(
            &target,
            variant,
            "word-counter",
            "word-counter",
            &["--no-default-features"],
            i,
        );
        let base = build(
            &target,
            variant,
            "pas-bench-baseline",
            "wc_clap_baseline",
            &[],
            i,
        );
        pairs.push((tool, base));
    }
    let argvs: Vec<Vec<String>> = pairs
        .iter()
        .flat_map(|(tool, base)| {
            [
                vec![
                    tool.display().to_string(),
                    "--agent".to_owned(),
                    file.clone(),
                ],
                vec![base.display().to_string(), file.clone()],
            ]
        })
        .collect();
    let refs: Vec<&[String]> = argvs.iter().map(Vec::as_slice).collect();
    let times = compare(&refs, RUNS, Sink::Pipe);

    let mut out = String::new();
    out.push_str("## Release profile: what each setting is worth\n\n");
    out.push_str("Command: `cargo run --release --offline -p pas-bench -- profile`. `word-counter` on pas-kit's default features (`--no-default-features`) and the hand-written `wc_clap_baseline`, each built with the profile of its row: every row adds one setting to the row above (through `CARGO_PROFILE_RELEASE_*`, `debug = 0` throughout). Size: the binary as built, then stripped (`strip`, what `strip = true` gives). Start-up: median of `word-counter --agent FILE` and `wc_clap_baseline FILE` (one 4 KiB file), every build's runs taking turns in one comparison.\n\n");
    out.push_str("| profile | word-counter | stripped | baseline stripped | size ratio | word-counter start-up | baseline start-up | start-up ratio |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (i, (variant, (tool, base))) in VARIANTS.iter().zip(&pairs).enumerate() {
        let size = std::fs::metadata(tool).expect("the binary").len();
        let stripped = tools::stripped_size(tool);
        let base_stripped = tools::stripped_size(base);
        let (t, b) = (times[2 * i].median, times[2 * i + 1].median);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.2}x | {} | {} | {:.2}x |",
            variant.name,
            kib(size),
            kib(stripped),
            kib(base_stripped),
            stripped as f64 / base_stripped as f64,
            ms(t),
            ms(b),
            t.as_secs_f64() / b.as_secs_f64(),
        );
    }
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned());
    let _ = writeln!(
        out,
        "\nMachine: {} cores, load average {load} when the run began. Runs: {RUNS} per binary.\n",
        std::thread::available_parallelism().map_or(0, usize::from),
    );
    print!("{out}");
    report::update_section(&tools::workspace().join("BENCHMARKS.md"), "profile", &out)
        .expect("write BENCHMARKS.md");
    let _ = std::fs::remove_dir_all(&dir);
}
