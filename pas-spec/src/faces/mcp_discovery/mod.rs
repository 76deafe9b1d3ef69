//! Discovery that stays small (issue 31, item 4): which of the registry's MCP tools a server
//! serves (`TOOL mcp --group NAME --tools a,b`), and, past [`PROGRESSIVE_PAST`] tools, the
//! three tools `tools/list` gives instead of all of them.
//!
//! - A tool's group is its command's catalog category ([`crate::Command::category`]; the level
//!   3/4 verbs are `navigation` and `state`). [`select`] keeps the tools of the groups and the
//!   tools named (their union); an unknown name is a [`Unknown`], every one of them at once.
//! - Progressive discovery: [`SEARCH_TOOL`] (words -> matching names, one-line descriptions,
//!   groups, best first: [`search`]), [`DESCRIBE_TOOL`] (names -> the full definitions exactly
//!   as the full `tools/list` gives them: [`describe`]) and [`CALL_TOOL`] (name and arguments ->
//!   the same call as a direct `tools/call`, which the server runs). Their names hold `__`,
//!   which no command's tool name can: every segment of a command's name is kebab-case (the
//!   validator's E030), so a tool name has single `_` between its segments only.
//!
//! Pure functions of the registry, so `pas-gen` and the server print the same bytes.

use serde_json::{Value, json};

mod arguments;
mod search;

pub use arguments::{Asked, Problem, read};
pub use search::{describe, search, search_in};

use super::mcp::{self, Annotations, META_TOOL_VERSION, Tool};
use super::words::one_line;
use crate::Registry;
use crate::json_order::sorted;

/// The tool that finds tools by words.
pub const SEARCH_TOOL: &str = "tools__search";
/// The tool that gives tools' full definitions by name.
pub const DESCRIBE_TOOL: &str = "tools__describe";
/// The tool that calls a tool by name.
pub const CALL_TOOL: &str = "tools__call";
/// The three, in the order `tools/list` gives them.
pub const DISCOVERY_TOOLS: [&str; 3] = [SEARCH_TOOL, DESCRIBE_TOOL, CALL_TOOL];

/// Under `auto`, a server serving more tools than this lists the three discovery tools instead
/// of every tool. One tool's definition costs 285 to 572 o200k tokens in the example specs and
/// the three tools 663 to 785 at any size (BENCHMARKS.md, "MCP discovery"): 30 tools are 9k to
/// 17k tokens read before any work, several times a search and the few definitions a session
/// needs; below it the whole list is cheap enough that one read beats the extra round trips.
pub const PROGRESSIVE_PAST: usize = 30;

/// How many matches a search returns unless it asks (`limit`), and at most.
pub const SEARCH_LIMIT: u64 = 10;
/// The largest `limit` of a search, and the most names one describe takes.
pub const MAX_NAMES: u64 = 50;

/// How a server lists its tools: `TOOL mcp --discovery MODE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Discovery {
    /// Progressive past [`PROGRESSIVE_PAST`] tools served, full otherwise.
    #[default]
    Auto,
    /// Every served tool in `tools/list`, whatever their number.
    Full,
    /// The three discovery tools, whatever the number of tools.
    Progressive,
}

impl Discovery {
    /// Every mode, as `--discovery` takes it.
    pub const ALL: [Discovery; 3] = [Discovery::Auto, Discovery::Full, Discovery::Progressive];

    /// The word `--discovery` takes.
    pub fn name(self) -> &'static str {
        match self {
            Discovery::Auto => "auto",
            Discovery::Full => "full",
            Discovery::Progressive => "progressive",
        }
    }

    /// The mode a word names.
    pub fn from_name(name: &str) -> Option<Discovery> {
        Discovery::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Whether a server serving `tools` tools lists the discovery tools.
    pub fn is_progressive(self, tools: usize) -> bool {
        match self {
            Discovery::Auto => tools > PROGRESSIVE_PAST,
            Discovery::Full => false,
            Discovery::Progressive => true,
        }
    }
}

/// Each MCP tool name of the registry and its group, in `tools/list` order.
pub fn tool_groups(registry: &Registry) -> Vec<(String, String)> {
    let mut commands = registry.all_commands();
    crate::sorting::sort_by(&mut commands, |a, b| {
        (a.category(), &a.name).cmp(&(b.category(), &b.name))
    });
    commands
        .iter()
        .map(|c| (mcp::tool_name(c), c.category().to_owned()))
        .collect()
}

