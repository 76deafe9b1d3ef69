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
//!   which no command's tool name can: a command word is kebab-case (the validator's E-code for
//!   names), so a tool name has single `_` between words only.
//!
//! Pure functions of the registry, so `pas-gen` and the server print the same bytes.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::mcp::{self, META_TOOL_VERSION};
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
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tool {
    name: &'static str,
    title: String,
    description: String,
    input_schema: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<Value>,
    annotations: Annotations,
    #[serde(rename = "_meta")]
    meta: Value,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Annotations {
    read_only_hint: bool,
    destructive_hint: bool,
    idempotent_hint: bool,
    open_world_hint: bool,
}

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
        name: SEARCH_TOOL,
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
        name: DESCRIBE_TOOL,
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
        name: CALL_TOOL,
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

/// A discovery tool's call, read from its arguments.
#[derive(Debug, Clone, PartialEq)]
pub enum Asked {
    /// [`SEARCH_TOOL`].
    Search {
        /// The words to look for.
        query: String,
        /// Only this group's tools.
        group: Option<String>,
        /// How many matches at most.
        limit: usize,
    },
    /// [`DESCRIBE_TOOL`].
    Describe {
        /// The tools' names.
        names: Vec<String>,
    },
    /// [`CALL_TOOL`].
    Call {
        /// The tool to call.
        name: String,
        /// Its arguments.
        arguments: Map<String, Value>,
    },
}

/// An argument of a discovery tool that does not fit its inputSchema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The argument's name.
    pub argument: String,
    /// What is wrong, one sentence.
    pub message: String,
}

fn problem(argument: &str, message: impl Into<String>) -> Problem {
    Problem {
        argument: argument.to_owned(),
        message: message.into(),
    }
}

/// Reads a call of the discovery tool `tool` (`None` for any other name), checking its
/// arguments as its inputSchema says; every problem at once.
pub fn read(
    tool: &str,
    arguments: &Map<String, Value>,
    groups: &[&str],
) -> Option<Result<Asked, Vec<Problem>>> {
    let allowed: &[&str] = match tool {
        SEARCH_TOOL => &["query", "group", "limit"],
        DESCRIBE_TOOL => &["names"],
        CALL_TOOL => &["name", "arguments"],
        _ => return None,
    };
    let mut problems: Vec<Problem> = arguments
        .keys()
        .filter(|k| !allowed.contains(&k.as_str()))
        .map(|k| {
            problem(
                k,
                format!(
                    "{tool} takes no argument `{k}` (it takes {})",
                    allowed.join(", ")
                ),
            )
        })
        .collect();
    let text = |name: &str, problems: &mut Vec<Problem>, required: bool| match arguments.get(name) {
        Some(Value::String(s)) => Some(s.clone()),
        None if !required => None,
        None => {
            problems.push(problem(name, format!("{tool} needs `{name}`, a string")));
            None
        }
        Some(other) => {
            problems.push(problem(name, format!("`{name}` is {other}: give a string")));
            None
        }
    };
    let asked = match tool {
        SEARCH_TOOL => {
            let query = text("query", &mut problems, true);
            let group = text("group", &mut problems, false);
            if let Some(group) = &group
                && !groups.contains(&group.as_str())
            {
                problems.push(problem(
                    "group",
                    format!(
                        "`{group}` is not a group served here (one of {})",
                        groups.join(", ")
                    ),
                ));
            }
            let limit = match arguments.get("limit") {
                None => Some(SEARCH_LIMIT),
                Some(value) => match value.as_u64().filter(|n| (1..=MAX_NAMES).contains(n)) {
                    Some(n) => Some(n),
                    None => {
                        problems.push(problem(
                            "limit",
                            format!("`limit` is {value}: give an integer from 1 to {MAX_NAMES}"),
                        ));
                        None
                    }
                },
            };
            match (query, limit) {
                (Some(query), Some(limit)) => Some(Asked::Search {
                    query,
                    group,
                    limit: usize::try_from(limit).unwrap_or(usize::MAX),
                }),
                _ => None,
            }
        }
        DESCRIBE_TOOL => {
            let names = match arguments.get("names") {
                Some(Value::Array(items))
                    if !items.is_empty() && items.len() as u64 <= MAX_NAMES =>
                {
                    let names: Vec<String> = items
                        .iter()
                        .filter_map(|i| i.as_str().map(str::to_owned))
                        .collect();
                    if names.len() != items.len() {
                        problems.push(problem(
                            "names",
                            "`names` holds a value that is not a string: give tool names",
                        ));
                    }
                    names
                }
                Some(other) => {
                    problems.push(problem(
                        "names",
                        format!("`names` is {other}: give 1 to {MAX_NAMES} tool names"),
                    ));
                    Vec::new()
                }
                None => {
                    problems.push(problem(
                        "names",
                        format!("{tool} needs `names`, a list of tool names"),
                    ));
                    Vec::new()
                }
            };
            Some(Asked::Describe { names })
        }
        _ => {
            let name = text("name", &mut problems, true);
            let inner = match arguments.get("arguments") {
                None => Map::new(),
                Some(Value::Object(map)) => map.clone(),
                Some(other) => {
                    problems.push(problem(
                        "arguments",
                        format!("`arguments` is {other}: give an object"),
                    ));
                    Map::new()
                }
            };
            name.map(|name| Asked::Call {
                name,
                arguments: inner,
            })
        }
    };
    Some(match asked {
        Some(asked) if problems.is_empty() => Ok(asked),
        _ => Err(problems),
    })
}

