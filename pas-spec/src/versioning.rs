//! Output stability (CLI Agent Spec failure mode 22): a command's stability tier, the tool's
//! declared changelog, and which output schema versions a caller may ask for with
//! `--schema-version`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How far a caller may rely on a command's output staying as it is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Stability {
    /// Changes only with a major version, after a deprecation.
    #[default]
    Stable,
    /// Usable, but its output may still change in a minor version.
    Beta,
    /// May change or go away in any version.
    Experimental,
}

impl Stability {
    /// The spelling used in specs, faces and warnings.
    pub fn as_str(self) -> &'static str {
        match self {
            Stability::Stable => "stable",
            Stability::Beta => "beta",
            Stability::Experimental => "experimental",
        }
    }

    /// Whether this is the default tier (faces say nothing about it).
    pub fn is_stable(&self) -> bool {
        *self == Stability::Stable
    }
}

/// One release of the tool, as its changelog declares it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChangelogEntry {
    /// The version released (semver).
    pub version: String,
    /// The release date, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// What changed, one line each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
    /// The release breaks callers of the previous version's output.
    #[serde(default, skip_serializing_if = "crate::versioning::is_false")]
    pub breaking: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// The output schema version of a tool: robot's `schemaVersion`, else the tool version.
pub fn schema_version(registry: &crate::Registry) -> &str {
    registry
        .schema_version
        .as_deref()
        .unwrap_or(&registry.version)
}

/// Whether a caller built against `wanted` can read output of version `have`: the same major
/// version, or, while `have`'s major is 0 (anything may change), the same version up to its
/// build metadata. A `wanted` that is not a version is never compatible.
pub fn compatible(have: &str, wanted: &str) -> bool {
    fn major(version: &str) -> Option<&str> {
        let major = version.trim().trim_start_matches('v').split('.').next()?;
        (!major.is_empty() && major.bytes().all(|b| b.is_ascii_digit())).then_some(major)
    }
    fn core(version: &str) -> &str {
        let version = version.trim().trim_start_matches('v');
        version.split('+').next().unwrap_or(version)
    }
    match (major(have), major(wanted)) {
        (Some("0"), Some(_)) => core(have) == core(wanted),
        (Some(a), Some(b)) => a.trim_start_matches('0') == b.trim_start_matches('0'),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::compatible;

    #[test]
    fn same_major_or_equal_below_one() {
        assert!(compatible("2.4.1", "2"));
        assert!(compatible("2.4.1", "2.0.0"));
        assert!(!compatible("2.4.1", "1.9.0"));
        assert!(!compatible("2.4.1", "3.0.0"));
        assert!(compatible("0.3.0", "0.3.0"));
        assert!(!compatible("0.3.0", "0.2.0"));
        assert!(!compatible("1.0.0", "latest"));
        assert!(!compatible("1.0.0", ""));
    }
}
