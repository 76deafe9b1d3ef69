use clap::{Parser, Subcommand};
use pas::AgentTool;

#[derive(Parser, AgentTool)]
#[agent(effect = "write", command(name = "x"), alias = "t")]
enum Tool {
    /// Create a thing.
    #[agent(level = 2, description = "Creates.", command(name = "y"))]
    Create {
        #[agent(secret, env = "TOKEN")]
        #[arg(long)]
        token: String,
    },
    /// A group.
    #[command(subcommand)]
    #[agent(name = "group")]
    Group(Inner),
}

#[derive(Subcommand, AgentTool)]
enum Inner {
    /// Run.
    Run,
}

/// A struct with commands below it.
#[derive(Parser, AgentTool)]
#[agent(output = Thing, command(name = "root"))]
struct Root {
    #[command(subcommand)]
    command: Inner,
}

struct Thing;

fn main() {}
