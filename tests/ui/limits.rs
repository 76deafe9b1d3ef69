use clap::Parser;
use pas::AgentTool;

#[derive(Parser, AgentTool)]
enum Tool {
    /// No time at all.
    #[agent(timeout = 0)]
    Never,
    /// A string, not a number.
    #[agent(timeout = "30")]
    Quoted,
    /// Nothing may be printed.
    #[agent(max_output_bytes = 0)]
    Silent,
}

fn main() {}
