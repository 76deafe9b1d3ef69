//! The spec format's compatibility promise, from the loader's side: a spec declaring a newer
//! `specVersion` than this pas reads is refused with one located E010 and a hint to upgrade,
//! before any key a newer format may have added is reported as unknown.

use pas_spec::{Diagnostic, Format, Severity, Source, check_source, load};

const NEWER_YAML: &str = "\
specVersion: 2
name: demo
version: 0.1.0
summary: A demo tool.
aKeyFromTheFuture: true
commands:
  - name: run
    description: Run.
";

fn error(source: &Source) -> Diagnostic {
    match load::parse(source) {
        Ok(registry) => panic!("{} parsed: {registry:?}", source.name),
        Err(diagnostic) => diagnostic,
    }
}

fn at(diagnostic: &Diagnostic) -> String {
    diagnostic
        .location
        .as_ref()
        .map_or("<none>".to_owned(), ToString::to_string)
}

#[test]
fn a_newer_spec_version_is_refused_at_its_value_with_a_hint_to_upgrade() {
    let diagnostic = error(&Source::new("spec.yaml", NEWER_YAML, Format::Yaml));
    assert_eq!(diagnostic.code, "E010");
    assert_eq!(diagnostic.severity, Severity::Error);
    assert_eq!(diagnostic.pointer, "/specVersion");
    assert_eq!(at(&diagnostic), "spec.yaml:1:14");
    assert_eq!(
        diagnostic.message,
        "specVersion is 2, a newer spec format than this pas reads (specVersion 1)."
    );
    let hint = diagnostic.hint.unwrap();
    assert!(hint.starts_with("upgrade pas-gen and pas-kit"), "{hint}");
    assert!(hint.contains("specVersion 2"), "{hint}");
}

#[test]
fn json_is_refused_the_same_way() {
    let text = "{\n  \"name\": \"demo\",\n  \"specVersion\": 3,\n  \"newThing\": {\"specVersion\": 1}\n}\n";
    let diagnostic = error(&Source::new("spec.json", text, Format::Json));
    assert_eq!(diagnostic.code, "E010");
    assert_eq!(at(&diagnostic), "spec.json:3:18");
    assert!(diagnostic.message.starts_with("specVersion is 3,"));
}

#[test]
fn a_newer_version_is_refused_even_when_everything_else_parses() {
    let text = NEWER_YAML.replace("aKeyFromTheFuture: true\n", "");
    let diagnostic = error(&Source::new("spec.yaml", &text, Format::Yaml));
    assert_eq!(diagnostic.code, "E010");
    assert_eq!(at(&diagnostic), "spec.yaml:1:14");
    // check_source reports it once, as the loader's.
    let (registry, diagnostics) = check_source(&Source::new("spec.yaml", &text, Format::Yaml));
    assert!(registry.is_none());
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
}

#[test]
fn only_the_top_level_key_counts_and_later_keys_are_found() {
    // A nested `specVersion` (inside an earlier value) is not the document's.
    let text = "\
name: demo
description: |
  specVersion: 9
examples:
  - {command: demo, specVersion: 9}
specVersion: 2
version: 0.1.0
summary: S.
unknownKey: 1
commands: [{name: run, description: Run.}]
";
    let diagnostic = error(&Source::new("spec.yaml", text, Format::Yaml));
    assert_eq!(diagnostic.code, "E010");
    assert_eq!(at(&diagnostic), "spec.yaml:6:14");
    assert!(diagnostic.message.starts_with("specVersion is 2,"));
}

#[test]
fn the_current_or_an_older_version_keeps_the_usual_errors() {
    // Format 1 with an unknown key: the unknown key, as before.
    let text = NEWER_YAML.replace("specVersion: 2", "specVersion: 1");
    assert_eq!(
        error(&Source::new("spec.yaml", &text, Format::Yaml)).code,
        "E007"
    );
    // Format 0 loads; the validator's E010 says it is not 1.
    let text = NEWER_YAML
        .replace("specVersion: 2", "specVersion: 0")
        .replace("aKeyFromTheFuture: true\n", "");
    let (registry, diagnostics) = check_source(&Source::new("spec.yaml", &text, Format::Yaml));
    assert!(registry.is_some());
    assert_eq!(diagnostics[0].code, "E010");
    assert!(diagnostics[0].message.contains("reads spec format 1 only"));
}
