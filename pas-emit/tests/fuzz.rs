//! Property tests of the whole spec-first path: arbitrary specs (generated from the format's own
//! pieces, with hostile names) and byte mutations of the example specs go through the loader, the
//! validator and the emitter without a panic, and for every spec the validator accepts the
//! emitter either refuses it with a structured `UNSUPPORTED_SPEC` or writes code that parses as a
//! Rust file. Bounded (a few hundred cases per property) so the suite stays well under 30 s.

use pas_spec::{Format, Source, check_source};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Load, validate and, when valid, emit; the emitted tokens must parse with syn and the
/// formatted file must be produced.
fn exercise(source: &Source) {
    let (registry, diagnostics) = check_source(source);
    let Some(registry) = registry else {
        assert!(diagnostics.iter().any(|d| d.is_error()));
        return;
    };
    if diagnostics.iter().any(|d| d.is_error()) {
        return;
    }
    match pas_emit::emit(&registry) {
        Err(error) => assert_eq!(error.code, pas_emit::UNSUPPORTED_SPEC, "{error:?}"),
        Ok(tokens) => {
            if let Err(error) = syn2::parse2::<syn2::File>(tokens.clone()) {
                panic!("emitted code does not parse: {error}\n{tokens}");
            }
            let file = pas_emit::emit_file(&registry, "fuzz.yaml");
            assert!(file.is_ok(), "{file:?}");
        }
    }
}

/// Kebab-case names as the validator accepts them, keywords and generated names included.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,4})?",
        prop::sample::select(vec![
            "type",
            "fn",
            "match",
            "async",
            "list",
            "cli",
            "commands",
            "globals",
            "handlers",
            "app",
            "error-code",
            "items",
            "context",
            "move",
            "box",
            "dyn",
            "try",
            "gen",
            "union",
            "default",
            "r",
            "error",
            "ok",
            "result",
            "string",
            "vec",
            "option",
            "some",
            "none",
        ])
        .prop_map(str::to_owned),
    ]
}

/// Names of output properties, which are free-form: anything a JSON key can be.
fn property() -> impl Strategy<Value = String> {
    prop_oneof![
        word(),
        prop::sample::select(vec![
            "self",
            "super",
            "crate",
            "Self",
            "r#x",
            "_",
            "1st",
            "ünï",
            "a_b",
            "a b",
            "",
            "*/",
            "\"",
            "\u{202e}",
            "camelCase",
            "x-y",
            "__",
            "0",
        ])
        .prop_map(str::to_owned),
    ]
}

fn param() -> impl Strategy<Value = Value> {
    (
        word(),
        prop::sample::select(vec!["flag", "flag", "flag", "positional", "variadic"]),
        prop::sample::select(vec!["string", "integer", "number", "boolean", "array"]),
        any::<bool>(),
        prop::option::of(prop::collection::vec(word(), 1..3)),
    )
        .prop_map(|(name, kind, ty, required, values)| {
            let mut param =
                json!({"name": name, "kind": kind, "type": ty, "description": "A value."});
            if required && kind != "flag" {
                param["required"] = json!(true);
            }
            if let (Some(values), "string") = (values, ty) {
                let mut values = values;
                values.sort();
                values.dedup();
                param["enum"] = json!(values);
            }
            param
        })
}

fn schema() -> impl Strategy<Value = Option<Value>> {
    prop::option::of(
        prop::collection::vec(
            (
                property(),
                prop::sample::select(vec![
                    "string", "integer", "number", "boolean", "array", "object",
                ]),
            ),
            0..4,
        )
        .prop_map(|props| {
            let properties: Map<String, Value> = props
                .into_iter()
                .map(|(name, ty)| {
                    (
                        name,
                        json!({"type": ty, "description": "*/ \"x\" \u{202e}"}),
                    )
                })
                .collect();
            json!({"type": "object", "properties": properties})
        }),
    )
}

