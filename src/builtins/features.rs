//! The faces a tool is built without (pas-kit's cargo features, see its `Cargo.toml`): each is
//! answered with one structured error that names the feature to turn on, never with clap's
//! "unknown command" or a panic. A default build links none of them: `--validate-pas`
//! (`validate-pas`), `completions` (`completions`) and `man` (`man`); `mcp` has its own
//! constant, `MCP_NOT_BUILT` (`pas::mcp`).

use pas_spec::Registry;

use crate::error::Error;

/// The constant of a built-in face the tool was built without (exit 1).
pub use pas_spec::runtime_codes::FEATURE_NOT_BUILT;

/// `face` (as typed, e.g. `--validate-pas`) needs the cargo feature `feature` of pas-kit.
#[cfg_attr(
    all(feature = "validate-pas", feature = "completions", feature = "man"),
    allow(dead_code)
)]
pub(crate) fn not_built(registry: &Registry, face: &str, feature: &str) -> Error {
    Error::new(
        FEATURE_NOT_BUILT,
        format!("{} was built without `{face}`", registry.name),
    )
    .with_suggestion(format!(
        "rebuild with the `{feature}` feature of pas-kit: `pas-kit = {{ version = \"...\", features = [\"{feature}\"] }}`"
    ))
    .with_details(serde_json::json!({ "feature": feature }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_names_the_face_and_the_feature_to_turn_on() {
        let registry: Registry = serde_json::from_value(serde_json::json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "A tool.",
            "commands": [{"name": "get", "description": "Gets.", "output": "object"}]
        }))
        .unwrap();
        let error = not_built(&registry, "--validate-pas", "validate-pas");
        assert_eq!(error.code(), FEATURE_NOT_BUILT);
        assert_eq!(error.message(), "t was built without `--validate-pas`");
        assert!(
            error
                .suggestion()
                .unwrap()
                .contains("features = [\"validate-pas\"]")
        );
        assert_eq!(error.details().unwrap()["feature"], "validate-pas");
    }
}
