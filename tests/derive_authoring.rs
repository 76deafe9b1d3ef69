//! What a tool author writes with `#[derive(AgentTool)]` and gets back as written: a flag-only
//! secret (`#[agent(secret)]`, no environment variable to hide), one-line doc comments that keep
//! their final period, numbers that may be negative, and a list of items of any shape
//! (`output = serde_json::Value`: no schema, as a spec's list without `outputSchema`).

use clap::{Parser, Subcommand};
use pas::AgentTool;

/// Keep bookmarks.
#[derive(Parser, AgentTool)]
#[command(name = "bookmarks", version = "0.1.0")]
#[agent(level = 2, exit_code(100, NOT_FOUND, "No such bookmark"))]
struct Cli {
    /// The service token; only ever given as a flag.
    #[agent(secret)]
    #[arg(long, global = true)]
    token: Option<String>,
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand, AgentTool)]
enum Commands {
    /// List bookmarks.
    #[agent(errors(NOT_FOUND))]
    List {
        /// At most this many (negative: no limit).
        #[arg(long, default_value_t = 10)]
        limit: i64,
    },
    /// Export every bookmark as its service stores it.
    #[agent(kind = "list", output = serde_json::Value)]
    Export,
    /// Move a bookmark by an offset.
    ///
    /// The offset may be negative.
    #[command(name = "move")]
    Shift {
        /// The bookmark's id.
        id: i64,
        /// How far to move it.
        offset: i64,
    },
}

fn registry() -> pas::spec::Registry {
    pas::registry_of::<Cli>()
}

#[test]
fn a_flag_only_secret_is_a_secret() {
    let registry = registry();
    let token = registry
        .global_flags
        .iter()
        .find(|p| p.name == "token")
        .expect("the token flag");
    assert!(token.secret, "{token:?}");
    assert!(token.env.is_none());
}

#[test]
fn one_line_doc_comments_keep_their_final_period() {
    let registry = registry();
    let list = registry.commands.iter().find(|c| c.name == "list").unwrap();
    assert_eq!(list.description, "List bookmarks.");
    let shift = registry.commands.iter().find(|c| c.name == "move").unwrap();
    assert_eq!(shift.description, "Move a bookmark by an offset.");
}

#[test]
fn the_registry_is_a_valid_spec() {
    let diagnostics: Vec<_> = pas::spec::validate::validate(&registry())
        .into_iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
}

#[test]
fn a_list_of_any_json_has_no_output_schema() {
    let registry = registry();
    let export = registry
        .commands
        .iter()
        .find(|c| c.name == "export")
        .expect("the export command");
    assert_eq!(export.output, pas::spec::OutputKind::List);
    assert_eq!(export.output_schema, None, "{export:?}");
}
