//! `include_spec!` writes `#[derive(AgentTool)]` types, so the spec-first word counter gets the
//! derive's compile-time facts too (issue 15, `pas::rooms`): like the code-first build, it links
//! none of the runtime parts its spec does not declare. Read from the symbol table with `nm`.

use std::process::Command;

#[test]
fn the_spec_first_tool_links_only_what_its_spec_declares() {
    let output = Command::new("nm")
        .arg("-C")
        .arg(env!("CARGO_BIN_EXE_word-counter-spec"))
        .output()
        .expect("nm runs (binutils)");
    assert!(output.status.success(), "nm failed: {output:?}");
    let symbols = String::from_utf8_lossy(&output.stdout);
    assert!(symbols.contains("PasProfile"), "no symbols read");
    for absent in [
        // no value constraint, requirement or credential
        "pas::declared::constraints::check",
        "pas::declared::requirements::",
        "regex_lite::",
        // no input schema
        "pas::schema_check",
        // no filesystem or background side effect
        "pas::cleanup::",
        "pas::kept_children::record_in",
        // no lock
        "pas::lock::Lock",
        // nothing to confirm
        "pas::builtins::guard::check",
        // no job command, nothing that changes state
        "pas::jobs::run::finish_run",
        "pas::idempotency::begin",
    ] {
        let found: Vec<&str> = symbols
            .lines()
            .filter(|l| l.contains(absent))
            .take(3)
            .collect();
        assert!(found.is_empty(), "`{absent}` is linked: {found:?}");
    }
}
