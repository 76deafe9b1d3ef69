//! The registry printed back as a spec: the inverse of the loader.

use crate::Registry;

/// The registry as a JSON spec, pretty-printed with a final newline.
pub fn to_json(registry: &Registry) -> String {
    let mut text = serde_json::to_string_pretty(registry).expect("a registry always serialises");
    text.push('\n');
    text
}

/// The registry as a YAML spec.
pub fn to_yaml(registry: &Registry) -> String {
    serde_saphyr::to_string(registry).expect("a registry always serialises")
}
