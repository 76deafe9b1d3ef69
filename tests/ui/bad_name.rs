use clap::Parser;
use pas::AgentTool;

#[derive(Parser, AgentTool)]
enum Tool {
    /// Create a task.
    #[agent(name = "Task_Create")]
    Create,
    /// Delete a task.
    #[agent(name = "task..delete", deprecated(replacement = "task remove"))]
    Delete,
    /// Show a task.
    #[agent(name = "task.show")]
    Show,
    /// Show a task again.
    #[agent(name = "task.show")]
    Again,
}

fn main() {}
