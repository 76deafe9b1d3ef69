//! The discovery face (`pas_spec::faces::mcp_discovery`, issue 31 item 4): the subset a server
//! serves by group and name, the three tools of progressive discovery (snapshots pin their
//! bytes), the search ranking, and `tools__describe` giving the full list's entries as they are.

use std::path::{Path, PathBuf};

use pas_spec::Registry;
use pas_spec::faces::mcp;
use pas_spec::faces::mcp_discovery::{
    self as discovery, CALL_TOOL, DESCRIBE_TOOL, DISCOVERY_TOOLS, PROGRESSIVE_PAST, SEARCH_TOOL,
    Unknown,
};
use serde_json::{Value, json};

fn spec(name: &str) -> Registry {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("specs")
        .join(name);
    pas_spec::load::load_path(&path).unwrap().1
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn the_three_tools_of_the_largest_example() {
    let registry = spec("docstore.yaml");
    let full = mcp::tools_list(&registry);
    let list = discovery::progressive_list(&registry, &full);
    assert_eq!(discovery::names(&list), DISCOVERY_TOOLS);
    // The search tool names the served groups and their sizes, and offers them as an enum.
    let search = &list["tools"][0];
    assert!(
        search["description"]
            .as_str()
            .unwrap()
            .contains("8 tools, in the groups navigation (3), search (1), state (4)"),
        "{search}"
    );
    assert_eq!(
        search["inputSchema"]["properties"]["group"]["enum"],
        json!(["navigation", "search", "state"])
    );
    // The call tool carries no outputSchema (its result is the called tool's) and the served
    // tools' hints together: docstore has destructive `rm` and read-only verbs.
    let call = &list["tools"][2];
    assert!(call.get("outputSchema").is_none());
    assert_eq!(
        call["annotations"],
        json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false,
               "openWorldHint": true})
    );
    insta::assert_snapshot!("mcp-discovery-docstore", discovery::render(&registry));
}

#[test]
fn the_hints_of_the_call_tool_follow_the_served_subset() {
    let registry = spec("docstore.yaml");
    let navigation = discovery::select(&registry, &strings(&["navigation"]), &[]).unwrap();
    let list = discovery::progressive_list(&registry, &navigation);
    assert_eq!(
        list["tools"][2]["annotations"],
        json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true,
               "openWorldHint": false})
    );
    assert!(
        list["tools"][0]["description"]
            .as_str()
            .unwrap()
            .contains("3 tools, in the groups navigation (3)")
    );
}

#[test]
fn a_subset_is_the_union_of_its_groups_and_tools_in_list_order() {
    let registry = spec("docstore.yaml");
    let everything = discovery::select(&registry, &[], &[]).unwrap();
    assert_eq!(everything, mcp::tools_list(&registry));
    let subset = discovery::select(
        &registry,
        &strings(&["navigation"]),
        &strings(&["rm", "ls"]),
    )
    .unwrap();
    assert_eq!(discovery::names(&subset), ["cat", "ls", "stat", "rm"]);
    // Each entry is the full list's, untouched.
    let full = mcp::tools_list(&registry);
    for tool in subset["tools"].as_array().unwrap() {
        assert!(full["tools"].as_array().unwrap().contains(tool));
    }
}

#[test]
fn every_unknown_name_is_reported_at_once() {
    let registry = spec("docstore.yaml");
    let unknown = discovery::select(
        &registry,
        &strings(&["navigation", "nope", "tasks"]),
        &strings(&["ls", "task_get", SEARCH_TOOL]),
    )
    .unwrap_err();
    let named: Vec<(&str, &str)> = unknown
        .iter()
        .map(|Unknown { flag, name }| (*flag, name.as_str()))
        .collect();
    assert_eq!(
        named,
        [
            ("group", "nope"),
            ("group", "tasks"),
            ("tools", "task_get"),
            ("tools", SEARCH_TOOL)
        ]
    );
}

