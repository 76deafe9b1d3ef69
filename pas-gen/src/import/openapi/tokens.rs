//! What the imported tool costs an agent: o200k tokens (tiktoken's `o200k_base`, as the
//! benchmarks count) of its MCP `tools/list`, the definitions a client loads before the first
//! call, whole and per group.

use std::collections::BTreeMap;

use pas_spec::Registry;

/// Past this many tokens of tools/list the import warns and suggests one tool per group. 20,000
/// is a tenth of a 200k context window: beyond it the tool's definitions crowd out the task.
pub const BUDGET: usize = 20_000;

pub struct Cost {
    pub tools_list: usize,
    /// Tokens and commands per group (the commands' category), by group name.
    pub groups: BTreeMap<String, (usize, usize)>,
    /// Tokens per command, in the spec's order.
    pub commands: Vec<(String, usize)>,
}

pub fn measure(registry: &Registry) -> Cost {
    let bpe = tiktoken_rs::o200k_base_singleton();
    let count = |text: &str| bpe.encode_ordinary(text).len();
    let list = pas_spec::faces::mcp::tools_list(registry);
    let tools_list = count(&serde_json::to_string(&list).expect("JSON serialises"));
    let mut groups: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut commands = Vec::new();
    let tools = list
        .get("tools")
        .and_then(|t| t.as_array())
        .cloned()
        .unwrap_or_default();
    for command in &registry.commands {
        let tool = pas_spec::faces::mcp::tool_name(command);
        if let Some(entry) = tools
            .iter()
            .find(|t| t.get("name").and_then(|n| n.as_str()) == Some(tool.as_str()))
        {
            let tokens = count(&serde_json::to_string(entry).expect("JSON serialises"));
            commands.push((command.name.clone(), tokens));
            let group = groups.entry(command.category().to_owned()).or_default();
            group.0 += tokens;
            group.1 += 1;
        }
    }
    Cost {
        tools_list,
        groups,
        commands,
    }
}

/// The warning past [`BUDGET`]: the largest groups, each to import as its own tool.
pub fn warning(cost: &Cost) -> Option<String> {
    if cost.tools_list <= BUDGET {
        return None;
    }
    let instead = if cost.groups.len() > 1 {
        format!(
            "import one tool per group instead, e.g. {}",
            largest_groups(cost)
        )
    } else {
        // One group already: its schemas are the cost, not the number of tools.
        let mut commands: Vec<&(String, usize)> = cost.commands.iter().collect();
        commands.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let largest: Vec<String> = commands
            .iter()
            .take(3)
            .map(|(c, t)| format!("{c} ({t} tokens)"))
            .collect();
        format!(
            "the commands' schemas are the cost: trim the largest outputSchemas ({}) or leave operations out with --exclude",
            largest.join(", ")
        )
    };
    Some(format!(
        "the tool's MCP tools/list costs {} o200k tokens, over the {BUDGET} an agent should spend on one tool's definitions: {instead}",
        cost.tools_list
    ))
}

/// The five costliest groups, each as the `--include` that imports it alone.
pub fn largest_groups(cost: &Cost) -> String {
    let mut groups: Vec<(&String, &(usize, usize))> = cost.groups.iter().collect();
    groups.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(b.0)));
    let largest: Vec<String> = groups
        .iter()
        .take(5)
        .map(|(g, (t, c))| format!("--include {g} ({c} commands, {t} tokens)"))
        .collect();
    largest.join(", ")
}
