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
        "pas::run::declared::constraints::check",
        "pas::run::declared::requirements::",
        "regex_lite::",
        // no input schema
        "pas::guards::schema_check::",
        // no filesystem or background side effect
        "pas::builtins::cleanup::",
        "pas::services::children::kept_children::record_in",
        // no lock
        "pas::services::lock::Lock::take",
        // nothing to confirm
        "pas::run::guard::check",
        // no job command, nothing that changes state
        "pas::services::jobs::run::finish_run",
        "pas::services::idempotency::begin",
    ] {
        // The path is the runtime's (a moved file would make this check pass vacuously).
        let module = absent.trim_start_matches("pas::").trim_end_matches("::");
        let parts: Vec<&str> = module.split("::").collect();
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src");
        if absent.starts_with("pas::") {
            let found = (1..=parts.len()).rev().any(|n| {
                let dir = parts[..n].join("/");
                src.join(format!("{dir}.rs")).exists() || src.join(&dir).join("mod.rs").exists()
            });
            assert!(
                found,
                "{absent} names no module of src/: this test's paths went stale"
            );
        }
        let found: Vec<&str> = symbols
            .lines()
            .filter(|l| l.contains(absent))
            .take(3)
            .collect();
        assert!(found.is_empty(), "`{absent}` is linked: {found:?}");
    }
}
