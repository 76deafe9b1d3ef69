//! Spec first: `pas-gen new` on a 200-command spec, and a clean build of that project two ways,
//! through `pas::include_spec!` and through the same code written out by the emitter.
//!
//! Targets (spec-first issue): `new` under 250 ms; the macro's build at most 1.1x the written
//! code's. Baseline for `new`: `pas-gen schema`, the same binary with nothing to read. The builds
//! share one target directory in which the dependencies are built first, so each measured build
//! is the project's own crate alone (`cargo clean -p` before each).

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::check::large_spec;
use crate::measure::{measure, millis, ratio};
use crate::{report, tools};

const COMMANDS: usize = 200;
const RUNS: usize = 15;
const BUILDS: usize = 3;

pub fn run() {
    let pas_gen = tools::release_binary("pas-gen", "pas-gen")
        .display()
        .to_string();
    let dir = std::env::temp_dir().join(format!("pas-bench-new-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let spec = dir.join("big.yaml");
    std::fs::write(&spec, large_spec(COMMANDS)).expect("write spec");
    let spec = spec.display().to_string();

    let base = measure(&[pas_gen.clone(), "schema".into()], RUNS);
    let out = dir.join("new").display().to_string();
    let new = measure(
        &[
            pas_gen.clone(),
            "new".into(),
            spec.clone(),
            "--out".into(),
            out,
            "--force".into(),
        ],
        RUNS,
    );
    assert_eq!(new.exit, 0, "pas-gen new failed");

    // Two copies of the project: the emitter's file, and the macro in its place.
    let written = dir.join("written");
    let macro_ = dir.join("macro");
    for (project, package) in [(&written, "big-written"), (&macro_, "big-macro")] {
        let status = Command::new(&pas_gen)
            .args(["new", &spec, "--out"])
            .arg(project)
            .arg("--force")
            .stdout(std::process::Stdio::null())
            .status()
            .expect("pas-gen runs");
        assert!(status.success());
        rename_package(project, package);
        std::fs::copy(
            tools::workspace().join("Cargo.lock"),
            project.join("Cargo.lock"),
        )
        .expect("copy Cargo.lock");
    }
    std::fs::write(
        macro_.join("src/generated.rs"),
        "pas::include_spec!(\"big.yaml\");\n",
    )
    .expect("write the macro's module");
    let target = tools::workspace().join("target/bench-scaffolds");
    let written_build = clean_builds(&written, "big-written", &target);
    let macro_build = clean_builds(&macro_, "big-macro", &target);
    let lines = std::fs::read_to_string(written.join("src/generated.rs"))
        .map(|text| text.lines().count())
        .unwrap_or(0);

    let mut out = String::new();
    let _ = writeln!(
        out,
        "## Spec first: `pas-gen new` and `include_spec!`\n\nCommand: `cargo run --release -p pas-bench -- new`. A {COMMANDS}-command spec (three parameters and an output schema each; {lines} lines of generated Rust). `new`: median of {RUNS} runs. Builds: debug, the project's crate alone after `cargo clean -p` with its dependencies already built, median of {BUILDS}.\n"
    );
    let _ = writeln!(
        out,
        "| case | median | vs baseline | target |\n|---|---|---|---|"
    );
    let _ = writeln!(
        out,
        "| baseline: `pas-gen schema` | {} | 1.00x | - |",
        millis(base.median)
    );
    let _ = writeln!(
        out,
        "| `pas-gen new`, {COMMANDS} commands | {} | {} | < 250 ms |",
        millis(new.median),
        ratio(base.median, new.median)
    );
    let _ = writeln!(
        out,
        "| clean build, emitter's code written out | {} | 1.00x | - |",
        seconds(written_build)
    );
    let _ = writeln!(
        out,
        "| clean build, `include_spec!` | {} | {} | <= 1.1x |",
        seconds(macro_build),
        ratio(written_build, macro_build)
    );
    let _ = writeln!(out, "\nMachine: 2 cores.\n");
    print!("{out}");
    report::update_section(&tools::workspace().join("BENCHMARKS.md"), "new", &out)
        .expect("write BENCHMARKS.md");
    let _ = std::fs::remove_dir_all(&dir);
}

fn rename_package(project: &Path, package: &str) {
    let path = project.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).expect("read Cargo.toml");
    let text = text.replace("name = \"big\"", &format!("name = \"{package}\""));
    std::fs::write(path, text).expect("write Cargo.toml");
}

/// The median time of `cargo build` of `package` alone, after a warm-up that builds its
/// dependencies.
fn clean_builds(project: &Path, package: &str, target: &Path) -> Duration {
    cargo(project, target, &["build"]);
    let mut times: Vec<Duration> = (0..BUILDS)
        .map(|_| {
            cargo(project, target, &["clean", "-p", package]);
            let start = Instant::now();
            cargo(project, target, &["build"]);
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn cargo(project: &Path, target: &Path, args: &[&str]) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .args(args)
        .args(["--offline", "--quiet"])
        .current_dir(project)
        .env("CARGO_TARGET_DIR", target)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo {args:?} in {}", project.display());
}

fn seconds(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}
