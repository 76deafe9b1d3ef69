use clap::{Parser, Subcommand};
use pas::AgentTool;

/// Manage variables.
#[derive(Parser, AgentTool)]
#[agent(level = 2, exit_code(100, VAR_NOT_FOUND, "No such variable"))]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand, AgentTool)]
enum Commands {
    /// Read one variable.
    #[agent(errors(VAR_NOTFOUND))]
    Get { name: String },
    /// Set one variable.
    #[agent(effect = "write", errors(VAR_NOT_FOUND))]
    Set { name: String },
}

fn main() {}
