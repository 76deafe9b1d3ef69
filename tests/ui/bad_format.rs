use clap::Parser;
use pas::AgentTool;

/// Show one project.
#[derive(Parser, AgentTool)]
#[command(name = "projects", version = "0.1.0")]
struct Cli {
    /// A URL is not one of the formats.
    #[agent(format = "url")]
    id: String,
    /// The format is a string.
    #[agent(format = path)]
    #[arg(long)]
    file: Option<String>,
}

fn main() {}
