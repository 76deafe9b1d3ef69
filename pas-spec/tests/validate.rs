//! The validator: one test module per family of rules (registries built from JSON), the fixture
//! specs under the repository's `tests/fixtures` (snapshots of every diagnostic, located by the
//! loader's source map), the code table, and speed.

/// The rule tests, one file per family, in `tests/validate/`.
#[path = "validate"]
mod rules {
    mod support;

    mod commands;
    mod examples;
    mod exit_codes;
    mod header;
    mod levels;
    mod names;
    mod parameters;
    mod rust_idents;
    mod schemas;
    mod secrets;
}

use std::path::{Path, PathBuf};

use pas_spec::{Diagnostic, Severity, Source, diagnostic_codes::CODES, load, validate::validate};
use serde_json::json;

/// The fixture specs of one kind (`valid` or `invalid`), sorted by name.
fn fixtures(kind: &str) -> Vec<PathBuf> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(kind);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| {
            matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("yaml" | "json")
            )
        })
        .collect();
    paths.sort();
    paths
}

/// Read a fixture with the loader, named by its path from the repository root so that snapshots
/// do not depend on where the repository is checked out.
fn read(path: &Path) -> Source {
    let mut source =
        load::read_path(path).unwrap_or_else(|error| panic!("{}: {error:?}", path.display()));
    let kind = path
        .parent()
        .and_then(Path::file_name)
        .unwrap()
        .to_string_lossy();
    let file = path.file_name().unwrap().to_string_lossy();
    source.name = format!("tests/fixtures/{kind}/{file}");
    source
}

/// What every diagnostic promises, whatever the rule.
#[track_caller]
fn assert_well_formed(diagnostic: &Diagnostic) {
    let summary = CODES.iter().find(|(code, _)| *code == diagnostic.code);
    assert!(
        summary.is_some(),
        "{} is not in the code table",
        diagnostic.code
    );
    let expected = if diagnostic.code.starts_with('W') {
        Severity::Warning
    } else {
        Severity::Error
    };
    assert_eq!(diagnostic.severity, expected, "{diagnostic:?}");
    assert!(
        diagnostic.message.ends_with(['.', '?']),
        "one sentence: {diagnostic:?}"
    );
    assert!(
        !diagnostic.message.contains('\n'),
        "one line: {diagnostic:?}"
    );
    let hint = diagnostic.hint.as_deref().unwrap_or_default();
    assert!(
        !hint.is_empty() && !hint.contains('\n'),
        "a one-line hint: {diagnostic:?}"
    );
    assert!(
        diagnostic.pointer.is_empty() || diagnostic.pointer.starts_with('/'),
        "{diagnostic:?}"
    );
}

#[test]
fn invalid_fixtures() {
    let paths = fixtures("invalid");
    assert!(
        paths.len() >= 8,
        "one fixture per family of rules, found {paths:?}"
    );
    for path in paths {
        let source = read(&path);
        let (registry, diagnostics) = pas_spec::check_source(&source);
        assert!(
            registry.is_some(),
            "{}: the loader refused it: {diagnostics:#?}",
            source.name
        );
        let errors: Vec<&str> = diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code)
            .collect();
        assert!(
            errors.len() >= 3,
            "{}: each fixture shows several problems at once: {diagnostics:#?}",
            source.name
        );
        for diagnostic in &diagnostics {
            assert_well_formed(diagnostic);
            assert!(
                diagnostic.location.is_some(),
                "{}: unlocated {diagnostic:?}",
                source.name
            );
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_yaml_snapshot!(format!("invalid-{name}"), diagnostics);
    }
}

#[test]
fn valid_fixtures_have_no_errors() {
    let paths = fixtures("valid");
    assert!(!paths.is_empty());
    for path in paths {
        let source = read(&path);
        let (registry, diagnostics) = pas_spec::check_source(&source);
        assert!(registry.is_some(), "{}: {diagnostics:#?}", source.name);
        let errors: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", source.name);
    }
}

