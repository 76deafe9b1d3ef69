//! A default page size for every paged list (CLI Agent Spec failure mode 5): a command that
//! declares `paging` but gives its page-size parameter no default gets [`DEFAULT_PAGE_LIMIT`],
//! so a call that names no `--limit` still answers one bounded page (with the next cursor,
//! compose `meta.cursor`, or the `pas` profile's `{"page":...}` line on stderr). The default is
//! put in the registry before any face reads it, so agent help, the catalog, `.llm`, the MCP
//! export and `--pas-spec` all show it, and into the clap parser of a derive-built tool.
//! A default the author chose is kept.

use pas_spec::{ParamType, Registry};
use serde_json::Value;

/// The page size of a paged list whose spec names none.
pub const DEFAULT_PAGE_LIMIT: u64 = 100;

/// Gives each paged command's page-size parameter the default it lacks. Returns the argv path
/// and clap arg id of each parameter it changed (for a clap parser built elsewhere).
pub(crate) fn apply(registry: &mut Registry) -> Vec<(Vec<String>, String)> {
    let mut changed = Vec::new();
    for command in &mut registry.commands {
        let Some(paging) = command.paging.clone() else {
            continue;
        };
        let path = command.argv_path();
        let Some(limit) = command
            .parameters
            .iter_mut()
            .find(|p| p.name == paging.limit)
        else {
            continue;
        };
        if limit.default.is_some() || limit.required || limit.ty != ParamType::Integer {
            continue;
        }
        limit.default = Some(Value::from(DEFAULT_PAGE_LIMIT));
        changed.push((path, crate::parse::clap_face::arg_id(limit)));
    }
    changed
}

/// The same default on a clap parser the registry did not build (a derive-built tool).
pub(crate) fn apply_to_clap(
    mut cmd: clap::Command,
    changed: &[(Vec<String>, String)],
) -> clap::Command {
    for (path, id) in changed {
        cmd = crate::parse::clap_augment::at_path(cmd, path, &mut |sub| {
            if sub.get_arguments().any(|a| a.get_id() == id.as_str()) {
                sub.mut_arg(id.as_str(), |arg| {
                    arg.default_value(DEFAULT_PAGE_LIMIT.to_string())
                })
            } else {
                sub
            }
        });
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(default: Option<u64>) -> Registry {
        let mut limit = serde_json::json!({"name": "limit", "type": "integer"});
        if let Some(default) = default {
            limit["default"] = default.into();
        }
        serde_json::from_value(serde_json::json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "s",
            "commands": [{"name": "item.list", "description": "d", "output": "list",
                "paging": {"limit": "limit", "cursor": "cursor"},
                "parameters": [limit, {"name": "cursor"}]}]
        }))
        .unwrap()
    }

    #[test]
    fn a_paged_list_without_a_page_size_gets_the_default_and_the_parser_too() {
        let mut with_none = registry(None);
        let changed = apply(&mut with_none);
        assert_eq!(
            changed,
            [(vec!["item".into(), "list".into()], "limit".into())]
        );
        let limit = &with_none.commands[0].parameters[0];
        assert_eq!(limit.default, Some(Value::from(DEFAULT_PAGE_LIMIT)));
        // A parser built elsewhere (derive) gets the same default.
        let cmd = clap::Command::new("t").subcommand(
            clap::Command::new("item").subcommand(
                clap::Command::new("list")
                    .arg(clap::Arg::new("limit").long("limit"))
                    .arg(clap::Arg::new("cursor").long("cursor")),
            ),
        );
        let matches = apply_to_clap(cmd, &changed)
            .try_get_matches_from(["t", "item", "list"])
            .unwrap();
        let (_, item) = matches.subcommand().unwrap();
        let (_, list) = item.subcommand().unwrap();
        assert_eq!(
            list.get_one::<String>("limit").map(String::as_str),
            Some("100")
        );
    }

    #[test]
    fn the_authors_page_size_is_kept() {
        let mut with_fifty = registry(Some(50));
        assert!(apply(&mut with_fifty).is_empty());
        assert_eq!(
            with_fifty.commands[0].parameters[0].default,
            Some(Value::from(50))
        );
    }
}
