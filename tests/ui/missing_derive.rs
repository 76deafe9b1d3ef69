use clap::{Parser, Subcommand};
use pas::AgentTool;

#[derive(Parser, AgentTool)]
enum Tool {
    /// A group whose commands have no agent metadata.
    #[command(subcommand)]
    Task(TaskCommand),
}

#[derive(Subcommand)]
enum TaskCommand {
    /// Run.
    Run,
}

fn main() {}
