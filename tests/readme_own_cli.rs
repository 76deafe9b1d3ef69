//! The README's "Use pas in your own CLI" example is `tests/readme/lines.rs`, which the crate's
//! doctests compile (`ReadmeOwnCli` in src/lib.rs): this test keeps the README showing exactly
//! that file, so the example a reader copies is one that builds; the same for the spec-first
//! block (`tests/readme/spec_first.rs`, `ReadmeSpecFirst`). The README's sh blocks are run by
//! `tests/readme_follow.sh` (in `.ci/run`).

const README: &str = include_str!("../README.md");
const EXAMPLE: &str = include_str!("readme/lines.rs");
const SPEC_FIRST: &str = include_str!("readme/spec_first.rs");

/// The first Rust code block after the heading `heading`.
fn rust_block_after<'a>(text: &'a str, heading: &str) -> &'a str {
    let section = text
        .find(heading)
        .unwrap_or_else(|| panic!("README.md has no heading {heading:?}"));
    let fence = "```rust\n";
    let start = section
        + text[section..]
            .find(fence)
            .unwrap_or_else(|| panic!("no Rust block after {heading:?}"))
        + fence.len();
    let end = start + text[start..].find("```\n").expect("an unclosed code block");
    &text[start..end]
}

#[test]
fn the_readme_shows_the_compiled_example() {
    let shown = rust_block_after(README, "### 1. Use pas in your own CLI");
    assert_eq!(
        shown, EXAMPLE,
        "README.md's \"Use pas in your own CLI\" block differs from tests/readme/lines.rs \
         (the file the doctests compile): change both together"
    );
}

#[test]
fn the_readme_shows_the_compiled_spec_first_block() {
    let shown = rust_block_after(README, "### 2. Spec first");
    assert_eq!(
        shown, SPEC_FIRST,
        "README.md's \"Spec first\" block differs from tests/readme/spec_first.rs \
         (the file the doctests compile): change both together"
    );
}

/// The README is for the person arriving (issue 29): short, its install lines work before the
/// crates are published, its first command keeps the user's target directory and says how long
/// it takes, and what `pas::xdg` returns is said. (tests/readme_follow.sh runs its commands.)
#[test]
fn the_readme_fits_a_newcomer() {
    let lines = README.lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines: move material to docs/"
    );
    let sh: Vec<&str> = README
        .split("```sh\n")
        .skip(1)
        .filter_map(|block| block.split("```").next())
        .flat_map(str::lines)
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .collect();
    let first = sh.first().expect("README.md has a sh block");
    assert!(
        first.contains(r#"CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-"#),
        "the first command keeps a CARGO_TARGET_DIR the user set: {first}"
    );
    assert!(
        README.contains("10 to 15 minutes"),
        "the README says how long the first command takes"
    );
    for line in sh
        .iter()
        .filter(|l| l.starts_with("cargo add") || l.starts_with("cargo install"))
    {
        assert!(
            line.contains("--path") || !line.contains("pas"),
            "the crates are not published: `{line}` must install from a clone (--path)"
        );
    }
    assert!(
        README.contains("Option<PathBuf>"),
        "the README says that pas::xdg's directories are an Option"
    );
}
