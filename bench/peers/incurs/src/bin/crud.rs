//! The CRUD tool with incurs: three typed commands over a JSON file (`CRUD_FILE`, default
//! `crud.json`), as incurs' README writes a command: `list`, `get ID` (NOT_FOUND, exit 100) and
//! `create --title T`.

use incurs::cli::Cli;
use incurs::command::{CommandDef, TypedContext, TypedResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Deserialize, incurs::Args)]
struct GetArgs {
    /// The item's id.
    id: u64,
}

#[derive(Deserialize, incurs::Options)]
struct CreateOptions {
    /// The item's title.
    title: String,
}

/// One item of the store.
#[derive(Clone, JsonSchema, Serialize, Deserialize)]
struct Item {
    /// Its id, given at creation.
    id: u64,
    /// Its title.
    title: String,
}

fn store() -> String {
    std::env::var("CRUD_FILE").unwrap_or_else(|_| "crud.json".to_owned())
}

fn load() -> Result<Vec<Item>, String> {
    match std::fs::read(store()) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|err| err.to_string()),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(err) => Err(err.to_string()),
    }
}

fn unreadable<T>(message: String) -> TypedResult<T> {
    TypedResult::Error {
        code: "STORE_UNREADABLE".to_owned(),
        message,
        retryable: false,
        exit_code: Some(101),
        cta: None,
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let list = CommandDef::typed::<(), (), (), Vec<Item>, _, _>("list", |_ctx| async move {
        match load() {
            Ok(items) => TypedResult::ok(items),
            Err(message) => unreadable(message),
        }
    })
    .description("List every item.")
    .done();

    let get = CommandDef::typed::<GetArgs, (), (), Item, _, _>(
        "get",
        |ctx: TypedContext<GetArgs, (), ()>| async move {
            let items = match load() {
                Ok(items) => items,
                Err(message) => return unreadable(message),
            };
            match items.into_iter().find(|item| item.id == ctx.args.id) {
                Some(item) => TypedResult::ok(item),
                None => TypedResult::Error {
                    code: "NOT_FOUND".to_owned(),
                    message: format!("No item has id {}", ctx.args.id),
                    retryable: false,
                    exit_code: Some(100),
                    cta: None,
                },
            }
        },
    )
    .description("Show one item.")
    .done();

    let create = CommandDef::typed::<(), CreateOptions, (), Item, _, _>(
        "create",
        |ctx: TypedContext<(), CreateOptions, ()>| async move {
            let mut items = match load() {
                Ok(items) => items,
                Err(message) => return unreadable(message),
            };
            let id = items
                .iter()
                .map(|item| item.id)
                .max()
                .map_or(1, |id| id + 1);
            let item = Item {
                id,
                title: ctx.options.title,
            };
            items.push(item.clone());
            let saved = serde_json::to_vec(&items)
                .map_err(std::io::Error::other)
                .and_then(|text| std::fs::write(store(), text));
            match saved {
                Ok(()) => TypedResult::ok(item),
                Err(err) => unreadable(err.to_string()),
            }
        },
    )
    .description("Add an item.")
    .done();

    Cli::create("crud-incurs")
        .version("1.0.0")
        .description("Keep items in a JSON file.")
        .command("list", list)
        .command("get", get)
        .command("create", create)
        .serve()
        .await
}
