use clap::Parser;
use pas::AgentTool;

/// A tool whose `declared` keys are not the spec's JSON.
#[derive(Parser, AgentTool)]
#[command(name = "declared", version = "0.1.0")]
#[agent(
    level = 1,
    declared = r#"{"auth": {"env": ["T"]}, "credentials": true}"#,
    command(
        name = "declared",
        description = "Declare wrongly.",
        declared = r#"{"parameters": {"title": {"maxLength": "ten"}}}"#
    )
)]
struct Cli {
    #[arg(long)]
    title: Option<String>,
}

fn main() {}
