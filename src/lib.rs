//! `pas`: the runtime a Rust CLI links to keep an agent contract.
//!
//! A tool is described once (by `#[derive(AgentTool)]` beside clap, or by a spec) as a
//! [`pas_spec::Registry`]; this crate parses argv against it, runs the handler, and renders the
//! handler's typed result through the tool's contract profile (`pas`, `compose` or `robot`).
//! Handlers never print and never know which contract they serve.

pub use pas_spec as spec;
