//! `notes`: JSON notes in notebooks, worked with as paths. The PAS level 4 example: the
//! navigation verbs (`ls`, `cat`, `stat`) and the state verbs (`cp`, `rm`, `sync`, `feedback`)
//! are not written as commands; `#[agent(resource(...))]` says which paths offer which verbs,
//! the runtime adds the commands and routes them to `store::Store`, which implements
//! `pas::Resources`. The one command of its own, `search`, is an ordinary clap subcommand.

mod store;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use pas::{AgentTool, App, Items};
use serde::Serialize;

/// Keep JSON notes in notebooks and work with them as paths.
///
/// A notebook is a directory of the store and a note one JSON object in it. `ls /notebooks`
/// lists the notebooks, `cat /notebooks/inbox/milk` prints a note, `cp ./note.json
/// /notebooks/inbox/bread` writes one, and `sync /notebooks/recipes ./recipes` pulls a
/// notebook to disk.
#[derive(Debug, Parser, AgentTool)]
#[command(name = "notes", version)]
// Clippy reads `#[agent(...)]` as a list of attribute words, so the same verb in two
// `resource(...)` keys looks like a repeated attribute to it.
#[allow(clippy::duplicated_attributes)]
#[agent(
    level = 4,
    exit_code(
        100,
        NOT_FOUND,
        "No notebook or note at this path",
        "notes cat /notebooks/inbox/no-such-note"
    ),
    exit_code(101, INVALID_NOTE, "The source is not a JSON object"),
    exit_code(102, STORE_UNWRITABLE, "The store directory cannot be written"),
    exit_code(103, SOURCE_UNREADABLE, "The local source file cannot be read"),
    exit_code(
        104,
        PATH_ESCAPES_ROOT,
        "A link in the store (or the sync directory) leads outside it; nothing was done"
    ),
    exit_code(
        105,
        STORE_PATH_INVALID,
        "The store path is empty or not a directory (a file, a device)"
    ),
    exit_code(
        106,
        STORE_FILE_INVALID,
        "A note's file is not a regular file (a pipe, a device) or is over 256 MiB; it was not read"
    ),
    resource("/notebooks", ls, stat, "Every notebook."),
    resource(
        "/notebooks/{notebook}",
        ls,
        stat,
        rm,
        sync,
        feedback,
        "One notebook; its children are its notes."
    ),
    resource(
        "/notebooks/{notebook}/{note}",
        cat,
        stat,
        cp,
        rm,
        feedback,
        "One note: a JSON object."
    ),
    example("notes --agent ls /notebooks", "The notebooks, one JSON line each"),
    example("notes --agent cat /notebooks/inbox/milk", "One note as JSON"),
    example(
        "notes --agent cp ./note.json /notebooks/inbox/bread",
        "Write a note from a local file"
    ),
    example("notes --agent rm /notebooks/inbox/bread", "Delete one note"),
    example(
        "notes --agent sync /notebooks/recipes ./recipes",
        "Pull a notebook to disk, writing only what changed"
    ),
    example(
        "notes --agent feedback /notebooks/inbox/milk --level warn --message \"The title is empty\"",
        "Report a broken note"
    ),
    anti_pattern(
        "notes --agent ls /notebooks/inbox | xargs -n1 notes --agent cat",
        "ls prints JSON lines: take each line's .path with jq, or sync the notebook"
    ),
    anti_pattern(
        "notes --agent rm '/notebooks/inbox/*'",
        "Wildcards need --force; remove explicit paths, or the notebook itself"
    )
)]
struct Cli {
    #[command(flatten)]
    globals: Globals,
    #[command(subcommand)]
    command: Command,
}

/// The flags every command takes.
#[derive(Debug, Clone, clap::Args, AgentTool)]
pub struct Globals {
    /// The store directory. Default: $XDG_DATA_HOME/notes, else ~/.local/share/notes.
    #[arg(long, env = "NOTES_STORE", global = true)]
    #[agent(format = "path")]
    store: Option<PathBuf>,
}

#[derive(Debug, clap::Subcommand, AgentTool)]
enum Command {
    /// Notes whose JSON text contains the query (any case), in path order.
    #[agent(
        kind = "list",
        output = Match,
        errors(NOT_FOUND),
        example("notes --agent search milk", "Notes that mention milk"),
        example("notes --agent search flour --notebook recipes")
    )]
    Search {
        /// Text to look for; case does not matter.
        query: String,
        /// Search only this notebook.
        #[arg(long)]
        notebook: Option<String>,
    },
}

/// One note that matches a search.
#[derive(Debug, Serialize, schemars::JsonSchema)]
struct Match {
    /// The note's path, for `cat` or `stat`.
    path: String,
    /// The notebook it is in.
    notebook: String,
    /// The note's name.
    note: String,
}

fn main() -> ExitCode {
    App::from_tool::<Cli, _>(|cli, _ctx| match cli.command {
        Command::Search { query, notebook } => {
            let store = store::Store::at(&cli.globals);
            let found = store.search(&query, notebook.as_deref())?;
            let items = found.into_iter().map(|(notebook, note)| Match {
                path: format!("/notebooks/{notebook}/{note}"),
                notebook,
                note,
            });
            Ok(Items::ok(items)
                .with_text(|m: &Match| m.path.clone())
                .into_list())
        }
    })
    .resources(store::Notes)
    .run()
}
