//! spec -> registry -> spec is the identity, in YAML and in JSON, and the YAML reads like a spec
//! a person would write (snapshots in `tests/snapshots/`).

mod common;

use pas_spec::load::Format;
use pas_spec::write::{to_json, to_yaml};
use pas_spec::{AntiPattern, Command, Example, ExitCode, Parameter, Registry, Resource, Verb};
use proptest::prelude::*;
use serde_json::json;

use common::{example_specs, load, parse, stem};

/// Print a registry as YAML and as JSON and read both back: each must equal the original, and
/// printing what was read must give the same bytes (the writer has one spelling per registry).
fn assert_round_trips(name: &str, registry: &Registry) {
    let yaml = to_yaml(registry);
    let from_yaml = parse(&format!("{name} (as YAML)"), &yaml, Format::Yaml);
    assert_eq!(&from_yaml, registry, "{name}: YAML round trip\n{yaml}");
    assert_eq!(to_yaml(&from_yaml), yaml, "{name}: YAML printed again");

    let json = to_json(registry);
    let from_json = parse(&format!("{name} (as JSON)"), &json, Format::Json);
    assert_eq!(&from_json, registry, "{name}: JSON round trip\n{json}");
    assert_eq!(to_json(&from_json), json, "{name}: JSON printed again");
}

#[test]
fn example_specs_round_trip() {
    for path in example_specs() {
        assert_round_trips(&stem(&path), &load(&path));
    }
    let readme = parse("README example", &common::readme_example(), Format::Yaml);
    assert_round_trips("README example", &readme);
}

#[test]
fn printing_is_stable() {
    for path in example_specs() {
        let registry = load(&path);
        assert_eq!(to_yaml(&registry), to_yaml(&registry));
        assert_eq!(to_json(&registry), to_json(&registry));
        assert!(to_yaml(&registry).ends_with('\n'));
        assert!(to_json(&registry).ends_with("}\n"));
    }
}

/// The YAML of each example spec, pinned: a change to the writer or to serde-saphyr shows up
/// as a reviewable diff.
#[test]
fn yaml_snapshots() {
    for path in example_specs() {
        let yaml = to_yaml(&load(&path));
        insta::assert_snapshot!(format!("{}.yaml", stem(&path)), yaml);
    }
}

/// What a person would write: block style, keys in model order, defaults left out.
#[test]
fn yaml_reads_like_a_hand_written_spec() {
    let registry = load(&common::specs_dir().join("word-counter.yaml"));
    let yaml = to_yaml(&registry);
    let head: Vec<&str> = yaml.lines().take(5).collect();
    assert_eq!(
        head,
        [
            "specVersion: 1",
            "name: word-counter",
            "version: \"1.0.0\"",
            "summary: Count the words in files.",
            "description: >-",
        ]
    );
    assert!(
        yaml.contains("\ncommands:\n  - name: count\n    path: []\n"),
        "{yaml}"
    );
    // `profile: pas` is the default: a printed spec leaves it out, like every other default.
    assert!(!yaml.contains("profile:"), "{yaml}");
    assert!(!yaml.contains("null"), "{yaml}");
}

/// Strings that YAML would misread if printed plain: each is put in several places of a spec
/// (scalars, list items, mapping keys inside a JSON Schema, JSON values).
const HARD_STRINGS: &[&str] = &[
    "",
    " ",
    "two\nlines",
    "trailing newline\n",
    "two trailing newlines\n\n",
    "\n",
    "\nleading newline",
    "  leading spaces",
    "  indented\n    block\n",
    "trailing spaces  ",
    "tab\there",
    "crlf\r\nline",
    "carriage\rreturn",
    "nul\0byte",
    "bell\u{7} and escape \u{1b}[0m",
    "bom \u{feff} inside",
    "line\u{2028}separator and next\u{85}line",
    "\"double quotes\"",
    "'single quotes'",
    "it's",
    "back\\slash",
    "# a comment?",
    "value # with comment",
    "hash#inside",
    "key: value",
    "ends with colon:",
    "- looks like a list item",
    "-",
    "? question",
    "[flow, sequence]",
    "{flow: mapping}",
    "*alias",
    "&anchor",
    "!tag",
    "%directive",
    "@at",
    "`backtick`",
    "| literal",
    "> folded",
    "---",
    "...",
    "~",
    "null",
    "Null",
    "true",
    "yes",
    "no",
    "on",
    "off",
    "y",
    "n",
    "1",
    "-1",
    "1.0",
    "1e3",
    "0x1F",
    "0o17",
    "012",
    ".inf",
    "-.inf",
    ".nan",
    "1:30",
    "2024-01-01",
    "2024-01-01T12:00:00Z",
    "<<",
    "=",
    "unicode: é, 字, 🚀, Ωmega",
    "combining e\u{301} and zero\u{200b}width",
    "right-to-left \u{202e}text",
    "{{ template }}",
    "a very long line that goes on and on well past the folding width of the writer, with words \
     and: colons, # hashes, 'quotes' and \"double quotes\" so that folding must keep every one",
    "a very long line with   several   runs   of   spaces   that   a   folded   block   could \
     collapse   if   it   were   careless   about   them",
    "long line ending in spaces, long line ending in spaces, long line ending in spaces, long    ",
];

