//! `pas-gen check` on a large generated spec and on hostile files.
//!
//! Targets (foundation issue): a 1,000-command spec checked in under 200 ms; a 100 MB hostile
//! file refused in under 2 s with peak memory under 10x the file. Baseline: `pas-gen schema`,
//! the same binary's start-up with no spec to read, and `jq` parsing the same spec as JSON.

use crate::measure::{Measurement, measure, millis, ratio};
use crate::{report, tools};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

const RUNS: usize = 15;
const HOSTILE_BYTES: usize = 100 * 1024 * 1024;

/// A spec with `n` commands, each with three parameters, an output schema and an example.
pub fn large_spec(n: usize) -> String {
    let mut s = String::from(
        "specVersion: 1\nname: big\nversion: 1.0.0\nsummary: A tool with many commands.\nlevel: 2\n",
    );
    s.push_str("exitCodes:\n  - {code: 100, name: NOT_FOUND, meaning: Not found}\ncommands:\n");
    for i in 0..n {
        let _ = write!(
            s,
            "  - name: group{g}.action{i}\n    description: Does thing number {i}.\n    output: list\n    errors: [NOT_FOUND]\n    parameters:\n      - {{name: id, kind: positional, required: true, description: The id}}\n      - {{name: limit, type: integer, default: 10, description: Page size}}\n      - {{name: verbose, short: v, type: boolean, description: More detail}}\n    outputSchema:\n      type: object\n      properties: {{id: {{type: string}}, size: {{type: integer}}}}\n    examples:\n      - command: big --agent group{g} action{i} x{i} --limit 5\n",
            g = i % 50
        );
    }
    s
}

/// 100 MB of YAML that opens flow sequences forever: refused by size before any parsing.
fn write_hostile(path: &Path) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("temp file"));
    let chunk = "[".repeat(1024 * 1024);
    for _ in 0..HOSTILE_BYTES / chunk.len() {
        file.write_all(chunk.as_bytes())
            .expect("write hostile file");
    }
}

/// A 10 MB file under the size limit that nests and aliases as deep as it can.
fn write_bomb(path: &Path) {
    let mut s = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..20 {
        let _ = writeln!(
            s,
            "b{i}: &b{i} [{}]",
            vec![
                if i == 0 {
                    "*a".to_owned()
                } else {
                    format!("*b{}", i - 1)
                };
                10
            ]
            .join(", ")
        );
    }
    s.push_str(&"[".repeat(10 * 1024 * 1024 - s.len()));
    std::fs::write(path, s).expect("write bomb");
}

fn row(out: &mut String, what: &str, m: Measurement, base: Measurement, target: &str) {
    let _ = writeln!(
        out,
        "| {what} | {} | {} | {} KiB | {} | {target} |",
        millis(m.median),
        ratio(base.median, m.median),
        m.peak_kib,
        m.exit
    );
}

/// Run the benchmark, print its table and write it into BENCHMARKS.md.
pub fn run() {
    let pas_gen = tools::release_binary("pas-gen", "pas-gen")
        .display()
        .to_string();
    let dir = std::env::temp_dir().join(format!("pas-bench-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let spec = dir.join("big.yaml");
    std::fs::write(&spec, large_spec(1000)).expect("write spec");
    let hostile = dir.join("hostile.yaml");
    write_hostile(&hostile);
    let bomb = dir.join("bomb.yaml");
    write_bomb(&bomb);

    let cmd = |args: &[&str]| -> Vec<String> {
        std::iter::once(pas_gen.clone())
            .chain(args.iter().map(|s| (*s).to_owned()))
            .collect()
    };
    let base = measure(&cmd(&["schema"]), RUNS);
    let big = measure(&cmd(&["check", spec.to_str().unwrap()]), RUNS);
    let hostile_m = measure(&cmd(&["check", hostile.to_str().unwrap()]), 5);
    let bomb_m = measure(&cmd(&["check", bomb.to_str().unwrap()]), 5);

    let mut out = String::new();
    out.push_str("## `pas-gen check`\n\n");
    out.push_str("Command: `cargo run --release -p pas-bench -- check`. Median of repeated runs; peak RSS of one run; ratio against the baseline `pas-gen schema` (same binary, nothing to read).\n\n");
    out.push_str(
        "| case | median | vs baseline | peak RSS | exit | target |\n|---|---|---|---|---|---|\n",
    );
    row(&mut out, "baseline: `pas-gen schema`", base, base, "-");
    row(
        &mut out,
        "check, 1,000-command spec (YAML)",
        big,
        base,
        "< 200 ms",
    );
    row(
        &mut out,
        "check, 100 MB hostile file",
        hostile_m,
        base,
        "< 2 s, < 1000 MiB",
    );
    row(
        &mut out,
        "check, 10 MB alias + nesting bomb",
        bomb_m,
        base,
        "clear error",
    );
    if tools::on_path("jq") {
        let json = dir.join("big.json");
        std::fs::write(&json, spec_as_json(1000)).expect("write json spec");
        let jq = measure(
            &["jq".to_owned(), ".".to_owned(), json.display().to_string()],
            RUNS,
        );
        row(
            &mut out,
            "reference: `jq .` on the same spec as JSON",
            jq,
            base,
            "-",
        );
        let big_json = measure(&cmd(&["check", json.to_str().unwrap()]), RUNS);
        row(
            &mut out,
            "check, 1,000-command spec (JSON)",
            big_json,
            base,
            "< 200 ms",
        );
    }
    let _ = writeln!(
        out,
        "\nMachine: {} cores. Sizes: spec {} KiB, hostile {} MiB.\n",
        std::thread::available_parallelism().map_or(0, usize::from),
        std::fs::metadata(&spec).map_or(0, |m| m.len() / 1024),
        HOSTILE_BYTES / (1024 * 1024)
    );
    print!("{out}");
    report::update_section(&tools::workspace().join("BENCHMARKS.md"), "check", &out)
        .expect("write BENCHMARKS.md");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same spec as `large_spec`, written as JSON.
fn spec_as_json(n: usize) -> String {
    let mut commands = Vec::with_capacity(n);
    for i in 0..n {
        let g = i % 50;
        commands.push(format!(
            r#"{{"name":"group{g}.action{i}","description":"Does thing number {i}.","output":"list","errors":["NOT_FOUND"],"parameters":[{{"name":"id","kind":"positional","required":true,"description":"The id"}},{{"name":"limit","type":"integer","default":10,"description":"Page size"}},{{"name":"verbose","short":"v","type":"boolean","description":"More detail"}}],"outputSchema":{{"type":"object","properties":{{"id":{{"type":"string"}},"size":{{"type":"integer"}}}}}},"examples":[{{"command":"big --agent group{g} action{i} x{i} --limit 5"}}]}}"#
        ));
    }
    format!(
        r#"{{"specVersion":1,"name":"big","version":"1.0.0","summary":"A tool with many commands.","level":2,"exitCodes":[{{"code":100,"name":"NOT_FOUND","meaning":"Not found"}}],"commands":[{}]}}"#,
        commands.join(",")
    )
}
