//! outputSchema and inputSchema.

use serde_json::json;

use super::support::*;

#[test]
fn output_schema_must_be_a_json_schema() {
    let found = check(|s| {
        s["commands"][1]["outputSchema"] = json!({
            "type": "object",
            "properties": {"id": {"type": "strin"}, "n": {"minimum": "zero"}},
            "required": "id"
        })
    });
    assert_has(
        &found,
        "E062",
        "/commands/1/outputSchema/properties/id/type",
    );
    assert_has(
        &found,
        "E062",
        "/commands/1/outputSchema/properties/n/minimum",
    );
    assert_has(&found, "E062", "/commands/1/outputSchema/required");
    assert!(found.iter().all(|d| d.code == "E062"), "{found:#?}");
}

#[test]
fn a_schema_is_an_object_or_a_boolean() {
    let found = check(|s| s["commands"][1]["outputSchema"] = json!("object"));
    assert_exactly(&found, &[("E062", "/commands/1/outputSchema")]);
    assert_exactly(
        &check(|s| s["commands"][1]["outputSchema"] = json!(true)),
        &[],
    );
}

#[test]
fn input_schema_must_be_a_json_schema() {
    let found = check(|s| s["commands"][0]["inputSchema"] = json!({"type": ["object", 3]}));
    assert_has(&found, "E062", "/commands/0/inputSchema/type");
}

#[test]
fn schemas_must_compile() {
    let found = check(|s| {
        s["commands"][1]["outputSchema"] = json!({"type": "string", "pattern": "(unclosed"})
    });
    assert_exactly(&found, &[("E063", "/commands/1/outputSchema/pattern")]);
    let found = check(|s| s["commands"][1]["outputSchema"] = json!({"$ref": "#/$defs/missing"}));
    assert_has(&found, "E063", "/commands/1/outputSchema");
    // Remote references are never fetched.
    let found = check(|s| {
        s["commands"][1]["outputSchema"] = json!({"$ref": "https://example.com/item.json"})
    });
    assert_has(&found, "E063", "/commands/1/outputSchema");
    let found = check(
        |s| s["commands"][1]["outputSchema"] = json!({"$defs": {"id": {"type": "string"}}, "type": "object", "properties": {"id": {"$ref": "#/$defs/id"}}}),
    );
    assert_exactly(&found, &[]);
}

#[test]
fn only_draft_2020_12() {
    let found = check(|s| {
        s["commands"][1]["outputSchema"] =
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"})
    });
    assert_exactly(&found, &[("E064", "/commands/1/outputSchema/$schema")]);
    let found = check(|s| {
        s["commands"][1]["outputSchema"] =
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"})
    });
    assert_exactly(&found, &[]);
}

#[test]
fn list_schemas_describe_one_item() {
    let found = check(|s| {
        s["commands"][1]["outputSchema"] = json!({"type": "array", "items": {"type": "object"}})
    });
    assert_exactly(&found, &[("W012", "/commands/1/outputSchema/type")]);
}

#[test]
fn no_schema_for_no_json() {
    let found = check(|s| s["commands"][1]["output"] = json!("document"));
    // Paging needs a list too.
    assert_exactly(
        &found,
        &[
            ("W013", "/commands/1/outputSchema"),
            ("E066", "/commands/1/paging"),
        ],
    );
}

#[test]
fn input_schema_on_a_read_command_warns() {
    let found = check(|s| s["commands"][1]["inputSchema"] = json!({"type": "object"}));
    assert_exactly(&found, &[("W014", "/commands/1/inputSchema")]);
    assert_exactly(
        &check(|s| s["commands"][0]["inputSchema"] = json!({"type": "object"})),
        &[],
    );
}
