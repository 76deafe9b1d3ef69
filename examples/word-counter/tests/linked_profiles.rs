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

/// Fails naming the first symbols that mention `absent`.
fn assert_absent(symbols: &str, absent: &str) {
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
        "pas::jobs::run::finish_run",
        "pas::jobs::run::claim",
        "pas::jobs::answer",
        "pas::jobs::words",
        "pas::jobs::store",
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
        "pas::idempotency::begin",
        "pas::idempotency::augment",
        "pas::idempotency::Keyed::record",
        "for pas::idempotency::Record",
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
        "pas::robot::builtins",
        "pas::sessions::list",
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
        "pas::declared::constraints::check",
        "pas::declared::constraints::matches_pattern",
        "pas::declared::requirements::",
        "pas::declared::versions::",
        "pas::declared::untrusted::",
        "pas::declared::auth::",
        "pas::scope_check::",
        "pas::declared::auth::check",
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
    for absent in ["pas::schema_check", "pas::stdin_body::check"] {
        assert_absent(&symbols, absent);
    }
}

#[test]
fn a_tool_without_side_effects_links_no_cleanup_nor_kept_children_store() {
    let symbols = symbols();
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    // (`kept_children::record` stays, reading a recorder that only `cleanup`'s table sets.)
    for absent in [
        "pas::cleanup::",
        "pas::kept_children::record_in",
        "pas::kept_children::load",
        "pas::kept_children::save",
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
        "pas::lock::Lock",
        "pas::lock::acquire",
        "pas::declared_lock::",
    ] {
        assert_absent(&symbols, absent);
    }
}

#[test]
fn a_tool_with_nothing_to_confirm_links_no_confirm_guard() {
    let symbols = symbols();
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    for absent in ["pas::builtins::guard::check", "pas::builtins::guard::quote"] {
        assert_absent(&symbols, absent);
    }
}

#[test]
fn a_tool_without_global_flags_links_no_toml_reader() {
    let symbols = symbols();
    assert!(symbols.contains("word_counter::count"), "no symbols read");
    // (It checks instead that its file sets nothing: `pas::config_file::load_with`.)
    for absent in ["pas::config_file::typed", "toml_parser::", "toml::de::"] {
        assert_absent(&symbols, absent);
    }
}
