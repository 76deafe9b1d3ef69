//! What this build of pas-kit carries: its optional faces (cargo features), which every face of
//! the tool lists so that none names a word the binary would refuse. A leaf: the derive's model
//! and the built-ins both read it.

/// The optional faces this build of pas-kit has: what every face of the tool lists
/// ([`pas_spec::Registry::built`]), so no face names a word that answers `FEATURE_NOT_BUILT`.
pub(crate) const BUILT: pas_spec::Features = pas_spec::Features {
    mcp: cfg!(feature = "mcp"),
    completions: cfg!(feature = "completions"),
    man: cfg!(feature = "man"),
    validate_pas: cfg!(feature = "validate-pas"),
};
