//! How `pas-gen check` shows diagnostics: snippets for people, NDJSON for agents.

pub mod agent;
pub mod human;