/// A word of a query or a tool's text, folded so `tasks` finds `task` and `Task`.
fn fold(word: &str) -> String {
    let word = word.to_lowercase();
    match word.strip_suffix('s') {
        Some(stem) if stem.len() >= 3 && !stem.ends_with('s') => stem.to_owned(),
        _ => word,
    }
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(fold)
        .collect()
}

/// How well one tool matches the query's words: per word, a whole word of the name counts 8, a
/// name word it begins 5, the group 4, a word of the title or of a parameter's name 2, a word
/// of the description 1 (a description word it begins, 1 too). Zero: no match.
fn score(query: &[String], tool: &Value, group: &str) -> u32 {
    let name = words(tool["name"].as_str().unwrap_or_default());
    let title = words(tool["title"].as_str().unwrap_or_default());
    let description = words(tool["description"].as_str().unwrap_or_default());
    let params: Vec<String> = tool["inputSchema"]["properties"]
        .as_object()
        .map(|p| p.keys().flat_map(|k| words(k)).collect())
        .unwrap_or_default();
    let group = words(group);
    query
        .iter()
        .map(|q| {
            let mut points = 0;
            if name.contains(q) {
                points += 8;
            } else if name.iter().any(|w| w.starts_with(q.as_str())) {
                points += 5;
            }
            if group.contains(q) {
                points += 4;
            }
            if title.contains(q) || params.contains(q) {
                points += 2;
            }
            if description.iter().any(|w| w.starts_with(q.as_str())) {
                points += 1;
            }
            points
        })
        .sum()
}

/// [`SEARCH_TOOL`]'s result: the served tools matching `query` (any of its words; every tool
/// for a query without words), of `group` if given, best first (ties in `tools/list` order), at
/// most `limit`, each as `{name, group, description}`, and how many matched.
pub fn search(
    registry: &Registry,
    served: &Value,
    query: &str,
    group: Option<&str>,
    limit: usize,
) -> Value {
    search_in(&tool_groups(registry), served, query, group, limit)
}

/// [`search`] with the registry's [`tool_groups`] already made (a server keeps them).
pub fn search_in(
    tool_groups: &[(String, String)],
    served: &Value,
    query: &str,
    group: Option<&str>,
    limit: usize,
) -> Value {
    let groups: BTreeMap<&str, &str> = tool_groups
        .iter()
        .map(|(t, g)| (t.as_str(), g.as_str()))
        .collect();
    let query = words(query);
    let mut matches: Vec<(u32, Value)> = Vec::new();
    for tool in served["tools"].as_array().into_iter().flatten() {
        let name = tool["name"].as_str().unwrap_or_default();
        let tool_group = groups.get(name).copied().unwrap_or_default();
        if group.is_some_and(|g| g != tool_group) {
            continue;
        }
        let points = if query.is_empty() {
            1
        } else {
            score(&query, tool, tool_group)
        };
        if points == 0 {
            continue;
        }
        let entry = json!({
            "name": name,
            "group": tool_group,
            "description": tool["description"],
        });
        matches.push((points, entry));
    }
    let total = matches.len();
    // Stable: equal scores keep the list's order.
    crate::sorting::sort_by(&mut matches, |a, b| b.0.cmp(&a.0));
    let tools: Vec<Value> = matches
        .into_iter()
        .take(limit)
        .map(|(_, t)| sorted(t))
        .collect();
    json!({ "tools": tools, "total": total })
}

/// [`DESCRIBE_TOOL`]'s result: the served tools named, each exactly as `served` holds it, in
/// the order asked (a name asked twice, once); the names not served are the error, all of them.
pub fn describe(served: &Value, names: &[String]) -> Result<Value, Vec<String>> {
    let tools = served["tools"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut found = Vec::new();
    let mut missing = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for name in names {
        if seen.contains(&name.as_str()) {
            continue;
        }
        seen.push(name);
        match tools.iter().find(|t| t["name"] == name.as_str()) {
            Some(tool) => found.push(tool.clone()),
            None => missing.push(name.clone()),
        }
    }
    match missing.is_empty() {
        true => Ok(json!({ "tools": found })),
        false => Err(missing),
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

    #[test]
    fn words_fold_plurals_and_case() {
        assert_eq!(words("Tasks, task_list"), ["task", "task", "list"]);
        assert_eq!(fold("status"), "statu");
        assert_eq!(fold("ls"), "ls");
        assert_eq!(fold("class"), "class");
    }

    #[test]
    fn arguments_are_checked_all_at_once() {
        let args = |v: Value| v.as_object().unwrap().clone();
        let problems = read(
            SEARCH_TOOL,
            &args(json!({"limit": 0, "group": "x", "extra": 1})),
            &["a"],
        )
        .unwrap()
        .unwrap_err();
        let named: Vec<&str> = problems.iter().map(|p| p.argument.as_str()).collect();
        assert_eq!(named, ["extra", "query", "group", "limit"]);
        assert_eq!(
            read(CALL_TOOL, &args(json!({"name": "x"})), &[]).unwrap(),
            Ok(Asked::Call {
                name: "x".into(),
                arguments: Map::new()
            })
        );
        assert!(
            read(DESCRIBE_TOOL, &args(json!({"names": []})), &[])
                .unwrap()
                .is_err()
        );
        assert!(read("task_get", &Map::new(), &[]).is_none());
    }
}
