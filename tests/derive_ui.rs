//! Compile-fail tests of `#[derive(AgentTool)]`: each mistake in `#[agent(...)]` is a compile
//! error at its span, with a hint, and every mistake of one derive comes out at once. The
//! expected messages are pinned in `tests/ui/*.stderr` (refresh with `TRYBUILD=overwrite`).

#[test]
fn attribute_mistakes_are_compile_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
