//! The CRUD baseline: three commands over a JSON file (`CRUD_FILE`, default `crud.json`)
//! written by hand with clap's derive and serde_json, and nothing else: `list` (one JSON line
//! per item), `get ID` (exit 100 and a JSON error on stderr when no item has it) and
//! `create --title T`. `pas-bench -- peers` measures each framework's CRUD tool against it.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use serde::{Deserialize, Serialize};

/// Keep items in a JSON file.
#[derive(Parser)]
#[command(name = "crud-clap-baseline", version)]
struct Cli {
    /// The JSON file that holds the items.
    #[arg(long, global = true, env = "CRUD_FILE", default_value = "crud.json")]
    file: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every item.
    List,
    /// Show one item.
    Get {
        /// The item's id.
        id: u64,
    },
    /// Add an item.
    Create {
        /// The item's title.
        #[arg(long)]
        title: String,
    },
}

#[derive(Clone, Serialize, Deserialize)]
struct Item {
    id: u64,
    title: String,
}

/// A JSON error on stderr and its exit code.
fn fail(code: &str, message: String, exit: u8) -> ExitCode {
    let error = serde_json::json!({ "error": code, "message": message });
    eprintln!("{error}");
    ExitCode::from(exit)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut items: Vec<Item> = match std::fs::read(&cli.file) {
        Ok(bytes) => match serde_json::from_slice(&bytes) {
            Ok(items) => items,
            Err(err) => return fail("STORE_UNREADABLE", err.to_string(), 101),
        },
        Err(err) if err.kind() == io::ErrorKind::NotFound => Vec::new(),
        Err(err) => return fail("STORE_UNREADABLE", err.to_string(), 101),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let written = match cli.command {
        Command::List => items.iter().try_for_each(|item| {
            serde_json::to_writer(&mut out, item)?;
            out.write_all(b"\n").map_err(serde_json::Error::io)
        }),
        Command::Get { id } => match items.iter().find(|item| item.id == id) {
            Some(item) => serde_json::to_writer(&mut out, item)
                .and_then(|()| out.write_all(b"\n").map_err(serde_json::Error::io)),
            None => return fail("NOT_FOUND", format!("No item has id {id}"), 100),
        },
        Command::Create { title } => {
            let id = items
                .iter()
                .map(|item| item.id)
                .max()
                .map_or(1, |id| id + 1);
            let item = Item { id, title };
            items.push(item.clone());
            let saved = serde_json::to_vec(&items)
                .map_err(io::Error::other)
                .and_then(|text| std::fs::write(&cli.file, text));
            if let Err(err) = saved {
                return fail("STORE_UNREADABLE", err.to_string(), 101);
            }
            serde_json::to_writer(&mut out, &item)
                .and_then(|()| out.write_all(b"\n").map_err(serde_json::Error::io))
        }
    };
    if written.is_err() || out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
