use clap::Parser;
use pas::AgentTool;

#[derive(Parser, AgentTool)]
#[agent(levle = 2, exit_cod(100, NOT_FOUND, "Not found"), colour = "red")]
enum Tool {
    /// Create a thing.
    #[agent(efect = "write", rate_limt = "60/minute", ouptut = Thing)]
    Create,
}

fn main() {}
