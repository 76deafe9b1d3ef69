//! What `#[derive(AgentTool)]` knows when it compiles a tool, as `const` facts on the trait:
//! `App::from_tool` evaluates them at compile time and links only the runtime parts a tool's
//! declarations need (`pas::rooms`, issue 15). A fact that says "no" wrongly would leave a
//! declared check out of the binary, so each is pinned here, nested types included.

use clap::{Parser, Subcommand};
use pas::AgentTool;

/// A tool that declares nothing the gated parts serve.
#[derive(Parser, AgentTool)]
#[command(name = "plain", version = "0.1.0")]
#[agent(level = 1, command(name = "plain", description = "Do nothing."))]
struct Plain {
    name: Option<String>,
}

/// One command takes a lock, another reads an input schema, a third needs confirming; all sit in
/// a nested group.
#[derive(Parser, AgentTool)]
#[command(name = "declaring", version = "0.1.0")]
#[agent(level = 1)]
struct Declaring {
    #[command(subcommand)]
    command: Top,
}

#[derive(Subcommand, AgentTool)]
enum Top {
    /// Deploy.
    #[command(subcommand)]
    Group(Nested),
}

#[derive(Subcommand, AgentTool)]
enum Nested {
    /// Deploy one at a time.
    #[agent(effect = "write", lock = "deploy")]
    Deploy,
    /// Take a task on stdin.
    #[agent(stdin = "required", input_schema = "{\"type\": \"object\"}")]
    Take,
    /// Remove everything.
    #[agent(effect = "destructive")]
    Purge,
}

/// A tool with a global flag beside its subcommand: the one kind whose configuration file can
/// set something.
#[derive(Parser, AgentTool)]
#[command(name = "global", version = "0.1.0")]
#[agent(level = 1)]
struct WithGlobals {
    /// Where the data lives.
    #[arg(long, global = true)]
    db: Option<String>,
    #[command(subcommand)]
    command: Top,
}

/// A group whose impl is written by hand: it knows none of the facts.
#[derive(Subcommand)]
enum HandWritten {
    /// Anything.
    Anything,
}

// What the root's compile-time check of error codes calls on a nested group (the derive writes
// it; a hand-written group has no codes to check).
impl HandWritten {
    #[allow(non_snake_case)]
    pub const fn __pas_errors_check_needs_derive_AgentTool(_declared: &[&str]) {}
}

impl AgentTool for HandWritten {
    fn agent_node() -> pas::tool::Node {
        pas::tool::Node::Enum(Vec::new())
    }
}

/// A tool with a hand-written group nested in it.
#[derive(Parser, AgentTool)]
#[command(name = "mixed", version = "0.1.0")]
#[agent(level = 1)]
struct Mixed {
    #[command(subcommand)]
    command: HandWritten,
}

type Facts = [(&'static str, Option<bool>); 6];

fn facts<T: AgentTool>() -> Facts {
    [
        ("DECLARES_CHECKS", T::DECLARES_CHECKS),
        ("CHECKS_INPUT", T::CHECKS_INPUT),
        ("OFFERS_CLEANUP", T::OFFERS_CLEANUP),
        ("TAKES_LOCKS", T::TAKES_LOCKS),
        ("CONFIRMS", T::CONFIRMS),
        ("HAS_GLOBAL_FLAGS", T::HAS_GLOBAL_FLAGS),
    ]
}

#[test]
fn a_tool_that_declares_nothing_links_none_of_the_gated_parts() {
    assert_eq!(
        facts::<Plain>(),
        [
            ("DECLARES_CHECKS", Some(false)),
            ("CHECKS_INPUT", Some(false)),
            ("OFFERS_CLEANUP", Some(false)),
            ("TAKES_LOCKS", Some(false)),
            ("CONFIRMS", Some(false)),
            ("HAS_GLOBAL_FLAGS", Some(false)),
        ]
    );
}

#[test]
fn a_lock_or_an_input_schema_in_a_nested_group_is_seen_from_the_root() {
    assert_eq!(
        facts::<Declaring>(),
        [
            ("DECLARES_CHECKS", Some(false)),
            ("CHECKS_INPUT", Some(true)),
            ("OFFERS_CLEANUP", Some(false)),
            ("TAKES_LOCKS", Some(true)),
            ("CONFIRMS", Some(true)),
            ("HAS_GLOBAL_FLAGS", Some(false)),
        ]
    );
}

#[test]
fn a_nested_type_that_does_not_know_links_everything() {
    assert_eq!(HandWritten::TAKES_LOCKS, None);
    assert_eq!(
        facts::<Mixed>(),
        [
            ("DECLARES_CHECKS", Some(true)),
            ("CHECKS_INPUT", Some(true)),
            ("OFFERS_CLEANUP", Some(true)),
            ("TAKES_LOCKS", Some(true)),
            ("CONFIRMS", Some(true)),
            ("HAS_GLOBAL_FLAGS", Some(false)),
        ]
    );
}

/// The registry a derive builds has no place for what `DECLARES_CHECKS` and `OFFERS_CLEANUP`
/// gate: were a key for one added to the derive, this fails until the fact reads it.
#[test]
fn a_derive_built_registry_declares_no_checks_and_no_side_effects() {
    for registry in [pas::registry_of::<Plain>(), pas::registry_of::<Declaring>()] {
        assert!(registry.auth.is_none() && registry.requirements.is_empty());
        for param in &registry.global_flags {
            assert!(!param.has_constraints(), "{}", param.name);
        }
        for command in &registry.commands {
            assert!(command.side_effects.is_empty() && command.needs.is_empty());
            assert!(!command.auth && command.scopes.is_empty() && command.untrusted.is_empty());
            for param in &command.parameters {
                assert!(!param.has_constraints(), "{}", param.name);
                assert!(param.requires.is_empty() && param.conflicts.is_empty());
            }
        }
    }
}

/// `HAS_GLOBAL_FLAGS` says "no" only for a tool whose registry has no global flags, since such a
/// binary links no TOML reader and refuses any configuration file that sets something.
#[test]
fn the_global_flags_fact_agrees_with_the_registry() {
    fn agrees<T: AgentTool + clap::CommandFactory>() {
        let registry = pas::registry_of::<T>();
        assert_eq!(
            T::HAS_GLOBAL_FLAGS,
            Some(!registry.global_flags.is_empty()),
            "{}",
            registry.name
        );
    }
    agrees::<Plain>();
    agrees::<Declaring>();
    agrees::<WithGlobals>();
    assert_eq!(HandWritten::HAS_GLOBAL_FLAGS, None);
}
