//! What the runtime enforces before a handler, declared with the derive's `declared = "{...}"`
//! keys (the spec's JSON): the registry of a derive-built tool says it as a spec would, the
//! compile-time facts link the declared checks and `cleanup`, and a `declared` key naming a
//! parameter its command lacks fails every call, structured, before the handler.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Parser, Subcommand};
use pas::AgentTool;
use pas::spec::declare::SideEffectKind;

/// Keep notes.
#[derive(Parser, AgentTool)]
#[command(name = "notes", version = "0.1.0")]
#[agent(
    level = 1,
    declared = r#"{"auth": {"env": ["NOTES_TOKEN"], "scopes": [{"name": "w", "description": "Write."}]},
                   "requirements": [{"name": "shell", "kind": "program", "target": "sh", "fix": "install sh"}]}"#
)]
struct Notes {
    #[command(subcommand)]
    command: NotesCommand,
}

#[derive(Subcommand, AgentTool)]
enum NotesCommand {
    /// Create a note.
    #[agent(
        effect = "write",
        declared = r#"{"auth": true, "scopes": ["w"], "needs": ["shell"],
                       "sideEffects": [{"kind": "filesystem", "target": "~/.cache/notes/", "cleanup": "notes cache clear"}],
                       "parameters": {"title": {"maxLength": 10, "pattern": "^[a-z]+$"},
                                      "priority": {"minimum": 1, "maximum": 5, "requires": ["title"]}}}"#
    )]
    Create {
        /// The title.
        #[arg(long)]
        title: Option<String>,
        /// How urgent.
        #[arg(long)]
        priority: Option<i64>,
    },
    /// Show a note.
    #[agent(declared = r#"{"untrusted": ["body"]}"#)]
    Show,
}

#[test]
fn the_registry_says_what_the_declared_keys_say() {
    let registry = pas::registry_of::<Notes>();
    let auth = registry.auth.as_ref().expect("the tool's auth");
    assert_eq!(auth.env, ["NOTES_TOKEN"]);
    assert_eq!(registry.requirements[0].name, "shell");
    let create = &registry.commands[0];
    assert!(create.auth);
    assert_eq!(create.scopes, ["w"]);
    assert_eq!(create.needs, ["shell"]);
    assert_eq!(create.side_effects[0].kind, SideEffectKind::Filesystem);
    let title = &create.parameters[0];
    assert_eq!(
        (
            title.name.as_str(),
            title.max_length,
            title.pattern.as_deref()
        ),
        ("title", Some(10), Some("^[a-z]+$"))
    );
    let priority = &create.parameters[1];
    assert_eq!(priority.minimum, Some(1.into()));
    assert_eq!(priority.maximum, Some(5.into()));
    assert_eq!(priority.requires, ["title"]);
    assert_eq!(registry.commands[1].untrusted, ["body"]);
}

#[test]
fn declared_keys_link_the_declared_checks_and_cleanup() {
    assert_eq!(Notes::DECLARES_CHECKS, Some(true));
    assert_eq!(Notes::OFFERS_CLEANUP, Some(true));
    assert_eq!(NotesCommand::DECLARES_CHECKS, Some(true));
}

/// Only the tool declares something (credentials): the checks are linked, `cleanup` is not.
#[derive(Parser, AgentTool)]
#[command(name = "keyed", version = "0.1.0")]
#[agent(
    level = 1,
    declared = r#"{"auth": {"env": ["KEYED_TOKEN"]}}"#,
    command(
        name = "keyed",
        description = "Use a key.",
        declared = r#"{"auth": true}"#
    )
)]
struct Keyed {
    #[arg(long)]
    name: Option<String>,
}

#[test]
fn a_tool_level_declaration_alone_links_the_checks() {
    assert_eq!(Keyed::DECLARES_CHECKS, Some(true));
    assert_eq!(Keyed::OFFERS_CLEANUP, Some(false));
}

#[test]
fn a_command_needing_credentials_is_refused_before_its_handler() {
    let ran = Arc::new(AtomicBool::new(false));
    let seen = Arc::clone(&ran);
    // KEYED_TOKEN is set by nobody: the call has no credentials.
    let app = pas::App::from_tool::<Keyed, _>(move |_: Keyed, _| {
        seen.store(true, Ordering::SeqCst);
        Ok(pas::Reply::object(&serde_json::json!({})))
    });
    assert_ne!(app.run_from(["keyed", "--agent"]), ExitCode::SUCCESS);
    assert!(
        !ran.load(Ordering::SeqCst),
        "AUTH_REQUIRED before the handler"
    );
}

/// `declared` names `colour`, which the command does not have.
#[derive(Parser, AgentTool)]
#[command(name = "misnamed", version = "0.1.0")]
#[agent(
    level = 1,
    command(
        name = "misnamed",
        description = "Name a parameter wrongly.",
        declared = r#"{"parameters": {"colour": {"maxLength": 3}}}"#
    )
)]
struct Misnamed {
    #[arg(long)]
    color: Option<String>,
}

#[test]
fn a_declared_parameter_the_command_lacks_fails_every_call_before_the_handler() {
    let ran = Arc::new(AtomicBool::new(false));
    let seen = Arc::clone(&ran);
    let app = pas::App::from_tool::<Misnamed, _>(move |_: Misnamed, _| {
        seen.store(true, Ordering::SeqCst);
        Ok(pas::Reply::object(&serde_json::json!({})))
    });
    assert_ne!(app.run_from(["misnamed", "--agent"]), ExitCode::SUCCESS);
    assert!(!ran.load(Ordering::SeqCst), "the handler must not run");
    // The registry still builds (no panic), without the misnamed declaration.
    let registry = pas::registry_of::<Misnamed>();
    assert_eq!(registry.commands[0].parameters[0].max_length, None);
}

/// A global flag's constraints, in the tool's `declared` key by the flag's name.
#[derive(Parser, AgentTool)]
#[command(name = "regions", version = "0.1.0")]
#[agent(
    level = 1,
    declared = r#"{"globalFlags": {"region": {"pattern": "^[a-z]+$", "maxLength": 8}}}"#
)]
struct Regions {
    /// The region to use.
    #[arg(long, global = true)]
    region: Option<String>,
    #[command(subcommand)]
    command: RegionsCommand,
}

#[derive(Subcommand, AgentTool)]
enum RegionsCommand {
    /// List what is there.
    List,
}

#[test]
fn a_global_flags_constraints_are_declared_and_enforced() {
    let registry = pas::registry_of::<Regions>();
    let region = &registry.global_flags[0];
    assert_eq!(
        (region.pattern.as_deref(), region.max_length),
        (Some("^[a-z]+$"), Some(8))
    );
    assert_eq!(Regions::DECLARES_CHECKS, Some(true));
    let ran = Arc::new(AtomicBool::new(false));
    let seen = Arc::clone(&ran);
    let app = pas::App::from_tool::<Regions, _>(move |_: Regions, _| {
        seen.store(true, Ordering::SeqCst);
        Ok(pas::Reply::object(&serde_json::json!({})))
    });
    assert_ne!(
        app.run_from(["regions", "--agent", "list", "--region", "EU-1"]),
        ExitCode::SUCCESS
    );
    assert!(
        !ran.load(Ordering::SeqCst),
        "the pattern refuses before the handler"
    );
}
