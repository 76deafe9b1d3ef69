//! COUNT items as agcli answers a list (`CommandOutput::list`: one envelope whose `result` holds
//! them all; agcli's streams are for events over time, not rows), for the 1,000,000-item row:
//! `list-agcli list COUNT`.

use agcli::{AgentCli, Command, CommandOutput};
use serde::Serialize;

#[derive(Serialize)]
struct Item {
    id: u64,
    name: String,
}

fn cli() -> AgentCli {
    AgentCli::new("list-agcli", "Streams items, for the benchmark")
        .version("1.0.0")
        .command(
            Command::new("list", "List COUNT items")
                .usage("list-agcli list <count>")
                .handler(|req| async move {
                    let count: u64 = req.arg_parse(0, "count")?;
                    let items = (0..count)
                        .map(|id| {
                            let item = Item {
                                id,
                                name: format!("item-{id}"),
                            };
                            serde_json::to_value(item).expect("an item serializes")
                        })
                        .collect();
                    Ok(CommandOutput::list(items))
                }),
        )
}

#[tokio::main]
async fn main() {
    cli().run_env().await.finish()
}
