//! The arguments of the three discovery tools, read as their inputSchemas say (every problem
//! at once), for a server that answers them without the executor's schema validation.

use serde_json::{Map, Value};

use super::{CALL_TOOL, DESCRIBE_TOOL, MAX_NAMES, SEARCH_LIMIT, SEARCH_TOOL};

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
