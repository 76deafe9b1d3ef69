//! docs/cli-agent-spec.md cannot drift: its table rates the CLI Agent Spec's 71 matrix rows once
//! each, every row rated native names a test that exists, and the coverage line is what the
//! table adds up to under the matrix's formula. Beside it, the tests the page names that no
//! other file held: the runtime never reaches for a network, an editor, a browser or a prompt
//! (§10, §32, §37, §41, §62, §64), and global flags work on either side of the command (§69).

mod runtime_support;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use runtime_support::{code, run, stdout};

/// The rows of the matrix: §1 to §74 but the three merged into others.
const MERGED: [u32; 3] = [36, 39, 48];
const MAPPED: usize = 71;

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// One row of the page's table.
struct Row {
    number: u32,
    rating: String,
    proof: String,
}

/// The table rows: lines `| N | name | rating | how | proof |` whose first cell is a number.
fn rows(page: &str) -> Vec<Row> {
    page.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            // A row splits into ["", N, name, rating, how, proof, ""].
            let number = cells.get(1)?.parse().ok()?;
            assert_eq!(
                cells.len(),
                7,
                "§{number}: five cells, no `|` inside one: {line}"
            );
            Some(Row {
                number,
                rating: cells[3].to_owned(),
                proof: cells[5].to_owned(),
            })
        })
        .collect()
}

/// The tests a proof cell names: each `` `path/to/file.rs::test_name` ``.
fn named_tests(proof: &str) -> Vec<(String, String)> {
    proof
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|quoted| {
            let (file, name) = quoted.split_once("::")?;
            Some((file.to_owned(), name.to_owned()))
        })
        .collect()
}

/// Whether `file` (from the repository root) has a test function `name`: `fn name(` with
/// `#[test]` in the attributes just above it.
fn has_test(file: &str, name: &str) -> Result<(), String> {
    let text = fs::read_to_string(repo().join(file)).map_err(|e| format!("{file}: {e}"))?;
    let at = text
        .find(&format!("fn {name}("))
        .ok_or_else(|| format!("{file} has no `fn {name}(`"))?;
    let before = &text[..at];
    let attributes = &before[before.len().saturating_sub(200)..];
    let last_item = attributes
        .rfind('}')
        .map_or(attributes, |end| &attributes[end..]);
    if last_item.contains("#[test]") {
        Ok(())
    } else {
        Err(format!("{file}: `{name}` is not a #[test]"))
    }
}

/// The line the page must carry, from its rows.
fn coverage_line(rows: &[Row]) -> String {
    let count = |symbol: &str| rows.iter().filter(|r| r.rating == symbol).count();
    let (native, partial, missing) = (count("✓"), count("~"), count("✗"));
    let coverage = (native as f64 + 0.5 * partial as f64) / MAPPED as f64 * 100.0;
    format!(
        "Coverage today: **{coverage:.1}%** (✓ {native} native, ~ {partial} partial, ✗ {missing} missing, of {MAPPED})"
    )
}

