//! COUNT items through incurs' streaming output (`CommandResult::Stream`, as its todoapp example
//! streams), for the 1,000,000-item row: `list-incurs list COUNT --format jsonl`.

use std::pin::Pin;

use futures::Stream;
use incurs::cli::Cli;
use incurs::command::{CommandContext, CommandDef, CommandHandler};
use incurs::output::CommandResult;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Deserialize, incurs::Args)]
struct ListArgs {
    /// How many items.
    count: u64,
}

#[derive(Serialize)]
struct Item {
    id: u64,
    name: String,
}

struct ListHandler;

#[async_trait::async_trait]
impl CommandHandler for ListHandler {
    async fn run(&self, ctx: CommandContext) -> CommandResult {
        let count = serde_json::from_value::<ListArgs>(ctx.args).map_or(0, |args| args.count);
        // incurs streams serde_json values: each item becomes one before it is written.
        let items = futures::stream::iter((0..count).map(|id| {
            serde_json::to_value(Item {
                id,
                name: format!("item-{id}"),
            })
            .unwrap_or(Value::Null)
        }));
        let items: Pin<Box<dyn Stream<Item = Value> + Send>> = Box::pin(items);
        CommandResult::Stream(items)
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut list =
        CommandDef::typed::<ListArgs, (), (), Vec<Value>, _, _>("list", |_ctx| async move {
            incurs::command::TypedResult::ok(Vec::new())
        })
        .description("List COUNT items, streamed.")
        .done();
    // The typed definition gives the argument schema; the handler is the streaming one.
    list.handler = Box::new(ListHandler);
    Cli::create("list-incurs")
        .version("1.0.0")
        .command("list", list)
        .serve()
        .await
}
