use clap::Parser;
use pas::AgentTool;

#[derive(schemars::JsonSchema)]
struct Thing {
    id: u64,
}

#[derive(Parser, AgentTool)]
#[agent(level = "2", profile = pas)]
enum Tool {
    /// Create a thing.
    #[agent(name = task.create, idempotent = "yes", output = "Thing", errors = NOT_FOUND)]
    Create,
    /// List things.
    #[agent(kind = list, dry_run(true), example(word-counter), errors("NOT_FOUND"))]
    List,
}

fn main() {}
