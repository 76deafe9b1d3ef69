use clap::Parser;
use pas::AgentTool;

struct Thing {
    id: u64,
}

#[derive(Parser, AgentTool)]
#[agent(command(name = "show", output = Thing))]
struct Tool {
    #[arg(long)]
    id: u64,
}

fn main() {}