fn command() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(word(), 1..3),
        prop::sample::select(vec!["object", "list", "events", "document", "none"]),
        prop::sample::select(vec!["read", "write", "destructive"]),
        prop::collection::vec(param(), 0..4),
        schema(),
        prop::collection::vec(
            prop::sample::select(vec!["NOT_FOUND", "TAKEN", "SELF"]),
            0..2,
        ),
    )
        .prop_map(|(words, output, effect, parameters, schema, errors)| {
            let mut errors = errors;
            errors.dedup();
            let mut command = json!({
                "name": words.join("."),
                "description": "Do a thing. `code` */ {{ x }}",
                "output": output,
                "effect": effect,
                "parameters": parameters,
                "errors": errors,
            });
            if let Some(schema) = schema {
                command["outputSchema"] = schema;
            }
            command
        })
}

fn spec() -> impl Strategy<Value = Value> {
    (
        word(),
        prop::collection::vec(command(), 1..5),
        prop::collection::vec(param(), 0..2),
        any::<bool>(),
    )
        .prop_map(|(name, mut commands, globals, codes)| {
            if !codes {
                for command in &mut commands {
                    command["errors"] = json!([]);
                }
            }
            let mut spec = json!({
                "specVersion": 1,
                "name": name,
                "version": "0.1.0",
                "summary": "A fuzzed tool.",
                "commands": commands,
                "globalFlags": globals,
            });
            if codes {
                spec["exitCodes"] = json!([
                    {"code": 100, "name": "NOT_FOUND", "meaning": "Not found"},
                    {"code": 101, "name": "TAKEN", "meaning": "Taken \u{202e} */"},
                    {"code": 102, "name": "SELF", "meaning": "A keyword as a variant"},
                ]);
            }
            spec
        })
}

fn example_specs() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../specs");
    let mut specs: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    specs.sort();
    specs
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn generated_specs_load_validate_and_emit_code_that_parses(spec in spec()) {
        let text = serde_json::to_string(&spec).unwrap();
        exercise(&Source::new("fuzz.json", text, Format::Json));
    }

    #[test]
    fn mutated_example_specs_never_panic(
        which in any::<prop::sample::Index>(),
        mutations in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let specs = example_specs();
        let mut bytes = specs[which.index(specs.len())].clone().into_bytes();
        for (at, byte) in mutations {
            let index = at.index(bytes.len());
            bytes[index] = byte;
        }
        // Only text reaches the loader (a spec is UTF-8); other bytes stop at reading.
        if let Ok(text) = String::from_utf8(bytes) {
            exercise(&Source::new("fuzz.yaml", text, Format::Yaml));
        }
    }
}

#[test]
fn the_example_specs_emit_code_that_parses() {
    for text in example_specs() {
        exercise(&Source::new("example.yaml", text, Format::Yaml));
    }
}

#[test]
fn commands_sharing_one_output_schema_share_one_struct_that_deserializes() {
    let schema = json!({"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "url": {"type": "string"}}});
    let spec = json!({
        "specVersion": 1, "name": "bookmarks", "version": "0.1.0", "summary": "Keep bookmarks.",
        "commands": [
            {"name": "add", "description": "Add one.", "effect": "write", "outputSchema": schema},
            {"name": "get", "description": "Get one.", "outputSchema": schema},
            {"name": "list", "description": "List them.", "output": "list", "outputSchema": schema},
            {"name": "find", "description": "Find them.", "output": "list", "outputSchema": schema},
        ],
    });
    let source = Source::new("bookmarks.json", spec.to_string(), Format::Json);
    let (registry, diagnostics) = check_source(&source);
    assert!(diagnostics.iter().all(|d| !d.is_error()), "{diagnostics:?}");
    let code = pas_emit::emit_file(&registry.unwrap(), "bookmarks.json").unwrap();
    // Structurally equal schemas are one struct, named after the first command, whether a
    // command answers it as an object or as a list's items.
    assert_eq!(code.matches("pub struct AddOutput").count(), 1, "{code}");
    assert!(
        !code.contains("GetOutput") && !code.contains("ListItem") && !code.contains("FindItem"),
        "{code}"
    );
    let signature = |method: &str| {
        let start = code.find(&format!("fn {method}(")).unwrap();
        code[start..start + code[start..].find(';').unwrap()].to_owned()
    };
    assert!(
        signature("get").contains("AddOutput"),
        "{}",
        signature("get")
    );
    assert!(
        signature("find").contains("AddOutput"),
        "{}",
        signature("find")
    );
    assert!(code.contains("serde::Deserialize"), "{code}");
}