/// Every code the validator emits is in the table, and every validator code in the table is
/// emitted somewhere (so the table does not promise a check that does not exist).
#[test]
fn the_code_table_matches_the_rules() {
    let mut used = std::collections::BTreeSet::new();
    let mut folders = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src/validate")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (index, _) in text.match_indices('"') {
                let code = text.get(index + 1..index + 5).unwrap_or_default();
                let closed = text.get(index + 5..index + 6) == Some("\"");
                if closed
                    && code.starts_with(['E', 'W'])
                    && code[1..].bytes().all(|b| b.is_ascii_digit())
                {
                    used.insert(code.to_owned());
                }
            }
        }
    }
    let table: std::collections::BTreeSet<String> = CODES
        .iter()
        .map(|(code, _)| code.to_string())
        .filter(|code| code.as_str() >= "E010")
        .collect();
    assert_eq!(used, table);
    let mut sorted: Vec<&str> = CODES.iter().map(|(code, _)| *code).collect();
    sorted.sort();
    assert_eq!(
        sorted,
        CODES.iter().map(|(code, _)| *code).collect::<Vec<_>>(),
        "the table is sorted"
    );
}

/// The rule tests' diagnostics keep the same promises as the fixtures'.
#[test]
fn diagnostics_are_well_formed() {
    for path in fixtures("invalid") {
        let (_, diagnostics) = pas_spec::check_source(&read(&path));
        diagnostics.iter().for_each(assert_well_formed);
    }
}

/// A thousand commands, each with parameters, an example and a schema, validate without a
/// diagnostic (no rule confuses one command's names with another's). How fast is the bench's
/// (`cargo run --release -p pas-bench -- check`: a 1,000-command spec in under 200 ms), never a
/// timed test's.
#[test]
fn a_thousand_commands_validate_without_a_diagnostic() {
    let commands: Vec<serde_json::Value> = (0..1000)
        .map(|index| {
            json!({
                "name": format!("group-{}.action-{index}", index % 50),
                "description": "Do one thing.",
                "effect": if index % 3 == 0 { "write" } else { "read" },
                "output": "list",
                "outputSchema": {"type": "object", "properties": {"id": {"type": "string"}, "size": {"type": "integer", "minimum": 0}}},
                "parameters": [
                    {"name": "target", "kind": "positional", "required": true, "description": "What to act on."},
                    {"name": "limit", "type": "integer", "default": 20, "description": "Page size."},
                    {"name": "cursor", "description": "Where to start."},
                    {"name": "mode", "enum": ["fast", "slow"], "default": "fast", "description": "How."}
                ],
                "paging": {"limit": "limit", "cursor": "cursor"},
                "errors": ["NOT_FOUND"],
                "examples": [{"command": format!("big-tool group-{} action-{index} x --limit 5 --mode slow --agent", index % 50)}]
            })
        })
        .collect();
    let spec = json!({
        "specVersion": 1, "name": "big-tool", "version": "1.0.0", "summary": "Many commands.",
        "exitCodes": [{"code": 100, "name": "NOT_FOUND", "meaning": "Missing"}],
        "commands": commands
    });
    let registry: pas_spec::Registry = serde_json::from_value(spec).unwrap();
    assert_eq!(validate(&registry), []);
}

/// An example may use every flag the runtime gives its command, as the surface table lists it
/// (issue 30, item 4): `--wait` on a job, `--idempotency-key` and `--input-file` on a write
/// that reads stdin, `--timeout` everywhere (the tool owns no flag of that name), `--dry-run`
/// and `--force` on a destructive command. A flag no row gives is still refused (E073).
#[test]
fn examples_take_the_runtime_flags_the_table_gives_their_command() {
    let spec = |example: &str| {
        json!({
            "specVersion": 1, "name": "shelf", "version": "1.0.0", "summary": "A shelf.",
            "commands": [
                {"name": "item.add", "description": "Add an item from stdin.", "effect": "write",
                 "idempotent": false, "stdin": "optional",
                 "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
                 "examples": [{"command": example}]},
                {"name": "item.index", "description": "Rebuild the index.", "effect": "write",
                 "output": "job", "examples": [{"command": "shelf --agent item index --wait --timeout 30"}]},
                {"name": "item.drop", "description": "Drop every item.", "effect": "destructive",
                 "idempotent": false, "dryRun": true,
                 "examples": [{"command": "shelf --agent item drop --dry-run"}, {"command": "shelf --agent item drop --force"}]}
            ]
        })
    };
    let registry: pas_spec::Registry = serde_json::from_value(spec(
        "shelf --agent item add --input-file item.json --idempotency-key k1 --timeout 5",
    ))
    .unwrap();
    assert_eq!(validate(&registry), []);
    let registry: pas_spec::Registry =
        serde_json::from_value(spec("shelf --agent item add --wait")).unwrap();
    let codes: Vec<&str> = validate(&registry).into_iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E073"], "--wait is a job's flag only");
}
