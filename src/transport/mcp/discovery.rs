//! Discovery that stays small (issue 31, item 4), the server's side: which tools `tools/list`
//! gives and which calls reach the executor.
//!
//! - `--group`/`--tools` serve a subset: `tools/list` lists only those tools, and a call of
//!   another of the registry's tools is the tool error `TOOL_NOT_SERVED`, naming the tool, its
//!   group and the flag that serves it. A name the registry does not have stays the protocol's
//!   unknown tool (-32602), as without the flags.
//! - Progressive discovery (`--discovery`, `auto` past
//!   [`pas_spec::faces::mcp_discovery::PROGRESSIVE_PAST`] tools): `tools/list` gives the three
//!   discovery tools. `tools__search` and `tools__describe` are answered here, from the face
//!   ([`pas_spec::faces::mcp_discovery`]); `tools__call` becomes the call it names, which the
//!   server then runs exactly as a direct `tools/call` of that tool (argument validation,
//!   staleness, time limits, continuation and progress from the request's `_meta`, the result
//!   stamped with that tool's schema hash). A direct call of a served tool still works.

use pas_spec::Registry;
use pas_spec::faces::mcp_discovery::{self as face, Asked, CALL_TOOL, DISCOVERY_TOOLS};
use pas_spec::runtime_codes::TOOL_NOT_SERVED;
use pas_spec::surface::{MCP_GROUP, MCP_TOOLS, MCP_WORD};
use serde_json::{Map, Value, json};

use crate::codes;
use crate::error::Error;
use crate::parse::mcp_options::Serving;

/// The exit code the CLI gives an argument error: what these tool errors report.
const ARGUMENT_EXIT: u8 = 2;

/// What the server serves and how it lists it.
pub(crate) struct Discovery {
    /// The registry's tools with their groups, in `tools/list` order.
    groups: Vec<(String, String)>,
    /// The full `tools/list` of the served tools (the subset, or every tool).
    served: Value,
    /// What `tools/list` answers: `served`, or the three discovery tools.
    listed: Value,
    progressive: bool,
    /// A subset was asked for (`--group`, `--tools`).
    subset: bool,
    /// The words that start this server (`TOOL mcp`), for the hint of a tool not served.
    serve_words: String,
}

/// Where a `tools/call` goes.
pub(crate) enum Route {
    /// To the executor: this tool with these arguments.
    Run {
        tool: String,
        arguments: Map<String, Value>,
    },
    /// Answered here: this result.
    Answer(Value),
}

impl Discovery {
    /// `full` is the registry's whole `tools/list`; `serving` was checked against the registry
    /// when the flags were read (`crate::parse::mcp_options::serving`).
    pub(crate) fn new(registry: &Registry, full: &Value, serving: &Serving) -> Discovery {
        let subset = !serving.groups.is_empty() || !serving.tools.is_empty();
        let served = match subset {
            true => face::select(registry, &serving.groups, &serving.tools)
                .unwrap_or_else(|_| full.clone()),
            false => full.clone(),
        };
        let progressive = serving.discovery.is_progressive(face::names(&served).len());
        let listed = match progressive {
            true => face::progressive_list(registry, &served),
            false => served.clone(),
        };
        let mut serve_words = vec![registry.name.clone()];
        serve_words.extend(pas_spec::surface::builtin_argv(registry, MCP_WORD));
        Discovery {
            groups: face::tool_groups(registry),
            served,
            listed,
            progressive,
            subset,
            serve_words: serve_words.join(" "),
        }
    }

    /// Whether `tools/list` gives the discovery tools instead of every tool.
    pub(crate) fn progressive(&self) -> bool {
        self.progressive
    }

    /// What `tools/list` answers.
    pub(crate) fn listed(&self) -> &Value {
        &self.listed
    }