/// Every group and how many tools it holds, in `tools/list` order.
pub fn groups(registry: &Registry) -> Vec<(String, usize)> {
    let mut groups: Vec<(String, usize)> = Vec::new();
    for (_, group) in tool_groups(registry) {
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, count)) => *count += 1,
            None => groups.push((group, 1)),
        }
    }
    groups
}

/// A name given to `--group` or `--tools` that the registry does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// `group` or `tools`: the flag it was given to.
    pub flag: &'static str,
    /// The name as given.
    pub name: String,
}

/// The `tools/list` of the tools a server serves: every tool when `groups` and `tools` are both
/// empty, else the tools of `groups` and the tools named in `tools`, in `tools/list` order.
/// Every unknown name is reported, none dropped.
pub fn select(
    registry: &Registry,
    groups: &[String],
    tools: &[String],
) -> Result<Value, Vec<Unknown>> {
    let known = tool_groups(registry);
    let mut unknown = Vec::new();
    for group in groups {
        if !known.iter().any(|(_, g)| g == group) {
            unknown.push(Unknown {
                flag: "group",
                name: group.clone(),
            });
        }
    }
    for tool in tools {
        if !known.iter().any(|(t, _)| t == tool) {
            unknown.push(Unknown {
                flag: "tools",
                name: tool.clone(),
            });
        }
    }
    if !unknown.is_empty() {
        return Err(unknown);
    }
    let mut list = mcp::tools_list(registry);
    if groups.is_empty() && tools.is_empty() {
        return Ok(list);
    }
    let kept: Vec<&str> = known
        .iter()
        .filter(|(t, g)| groups.contains(g) || tools.contains(t))
        .map(|(t, _)| t.as_str())
        .collect();
    if let Some(all) = list["tools"].as_array_mut() {
        all.retain(|tool| tool["name"].as_str().is_some_and(|n| kept.contains(&n)));
    }
    Ok(list)
}

/// The names of the tools in a `tools/list` value, in its order.
pub fn names(list: &Value) -> Vec<&str> {
    list["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .collect()
}

/// One discovery tool. A struct, so the top-level field order is the full list's.
/// The progressive `tools/list` of a server serving `served` (a `tools/list` value, from
/// [`select`]): the three discovery tools.
pub fn progressive_list(registry: &Registry, served: &Value) -> Value {
    let tools = [
        search_tool(registry, served),
        describe_tool(registry),
        call_tool(registry, served),
    ];
    let tools: Vec<Value> = tools
        .into_iter()
        .map(|t| serde_json::to_value(t).expect("a tool always serialises"))
        .collect();
    json!({ "tools": tools })
}

/// The progressive `tools/list` of the whole registry, as pretty JSON with a final newline
/// (what `pas-gen mcp --discovery progressive` prints).
pub fn render(registry: &Registry) -> String {
    let served = mcp::tools_list(registry);
    let mut text = serde_json::to_string_pretty(&progressive_list(registry, &served))
        .expect("JSON values always serialise");
    text.push('\n');
    text
}

/// The groups of the served tools, in order.
fn served_groups(registry: &Registry, served: &Value) -> Vec<(String, usize)> {
    let names = names(served);
    let mut groups: Vec<(String, usize)> = Vec::new();
    for (tool, group) in tool_groups(registry) {
        if !names.contains(&tool.as_str()) {
            continue;
        }
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, count)) => *count += 1,
            None => groups.push((group, 1)),
        }
    }
    groups
}

fn meta(registry: &Registry) -> Value {
    json!({ META_TOOL_VERSION: registry.version })
}

