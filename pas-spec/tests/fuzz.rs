//! Property tests: arbitrary text, YAML-ish token soup and byte mutations of a valid spec go
//! through reading, parsing, the source map and `check_source` without a panic, and every error
//! is a well-formed loader diagnostic. Bounded (256 cases each) so CI stays fast.

use pas_spec::{Diagnostic, Format, Source, SourceMap, load};
use proptest::prelude::*;

const YAML: &str = "\
specVersion: 1
name: demo
version: 0.1.0
summary: A demo tool.
exitCodes:
  - {code: 100, name: NOT_FOUND, meaning: Not found}
commands:
  - name: task.list
    description: List tasks.
    effect: read
    output: list
    errors: [NOT_FOUND]
    parameters:
      - {name: limit, type: integer, default: 10, description: Page size}
      - name: id
        kind: positional
        required: true
    outputSchema:
      type: object
      properties: {id: {type: string}, size: {type: integer}}
";

const JSON: &str = r#"{"specVersion": 1, "name": "demo", "version": "0.1.0",
"summary": "A demo tool.", "exitCodes": [{"code": 100, "name": "NOT_FOUND", "meaning": "Not found"}],
"commands": [{"name": "task.list", "description": "List tasks.", "effect": "read",
"output": "list", "errors": ["NOT_FOUND"],
"parameters": [{"name": "limit", "type": "integer", "default": 10, "description": "Page size"},
{"name": "id", "kind": "positional", "required": true}],
"outputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}]}
"#;

/// A loader diagnostic is coded E001-E010 (E010: a newer `specVersion`) and worded on one line.
fn assert_loader_diagnostic(diagnostic: &Diagnostic) {
    assert!(
        matches!(
            diagnostic.code,
            "E001" | "E002" | "E003" | "E004" | "E005" | "E006" | "E007" | "E008" | "E009" | "E010"
        ),
        "{diagnostic:?}"
    );
    assert!(diagnostic.is_error());
    assert!(!diagnostic.message.is_empty());
    assert!(!diagnostic.message.contains('\n'), "{diagnostic:?}");
    assert!(diagnostic.pointer.is_empty() || diagnostic.pointer.starts_with('/'));
}

/// Everything the loader offers, on bytes as a file would give them, in both formats.
fn exercise(bytes: &[u8]) {
    let source = match load::read_reader("fuzz", bytes) {
        Ok(source) => source,
        Err(diagnostic) => {
            assert_loader_diagnostic(&diagnostic);
            assert!(
                matches!(diagnostic.code, "E002" | "E003" | "E004"),
                "{diagnostic:?}"
            );
            return;
        }
    };
    for format in [Format::Yaml, Format::Json] {
        let source = Source {
            format,
            ..source.clone()
        };
        if let Err(diagnostic) = load::parse(&source) {
            assert_loader_diagnostic(&diagnostic);
            let location = diagnostic
                .location
                .as_ref()
                .expect("parse errors are located");
            assert!(location.line >= 1 && location.column >= 1, "{diagnostic:?}");
            assert_eq!(location.file, "fuzz");
        }
        let map = SourceMap::build(&source);
        for pointer in [
            "",
            "/commands/0/name",
            "/commands/0/parameters/1",
            "/x~1y",
            "bad",
        ] {
            let nearest = map.nearest(pointer);
            assert!(nearest.0 >= 1 && nearest.1 >= 1);
            if let Some(position) = map.position(pointer) {
                assert_eq!(position, nearest);
            }
        }
        let (registry, diagnostics) = pas_spec::check_source(&source);
        if registry.is_none() {
            // Every shape problem is reported (each once per node), at least one of them.
            assert!(!diagnostics.is_empty());
            assert!(diagnostics.iter().any(Diagnostic::is_error));
            let mut pointers: Vec<(&str, &str)> = diagnostics
                .iter()
                .map(|d| (d.code, d.pointer.as_str()))
                .collect();
            pointers.sort_unstable();
            pointers.dedup();
            assert_eq!(pointers.len(), diagnostics.len(), "{diagnostics:?}");
        }
        assert!(diagnostics.iter().all(|d| d.location.is_some()));
    }
}

/// `base` with each (position, byte) written over it, then cut after `keep` bytes (modulo its
/// length), if given.
fn mutate(base: &str, mutations: &[(usize, u8)], keep: Option<usize>) -> Vec<u8> {
    let mut bytes = base.as_bytes().to_vec();
    for &(position, byte) in mutations {
        let index = position % bytes.len();
        bytes[index] = byte;
    }
    if let Some(keep) = keep {
        bytes.truncate(keep % (bytes.len() + 1));
    }
    bytes
}

/// Pieces of YAML and JSON syntax and of the spec's own keys, to build near-miss documents.
fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        ": ",
        "- ",
        "\n",
        "\n  ",
        "\n    ",
        " ",
        "\t",
        "#",
        "\"",
        "'",
        "&a ",
        "*a",
        "&b ",
        "*b",
        "<<: ",
        "!!str ",
        "!tag ",
        "---\n",
        "...\n",
        "? ",
        "|\n",
        ">\n",
        "~",
        "null",
        "true",
        "1",
        "-1",
        "1e999",
        ".nan",
        "0x1F",
        "\\u0000",
        "\0",
        "specVersion",
        "name",
        "commands",
        "description",
        "outputSchema",
        "parameters",
        "effect",
        "destructive",
        "type",
        "integer",
        "é",
        "\u{FEFF}",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        exercise(text.as_bytes());
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        exercise(&bytes);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(token(), 0..120)) {
        exercise(tokens.concat().as_bytes());
    }

    #[test]
    fn mutated_yaml_spec_never_panics(
        mutations in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6),
        keep in any::<usize>(),
    ) {
        exercise(&mutate(YAML, &mutations, Some(keep)));
    }

    #[test]
    fn mutated_json_spec_never_panics(
        mutations in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6),
        keep in any::<usize>(),
    ) {
        exercise(&mutate(JSON, &mutations, Some(keep)));
    }

    #[test]
    fn mutated_specs_with_syntax_bytes_never_panic(
        mutations in prop::collection::vec(
            (any::<usize>(), prop::sample::select(b"[]{}:,-#&*!|>'\"\n\t ?".to_vec())),
            1..6,
        ),
    ) {
        exercise(&mutate(YAML, &mutations, None));
        exercise(&mutate(JSON, &mutations, None));
    }
}

#[test]
fn the_fuzz_bases_are_valid_specs() {
    // Otherwise the mutation tests would only ever start from an error.
    for (text, format) in [(YAML, Format::Yaml), (JSON, Format::Json)] {
        let source = Source::new("base", text, format);
        assert!(load::parse(&source).is_ok(), "{:?}", load::parse(&source));
    }
}
