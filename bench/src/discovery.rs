//! What discovery that stays small saves (issue 31, item 4), in o200k tokens: the full MCP
//! `tools/list` against the progressive one (`tools__search`, `tools__describe`,
//! `tools__call`), for every example spec and for a generated spec of 200 commands (20
//! groups of 10 CRUD-like commands, each with parameters and an output schema, deterministic),
//! with what the first steps of a progressive session cost: one search reply and the
//! definition of one tool.

use std::fmt::Write as _;

use pas::spec::Registry;
use pas::spec::faces::{mcp, mcp_discovery};
use serde_json::{Value, json};
use tiktoken_rs::CoreBPE;

use crate::{report, tools};

/// The groups of the generated spec.
const GROUPS: [&str; 20] = [
    "account", "alert", "backup", "billing", "build", "cache", "cluster", "dataset", "deploy",
    "domain", "invoice", "key", "pipeline", "log", "metric", "network", "project", "report",
    "storage", "user",
];

/// The actions of every group: name, effect, output, what it does.
const ACTIONS: [(&str, &str, &str, &str); 10] = [
    (
        "list",
        "read",
        "list",
        "List the {g}s, newest first, one page at a time.",
    ),
    ("get", "read", "object", "One {g} with all its fields."),
    ("create", "write", "object", "Create a {g} from its fields."),
    (
        "update",
        "write",
        "object",
        "Change some fields of a {g}; fields not given keep their value.",
    ),
    (
        "delete",
        "destructive",
        "object",
        "Delete a {g} and everything it holds.",
    ),
    (
        "archive",
        "write",
        "object",
        "Archive a {g}: it stays readable but takes no changes.",
    ),
    ("restore", "write", "object", "Restore an archived {g}."),
    (
        "export",
        "read",
        "object",
        "Export a {g} as one document in the format asked.",
    ),
    (
        "import",
        "write",
        "object",
        "Import {g}s from a file written by export.",
    ),
    ("tag", "write", "object", "Add a label to a {g}."),
];

/// One command of the generated spec.
fn command(group: &str, (action, effect, output, what): (&str, &str, &str, &str)) -> Value {
    let id = json!({"name": "id", "kind": "positional", "type": "integer", "required": true,
                    "description": format!("The {group}'s id.")});
    let parameters = match action {
        "list" => json!([
            {"name": "limit", "type": "integer", "default": 50, "description": "Page size, 1 to 500."},
            {"name": "cursor", "description": "Where the page starts; the previous page's cursor."},
            {"name": "status", "enum": ["active", "archived", "all"], "default": "active", "description": format!("Which {group}s to list.")},
        ]),
        "create" => json!([
            {"name": "name", "required": true, "description": format!("The {group}'s name.")},
            {"name": "note", "description": "Free-form details."},
        ]),
        "update" => {
            json!([id, {"name": "name", "description": "New name."}, {"name": "note", "description": "New details."}])
        }
        "export" => {
            json!([id, {"name": "encoding", "enum": ["json", "csv"], "default": "json", "description": "The document's encoding."}])
        }
        "import" => json!([{"name": "file", "required": true, "description": "The file to read."}]),
        "tag" => {
            json!([id, {"name": "label", "required": true, "description": "The label to add."}])
        }
        _ => json!([id]),
    };
    let mut command = json!({
        "name": format!("{group}.{action}"),
        "description": what.replace("{g}", group),
        "effect": effect,
        "output": output,
        "parameters": parameters,
        "outputSchema": {
            "type": "object",
            "required": ["id", "name", "status", "created"],
            "properties": {
                "id": {"type": "integer"},
                "name": {"type": "string"},
                "status": {"enum": ["active", "archived"]},
                "labels": {"type": "array", "items": {"type": "string"}},
                "created": {"type": "string", "format": "date-time"},
            },
        },
    });
    if action == "list" {
        command["paging"] = json!({"limit": "limit", "cursor": "cursor"});
    }
    command
}

/// The generated spec: `groups` x 10 commands (200 for the 20 groups).
pub fn generated(groups: usize) -> Registry {
    let commands: Vec<Value> = GROUPS
        .iter()
        .take(groups)
        .flat_map(|g| ACTIONS.iter().map(move |a| command(g, *a)))
        .collect();
    let spec = json!({
        "specVersion": 1, "name": "cloudctl", "version": "1.0.0",
        "summary": "Manage the accounts, builds, clusters and data of a cloud project.",
        "commands": commands,
    });
    let text = serde_json::to_vec(&spec).expect("JSON");
    let source = pas::spec::load::read_reader("cloudctl.json", text.as_slice()).expect("reads");
    pas::spec::load::parse(&source).expect("the generated spec parses")
}