#[test]
fn search_ranks_the_name_first_and_says_how_many_matched() {
    let registry = spec("todo.yaml");
    let full = mcp::tools_list(&registry);
    let found = discovery::search(&registry, &full, "delete a task", None, 10);
    assert_eq!(found["tools"][0]["name"], "task_delete");
    assert_eq!(found["tools"][0]["group"], "task");
    let description = full["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "task_delete")
        .unwrap()["description"]
        .clone();
    assert_eq!(found["tools"][0]["description"], description);
    // Every todo tool is in the group `task`: each matches, the best first.
    assert_eq!(found["total"], 6);
    // Plurals fold: `tasks` finds `task`; case does not matter.
    let plural = discovery::search(&registry, &full, "TASKS", None, 2);
    assert_eq!(plural["total"], 6);
    assert_eq!(plural["tools"].as_array().unwrap().len(), 2);
    // A query without words lists every served tool, in list order.
    let all = discovery::search(&registry, &full, " ", None, 50);
    let names: Vec<&str> = all["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, discovery::names(&full));
    // Words nothing has: no match.
    let none = discovery::search(&registry, &full, "xylophone", None, 10);
    assert_eq!(none, json!({"tools": [], "total": 0}));
}

#[test]
fn search_keeps_to_its_group_and_to_the_served_tools() {
    let registry = spec("docstore.yaml");
    let full = mcp::tools_list(&registry);
    let state = discovery::search(&registry, &full, "", Some("state"), 10);
    assert_eq!(state["total"], 4);
    let served = discovery::select(&registry, &strings(&["navigation"]), &[]).unwrap();
    let found = discovery::search(&registry, &served, "remove rm", None, 10);
    assert_eq!(found["total"], 0, "{found}");
}

#[test]
fn describe_gives_the_full_list_s_entries_byte_for_byte() {
    for name in ["docstore.yaml", "todo.yaml", "pt-agent.yaml"] {
        let registry = spec(name);
        let full = mcp::tools_list(&registry);
        let names: Vec<String> = discovery::names(&full)
            .into_iter()
            .map(str::to_owned)
            .collect();
        let described = discovery::describe(&full, &names).unwrap();
        assert_eq!(
            serde_json::to_string(&described).unwrap(),
            serde_json::to_string(&full).unwrap(),
            "{name}"
        );
    }
    let registry = spec("todo.yaml");
    let full = mcp::tools_list(&registry);
    let one = discovery::describe(&full, &strings(&["task_get", "task_get"])).unwrap();
    assert_eq!(one["tools"].as_array().unwrap().len(), 1);
    let missing =
        discovery::describe(&full, &strings(&["task_get", "nope", CALL_TOOL])).unwrap_err();
    assert_eq!(missing, strings(&["nope", CALL_TOOL]));
}

#[test]
fn the_discovery_names_cannot_be_a_command_s_tool_name() {
    // A tool name is a dotted kebab-case command name with `_` for `.`: never two `_` in a row.
    for name in DISCOVERY_TOOLS {
        assert!(name.contains("__"), "{name}");
    }
    for command in ["tools._search", "tools__search", "tools.-describe"] {
        let spec = format!(
            r#"{{"specVersion": 1, "name": "t", "version": "1.0.0", "summary": "A tool.",
               "commands": [{{"name": "{command}", "description": "Gets.", "output": "object"}}]}}"#
        );
        let source = pas_spec::load::read_reader("t.json", spec.as_bytes()).unwrap();
        let registry = pas_spec::load::parse(&source).unwrap();
        let codes: Vec<_> = pas_spec::validate::validate(&registry)
            .into_iter()
            .map(|d| d.code)
            .collect();
        assert!(codes.contains(&"E030"), "{command}: {codes:?}");
    }
}

#[test]
fn the_flag_s_meaning_says_the_threshold() {
    let meaning = pas_spec::surface::MCP_DISCOVERY.meaning;
    assert!(
        meaning.contains(&format!("past {PROGRESSIVE_PAST} tools")),
        "{meaning}"
    );
    for tool in DISCOVERY_TOOLS {
        assert!(meaning.contains(tool), "{meaning}");
    }
}

#[test]
fn arguments_of_the_discovery_tools_are_read_as_their_schemas_say() {
    use discovery::{Asked, read};
    let args = |v: Value| v.as_object().unwrap().clone();
    assert_eq!(
        read(SEARCH_TOOL, &args(json!({"query": "x"})), &["a"]).unwrap(),
        Ok(Asked::Search {
            query: "x".into(),
            group: None,
            limit: 10
        })
    );
    let bad = read(DESCRIBE_TOOL, &args(json!({"names": ["a", 1]})), &[])
        .unwrap()
        .unwrap_err();
    assert_eq!(bad[0].argument, "names");
    let bad = read(CALL_TOOL, &args(json!({"arguments": []})), &[])
        .unwrap()
        .unwrap_err();
    let named: Vec<&str> = bad.iter().map(|p| p.argument.as_str()).collect();
    assert_eq!(named, ["name", "arguments"]);
}
