use clap::Parser;
use pas::AgentTool;

/// Mistakes in `resource(...)`: an unknown verb, a relative path, a description before the
/// verbs, and a level 4 claim the verbs do not back.
#[derive(Parser, AgentTool)]
#[agent(
    level = 4,
    resource("/notes/{id}", cat, stat, delete, "One note"),
    resource("notes", ls),
    resource("/a", "described", ls),
    resource("/b/{id}/{id}", stat)
)]
struct Tool {
    /// A note.
    note: String,
}

fn main() {}