/// The token counts of one registry.
struct Row {
    spec: String,
    tools: usize,
    groups: usize,
    full: usize,
    progressive: usize,
    search: usize,
    describe_one: usize,
}

fn count(bpe: &CoreBPE, text: &str) -> usize {
    bpe.encode_ordinary(text).len()
}

fn measure(bpe: &CoreBPE, spec: String, registry: &Registry) -> Row {
    let full = mcp::tools_list(registry);
    let progressive = mcp_discovery::progressive_list(registry, &full);
    let names = mcp_discovery::names(&full);
    // A search as an agent starts one: two words of the middle tool's description.
    let middle = &full["tools"][names.len() / 2];
    let description = middle["description"].as_str().unwrap_or_default();
    let query: Vec<&str> = description.split_whitespace().take(2).collect();
    let found = mcp_discovery::search(
        registry,
        &full,
        &query.join(" "),
        None,
        mcp_discovery::SEARCH_LIMIT as usize,
    );
    // The mean definition of one tool, as tools__describe returns it.
    let describe_all: usize = names
        .iter()
        .map(|name| {
            let one = mcp_discovery::describe(&full, &[(*name).to_owned()]).expect("served");
            count(bpe, &one.to_string())
        })
        .sum();
    Row {
        spec,
        tools: names.len(),
        groups: mcp_discovery::groups(registry).len(),
        full: count(bpe, &full.to_string()),
        progressive: count(bpe, &progressive.to_string()),
        search: count(bpe, &found.to_string()),
        describe_one: describe_all / names.len().max(1),
    }
}

fn rows() -> Vec<Row> {
    let bpe = tiktoken_rs::o200k_base_singleton();
    let root = tools::workspace();
    let mut rows: Vec<Row> = crate::tokens::example_specs(&root)
        .iter()
        .map(|path| {
            let (_, registry) = pas::spec::load::load_path(path).expect("example spec loads");
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            measure(bpe, name, &registry)
        })
        .collect();
    rows.push(measure(
        bpe,
        "generated, 200 commands".to_owned(),
        &generated(GROUPS.len()),
    ));
    rows
}

fn table(rows: &[Row]) -> String {
    let mut out = format!(
        "## MCP discovery: full against progressive tools/list, in o200k tokens\n\nCommand: \
         `cargo run --release -p pas-bench -- discovery`. o200k tokens (tiktoken-rs \
         `o200k_base`) of compact JSON. *Full*: `tools/list` with every tool (`TOOL mcp \
         --discovery full`, = `pas-gen --agent mcp`). *Progressive*: the three tools \
         `tools__search`, `tools__describe`, `tools__call` (`TOOL mcp --discovery progressive`; \
         `auto`, the default, lists them past {} tools). *Search*: one reply of `tools__search` \
         (two words of a description, at most {} matches). *Describe one*: one tool's full \
         definition as `tools__describe` returns it, the mean over the tools. The generated \
         spec is `pas-bench`'s own (20 groups of 10 commands with parameters and output \
         schemas, `bench/src/discovery.rs`).\n\n",
        mcp_discovery::PROGRESSIVE_PAST,
        mcp_discovery::SEARCH_LIMIT
    );
    out.push_str("| spec | tools | groups | full tools/list | progressive tools/list | progressive / full | search | describe one |\n");
    out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:.3} | {} | {} |",
            r.spec,
            r.tools,
            r.groups,
            r.full,
            r.progressive,
            r.progressive as f64 / r.full as f64,
            r.search,
            r.describe_one
        );
    }
    out
}

/// Count, print the table and write it into BENCHMARKS.md.
pub fn run() {
    let body = table(&rows());
    print!("{body}");
    let file = tools::workspace().join("BENCHMARKS.md");
    report::update_section(&file, "discovery", &body).expect("write BENCHMARKS.md");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_spec_is_valid_and_has_200_commands_in_20_groups() {
        let registry = generated(GROUPS.len());
        assert_eq!(registry.commands.len(), 200);
        assert_eq!(mcp_discovery::groups(&registry).len(), 20);
        let errors: Vec<_> = pas::spec::validate::validate(&registry)
            .into_iter()
            .filter(|d| d.severity == pas::spec::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
    }

    /// Past the threshold the progressive list is a small fraction of the full one, and
    /// under it the full list is what `auto` serves.
    #[test]
    fn progressive_is_small_where_auto_turns_it_on() {
        let rows = rows();
        let generated = rows.last().unwrap();
        assert!(generated.tools > mcp_discovery::PROGRESSIVE_PAST);
        assert!(
            generated.progressive * 20 < generated.full,
            "{}",
            generated.full
        );
        for r in &rows[..rows.len() - 1] {
            assert!(r.tools <= mcp_discovery::PROGRESSIVE_PAST, "{}", r.spec);
        }
    }
}
