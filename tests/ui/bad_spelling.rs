use clap::Parser;
use pas::AgentTool;

#[derive(Parser, AgentTool)]
#[agent(profile = "mcp")]
enum Tool {
    /// Delete a thing.
    #[agent(effect = "delete", kind = "lst", stdin = "always")]
    Delete,
    /// Show a thing.
    #[agent(effect = "Read", kind = "documents")]
    Show,
}

fn main() {}
