use clap::Parser;
use pas::AgentTool;

#[derive(Parser, AgentTool)]
#[agent(level = 1, profile = "pas")]
#[agent(level = 2)]
enum Tool {
    /// Create a thing.
    #[agent(effect = "write", effect = "read", errors(NOT_FOUND), errors(CONFLICT))]
    Create,
    /// Page things.
    #[agent(deprecated(since = "0.1.0", since = "0.2.0"), paging(limit = "a", limit = "b", cursor = "c"))]
    Page,
}

fn main() {}
