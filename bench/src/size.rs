//! What the default `word-counter` is made of (issue 15): its symbols' sizes summed by the crate,
//! or for pas-kit and pas-spec by the module, that owns them, so a cut of the default path is
//! aimed at what weighs and its effect shows in the next run.
//!
//! The tool is built on pas-kit's default features (`--no-default-features`, as the runtime suite
//! builds it) with symbols in the v0 mangling (`-C symbol-mangling-version=v0`) in a target
//! directory of its own (`<target>/pas-bench-size`): v0 names keep the generic arguments, so
//! `Vec<pas_spec::model::Command>::clone` counts for `pas_spec::model` and not for `alloc`.
//! `nm --size-sort -S -C` lists the symbols (binutils demangles v0).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{report, tools};

/// Crates whose generic code is instantiated for other crates' types: a symbol of theirs counts
/// for the first other crate its name mentions.
const GENERIC: [&str; 8] = [
    "core",
    "alloc",
    "std",
    "hashbrown",
    "indexmap",
    "serde_core",
    "serde",
    "serde_json",
];

/// Rows in the table; the rest are summed in one line.
const ROWS: usize = 40;

/// The crate paths (`name::`) a demangled symbol mentions, in order.
fn crate_paths(symbol: &str) -> Vec<&str> {
    let bytes = symbol.as_bytes();
    let mut found = Vec::new();
    let mut start = None;
    for (i, &b) in bytes.iter().enumerate() {
        let ident = b.is_ascii_alphanumeric() || b == b'_';
        match (start, ident) {
            (None, true) => {
                // A path segment after `::` is not a crate name.
                let after_colons = i >= 1 && bytes[i - 1] == b':';
                if !after_colons && (b.is_ascii_lowercase() || b == b'_') {
                    start = Some(i);
                } else {
                    start = Some(usize::MAX);
                }
            }
            (Some(s), false) => {
                if s != usize::MAX && symbol[i..].starts_with("::") {
                    found.push(&symbol[s..i]);
                }
                start = None;
            }
            _ => {}
        }
    }
    found
}

/// Who a symbol's bytes are counted for: `pas::MODULE` or `pas_spec::MODULE` when the name
/// mentions one (its own code or generic code instantiated for its types), else the first crate
/// outside [`GENERIC`] it mentions, else its own crate.
fn owner(symbol: &str) -> String {
    for krate in ["pas::", "pas_spec::"] {
        let mut from = 0;
        while let Some(at) = symbol[from..].find(krate) {
            let begin = from + at;
            let boundary = begin == 0 || {
                let b = symbol.as_bytes()[begin - 1];
                !(b.is_ascii_alphanumeric() || b == b'_' || b == b':')
            };
            if boundary {
                let rest = &symbol[begin + krate.len()..];
                let module: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                if !module.is_empty() {
                    return format!("{krate}{module}");
                }
            }
            from = begin + krate.len();
        }
    }
    let paths = crate_paths(symbol);
    paths
        .iter()
        .find(|c| !GENERIC.contains(c))
        .or(paths.first())
        .map_or_else(|| "(no crate path)".to_owned(), |c| (*c).to_owned())
}

/// Bytes by owner, from `nm --size-sort -S -C` output.
fn attribute(nm: &str) -> BTreeMap<String, u64> {
    let mut owners = BTreeMap::new();
    for line in nm.lines() {
        let mut parts = line.splitn(4, ' ');
        let (Some(_), Some(size), Some(_), Some(name)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Ok(size) = u64::from_str_radix(size, 16) else {
            continue;
        };
        *owners.entry(owner(name)).or_insert(0) += size;
    }
    owners
}

/// The sizes of the sections named in `names`, from `size -A`.
fn sections(binary: &Path, names: &[&str]) -> Vec<(String, u64)> {
    let output = Command::new("size")
        .arg("-A")
        .arg(binary)
        .output()
        .expect("size runs (binutils)");
    let text = String::from_utf8_lossy(&output.stdout);
    names
        .iter()
        .map(|name| {
            let size = text
                .lines()
                .find_map(|line| {
                    let mut words = line.split_whitespace();
                    (words.next() == Some(name)).then(|| words.next()?.parse().ok())?
                })
                .unwrap_or(0);
            ((*name).to_owned(), size)
        })
        .collect()
}

fn build(target: &Path) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "--release",
            "--offline",
            "-p",
            "word-counter",
        ])
        .args(["--bin", "word-counter", "--no-default-features"])
        .current_dir(tools::workspace())
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        .env("RUSTFLAGS", "-C symbol-mangling-version=v0")
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building word-counter failed");
    target.join("release").join("word-counter")
}

