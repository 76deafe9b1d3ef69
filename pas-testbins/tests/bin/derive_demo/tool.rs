//! A tool built with `#[derive(AgentTool)]` that uses every shape the derive handles: global
//! flags on a root struct, a nested command group, a flattened group, a skipped variant, a
//! variant whose args are a struct with a flattened struct, enums, defaults, a secret, aliases,
//! lists, documents, dry runs and deprecation. Shared by the `pas-derive-demo` binary and the
//! `derive_registry` test, so the test knows the types the binary runs.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use pas::AgentTool;
use schemars::JsonSchema;
use serde::Serialize;

/// Keep a list of tasks.
///
/// A small task tracker that shows every shape the derive handles.
#[derive(Debug, Parser, AgentTool)]
#[command(name = "tasks", version = "0.3.0")]
#[agent(
    level = 2,
    exit_code(100, NOT_FOUND, "No such task"),
    exit_code(101, CONFLICT, "The task already exists"),
    example("tasks --agent task list", "List open tasks"),
    anti_pattern("tasks task list | head", "Page with --limit and --cursor instead"),
    changelog = r#"[{"version": "0.3.0", "date": "2026-11-20", "changes": ["task rm replaces task delete"]}]"#
)]
pub struct Cli {
    /// Where the tasks are kept.
    #[arg(long, global = true, env = "TASKS_FILE", default_value = "tasks.json")]
    pub store: PathBuf,
    /// The API token.
    #[arg(long, global = true, env = "TASKS_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand, AgentTool)]
pub enum Command {
    /// Work with tasks.
    #[command(subcommand)]
    Task(TaskCommand),
    /// Show whether the store is reachable.
    #[agent(output = Health, idempotent)]
    Health,
    #[command(flatten)]
    Extra(ExtraCommand),
}

#[derive(Debug, Subcommand, AgentTool)]
pub enum TaskCommand {
    /// List tasks.
    #[command(visible_alias = "ls")]
    #[agent(
        kind = "list",
        output = Task,
        paging(limit = "limit", cursor = "cursor"),
        example("tasks --agent task list --limit 5", "The first five tasks")
    )]
    List {
        /// Most tasks to list.
        #[arg(long, default_value_t = 20)]
        limit: u32,
        /// Where to start.
        #[arg(long)]
        cursor: Option<String>,
        /// Only tasks in this state.
        #[arg(long, value_enum)]
        state: Option<State>,
        /// Only tasks with all of these tags.
        #[arg(long = "tag")]
        tags: Vec<String>,
    },
    /// Create a task.
    #[agent(
        effect = "write",
        output = Task,
        input = NewTask,
        errors(CONFLICT),
        dry_run,
        rate_limit = "60/minute",
        stdin = "optional",
        example("tasks --agent task create --title 'Buy milk' -p 1", "An urgent task")
    )]
    Create(CreateArgs),
    /// Delete a task.
    #[agent(
        effect = "destructive",
        kind = "none",
        errors(NOT_FOUND),
        deprecated(replacement = "task.remove", since = "0.3.0")
    )]
    Delete {
        /// The task's id.
        id: u64,
        /// Really delete it.
        #[arg(long)]
        force: bool,
    },
    /// Remove a task.
    #[agent(
        name = "task.remove",
        category = "task",
        effect = "destructive",
        kind = "none",
        errors(NOT_FOUND)
    )]
    #[command(name = "rm")]
    Remove {
        /// The task's id.
        id: u64,
        /// Really remove it.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Args, AgentTool)]
pub struct CreateArgs {
    /// The task's title.
    #[arg(long)]
    pub title: String,
    /// Priority, 1 (high) to 5.
    #[arg(long, short = 'p', default_value_t = 3)]
    pub priority: u8,
    /// Change nothing; print what would be created.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub weight: Weight,
}

#[derive(Debug, Args, AgentTool)]
pub struct Weight {
    /// How much work the task is.
    #[arg(long)]
    pub weight: Option<f64>,
}

#[derive(Debug, Subcommand, AgentTool)]
pub enum ExtraCommand {
    /// Export every task as Markdown.
    #[agent(kind = "document", category = "io", stability = "beta")]
    Export,
    /// Never a subcommand: clap skips it, so nothing ever builds it.
    #[command(skip)]
    #[allow(dead_code)]
    Internal,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum State {
    Open,
    Done,
}

/// A task.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Task {
    /// Its id.
    pub id: u64,
    /// Its title.
    pub title: String,
    /// Its state.
    pub state: State,
}

/// A task to create, as JSON on stdin.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NewTask {
    /// Its title.
    pub title: String,
}

/// The store's health.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Health {
    /// Whether the store answers.
    pub ok: bool,
}
