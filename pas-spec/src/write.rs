//! The registry printed back as a spec: the inverse of the loader.
//!
//! Reading what these functions print gives back an equal registry (`tests/roundtrip.rs` holds
//! this for every example spec and for arbitrary strings). Fields at their default are left out
//! by the model's serde attributes, so the output is as short as a spec a person would write.

use crate::Registry;

/// The registry as a JSON spec, pretty-printed with a final newline.
pub fn to_json(registry: &Registry) -> String {
    let mut text = serde_json::to_string_pretty(registry).expect("a registry always serialises");
    text.push('\n');
    text
}

/// The registry as a YAML spec, ending with a newline.
#[cfg(feature = "load")]
pub fn to_yaml(registry: &Registry) -> String {
    // Every option is spelled out, so that a new serde-saphyr default cannot silently change
    // the bytes of a spec we print (the snapshots in tests/roundtrip.rs would catch it late).
    let options = serde_saphyr::ser_options! {
        // Two spaces, and list items indented under their key, as the example specs are written.
        indent_step: 2,
        compact_list_indent: false,
        // Multi-line strings as literal blocks (`|`), long lines folded (`>`): readable, and the
        // serializer falls back to double quotes whenever a block could not hold the string.
        prefer_block_scalars: true,
        folded_wrap_chars: 100,
        quote_all: false,
        // Quote strings that a YAML 1.1 reader would take for numbers, booleans or dates (`1.0`,
        // `yes`, `2024-01-01`), so editors and other tools read the same values we do. This
        // also leaves out the `%YAML 1.2` directive.
        yaml_12: false,
        // Plain strings for enum values (`effect: write`), never `!!Effect write`.
        tagged_enums: false,
    };
    serde_saphyr::to_string_with_options(registry, options).expect("a registry always serialises")
}
