//! A derive-built tool links only the profile it names (issue 15, `pas::rooms`): this `pas`
//! profile tool's binary carries neither the robot profile (its profile, built-ins, sessions)
//! nor the compose profile and its TOON encoder; having no `kind = "job"` command, not the
//! async job runtime either, and, changing nothing, not idempotency keys; declaring no value
//! constraint, requirement, credential, input schema, side effect or lock, none of the checks,
//! words and stores those need (nor regex-lite); having nothing to confirm, not the guard;
//! having no global flags, no TOML reader for its configuration file.
//! Read from the binary's symbol table with `nm`.

use std::process::Command;

/// The demangled symbol names of the tool's binary.
fn symbols() -> String {
    let output = Command::new("nm")
        .arg("-C")
        .arg(env!("CARGO_BIN_EXE_word-counter"))
        .output()
        .expect("nm runs (binutils)");
    assert!(output.status.success(), "nm failed: {output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The runtime's source has the module a `pas::` path names (`src/a/b.rs` or
/// `src/a/b/mod.rs`) and the items after it: a path this test says is absent cannot go stale
/// when a file moves (the house move of issue 30 did that to every path here once, silently).
fn in_source(path: &str) {
    let path = path.trim_start_matches("for ");
    let Some(rest) = path.strip_prefix("pas::") else {
        return;
    };
    let parts: Vec<&str> = rest.split("::").filter(|p| !p.is_empty()).collect();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src");
    for n in (1..=parts.len()).rev() {
        let module = parts[..n].join("/");
        for file in [
            src.join(format!("{module}.rs")),
            src.join(&module).join("mod.rs"),
        ] {
            if let Ok(text) = std::fs::read_to_string(&file) {
                for item in &parts[n..] {
                    assert!(
                        text.contains(item),
                        "{path}: no `{item}` in {}",
                        file.display()
                    );
                }
                return;
            }
        }
    }
    panic!("{path} names no module of src/: this test's paths went stale");
}

/// Fails naming the first symbols that mention `absent`.
fn assert_absent(symbols: &str, absent: &str) {
    in_source(absent);
    let found: Vec<&str> = symbols
        .lines()
        .filter(|l| l.contains(absent))
        .take(3)
        .collect();
    assert!(found.is_empty(), "`{absent}` is linked: {found:?}");
}

#[test]
fn a_tool_without_job_commands_links_no_job_runtime() {
    let symbols = symbols();
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    for absent in [
        "pas::services::jobs::run::finish_run",
        "pas::services::jobs::run::claim",
        "pas::run::jobs::answer",
        "pas::builtins::jobs::",
        "pas::services::jobs::store::",
    ] {
        assert_absent(&symbols, absent);
    }
}

#[test]
fn a_tool_that_changes_nothing_links_no_idempotency_keys() {
    let symbols = symbols();
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    // (The drop glue of an `Option<Keyed>` that is always `None` may stay: a few bytes.)
    for absent in [
        "pas::services::idempotency::begin",
        "pas::services::idempotency::augment",
        "pas::services::idempotency::Keyed::record",
        "for pas::services::idempotency::Record",
    ] {
        assert_absent(&symbols, absent);
    }
}

#[test]
fn a_pas_profile_tool_links_neither_robot_nor_compose() {
    let symbols = symbols();
    // The table is read: the tool's own code and the pas profile are there.
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    assert!(symbols.contains("PasProfile"), "the pas profile is missing");
    for absent in [
        "RobotProfile",
        "pas::builtins::robot::run",
        "pas::services::sessions::list::",
        "ComposeProfile",
        "toon_format::",
        // The compose built-ins: `health` and `tools` (`pas::builtins::augment_compose`).
        "pas::builtins::health::run",
        "pas::builtins::tools::run",
        "pas::builtins::augment_compose",
    ] {
        assert_absent(&symbols, absent);
    }
}

#[test]
fn a_tool_that_declares_no_checks_links_neither_them_nor_a_regex_engine() {
    let symbols = symbols();
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    for absent in [
        "pas::run::declared::constraints::check",
        "pas::run::declared::constraints::matches_pattern",
        "pas::run::declared::requirements::",
        "pas::run::declared::required_versions::",
        "pas::run::declared::untrusted::",
        "pas::run::declared::auth::",
        "pas::run::scope_check::",
        "pas::run::declared::auth::check",
        "regex_lite::",
        // Nor the code that puts a derive's `declared` keys into the registry.
        "pas_spec::derive_declared::apply_parameters",
        "pas_spec::derive_declared::unknown_name",
        "derive_declared::CommandDeclared>::apply",
        "derive_declared::ToolDeclared>::apply",
    ] {
        assert_absent(&symbols, absent);
    }
}

#[test]
fn a_tool_without_input_schemas_links_no_schema_check() {
    let symbols = symbols();
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    for absent in ["pas::guards::schema_check::", "pas::run::stdin_body::check"] {
        assert_absent(&symbols, absent);
    }
}

#[test]
fn a_tool_without_side_effects_links_no_cleanup_nor_kept_children_store() {
    let symbols = symbols();
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    // (`kept_children::record` stays, reading a recorder that only `cleanup`'s table sets.)
    for absent in [
        "pas::builtins::cleanup::",
        "pas::services::children::kept_children::record_in",
        "pas::services::children::kept_children::load",
        "pas::services::children::kept_children::save",
    ] {
        assert_absent(&symbols, absent);
    }
}

#[test]
fn a_tool_without_locks_links_no_lock() {
    let symbols = symbols();
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    // (The drop glue of an `Option<Held>` that is always `None` may stay: a few bytes.)
    for absent in [
        "pas::services::lock::Lock::take",
        "pas::services::lock::Lock::path",
        "pas::run::declared_lock::",
    ] {
        assert_absent(&symbols, absent);
    }
}

#[test]
fn a_tool_with_nothing_to_confirm_links_no_confirm_guard() {
    let symbols = symbols();
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    assert_absent(&symbols, "pas::run::guard::check");
}

#[test]
fn a_tool_without_global_flags_links_no_toml_reader() {
    let symbols = symbols();
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    // (It checks instead that its file sets nothing: `pas::parse::config_file::load_with`.)
    // The TOML parser itself may be linked: with the `mcp` feature, `mcp --print-config codex
    // --install` edits Codex's TOML (toml_edit); the configuration file's reader is not.
    for absent in [
        "pas::parse::config_file::typed::",
        "pas::parse::config_file::load(",
        " toml::",
        "<toml::",
    ] {
        assert_absent(&symbols, absent);
    }
    assert!(
        symbols.contains("pas::parse::config_file::load_with"),
        "the symbol names this test reads have moved: update the paths above"
    );
}