fn hard_registry(strings: &[&str]) -> Registry {
    let text = |i: usize| strings[i % strings.len()].to_owned();
    let mut properties = serde_json::Map::new();
    for (i, s) in strings.iter().enumerate() {
        properties.insert((*s).to_owned(), json!({"description": s, "const": i}));
    }
    let parameters = strings
        .iter()
        .map(|s| Parameter {
            name: "p".into(),
            kind: Default::default(),
            short: None,
            ty: Default::default(),
            items: None,
            values: Some(vec![(*s).to_owned(), "x".into()]),
            required: false,
            default: Some(json!(s)),
            env: None,
            secret: false,
            description: (*s).to_owned(),
            rust_name: None,
            aliases: Vec::new(),
            deprecated_aliases: Vec::new(),
            minimum: None,
            maximum: None,
            min_length: None,
            max_length: None,
            pattern: None,
            requires: Vec::new(),
            conflicts: Vec::new(),
            format: None,
            agent_hardening: None,
        })
        .collect();
    let command = Command {
        name: text(0),
        path: Some(strings.iter().map(|s| (*s).to_owned()).collect()),
        category: Some(text(1)),
        description: text(2),
        effect: Default::default(),
        idempotent: None,
        rate_limit: Some(text(3)),
        parameters,
        stdin: Default::default(),
        output: Default::default(),
        output_schema: Some(json!({"type": "object", "properties": properties})),
        input_schema: Some(json!({"enum": strings})),
        errors: strings.iter().map(|s| (*s).to_owned()).collect(),
        examples: strings
            .iter()
            .map(|s| Example {
                command: (*s).to_owned(),
                description: Some((*s).to_owned()),
            })
            .collect(),
        anti_patterns: Vec::new(),
        aliases: strings.iter().map(|s| (*s).to_owned()).collect(),
        deprecated: None,
        stability: pas_spec::Stability::Stable,
        dry_run: false,
        paging: None,
        session: None,
        confirm: false,
        list_field: None,
        compact_omit: Vec::new(),
        side_effects: Vec::new(),
        needs: Vec::new(),
        auth: false,
        scopes: Vec::new(),
        untrusted: Vec::new(),
        timeout: Some(2.5),
        max_output_bytes: Some(4096),
        max_input_bytes: Some(65536),
        lock: Some(text(1)),
        job: Some(pas_spec::job::JobSettings {
            poll_interval_ms: Some(250),
            timeout_ms: Some(90_000),
        }),
    };
    Registry {
        // Not part of the spec: a registry read back has the default.
        built: Default::default(),
        spec_version: 1,
        name: text(4),
        version: text(5),
        summary: text(6),
        description: Some(text(7)),
        level: 1,
        profile: Default::default(),
        schema_version: Some(text(8)),
        global_flags: Vec::new(),
        exit_codes: strings
            .iter()
            .enumerate()
            .map(|(i, s)| ExitCode {
                code: 100 + i as u16,
                name: (*s).to_owned(),
                meaning: (*s).to_owned(),
                blocking: false,
                success: false,
                trigger: Some(format!("tool --agent {s}")),
                role: None,
            })
            .collect(),
        anti_patterns: strings
            .iter()
            .map(|s| AntiPattern {
                pattern: (*s).to_owned(),
                instead: (*s).to_owned(),
            })
            .collect(),
        examples: Vec::new(),
        resources: strings
            .iter()
            .map(|s| Resource {
                path: (*s).to_owned(),
                description: Some((*s).to_owned()),
                verbs: vec![Verb::Ls],
            })
            .collect(),
        commands: vec![command],
        robot: None,
        auth: None,
        requirements: Vec::new(),
        changelog: Vec::new(),
        mask_high_entropy: false,
    }
}

#[test]
fn hard_strings_round_trip() {
    assert_round_trips("hard strings", &hard_registry(HARD_STRINGS));
    // One at a time too: a string alone in a field is printed in the style chosen for it alone.
    for s in HARD_STRINGS {
        assert_round_trips(&format!("{s:?}"), &hard_registry(&[s]));
    }
}

#[test]
fn json_values_round_trip() {
    // A bare `null` default is left out: `default: null` reads as "no default" (serde's
    // `Option`), so `Some(Value::Null)` has no spelling in a spec. Nested nulls are kept.
    let values = [
        json!(true),
        json!(0),
        json!(-1),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(0.1),
        json!(-2.5e-300),
        json!(1e300),
        json!(2.0),
        json!([]),
        json!({}),
        json!([[], {}, [null]]),
        json!({"": "", "nested": {"list": [1, "1", "true", true, null]}}),
    ];
    for value in values {
        let mut registry = hard_registry(&["x"]);
        registry.commands[0].parameters[0].default = Some(value.clone());
        registry.commands[0].output_schema = Some(json!({"default": value, "examples": [value]}));
        assert_round_trips(&format!("{value}"), &registry);
    }
}

#[test]
fn short_flags_round_trip() {
    for short in ['a', 'y', 'n', '1', '#', ':', '-', '?', 'é', '"', '\''] {
        let mut registry = hard_registry(&["x"]);
        registry.commands[0].parameters[0].short = Some(short);
        assert_round_trips(&format!("short {short:?}"), &registry);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any string at all (control characters, lone separators, any length) survives a round trip.
    #[test]
    fn any_strings_round_trip(strings in prop::collection::vec(any::<String>(), 1..6)) {
        let strings: Vec<&str> = strings.iter().map(String::as_str).collect();
        assert_round_trips("proptest", &hard_registry(&strings));
    }

    /// Strings drawn mostly from the characters YAML treats specially.
    #[test]
    fn yaml_syntax_strings_round_trip(s in "[ \t\n\r#:'\"\\-?|>&*!%@`{}\\[\\],.~0-9a-zA-Zé🚀\u{0}\u{85}\u{2028}]{0,40}") {
        assert_round_trips("proptest", &hard_registry(&[&s]));
    }
}
