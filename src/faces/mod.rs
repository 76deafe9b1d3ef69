//! Text faces of the registry: pure functions from a registry to bytes.
//!
//! They depend on nothing but `pas_spec` and the built-in code table ([`crate::codes`], plain
//! data), so they can move into `pas-spec` and `pas-gen help` can print the very same bytes.

pub mod agent_help;
