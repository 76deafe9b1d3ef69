use clap::Parser;
use pas::AgentTool;

#[derive(schemars::JsonSchema)]
struct Doc {
    text: String,
}

#[derive(Parser, AgentTool)]
enum Tool {
    /// List things.
    #[agent(kind = "list", paging(limit = "limit", cursor = "cursor"))]
    List,
    /// Read the manual.
    #[agent(kind = "document", output = Doc, paging(limit = "limit"))]
    Manual,
}

fn main() {}
