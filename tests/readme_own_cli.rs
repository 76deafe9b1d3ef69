//! The README's "Use pas in your own CLI" example is `tests/readme/lines.rs`, which the crate's
//! doctests compile (`ReadmeOwnCli` in src/lib.rs): this test keeps the README showing exactly
//! that file, so the example a reader copies is one that builds.

const README: &str = include_str!("../README.md");
const EXAMPLE: &str = include_str!("readme/lines.rs");

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
    let shown = rust_block_after(README, "## Use pas in your own CLI");
    assert_eq!(
        shown, EXAMPLE,
        "README.md's \"Use pas in your own CLI\" block differs from tests/readme/lines.rs \
         (the file the doctests compile): change both together"
    );
}
