//! The spec format's JSON Schema (draft 2020-12), generated from the model with schemars.
//!
//! The model's doc comments become the schema's descriptions, so editors show the same words as
//! the API docs. A few things schemars cannot see are added here: the defaults of fields that are
//! left out when they hold them (schemars drops a default the field's `skip_serializing_if`
//! skips), the one spec version this format reads, and that output and input schemas are JSON
//! Schemas themselves. `specs/pas-spec.schema.json` is this output, kept fresh by
//! `tests/schema.rs`.

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value, json};

use crate::json_order::sorted;
use crate::{Registry, SPEC_VERSION};

/// The meta-schema of the output and input schemas a spec embeds.
pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Said at the top of the schema file, for whoever opens it.
const COMMENT: &str = "Generated from the pas-spec model (pas-spec/src/model.rs); do not edit. \
     Refresh with: UPDATE_SCHEMA=1 cargo test -p pas-spec --test schema";

/// The JSON Schema of spec format v1, as a JSON value with every object's keys sorted.
pub fn spec_schema() -> Value {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<Registry>().to_value();
    let root = schema
        .as_object_mut()
        .expect("a struct's schema is an object");
    root.insert("$comment".into(), COMMENT.into());
    for (definition, property, value) in defaults() {
        property_mut(root, definition, property).insert("default".into(), value);
    }
    property_mut(root, None, "specVersion").insert("const".into(), SPEC_VERSION.into());
    for property in ["outputSchema", "inputSchema"] {
        property_mut(root, Some("Command"), property).insert("$ref".into(), DRAFT_2020_12.into());
    }
    sorted(schema)
}

/// The JSON Schema of spec format v1, pretty-printed with a final newline. Deterministic: the
/// same model always gives the same bytes, whatever serde_json's `preserve_order` feature says.
pub fn spec_schema_json() -> String {
    let schema = schemars::Schema::try_from(spec_schema()).expect("the schema is an object");
    // Through `schemars::Schema`, whose serialisation puts `$schema`, `title`, `description`,
    // `type` and `properties` first and `$defs` last: easier to read than alphabetical order.
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema always serialises");
    text.push('\n');
    text
}

/// (definition, property, default) for every field whose default the model's serde attributes
/// leave out of the generated schema. `None` is the root (the `Registry` itself).
fn defaults() -> Vec<(Option<&'static str>, &'static str, Value)> {
    vec![
        (None, "level", json!(1)),
        (None, "profile", json!("pas")),
        (Some("Command"), "effect", json!("read")),
        (Some("Command"), "stdin", json!("none")),
        (Some("Command"), "output", json!("object")),
        (Some("Command"), "dryRun", json!(false)),
        (Some("Parameter"), "kind", json!("flag")),
        (Some("Parameter"), "type", json!("string")),
        (Some("Parameter"), "required", json!(false)),
        (Some("Parameter"), "secret", json!(false)),
        (Some("ExitCode"), "blocking", json!(false)),
        (Some("ExitCode"), "success", json!(false)),
    ]
}

/// The schema of one property of the root or of a definition. Panics when the model has no
/// such property: the tables above must follow the model.
fn property_mut<'a>(
    root: &'a mut Map<String, Value>,
    definition: Option<&str>,
    property: &str,
) -> &'a mut Map<String, Value> {
    let owner = match definition {
        None => root,
        Some(name) => root
            .get_mut("$defs")
            .and_then(|defs| defs.get_mut(name))
            .and_then(Value::as_object_mut)
            .unwrap_or_else(|| panic!("the schema has no definition `{name}`")),
    };
    owner
        .get_mut("properties")
        .and_then(|properties| properties.get_mut(property))
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("the schema has no property `{property}` in {definition:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printing_is_stable() {
        assert_eq!(spec_schema_json(), spec_schema_json());
    }

    #[test]
    fn is_a_2020_12_schema_without_an_id() {
        let schema = spec_schema();
        assert_eq!(schema["$schema"], DRAFT_2020_12);
        assert!(!spec_schema_json().contains("\"$id\""));
    }

    #[test]
    fn defaults_and_additions_land_on_their_properties() {
        let schema = spec_schema();
        assert_eq!(schema["properties"]["level"]["default"], 1);
        assert_eq!(schema["properties"]["specVersion"]["const"], SPEC_VERSION);
        assert_eq!(
            schema["$defs"]["Parameter"]["properties"]["type"]["default"],
            "string"
        );
        assert_eq!(
            schema["$defs"]["Command"]["properties"]["outputSchema"]["$ref"],
            DRAFT_2020_12
        );
    }

    #[test]
    fn keywords_come_in_reading_order() {
        let text = spec_schema_json();
        let at = |needle: &str| text.find(needle).unwrap();
        assert!(at("\"$schema\"") < at("\"title\""));
        assert!(at("\"title\"") < at("\"properties\""));
        assert!(at("\"properties\"") < at("\"$defs\""));
        assert!(text.ends_with("}\n"));
    }
}
