//! The CRUD tool with agcli: three commands on the builder over a JSON file (`CRUD_FILE`,
//! default `crud.json`), as agcli's README writes them: `list` (`CommandOutput::list`), `get
//! <id>` (NOT_FOUND, `ExitCode::NOT_FOUND`) and `create --title=<title>`.

use agcli::{AgentCli, Command, CommandError, CommandOutput, ErrorCode, ExitCode, NextAction};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Clone, Serialize, Deserialize)]
struct Item {
    id: u64,
    title: String,
}

fn store() -> String {
    std::env::var("CRUD_FILE").unwrap_or_else(|_| "crud.json".to_owned())
}

fn unreadable(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(
        ErrorCode::new("STORE_UNREADABLE"),
        format!("{}: {err}", store()),
        "Point CRUD_FILE at a readable JSON array of items.",
    )
}

fn load() -> Result<Vec<Item>, CommandError> {
    match std::fs::read(store()) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(unreadable),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(err) => Err(unreadable(err)),
    }
}

fn cli() -> AgentCli {
    AgentCli::new("crud-agcli", "Keep items in a JSON file")
        .version("1.0.0")
        .command(
            Command::new("list", "List every item")
                .usage("crud-agcli list")
                .handler(|_req| async move {
                    let items = load()?
                        .into_iter()
                        .map(|item| serde_json::to_value(item).expect("an item serializes"))
                        .collect();
                    Ok(CommandOutput::list(items))
                }),
        )
        .command(
            Command::new("get", "Show one item")
                .usage("crud-agcli get <id>")
                .handler(|req| async move {
                    let id: u64 = req.arg_parse(0, "id")?;
                    let item = load()?.into_iter().find(|item| item.id == id);
                    let Some(item) = item else {
                        return Err(CommandError::new(
                            ErrorCode::new("NOT_FOUND"),
                            format!("No item has id {id}"),
                            "List the items with `crud-agcli list` and pick an existing id.",
                        )
                        .exit_code(ExitCode::NOT_FOUND)
                        .data(json!({ "id": id }))
                        .next_action(NextAction::new("crud-agcli list", "List the items")));
                    };
                    Ok(CommandOutput::new(json!(item)))
                }),
        )
        .command(
            Command::new("create", "Add an item")
                .usage("crud-agcli create --title=<title>")
                .handler(|req| async move {
                    let title: String = req.flag_parse("title")?.ok_or_else(|| {
                        CommandError::new(
                            ErrorCode::MISSING_ARG,
                            "--title is required",
                            "Pass --title=<title>.",
                        )
                        .exit_code(ExitCode::USAGE)
                    })?;
                    let mut items = load()?;
                    let id = items
                        .iter()
                        .map(|item| item.id)
                        .max()
                        .map_or(1, |id| id + 1);
                    let item = Item { id, title };
                    items.push(item.clone());
                    let text = serde_json::to_vec(&items).map_err(unreadable)?;
                    std::fs::write(store(), text).map_err(unreadable)?;
                    Ok(CommandOutput::new(json!(item)))
                }),
        )
}

#[tokio::main]
async fn main() {
    cli().run_env().await.finish()
}
