//! One struct per shared output schema: commands whose `outputSchema`s are equal (a YAML anchor
//! and its aliases, or schemas written out alike) get one generated struct, whatever their
//! output kind, named after the first of them. Regression (issue 29): one anchored schema used
//! by `add` (an object) and `list` (its items) became two identical structs, `AddOutput` and
//! `ListItem`.

use pas_spec::{Format, Registry, Source, check_source};

const SPEC: &str = r#"
specVersion: 1
name: todo
version: 1.0.0
summary: Tasks.
commands:
  - name: add
    description: Add a task.
    effect: write
    parameters:
      - {name: title, kind: positional, required: true, description: The title.}
    output: object
    outputSchema: &task
      type: object
      required: [id, title]
      properties:
        id: {type: integer, description: The task's number.}
        title: {type: string}
        done: {type: boolean}
  - name: list
    description: Every task.
    output: list
    outputSchema: *task
  - name: show
    description: One task.
    parameters:
      - {name: id, kind: positional, required: true, type: integer, description: The number.}
    output: object
    outputSchema: *task
  - name: count
    description: How many tasks.
    output: object
    outputSchema:
      type: object
      required: [count]
      properties:
        count: {type: integer}
"#;

fn registry(text: &str) -> Registry {
    let source = Source::new("todo.yaml", text, Format::Yaml);
    let (registry, diagnostics) = check_source(&source);
    assert!(diagnostics.iter().all(|d| !d.is_error()), "{diagnostics:?}");
    registry.unwrap()
}

#[test]
fn an_anchored_schema_is_one_struct_for_every_command_that_uses_it() {
    let code = pas_emit::emit_file(&registry(SPEC), "todo.yaml").unwrap();
    assert_eq!(code.matches("pub struct AddOutput").count(), 1, "{code}");
    for gone in ["ListItem", "ShowOutput"] {
        assert!(!code.contains(gone), "{gone} is AddOutput: {code}");
    }
    assert!(code.contains("pub struct CountOutput"), "{code}");
    let signatures = pas_emit::handler_signatures(&registry(SPEC)).unwrap();
    let outputs: Vec<(&str, &str)> = signatures
        .iter()
        .map(|s| (s.command.as_str(), s.output.as_str()))
        .collect();
    assert_eq!(
        outputs,
        [
            ("add", "AddOutput"),
            ("list", "Items<AddOutput>"),
            ("show", "AddOutput"),
            ("count", "CountOutput"),
        ]
    );
    insta::assert_snapshot!("shared-schema", code);
}

/// Structural equality: the same schema written out twice is shared as an anchor is; one
/// property more, or the properties in another order (the struct's field order is the order
/// the result is written in), is a struct of its own.
#[test]
fn schemas_written_out_alike_share_and_others_do_not() {
    let task =
        "{type: object, required: [id], properties: {id: {type: integer}, title: {type: string}}}";
    let reordered =
        "{type: object, required: [id], properties: {title: {type: string}, id: {type: integer}}}";
    let spec = |second: &str| {
        format!(
            "specVersion: 1\nname: t\nversion: 1.0.0\nsummary: s\ncommands:\n  - name: one\n    description: d\n    output: object\n    outputSchema: {task}\n  - name: two\n    description: d\n    output: list\n    outputSchema: {second}\n"
        )
    };
    let code = pas_emit::emit_file(&registry(&spec(task)), "t.yaml").unwrap();
    assert!(code.contains("pub struct OneOutput"), "{code}");
    assert!(!code.contains("TwoItem"), "{code}");
    let code = pas_emit::emit_file(&registry(&spec(reordered)), "t.yaml").unwrap();
    assert!(
        code.contains("pub struct OneOutput") && code.contains("pub struct TwoItem"),
        "{code}"
    );
}
