use clap::Parser;
use pas::AgentTool;

#[derive(Parser, AgentTool)]
#[agent("word-counter", level: 2)]
enum Tool {
    /// Fetch a thing.
    #[agent(rate-limit = "1/second", example["tool fetch"], name =, anti_pattern("only one"))]
    Fetch,
}

fn main() {}
