//! CLI Agent Spec 47, MCP schema staleness: `TOOL mcp` serves the registry it was built from,
//! so only a client's cached `tools/list` can be stale. Every `tools/call` result carries
//! `_meta` with the tool's version and the called tool's schema hash (what `tools/list` gave);
//! a call that says which hash it holds (`_meta: {"pas-kit/schemaHash": HASH}`) and holds an
//! old one, or that passes an argument the current schema does not have, is answered with
//! `SCHEMA_STALE`: the current hash and version, and the advice to list the tools again.

use std::collections::{HashMap, HashSet};

use pas_spec::Registry;
use pas_spec::faces::mcp::{META_SCHEMA_HASH, META_TOOL_VERSION};
use serde_json::{Map, Value, json};

use crate::error::Error;

/// The constant of a call made against an older schema than the server's.
pub use pas_spec::runtime_codes::SCHEMA_STALE;

/// The exit code the CLI gives an argument error: what a stale call's result reports.
const STALE_EXIT: u8 = 2;

/// What the server knows of each tool's current schema.
pub(crate) struct Schemas {
    version: String,
    tools: HashMap<String, Current>,
    /// Where the client reads a tool's current schema: `tools/list`, or `tools__describe` when
    /// the list is progressive.
    refresh: String,
}

struct Current {
    hash: String,
    /// The arguments the current inputSchema has.
    arguments: HashSet<String>,
    /// Parameters the schema leaves out on purpose (secrets): not a sign of staleness.
    secret: HashSet<String>,
}

impl Schemas {
    /// Read from the `tools/list` the server serves.
    pub(crate) fn of(registry: &Registry, tools_list: &Value, progressive: bool) -> Schemas {
        let commands = registry.all_commands();
        let tools = tools_list["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|tool| {
                let name = tool["name"].as_str()?.to_owned();
                let hash = tool["_meta"][META_SCHEMA_HASH].as_str()?.to_owned();
                let arguments = tool["inputSchema"]["properties"]
                    .as_object()
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default();
                let secret = commands
                    .iter()
                    .find(|c| pas_spec::faces::mcp::tool_name(c) == name)
                    .map(|c| {
                        c.parameters
                            .iter()
                            .chain(&registry.global_flags)
                            .filter(|p| p.secret)
                            .map(|p| p.name.clone())
                            .collect()
                    })
                    .unwrap_or_default();
                Some((
                    name,
                    Current {
                        hash,
                        arguments,
                        secret,
                    },
                ))
            })
            .collect();
        let refresh = match progressive {
            true => format!(
                "call {} with {{\"names\": [\"TOOL\"]}}",
                pas_spec::faces::mcp_discovery::DESCRIBE_TOOL
            ),
            false => "call tools/list".to_owned(),
        };
        Schemas {
            version: registry.version.clone(),
            tools,
            refresh,
        }
    }

    /// `SCHEMA_STALE` when the call holds an old hash of the tool, or passes arguments its
    /// current schema does not have; `None` for a current call (or an unknown tool, which the
    /// protocol refuses on its own).
    pub(crate) fn stale(
        &self,
        tool: &str,
        held: Option<&str>,
        arguments: &Map<String, Value>,
    ) -> Option<Error> {
        let current = self.tools.get(tool)?;
        let unknown: Vec<&str> = arguments
            .keys()
            .filter(|k| !current.arguments.contains(*k) && !current.secret.contains(*k))
            .map(String::as_str)
            .collect();
        let old = held.filter(|held| *held != current.hash);
        if old.is_none() && unknown.is_empty() {
            return None;
        }
        let message = match old {
            Some(held) => format!(
                "the schema of {tool} you hold ({held}) is not the current one ({})",
                current.hash
            ),
            None => format!(
                "{tool} has no argument {}: the schema you hold is not the current one ({})",
                unknown
                    .iter()
                    .map(|u| format!("`{u}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                current.hash
            ),
        };
        let mut details = json!({
            "tool": tool,
            "heldSchemaHash": held,
            "schemaHash": current.hash,
            "toolVersion": self.version,
            "unknownArguments": unknown,
        });
        // The first unknown argument where an argument error names it (`details.argument`).
        if let Some(first) = unknown.first() {
            details["argument"] = (*first).into();
        }
        Some(
            Error::new(SCHEMA_STALE, message)
                .with_suggestion(format!(
                    "{} again and use {tool}'s current inputSchema; nothing was run",
                    self.refresh.replace("TOOL", tool)
                ))
                .with_details(details),
        )
    }

    /// The result of a stale call: a tool error, like any refused argument.
    pub(crate) fn stale_result(&self, tool: &str, error: &Error) -> Value {
        let mut result = super::result::error(error, STALE_EXIT);
        self.stamp(tool, &mut result);
        result
    }

    /// Adds the tool's version and current schema hash to a result's `_meta`.
    pub(crate) fn stamp(&self, tool: &str, result: &mut Value) {
        let Some(current) = self.tools.get(tool) else {
            return;
        };
        let Some(object) = result.as_object_mut() else {
            return;
        };
        let meta = object
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(meta) = meta.as_object_mut() {
            meta.insert(META_SCHEMA_HASH.into(), current.hash.clone().into());
            meta.insert(META_TOOL_VERSION.into(), self.version.clone().into());
        }
    }
}
