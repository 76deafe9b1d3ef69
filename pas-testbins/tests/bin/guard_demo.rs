//! The tools the runtime's guard tests drive (`tests/runtime_guard.rs`, not meant for users):
//! a bookmarks store kept as files in `$BOOKMARKS_DIR`, built two ways. By default spec first
//! (`guard-demo.yaml` read by `pas::include_spec!`, whose `remove` gets the emitter's `force`
//! field); with `GUARD_DEMO_DERIVE=1` code first, a derive whose destructive `remove` declares
//! no `--force` of its own, so the runtime's switch is the only one. Neither handler looks at
//! `--force`: the runtime must refuse the call before it runs.

use std::path::PathBuf;
use std::process::ExitCode;

use pas::{Context, Error, Items, Reply};

mod spec {
    pas::include_spec!("tests/bin/guard-demo.yaml");
}

mod derived {
    use clap::{Parser, Subcommand};
    use pas::AgentTool;

    /// Bookmarks kept as files in $BOOKMARKS_DIR.
    #[derive(Debug, Parser, AgentTool)]
    #[command(name = "bookmarks-derived", version = "0.1.0")]
    #[agent(level = 1, exit_code(100, NOT_FOUND, "No bookmark has this name"))]
    pub struct Cli {
        #[command(subcommand)]
        pub command: Command,
    }

    #[derive(Debug, Subcommand, AgentTool)]
    pub enum Command {
        /// Delete one bookmark.
        #[agent(effect = "destructive", output = super::Removed, errors(NOT_FOUND))]
        Remove {
            /// The bookmark to delete.
            name: String,
        },
    }
}

#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
struct Removed {
    removed: String,
}

fn dir() -> PathBuf {
    std::env::var_os("BOOKMARKS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("bookmarks"))
}

/// Deletes the bookmark's file, whatever the flags said.
fn remove(name: &str) -> Result<String, Error> {
    std::fs::remove_file(dir().join(name))
        .map_err(|err| Error::new("NOT_FOUND", format!("no bookmark {name}: {err}")))?;
    Ok(name.to_owned())
}

struct Bookmarks;

impl spec::Handlers for Bookmarks {
    fn list(&self, _: spec::ListArgs, _: &Context) -> Result<Items<spec::ListItem>, Error> {
        let mut names: Vec<String> = std::fs::read_dir(dir())?
            .filter_map(|entry| entry.ok())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        // `BOOKMARKS_REPEAT_MS`: then the names again and again, one round every so many ms,
        // until a signal ends the call (the signal tests of tests/runtime_output_lost.rs; this
        // tool has no secrets, so a signal ends it from the signal handler itself).
        let repeat = std::env::var("BOOKMARKS_REPEAT_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map(std::time::Duration::from_millis);
        let once = names.clone().into_iter();
        let again = repeat.into_iter().flat_map(move |delay| {
            let names = names.clone();
            std::iter::repeat_with(move || {
                std::thread::sleep(delay);
                names.clone()
            })
            .flatten()
        });
        Ok(Items::ok(
            once.chain(again).map(|name| spec::ListItem { name }),
        ))
    }

    fn remove(&self, args: spec::RemoveArgs, _: &Context) -> Result<spec::RemoveOutput, Error> {
        Ok(spec::RemoveOutput {
            removed: remove(&args.name)?,
        })
    }
}

fn main() -> ExitCode {
    if std::env::var_os("GUARD_DEMO_DERIVE").is_some() {
        let app =
            pas::App::from_tool::<derived::Cli, _>(|cli: derived::Cli, _: &Context| {
                match cli.command {
                    derived::Command::Remove { name } => Ok(Reply::object(&Removed {
                        removed: remove(&name)?,
                    })),
                }
            });
        return app.run();
    }
    spec::app(Bookmarks).run()
}
