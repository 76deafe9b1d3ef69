//! The spec format's JSON Schema, generated from the model with schemars.

use crate::Registry;

/// The JSON Schema (draft 2020-12) of spec format v1, pretty-printed with a final newline.
pub fn spec_schema_json() -> String {
    let schema = schemars::schema_for!(Registry);
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema always serialises");
    text.push('\n');
    text
}
