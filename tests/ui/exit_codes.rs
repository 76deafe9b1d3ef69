use clap::Parser;
use pas::AgentTool;

#[derive(Parser, AgentTool)]
#[agent(
    level = 7,
    exit_code(42, ODD, "Odd"),
    exit_code(300, HUGE, "Too big"),
    exit_code(1, GENERAL_ERROR, "General"),
    exit_code(100, file_not_found, "Lowercase"),
    exit_code(101, TAKEN, "Taken"),
    exit_code(101, TAKEN, "Taken again"),
    exit_code(102, MISSING),
    exit_code(103, GONE, "Gone", loudly),
    exit_code(104, TIMEOUT, "The upstream service did not answer"),
    exit_code(105, FORCE_REQUIRED, "Refused"),
    exit_code(124, SLOW, "Slow")
)]
enum Tool {
    /// Fetch a thing.
    #[agent(errors(TAKN, NOT_THERE, GENERAL_ERROR, TAKEN, TAKEN))]
    Fetch,
}

fn main() {}