    /// Where a call of `tool` goes: a discovery tool's answer, the call `tools__call` names,
    /// a tool outside the subset's error, or (every other case) the executor as it was asked.
    pub(crate) fn route(&self, tool: String, arguments: Map<String, Value>) -> Route {
        if !self.progressive || !DISCOVERY_TOOLS.contains(&tool.as_str()) {
            return self.served_or_refused(tool, arguments);
        }
        let groups = self.served_groups();
        let asked = match face::read(&tool, &arguments, &groups) {
            Some(Ok(asked)) => asked,
            Some(Err(problems)) => return Route::Answer(invalid(&tool, problems)),
            None => return self.served_or_refused(tool, arguments),
        };
        match asked {
            Asked::Search {
                query,
                group,
                limit,
            } => Route::Answer(super::result::structured(face::search_in(
                &self.groups,
                &self.served,
                &query,
                group.as_deref(),
                limit,
            ))),
            Asked::Describe { names } => match face::describe(&self.served, &names) {
                Ok(value) => Route::Answer(super::result::structured(value)),
                Err(missing) => Route::Answer(super::result::error(
                    &self.not_served(&missing),
                    ARGUMENT_EXIT,
                )),
            },
            Asked::Call { name, .. } if DISCOVERY_TOOLS.contains(&name.as_str()) => {
                let error = Error::new(
                    codes::INVALID_ARGUMENT,
                    format!("{CALL_TOOL} calls a tool of the server, not `{name}`"),
                )
                .with_suggestion(format!("call {name} directly"))
                .with_details(json!({ "argument": "name" }));
                Route::Answer(super::result::error(&error, ARGUMENT_EXIT))
            }
            Asked::Call { name, arguments } => self.served_or_refused(name, arguments),
        }
    }

    /// The groups of the served tools, in order.
    fn served_groups(&self) -> Vec<&str> {
        let names = face::names(&self.served);
        let mut groups: Vec<&str> = Vec::new();
        for (tool, group) in &self.groups {
            if names.contains(&tool.as_str()) && !groups.contains(&group.as_str()) {
                groups.push(group);
            }
        }
        groups
    }

    /// The call as asked, unless it names a tool of the registry the subset leaves out.
    fn served_or_refused(&self, tool: String, arguments: Map<String, Value>) -> Route {
        let known = self.groups.iter().any(|(t, _)| *t == tool);
        if self.subset && known && !face::names(&self.served).contains(&tool.as_str()) {
            let error = self.not_served(std::slice::from_ref(&tool));
            return Route::Answer(super::result::error(&error, ARGUMENT_EXIT));
        }
        Route::Run { tool, arguments }
    }

    /// `TOOL_NOT_SERVED` for `names`: each one's group where the registry has it, and the flag
    /// that would serve it.
    fn not_served(&self, names: &[String]) -> Error {
        let group_of = |name: &str| {
            self.groups
                .iter()
                .find(|(t, _)| t == name)
                .map(|(_, g)| g.clone())
        };
        let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        let served = face::names(&self.served).len();
        let message = match self.subset {
            true => format!(
                "{} not served here: this server serves {served} of the tool's tools (--{} / --{})",
                quoted.join(", "),
                MCP_GROUP.long,
                MCP_TOOLS.long
            ),
            false => format!("{} not tools of this server", quoted.join(", ")),
        };
        let ours: Vec<&String> = names.iter().filter(|n| group_of(n).is_some()).collect();
        let hint = match ours.first() {
            Some(first) => format!(
                "start the server with it: `{} --{} {}` (or `--{} {}`, its group), beside the flags it has; \
                 tools/list{} names what it serves now",
                self.serve_words,
                MCP_TOOLS.long,
                ours.iter()
                    .map(|n| n.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
                MCP_GROUP.long,
                group_of(first).unwrap_or_default(),
                if self.progressive {
                    " (tools__search)"
                } else {
                    ""
                },
            ),
            None => "tools__search finds the served tools by words".to_owned(),
        };
        let tools: Vec<Value> = names
            .iter()
            .map(|n| json!({"name": n, "group": group_of(n)}))
            .collect();
        Error::new(TOOL_NOT_SERVED, message)
            .with_suggestion(hint)
            .with_details(json!({ "tools": tools, "served": served }))
    }
}

/// A discovery tool's arguments that do not fit its schema: `INVALID_ARGUMENT` naming the first
/// argument (`details.argument`, as for any tool) and listing every problem.
fn invalid(tool: &str, problems: Vec<face::Problem>) -> Value {
    let message = problems
        .iter()
        .map(|p| p.message.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    let listed: Vec<Value> = problems
        .iter()
        .map(|p| json!({"argument": p.argument, "message": p.message}))
        .collect();
    let error = Error::new(codes::INVALID_ARGUMENT, message)
        .with_suggestion(format!(
            "{tool}'s inputSchema in tools/list says what it takes"
        ))
        .with_details(json!({
            "argument": problems.first().map(|p| p.argument.clone()),
            "problems": listed,
        }));
    super::result::error(&error, ARGUMENT_EXIT)
}
