//! The CRUD peer written with pas: three commands over a JSON file (`CRUD_FILE`, default
//! `crud.json`), `list`, `get ID` (NOT_FOUND, exit 100) and `create --title T`, with clap's derive
//! and `#[derive(AgentTool)]` as the README shows. `pas-bench -- peers` measures it against the
//! same tool written with each peer framework.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use pas::{AgentTool, App, Error, Items, Reply};
use serde::{Deserialize, Serialize};

/// Keep items in a JSON file.
#[derive(Debug, Parser, AgentTool)]
#[command(name = "crud-pas", version = "1.0.0")]
#[agent(
    level = 2,
    exit_code(100, NOT_FOUND, "No item has this id", "crud-pas --agent get 999"),
    exit_code(101, STORE_UNREADABLE, "The JSON file cannot be read or written"),
    example("crud-pas --agent list", "Every item, one JSON line each")
)]
struct Cli {
    /// The JSON file that holds the items.
    #[arg(long, global = true, env = "CRUD_FILE", default_value = "crud.json")]
    #[agent(format = "path")]
    file: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand, AgentTool)]
enum Command {
    /// List every item.
    #[agent(kind = "list", output = Item, errors(STORE_UNREADABLE))]
    List,
    /// Show one item.
    #[agent(output = Item, errors(NOT_FOUND, STORE_UNREADABLE))]
    Get {
        /// The item's id.
        id: u64,
    },
    /// Add an item.
    #[agent(effect = "write", output = Item, errors(STORE_UNREADABLE))]
    Create {
        /// The item's title.
        #[arg(long)]
        title: String,
    },
}

/// One item of the store.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
struct Item {
    /// Its id, given at creation.
    id: u64,
    /// Its title.
    title: String,
}

fn load(file: &Path) -> Result<Vec<Item>, Error> {
    match std::fs::read(file) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|err| unreadable(file, &err)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(err) => Err(unreadable(file, &err)),
    }
}

fn unreadable(file: &Path, err: &dyn std::fmt::Display) -> Error {
    Error::new("STORE_UNREADABLE", format!("{}: {err}", file.display()))
}

fn main() -> ExitCode {
    App::from_tool::<Cli, _>(|cli, _ctx| {
        let mut items = load(&cli.file)?;
        match cli.command {
            Command::List => Ok(Items::ok(items).into_list()),
            Command::Get { id } => {
                let item = items
                    .into_iter()
                    .find(|item| item.id == id)
                    .ok_or_else(|| Error::new("NOT_FOUND", format!("No item has id {id}")))?;
                Ok(Reply::object(&item))
            }
            Command::Create { title } => {
                let id = items
                    .iter()
                    .map(|item| item.id)
                    .max()
                    .map_or(1, |id| id + 1);
                let item = Item { id, title };
                items.push(item.clone());
                let text = serde_json::to_vec(&items).map_err(|err| unreadable(&cli.file, &err))?;
                std::fs::write(&cli.file, text).map_err(|err| unreadable(&cli.file, &err))?;
                Ok(Reply::object(&item))
            }
        }
    })
    .run()
}
