//! Text faces of the registry: pure functions from a registry to bytes.
//!
//! The renderers live in `pas-spec` ([`pas_spec::faces`]) so that `pas-gen` prints the very same
//! bytes as the built CLI; this module keeps the runtime's `pas::faces` paths.

pub use pas_spec::faces::{agent_help, llm, mcp};
