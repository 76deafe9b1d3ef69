//! Drafts of a pas spec from what an author already has (feature `import`).
//!
//! - [`spec_draft`]: a clap command tree (derive or builder) as a YAML spec draft, each thing only
//!   the author can say marked with a `TODO(author)` comment.

mod clap_draft;

pub use clap_draft::spec_draft;
