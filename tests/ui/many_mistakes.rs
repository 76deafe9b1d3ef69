use clap::Parser;
use pas::AgentTool;

/// Every mistake of this derive is reported in one compile.
#[derive(Parser, AgentTool)]
#[agent(level = 9, exit_code(7, NOPE, "Reserved range"))]
enum Tool {
    /// Create a thing.
    #[agent(name = "Create", effect = "creates", kind = "list")]
    Create,
    /// Delete a thing.
    #[agent(efect = "destructive", errors(NOTHING), idempotent = 1)]
    Delete,
}

fn main() {}
