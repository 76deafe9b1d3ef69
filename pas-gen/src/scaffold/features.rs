//! The optional faces a scaffold is built with (issue 29, item 3): the pas-kit features its
//! `Cargo.toml` turns on. The faces pas-gen writes into a scaffold (`docs/TOOL.llm`, the
//! skill, the README's agent help) list only the built-ins these build, so they are the bytes
//! the scaffold's own binary prints.

use std::path::Path;

use pas_spec::{Features, Registry};

/// The pas-kit features `pas-gen new` turns on: a scaffold is an MCP server (`TOOL mcp`); the
/// tooling faces (`completions`, `man`, `--validate-pas`) stay out, as pas-kit's defaults.
pub const SCAFFOLD: &[&str] = &["mcp"];

/// `registry` as a scaffold built with `features` describes itself.
pub fn as_built(registry: &Registry, features: Features) -> Registry {
    let mut registry = registry.clone();
    registry.built = features;
    registry
}

/// The features the scaffold in `project` builds pas-kit with, read from its `Cargo.toml`
/// (`[dependencies] pas-kit = { ..., features = [...] }`); [`SCAFFOLD`]'s when the manifest is
/// missing or names no pas-kit dependency (a project `new` has not written yet).
pub fn of_project(project: &Path) -> Features {
    let manifest = std::fs::read_to_string(project.join("Cargo.toml")).unwrap_or_default();
    from_manifest(&manifest).unwrap_or_else(|| Features::from_names(SCAFFOLD.iter().copied()))
}

/// The pas-kit dependency's features in a manifest, `None` without that dependency.
fn from_manifest(manifest: &str) -> Option<Features> {
    let document: toml_edit::DocumentMut = manifest.parse().ok()?;
    let dependency = document.get("dependencies")?.get("pas-kit")?;
    let names: Vec<String> = dependency
        .get("features")
        .and_then(|f| f.as_array())
        .map(|array| {
            array
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    Some(Features::from_names(names.iter().map(String::as_str)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_s_pas_kit_features_are_the_scaffold_s() {
        let inline = "[dependencies]\npas-kit = { path = \"../x\", features = [\"mcp\"] }\n";
        assert_eq!(from_manifest(inline), Some(Features::from_names(["mcp"])));
        let table =
            "[dependencies.pas-kit]\nversion = \"0.1\"\nfeatures = [\"man\", \"completions\"]\n";
        let both = from_manifest(table).unwrap();
        assert!(both.man && both.completions && !both.mcp);
        let none = "[dependencies]\npas-kit = \"0.1\"\n";
        assert_eq!(from_manifest(none), Some(Features::NONE));
        assert_eq!(from_manifest("[dependencies]\nserde = \"1\"\n"), None);
    }
}