fn kib(bytes: u64) -> String {
    let k = bytes.div_ceil(1024);
    if k >= 1000 {
        format!("{},{:03} KiB", k / 1000, k % 1000)
    } else {
        format!("{k} KiB")
    }
}

/// Run the attribution, print its table and write it into BENCHMARKS.md.
pub fn run() {
    let main_target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| tools::workspace().join("target"), PathBuf::from);
    let binary = build(&main_target.join("pas-bench-size"));
    let nm = Command::new("nm")
        .args(["--size-sort", "-S", "-C"])
        .arg(&binary)
        .output()
        .expect("nm runs (binutils)");
    assert!(nm.status.success(), "nm failed");
    let owners = attribute(&String::from_utf8_lossy(&nm.stdout));
    let mut rows: Vec<(&String, &u64)> = owners.iter().collect();
    rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let total: u64 = owners.values().sum();
    let stripped = tools::stripped_size(&binary);

    let mut out = String::new();
    out.push_str("## Size: what the default `word-counter` is made of\n\n");
    out.push_str("Command: `cargo run --release --offline -p pas-bench -- size`. `word-counter` on pas-kit's default features (`--no-default-features`), release profile, symbols in the v0 mangling (which keeps generic arguments) in a target directory of its own; `nm --size-sort -S -C`, each symbol counted for `pas::MODULE` / `pas_spec::MODULE` when its name mentions one (its code, or generic code instantiated for its types), else for the first crate it names that is not one of the generic containers (core, alloc, std, hashbrown, indexmap, serde, serde_json), else for its own crate.\n\n");
    let _ = writeln!(
        out,
        "Stripped binary: {}; symbols sum to {}; the rest is unwind tables, relocations and constants without symbols:\n",
        kib(stripped),
        kib(total)
    );
    out.push_str("| section | size |\n|---|---:|\n");
    for (name, size) in sections(
        &binary,
        &[
            ".text",
            ".rodata",
            ".eh_frame",
            ".gcc_except_table",
            ".rela.dyn",
            ".data.rel.ro",
        ],
    ) {
        let _ = writeln!(out, "| `{name}` | {} |", kib(size));
    }
    out.push_str("\n| owner | symbols | share of symbols |\n|---|---:|---:|\n");
    for (name, size) in rows.iter().take(ROWS) {
        let _ = writeln!(
            out,
            "| `{name}` | {} | {:.1}% |",
            kib(**size),
            **size as f64 * 100.0 / total as f64
        );
    }
    let rest: u64 = rows.iter().skip(ROWS).map(|(_, s)| **s).sum();
    let _ = writeln!(
        out,
        "| {} others | {} | {:.1}% |\n",
        rows.len().saturating_sub(ROWS),
        kib(rest),
        rest as f64 * 100.0 / total as f64
    );
    print!("{out}");
    report::update_section(&tools::workspace().join("BENCHMARKS.md"), "size", &out)
        .expect("write BENCHMARKS.md");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_code_counts_for_the_type_it_was_made_for() {
        assert_eq!(
            owner("<alloc::vec::Vec<pas_spec::model::Command> as core::clone::Clone>::clone"),
            "pas_spec::model"
        );
        assert_eq!(
            owner("core::ptr::drop_in_place::<toml::value::Value>"),
            "toml"
        );
        assert_eq!(owner("pas::app::App::run"), "pas::app");
        assert_eq!(
            owner("<serde_json::de::Deserializer<R>>::parse_any"),
            "serde_json"
        );
        assert_eq!(owner("memcpy"), "(no crate path)");
    }

    #[test]
    fn nm_lines_are_summed_by_owner() {
        let nm = "0000000000001000 0000000000000010 T pas::app::App::run\n\
                  0000000000002000 0000000000000020 t pas::app::App::dispatch\n\
                  0000000000003000 0000000000000008 T clap_builder::parser::Parser::new\n\
                  0000000000004000 T no_size_here\n";
        let owners = attribute(nm);
        assert_eq!(owners["pas::app"], 0x30);
        assert_eq!(owners["clap_builder"], 8);
        assert_eq!(owners.len(), 2);
    }
}
