//! The loader on ordinary mistakes: every error located (file:line:col), coded, worded once for
//! both formats, and the source map's positions.

use std::path::Path;

use pas_spec::{Diagnostic, Effect, Format, Source, SourceMap, load};

/// A minimal valid spec in YAML. Lines: 1 specVersion, 2 name, 3 version, 4 summary,
/// 5 commands, 6 `- name`, 7 description.
const YAML: &str = "\
specVersion: 1
name: demo
version: 0.1.0
summary: A demo tool.
commands:
  - name: task.list
    description: List tasks.
";

/// The same spec in JSON. Lines: 2 specVersion, 3 name, 4 version, 5 summary, 6 commands,
/// 7 `{`, 8 name, 9 description.
const JSON: &str = r#"{
  "specVersion": 1,
  "name": "demo",
  "version": "0.1.0",
  "summary": "A demo tool.",
  "commands": [
    {
      "name": "task.list",
      "description": "List tasks."
    }
  ]
}
"#;

fn yaml(text: &str) -> Source {
    Source::new("spec.yaml", text, Format::Yaml)
}

fn json(text: &str) -> Source {
    Source::new("spec.json", text, Format::Json)
}

/// The error a source gives; panics (failing the test) if it parses.
fn error(source: &Source) -> Diagnostic {
    match load::parse(source) {
        Ok(registry) => panic!("{} parsed: {registry:?}", source.name),
        Err(diagnostic) => diagnostic,
    }
}

/// `file:line:col` of a diagnostic.
fn at(diagnostic: &Diagnostic) -> String {
    match &diagnostic.location {
        Some(location) => location.to_string(),
        None => "<none>".to_owned(),
    }
}

/// YAML with `extra` appended to the first command (indented as its keys).
fn yaml_command_with(extra: &str) -> String {
    format!("{YAML}    {extra}\n")
}

/// JSON with `extra` added as the first key of the first command (on its own line 8).
fn json_command_with(extra: &str) -> String {
    JSON.replace(
        "      \"name\": \"task.list\",",
        &format!("      {extra},\n      \"name\": \"task.list\","),
    )
}

#[test]
fn a_minimal_spec_parses_in_both_formats_to_the_same_registry() {
    let from_yaml = load::parse(&yaml(YAML)).expect("valid YAML");
    let from_json = load::parse(&json(JSON)).expect("valid JSON");
    assert_eq!(from_yaml, from_json);
    assert_eq!(from_yaml.name, "demo");
    assert_eq!(from_yaml.level, 1);
    assert_eq!(from_yaml.commands.len(), 1);
    assert_eq!(from_yaml.commands[0].effect, Effect::Read);
}

#[test]
fn check_source_returns_the_registry_of_a_valid_spec() {
    let (registry, diagnostics) = pas_spec::check_source(&yaml(YAML));
    assert!(registry.is_some());
    // The validator's findings are its own business; whatever they are, each is located.
    assert!(diagnostics.iter().all(|d| d.location.is_some()));
}

#[test]
fn check_source_reports_a_loader_error_alone() {
    let (registry, diagnostics) = pas_spec::check_source(&yaml("name: \"unterminated\n"));
    assert!(registry.is_none());
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].code, "E005");
}

