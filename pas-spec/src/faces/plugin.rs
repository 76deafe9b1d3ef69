//! The Agent Plugins face: the tool as one plugin package in the Agent Plugins 1.0.0 format
//! (the open, vendor-neutral package for Agent Skills and MCP servers), what `pas-gen plugin`
//! and `TOOL docs --plugin DIR` write.
//!
//! A package is a directory; its files, relative to it:
//!
//! | file | what |
//! |---|---|
//! | `plugin.json` | the manifest: `$schema`, `name`, `version`, `description` |
//! | `skills/<name>/SKILL.md`, `skills/<name>/references/<name>.llm` | the Agent Skill ([`super::skill`]) |
//! | `mcp.json` | the MCP server, `TOOL mcp` over stdio, in a tool built with MCP |
//!
//! The format is Agent Plugins rather than one client's own layout (Claude Code's
//! `.claude-plugin/`, Codex's `.codex-plugin/`): one manifest every conformant client reads,
//! with exactly the two components a pas tool has. Its rules this face keeps: the manifest's
//! schema is closed (only the fields above), `name` is lowercase letters, digits, single hyphens
//! and periods (the skill's name is such a name, and names the skill's directory too), and a stdio
//! server's `command` is one executable token, a bare name looked up on `PATH` or a path inside
//! the package. The package does not carry the binary: its server is the installed tool's name.

use serde_json::{Map, Value, json};

use super::{mcp_clients, skill};
use crate::Registry;

/// The manifest's file, at the package's root.
pub const MANIFEST_FILE: &str = "plugin.json";

/// The MCP configuration's file, at the package's root.
pub const MCP_FILE: &str = "mcp.json";

/// The `$schema` of the manifest: which Agent Plugins version the package targets.
pub const MANIFEST_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";

/// The `$schema` of `mcp.json`, of the same version as the manifest's (a mismatch disables it).
pub const MCP_SCHEMA: &str = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";

/// The plugin's name, which is also the package directory's, the skill's and its server's:
/// [`skill::name`], whose characters the plugin name's rule allows.
pub fn name(registry: &Registry) -> String {
    skill::name(registry)
}

/// Every file of the package, as (path relative to the package's directory, text), in the
/// order they are written: the manifest, the skill's files, then `mcp.json` where the tool is
/// built with its MCP server.
pub fn files(registry: &Registry) -> Vec<(String, String)> {
    let name = name(registry);
    let mut files = vec![(MANIFEST_FILE.to_owned(), manifest(registry))];
    for (path, text) in skill::files(registry) {
        files.push((format!("skills/{name}/{path}"), text));
    }
    if registry.built.mcp {
        files.push((MCP_FILE.to_owned(), mcp_config(registry)));
    }
    files
}

/// The `plugin.json` text: the spec's name, version and summary.
pub fn manifest(registry: &Registry) -> String {
    let mut manifest = Map::new();
    manifest.insert("$schema".into(), json!(MANIFEST_SCHEMA));
    manifest.insert("name".into(), json!(name(registry)));
    manifest.insert("version".into(), json!(registry.version));
    if !registry.summary.trim().is_empty() {
        manifest.insert("description".into(), json!(registry.summary.trim()));
    }
    pretty(&Value::Object(manifest))
}

/// The `mcp.json` text: one stdio server named like the plugin, the tool's own name with the
/// words that reach its `mcp` built-in ([`mcp_clients::server_args`]).
pub fn mcp_config(registry: &Registry) -> String {
    let entry = mcp_clients::stdio_entry(&registry.name, &mcp_clients::server_args(registry));
    pretty(&json!({
        "$schema": MCP_SCHEMA,
        "mcpServers": { name(registry): entry },
    }))
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values always serialise");
    text.push('\n');
    text
}
