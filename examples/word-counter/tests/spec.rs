//! word-counter's registry: what `--pas-spec` prints is a valid spec that reads back to the
//! registry the derive builds, and it says what `specs/word-counter.yaml` says.

use std::path::Path;

use assert_cmd::Command;
use pas_spec::{Format, Registry, Severity, Source, check_source, load};

fn printed_spec() -> String {
    let output = Command::cargo_bin("word-counter")
        .unwrap()
        .arg("--pas-spec")
        .output()
        .unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn pas_spec_is_a_valid_spec_of_the_same_registry() {
    let source = Source::new("word-counter --pas-spec", printed_spec(), Format::Json);
    // What `pas-gen check` runs.
    let (read, diagnostics) = check_source(&source);
    assert!(
        diagnostics.iter().all(|d| d.severity != Severity::Error),
        "{diagnostics:#?}"
    );
    assert_eq!(read.unwrap(), pas::registry_of::<word_counter::Cli>());
}

#[test]
fn derived_registry_snapshot() {
    insta::assert_snapshot!(pas_spec::write::to_yaml(&pas::registry_of::<
        word_counter::Cli,
    >()));
}

/// The hand-written spec and the derived registry agree on everything an agent relies on:
/// name, version, level, exit codes, examples, anti-patterns, the command, its argv path, its
/// parameters and its errors. They differ in prose only: clap drops a one-line doc comment's
/// final period, and the output schema comes from `FileCount` (its doc comments, and the
/// `file_bytes` of a name that is not UTF-8).
#[test]
fn agrees_with_the_hand_written_spec() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../specs/word-counter.yaml");
    let (_, spec) = load::load_path(&path).unwrap_or_else(|d| panic!("{d:?}"));
    let derived: Registry = pas::registry_of::<word_counter::Cli>();
    assert_eq!(derived.name, spec.name);
    assert_eq!(derived.version, spec.version);
    assert_eq!(
        derived.summary.trim_end_matches('.'),
        spec.summary.trim_end_matches('.')
    );
    assert_eq!(derived.description, spec.description);
    assert_eq!((derived.level, derived.profile), (spec.level, spec.profile));
    assert_eq!(derived.exit_codes, spec.exit_codes);
    assert_eq!(derived.examples, spec.examples);
    assert_eq!(derived.anti_patterns, spec.anti_patterns);
    assert_eq!(derived.global_flags, spec.global_flags);
    assert_eq!(derived.commands.len(), spec.commands.len());
    let (mine, theirs) = (&derived.commands[0], &spec.commands[0]);
    assert_eq!(
        (&mine.name, &mine.path, &mine.description),
        (&theirs.name, &theirs.path, &theirs.description)
    );
    assert_eq!(
        (mine.effect, mine.output, mine.stdin),
        (theirs.effect, theirs.output, theirs.stdin)
    );
    assert_eq!(
        (&mine.errors, &mine.examples),
        (&theirs.errors, &theirs.examples)
    );
    assert_eq!(mine.parameters.len(), theirs.parameters.len());
    for (mine, theirs) in mine.parameters.iter().zip(&theirs.parameters) {
        assert_eq!(
            (&mine.name, mine.kind, mine.ty, mine.required),
            (&theirs.name, theirs.kind, theirs.ty, theirs.required)
        );
        assert_eq!(
            mine.description.trim_end_matches('.'),
            theirs.description.trim_end_matches('.')
        );
    }
    let schema = mine.output_schema.as_ref().unwrap();
    let theirs = theirs.output_schema.as_ref().unwrap();
    assert_eq!(schema["required"], theirs["required"]);
    assert_eq!(
        schema["additionalProperties"],
        theirs["additionalProperties"]
    );
    for field in ["file", "words"] {
        assert_eq!(
            schema["properties"][field]["type"],
            theirs["properties"][field]["type"]
        );
    }
}