#[test]
fn the_page_rates_every_mapped_failure_mode_once_and_proves_every_native_one() {
    let page = fs::read_to_string(repo().join("docs/cli-agent-spec.md")).unwrap();
    let rows = rows(&page);
    let mut problems = Vec::new();

    let expected: BTreeSet<u32> = (1..=74).filter(|n| !MERGED.contains(n)).collect();
    let mut seen = BTreeSet::new();
    for row in &rows {
        if !seen.insert(row.number) {
            problems.push(format!("§{} is rated twice", row.number));
        }
    }
    for missing in expected.difference(&seen) {
        problems.push(format!("§{missing} is not rated"));
    }
    for extra in seen.difference(&expected) {
        problems.push(format!("§{extra} is not a row of the matrix"));
    }

    for row in &rows {
        if !matches!(row.rating.as_str(), "✓" | "~" | "✗") {
            problems.push(format!(
                "§{}: `{}` is not ✓, ~ or ✗",
                row.number, row.rating
            ));
        }
        let tests = named_tests(&row.proof);
        if row.rating == "✓" && tests.is_empty() {
            problems.push(format!("§{} is native but names no test", row.number));
        }
        for (file, name) in tests {
            if let Err(why) = has_test(&file, &name) {
                problems.push(format!("§{}: {why}", row.number));
            }
        }
    }

    let line = coverage_line(&rows);
    if !page.lines().any(|l| l == line) {
        problems.push(format!("the coverage line should read:\n{line}"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Whether `word` appears in `text` as a whole word (`open` in `open = "5"`, not in `opener`).
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        let before = text[..at].chars().next_back().is_none_or(|c| !ident(c));
        let after = text[at + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !ident(c));
        before && after
    })
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// §10, §32, §37, §41, §62, §64: the runtime (the `pas-kit` package) depends on no HTTP client,
/// updater, browser opener, editor launcher or prompt library, and its source names no socket
/// it connects with, editor, browser or pager (the one listener is `TOOL mcp --http`'s, behind
/// its feature). A tool built with it never blocks on one of them or prints an
/// update notice unless its own handler does.
#[test]
fn the_runtime_never_opens_a_connection_an_editor_a_browser_or_a_prompt() {
    const CRATES: &[&str] = &[
        "reqwest",
        "ureq",
        "curl",
        "isahc",
        "attohttpc",
        "self_update",
        "update-informer",
        "opener",
        "open",
        "webbrowser",
        "edit",
        "dialoguer",
        "inquire",
        "rpassword",
        "requestty",
        "promptly",
    ];
    let manifest = fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    // The runtime's own dependency tables: [dependencies] and [target.'cfg(..)'.dependencies].
    let mut deps = String::new();
    let mut lines = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            inside = line == "[dependencies]"
                || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
            continue;
        }
        if inside && let Some((name, _)) = line.split_once('=') {
            deps.push_str(name.trim());
            deps.push('\n');
            lines.push(line);
        }
    }
    // hyper serves `TOOL mcp --http` (feature `mcp-http`, asked for by the tool's author and
    // started only by that word): it is optional, and built as a server, never as a client;
    // rmcp likewise has no client transport.
    for line in &lines {
        let name = line
            .split_once('=')
            .map(|(n, _)| n.trim())
            .unwrap_or_default();
        if name.starts_with("hyper") {
            assert!(line.contains("optional = true"), "{line}");
            assert!(!line.contains("client"), "{line}");
        }
        if name == "rmcp" {
            assert!(!line.contains("client"), "{line}");
            assert!(!line.contains("reqwest"), "{line}");
        }
    }
    assert!(
        deps.contains("clap"),
        "the dependency tables were read: {deps}"
    );
    let linked: Vec<_> = CRATES.iter().filter(|c| has_word(&deps, c)).collect();
    assert!(linked.is_empty(), "the runtime depends on {linked:?}");

    const WORDS: &[&str] = &[
        "TcpStream",
        "UdpSocket",
        "ToSocketAddrs",
        "\"EDITOR\"",
        "\"VISUAL\"",
        "\"BROWSER\"",
        "\"PAGER\"",
        "xdg-open",
        "read_line",
    ];
    let mut files = Vec::new();
    sources(&repo().join("src"), &mut files);
    assert!(files.len() > 20, "the runtime's sources were found");
    let mut found = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        for word in WORDS.iter().filter(|w| text.contains(**w)) {
            found.push(format!("{}: {word}", file.display()));
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// §69: a global flag before the command, after it, and glued after its flags give the same
/// bytes; so does a flag before or after a positional.
#[test]
fn a_global_flag_before_or_after_the_command_gives_the_same_bytes() {
    let global: [&[&str]; 3] = [
        &[
            "--agent",
            "--token",
            "s3cr3t-value",
            "item",
            "list",
            "-n",
            "2",
        ],
        &[
            "--agent",
            "item",
            "list",
            "-n",
            "2",
            "--token",
            "s3cr3t-value",
        ],
        &["--agent", "item", "list", "--token=s3cr3t-value", "-n", "2"],
    ];
    let local: [&[&str]; 2] = [
        &["--agent", "item", "get", "1", "--verbose"],
        &["--agent", "item", "get", "--verbose", "1"],
    ];
    for placements in [&global[..], &local[..]] {
        let first = run(placements[0]);
        assert_eq!(code(&first), 0, "{:?}", placements[0]);
        assert!(!stdout(&first).is_empty());
        for args in &placements[1..] {
            let other = run(args);
            assert_eq!(code(&other), 0, "{args:?}");
            assert_eq!(stdout(&other), stdout(&first), "{args:?}");
        }
    }
}
