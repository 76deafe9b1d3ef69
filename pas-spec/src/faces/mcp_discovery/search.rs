//! `tools__search`'s ranking and `tools__describe`'s lookup, over the served `tools/list`.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::tool_groups;
use crate::Registry;
use crate::json_order::sorted;

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

/// [`super::SEARCH_TOOL`]'s result: the served tools matching `query` (any of its words; every tool
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

/// [`super::DESCRIBE_TOOL`]'s result: the served tools named, each exactly as `served` holds it, in
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
    fn words_fold_plurals_and_case() {
        assert_eq!(words("Tasks, task_list"), ["task", "task", "list"]);
        assert_eq!(fold("status"), "statu");
        assert_eq!(fold("ls"), "ls");
        assert_eq!(fold("class"), "class");
    }
}
