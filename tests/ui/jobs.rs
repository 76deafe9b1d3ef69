use clap::Parser;
use pas::AgentTool;

#[derive(Parser, AgentTool)]
enum Tool {
    /// A poll interval on a command that is not a job.
    #[agent(poll_interval_ms = 500)]
    NotAJob,
    /// A job that never waits between polls.
    #[agent(kind = "job", poll_interval_ms = 0)]
    Eager,
    /// A job whose limit is given as a call's timeout.
    #[agent(kind = "job", timeout = 30)]
    Limited,
}

fn main() {}
