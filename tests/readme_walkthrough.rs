//! The README's "Write your own tool" walk-through, code-first half, compiled and run: it uses
//! only the public API (`pas::run`, `Reply::list_with_text`, `Error::new`, `pas::xdg`), so a
//! change that breaks the walk-through breaks this test.

use clap::{Parser, Subcommand};
use pas::{AgentTool, Context, Error, Reply};
use serde::{Deserialize, Serialize};

/// Keep bookmarks in a local file.
#[derive(Parser, AgentTool)]
#[command(name = "bookmarks", version = "0.1.0")]
#[agent(
    level = 2,
    exit_code(
        100,
        BOOKMARK_NOT_FOUND,
        "No bookmark has this id",
        "bookmarks remove 999999"
    ),
    example("bookmarks --agent list --limit 5", "The first five bookmarks")
)]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand, AgentTool)]
enum Commands {
    /// List bookmarks, oldest first.
    #[agent(kind = "list", output = Bookmark)]
    List {
        /// At most this many; negative for all.
        #[arg(long, default_value_t = 20)]
        limit: i64,
    },
    /// Remove one bookmark.
    #[agent(effect = "destructive", errors(BOOKMARK_NOT_FOUND))]
    Remove {
        /// The bookmark's id.
        id: u64,
    },
}

/// One bookmark.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
struct Bookmark {
    id: u64,
    url: String,
}

const BOOKMARK_NOT_FOUND: &str = "BOOKMARK_NOT_FOUND";

fn store() -> std::path::PathBuf {
    // $XDG_DATA_HOME/bookmarks (else ~/.local/share/bookmarks): where the tool keeps its data.
    pas::xdg::data_home()
        .unwrap_or_default()
        .join("bookmarks/bookmarks.json")
}

fn load() -> Vec<Bookmark> {
    std::fs::read(store())
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

fn handle(cli: Cli, _ctx: &Context) -> Result<Reply, Error> {
    match cli.command {
        Commands::List { limit } => {
            let all = load();
            let take = usize::try_from(limit).unwrap_or(all.len());
            let items = all.into_iter().take(take).map(Ok);
            // Agents get one JSON object per line; people get the text.
            Ok(Reply::list_with_text(items, |b: &Bookmark| {
                format!("{} {}", b.id, b.url)
            }))
        }
        Commands::Remove { id } => Err(Error::new(
            BOOKMARK_NOT_FOUND,
            format!("no bookmark has the id {id}"),
        )
        .with_suggestion("list the ids with `bookmarks list`")),
    }
}

#[test]
fn the_walkthrough_tool_is_a_valid_level_2_spec() {
    let registry = pas::registry_of::<Cli>();
    let errors: Vec<_> = pas::spec::validate::validate(&registry)
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert!(store().ends_with("bookmarks/bookmarks.json"));
    // `pas::run::<Cli, _>(handle)` is the whole `main`; here it is only type-checked.
    let _main: fn() -> std::process::ExitCode = || pas::run::<Cli, _>(handle);
}