fn search_tool(registry: &Registry, served: &Value) -> Tool {
    let groups = served_groups(registry, served);
    let count: usize = groups.iter().map(|(_, n)| n).sum();
    let listed: Vec<String> = groups.iter().map(|(g, n)| format!("{g} ({n})")).collect();
    let group_names: Vec<&str> = groups.iter().map(|(g, _)| g.as_str()).collect();
    Tool {
        name: SEARCH_TOOL.to_owned(),
        title: format!("{}: search the tools", registry.name),
        description: format!(
            "Find {name}'s tools by words in their names, groups and descriptions: each match's \
             name, group and one-line description, best first. {count} tools, in the groups \
             {groups}. Then read a match's full definition with {DESCRIBE_TOOL} and call it with \
             {CALL_TOOL}. {summary}",
            name = registry.name,
            groups = listed.join(", "),
            summary = one_line(&registry.summary),
        ),
        input_schema: sorted(json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Words to look for (any of them); an empty string lists every tool."},
                "group": {"type": "string", "enum": group_names, "description": "Only the tools of this group."},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_NAMES, "default": SEARCH_LIMIT, "description": "How many matches to return at most."},
            },
            "required": ["query"],
            "additionalProperties": false,
        })),
        output_schema: Some(sorted(json!({
            "type": "object",
            "properties": {
                "tools": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "group": {"type": "string"},
                        "description": {"type": "string"},
                    },
                    "required": ["name", "group", "description"],
                }},
                "total": {"type": "integer", "minimum": 0, "description": "How many tools matched, returned or not."},
            },
            "required": ["tools", "total"],
        }))),
        annotations: Annotations {
            read_only_hint: true,
            destructive_hint: false,
            idempotent_hint: true,
            open_world_hint: false,
        },
        meta: meta(registry),
    }
}

fn describe_tool(registry: &Registry) -> Tool {
    Tool {
        name: DESCRIBE_TOOL.to_owned(),
        title: format!("{}: describe tools", registry.name),
        description: format!(
            "The full definitions of tools by name, exactly as a full tools/list gives them \
             (inputSchema, outputSchema, annotations, _meta): read one before you call it with \
             {CALL_TOOL}."
        ),
        input_schema: sorted(json!({
            "type": "object",
            "properties": {
                "names": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": MAX_NAMES, "description": format!("Tool names, as {SEARCH_TOOL} gives them.")},
            },
            "required": ["names"],
            "additionalProperties": false,
        })),
        output_schema: Some(sorted(json!({
            "type": "object",
            "properties": {"tools": {"type": "array", "items": {"type": "object"}}},
            "required": ["tools"],
        }))),
        annotations: Annotations {
            read_only_hint: true,
            destructive_hint: false,
            idempotent_hint: true,
            open_world_hint: false,
        },
        meta: meta(registry),
    }
}

/// The call tool's hints are the served tools' together: read-only only if every one is, and
/// destructive or open-world if any one is, so a client that asks before a destructive call
/// asks here too.
fn call_tool(registry: &Registry, served: &Value) -> Tool {
    let tools = served["tools"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let every = |hint: &str| tools.iter().all(|t| t["annotations"][hint] == true);
    let any = |hint: &str| tools.iter().any(|t| t["annotations"][hint] == true);
    Tool {
        name: CALL_TOOL.to_owned(),
        title: format!("{}: call a tool", registry.name),
        description: format!(
            "Call one of {name}'s tools by name with its arguments (as its inputSchema from \
             {DESCRIBE_TOOL} says): the same call as a direct tools/call of that tool, with the \
             same checks, result and errors, and this request's _meta applying to it.",
            name = registry.name
        ),
        input_schema: sorted(json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": format!("The tool's name, as {SEARCH_TOOL} gives it.")},
                "arguments": {"type": "object", "default": {}, "description": "The tool's arguments."},
            },
            "required": ["name"],
            "additionalProperties": false,
        })),
        // None: the result is the called tool's, which its own outputSchema describes.
        output_schema: None,
        annotations: Annotations {
            read_only_hint: every("readOnlyHint"),
            destructive_hint: any("destructiveHint"),
            idempotent_hint: every("idempotentHint"),
            open_world_hint: any("openWorldHint"),
        },
        meta: meta(registry),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_read_and_decide_by_the_threshold() {
        for mode in Discovery::ALL {
            assert_eq!(Discovery::from_name(mode.name()), Some(mode));
        }
        assert_eq!(Discovery::from_name("some"), None);
        assert!(!Discovery::Auto.is_progressive(PROGRESSIVE_PAST));
        assert!(Discovery::Auto.is_progressive(PROGRESSIVE_PAST + 1));
        assert!(Discovery::Progressive.is_progressive(1));
        assert!(!Discovery::Full.is_progressive(10_000));
    }
}