#[test]
fn yaml_syntax_error() {
    let d = error(&yaml(
        &YAML.replace("summary: A demo tool.", "summary: \"A demo tool."),
    ));
    assert_eq!(d.code, "E005");
    assert!(d.message.starts_with("invalid YAML: "), "{}", d.message);
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn yaml_bad_indentation_is_a_syntax_error() {
    let d = error(&yaml(
        &YAML.replace("name: demo", "name: demo\n  version: 2"),
    ));
    assert_eq!(d.code, "E005");
    assert_eq!(d.location.as_ref().map(|l| l.line), Some(3));
}

#[test]
fn json_syntax_error() {
    // The comma after "demo" is missing: serde_json stops at the next key, line 4.
    let d = error(&json(&JSON.replace("\"demo\",", "\"demo\"")));
    assert_eq!(d.code, "E005");
    assert_eq!(at(&d), "spec.json:4:3");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn json_trailing_text_is_a_syntax_error() {
    let d = error(&json(&format!("{JSON}{{}}")));
    assert_eq!(d.code, "E005");
    assert_eq!(d.message, "invalid JSON: trailing characters");
    assert_eq!(at(&d), "spec.json:13:1");
}

#[test]
fn json_columns_count_characters_not_bytes() {
    // "dé€mo" is 5 characters but 8 bytes; the stray `x` is at character column 20.
    let d = error(&json(&JSON.replace("\"demo\",", "\"dé€mo\"  x,")));
    assert_eq!(d.code, "E005");
    assert_eq!(at(&d), "spec.json:3:20");
}

#[test]
fn yaml_wrong_type() {
    let d = error(&yaml(
        &YAML.replace("specVersion: 1", "specVersion: 1\nlevel: four"),
    ));
    assert_eq!(d.code, "E006");
    assert_eq!(d.pointer, "/level");
    assert_eq!(at(&d), "spec.yaml:2:8");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn json_wrong_type() {
    let d = error(&json(&JSON.replace(
        "\"name\": \"demo\",",
        "\"name\": \"demo\", \"level\": \"four\",",
    )));
    assert_eq!(d.code, "E006");
    assert_eq!(d.pointer, "/level");
    // At the value, as in YAML.
    assert_eq!(at(&d), "spec.json:3:28");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn a_list_where_a_string_belongs_is_a_wrong_type() {
    let d = error(&yaml(
        &YAML.replace("summary: A demo tool.", "summary: [a, b]"),
    ));
    assert_eq!(d.code, "E006");
    assert_eq!(d.pointer, "/summary");
    assert_eq!(
        d.message,
        "wrong type for `summary`: expected a string, found a list"
    );
}

#[test]
fn a_number_where_a_string_belongs_hints_at_quoting() {
    let d = error(&json(&JSON.replace("\"0.1.0\"", "1.0")));
    assert_eq!(d.code, "E006");
    assert_eq!(d.pointer, "/version");
    assert!(
        d.hint.as_deref().unwrap_or_default().contains("quote"),
        "{d:?}"
    );
}

#[test]
fn an_out_of_range_number_is_an_invalid_value() {
    let text = format!("{YAML}exitCodes:\n  - code: 70000\n    name: BIG\n    meaning: too big\n");
    let d = error(&yaml(&text));
    assert_eq!(d.code, "E006");
    assert_eq!(d.pointer, "/exitCodes/0/code");
    assert_eq!(at(&d), "spec.yaml:9:11");
    assert_eq!(
        d.message,
        "invalid value for `code`: expected an integer from 0 to 65535, found `70000`"
    );
}

#[test]
fn a_document_that_is_not_a_mapping_is_a_wrong_type() {
    let d = error(&yaml("- just\n- a list\n"));
    assert_eq!(d.code, "E006");
    assert_eq!(d.pointer, "");
    assert_eq!(
        d.message,
        "wrong type for the spec: expected a mapping, found a list"
    );
}

#[test]
fn yaml_missing_required_key() {
    let d = error(&yaml(&YAML.replace("    description: List tasks.\n", "")));
    assert_eq!(d.code, "E006");
    assert_eq!(d.pointer, "/commands/0");
    assert_eq!(at(&d), "spec.yaml:6:5");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn json_missing_required_key() {
    let d = error(&json(
        &JSON.replace(",\n      \"description\": \"List tasks.\"", ""),
    ));
    assert_eq!(d.code, "E006");
    assert_eq!(d.pointer, "/commands/0");
    assert_eq!(at(&d), "spec.json:7:5");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn a_missing_top_level_key_is_reported_at_the_start() {
    for source in [
        yaml(&YAML.replace("summary: A demo tool.\n", "")),
        json(&JSON.replace("  \"summary\": \"A demo tool.\",\n", "")),
    ] {
        let d = error(&source);
        assert_eq!(d.code, "E006");
        assert_eq!(d.pointer, "");
        assert_eq!(d.message, "missing required key `summary` in the spec");
        assert_eq!(d.location.map(|l| (l.line, l.column)), Some((1, 1)));
    }
}

#[test]
fn yaml_unknown_key_suggests_the_nearest() {
    let d = error(&yaml(&yaml_command_with("outputSchma: {}")));
    assert_eq!(d.code, "E007");
    assert_eq!(d.pointer, "/commands/0/outputSchma");
    assert_eq!(d.hint.as_deref(), Some("did you mean `outputSchema`?"));
    assert_eq!(at(&d), "spec.yaml:8:5");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn json_unknown_key_suggests_the_nearest() {
    let d = error(&json(&json_command_with("\"outputSchma\": {}")));
    assert_eq!(d.code, "E007");
    assert_eq!(d.pointer, "/commands/0/outputSchma");
    assert_eq!(d.hint.as_deref(), Some("did you mean `outputSchema`?"));
    assert_eq!(at(&d), "spec.json:8:7");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn a_snake_case_key_suggests_the_camel_case_one() {
    let d = error(&yaml(&yaml_command_with("rate_limit: 10/minute")));
    assert_eq!(d.code, "E007");
    assert_eq!(d.hint.as_deref(), Some("did you mean `rateLimit`?"));
}

#[test]
fn an_unknown_key_far_from_any_lists_the_valid_keys() {
    let d = error(&yaml("specVersion: 1\nzzzzzz: 1\n"));
    assert_eq!(d.code, "E007");
    assert_eq!(d.pointer, "/zzzzzz");
    let hint = d.hint.unwrap_or_default();
    assert!(
        hint.starts_with("the keys of the spec are `specVersion`, `name`"),
        "{hint}"
    );
    assert!(hint.ends_with("or `commands`"), "{hint}");
}

#[test]
fn an_unknown_key_in_a_parameter_names_the_parameter() {
    let d = error(&yaml(&yaml_command_with(
        "parameters:\n      - name: verbose\n        requird: true",
    )));
    assert_eq!(d.code, "E007");
    assert_eq!(d.pointer, "/commands/0/parameters/0/requird");
    assert_eq!(d.message, "unknown key `requird` in a parameter");
    assert_eq!(d.hint.as_deref(), Some("did you mean `required`?"));
    assert_eq!(at(&d), "spec.yaml:10:9");
}

#[test]
fn yaml_unknown_enum_value() {
    let d = error(&yaml(&yaml_command_with("effect: delete")));
    assert_eq!(d.code, "E006");
    assert_eq!(d.pointer, "/commands/0/effect");
    assert_eq!(at(&d), "spec.yaml:8:13");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn json_unknown_enum_value() {
    let d = error(&json(&json_command_with("\"effect\": \"delete\"")));
    assert_eq!(d.code, "E006");
    assert_eq!(d.pointer, "/commands/0/effect");
    assert_eq!(at(&d), "spec.json:8:17");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn a_misspelt_enum_value_suggests_the_nearest() {
    let d = error(&yaml(&yaml_command_with("effect: destructve")));
    assert_eq!(d.code, "E006");
    assert_eq!(d.hint.as_deref(), Some("did you mean `destructive`?"));
}

#[test]
fn yaml_duplicate_top_level_key() {
    let d = error(&yaml(
        &YAML.replace("name: demo\n", "name: demo\nname: again\n"),
    ));
    assert_eq!(d.code, "E008");
    assert_eq!(d.pointer, "/name");
    assert_eq!(at(&d), "spec.yaml:3:1");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn json_duplicate_top_level_key() {
    let d = error(&json(&JSON.replace(
        "\"name\": \"demo\",",
        "\"name\": \"demo\", \"name\": \"again\",",
    )));
    assert_eq!(d.code, "E008");
    assert_eq!(d.pointer, "/name");
    assert_eq!(at(&d), "spec.json:3:19");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn yaml_duplicate_key_inside_output_schema() {
    let d = error(&yaml(&yaml_command_with(
        "outputSchema:\n      type: object\n      properties:\n        \
         id: {type: string}\n        id: {type: integer}",
    )));
    assert_eq!(d.code, "E008");
    assert_eq!(d.pointer, "/commands/0/outputSchema/properties/id");
    assert_eq!(at(&d), "spec.yaml:12:9");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn json_duplicate_key_inside_output_schema() {
    // serde_json alone would keep the second `id`; the loader must not.
    let d = error(&json(&json_command_with(
        "\"outputSchema\": {\"type\": \"object\", \"properties\": {\"id\": {}, \"id\": {}}}",
    )));
    assert_eq!(d.code, "E008");
    assert_eq!(d.pointer, "/commands/0/outputSchema/properties/id");
    assert_eq!(at(&d), "spec.json:8:67");
    insta::assert_yaml_snapshot!(d);
}

#[test]
fn a_key_with_a_slash_is_escaped_in_the_pointer() {
    let d = error(&yaml(&yaml_command_with(
        "outputSchema:\n      properties:\n        a/b~c: {}\n        a/b~c: {}",
    )));
    assert_eq!(d.code, "E008");
    assert_eq!(d.pointer, "/commands/0/outputSchema/properties/a~1b~0c");
}

#[test]
fn the_source_map_places_yaml_nodes() {
    let map = SourceMap::build(&yaml(YAML));
    assert_eq!(map.position(""), Some((1, 1)));
    assert_eq!(map.position("/name"), Some((2, 1)));
    assert_eq!(map.position("/commands"), Some((5, 1)));
    // A sequence item is placed at the item (a mapping starts at its first key).
    assert_eq!(map.position("/commands/0"), Some((6, 5)));
    assert_eq!(map.position("/commands/0/name"), Some((6, 5)));
    assert_eq!(map.position("/commands/0/description"), Some((7, 5)));
    assert_eq!(map.position("/commands/1"), None);
    assert_eq!(map.position("/nope"), None);
    assert_eq!(map.position("not a pointer"), None);
}

#[test]
fn the_source_map_places_json_nodes() {
    let map = SourceMap::build(&json(JSON));
    assert_eq!(map.position(""), Some((1, 1)));
    assert_eq!(map.position("/name"), Some((3, 3)));
    assert_eq!(map.position("/commands"), Some((6, 3)));
    assert_eq!(map.position("/commands/0"), Some((7, 5)));
    assert_eq!(map.position("/commands/0/description"), Some((9, 7)));
    assert_eq!(map.position("/commands/00"), None);
}

#[test]
fn the_source_map_places_flow_items_and_escaped_keys() {
    let text = "a: [x, {b: 1}]\n\"c/d\": 2\n\"e~f\": 3\n";
    let map = SourceMap::build(&yaml(text));
    assert_eq!(map.position("/a/0"), Some((1, 5)));
    assert_eq!(map.position("/a/1/b"), Some((1, 9)));
    assert_eq!(map.position("/c~1d"), Some((2, 1)));
    assert_eq!(map.position("/e~0f"), Some((3, 1)));
    assert_eq!(map.len(), 7);
}

#[test]
fn locate_falls_back_to_the_nearest_ancestor() {
    let map = SourceMap::build(&yaml(YAML));
    let mut diagnostics = vec![
        Diagnostic::error("E099", "/commands/0/description", "exact"),
        Diagnostic::error("E099", "/commands/0/parameters/3/name", "ancestor"),
        Diagnostic::error("E099", "/missing", "root"),
        Diagnostic::error("E099", "", "root itself"),
    ];
    map.locate("spec.yaml", &mut diagnostics);
    let places: Vec<String> = diagnostics.iter().map(at).collect();
    assert_eq!(
        places,
        [
            "spec.yaml:7:5",
            "spec.yaml:6:5",
            "spec.yaml:1:1",
            "spec.yaml:1:1"
        ]
    );
}

#[test]
fn an_unparsable_source_gives_an_empty_map_that_still_locates() {
    let map = SourceMap::build(&yaml("a: [\n"));
    assert!(map.is_empty());
    assert_eq!(map.position(""), None);
    let mut diagnostics = vec![Diagnostic::error("E099", "/a", "somewhere")];
    map.locate("spec.yaml", &mut diagnostics);
    assert_eq!(at(&diagnostics[0]), "spec.yaml:1:1");
}

#[test]
fn files_are_read_with_their_format() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        ("spec.yaml", YAML, Format::Yaml),
        ("spec.yml", YAML, Format::Yaml),
        ("spec.json", JSON, Format::Json),
        ("spec.JSON", JSON, Format::Json),
        // No telling extension: the first character decides.
        ("spec.txt", JSON, Format::Json),
        ("spec", YAML, Format::Yaml),
    ];
    for (name, text, format) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        let (source, registry) = load::load_path(&path).expect("loads");
        assert_eq!(source.format, format, "{name}");
        assert_eq!(source.name, path.display().to_string());
        assert_eq!(registry.name, "demo");
    }
}

#[test]
fn a_byte_order_mark_is_dropped() {
    let bytes = [b"\xEF\xBB\xBF".as_slice(), JSON.as_bytes()].concat();
    let source = load::read_reader("<stdin>", bytes.as_slice()).expect("reads");
    assert_eq!(source.format, Format::Json);
    assert_eq!(source.name, "<stdin>");
    assert!(load::parse(&source).is_ok());
}

#[test]
fn format_from_extension_and_sniffing() {
    assert_eq!(Format::from_path(Path::new("a.yaml")), Some(Format::Yaml));
    assert_eq!(Format::from_path(Path::new("a.Yml")), Some(Format::Yaml));
    assert_eq!(Format::from_path(Path::new("a.json")), Some(Format::Json));
    assert_eq!(Format::from_path(Path::new("a.toml")), None);
    assert_eq!(Format::from_path(Path::new("a")), None);
    assert_eq!(Format::sniff("\n  {\"a\": 1}"), Format::Json);
    assert_eq!(Format::sniff("a: 1"), Format::Yaml);
    assert_eq!(Format::sniff("[1]"), Format::Yaml);
}

#[test]
fn messages_are_one_line() {
    let sources = [
        yaml(&yaml_command_with("outputSchma: {}")),
        yaml("a: \"unterminated\n"),
        yaml("key: [1, 2\nother: }\n"),
        json("{\"a\": \n\n"),
        yaml(&format!("specVersion: 1\n\"{}\\nx\": 1\n", "k".repeat(500))),
    ];
    for source in sources {
        let d = error(&source);
        assert!(!d.message.contains('\n'), "{d:?}");
        assert!(d.message.chars().count() <= 301, "{d:?}");
        assert!(!d.hint.unwrap_or_default().contains('\n'));
        assert!(d.location.is_some());
    }
}

/// Scalars are read as YAML 1.2: `no`, `on` and `off` are strings where a string is expected
/// (enum values, defaults), as an editor validating against the schema reads them.
#[test]
fn yaml_scalars_follow_yaml_1_2() {
    let text = "specVersion: 1\nname: t\nversion: 1.0.0\nsummary: s\ncommands:\n  - name: run\n    description: d\n    parameters:\n      - name: mode\n        enum: [on, off, no]\n        default: no\n";
    let source = pas_spec::Source::new("t.yaml", text, pas_spec::Format::Yaml);
    let registry = pas_spec::load::parse(&source).unwrap();
    let param = &registry.commands[0].parameters[0];
    assert_eq!(
        param.values.as_deref(),
        Some(&["on".to_owned(), "off".to_owned(), "no".to_owned()][..])
    );
    assert_eq!(
        param.default,
        Some(serde_json::Value::String("no".to_owned()))
    );
}
