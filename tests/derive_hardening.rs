//! Agent hardening declared with the derive (CLI Agent Spec 34, 35): a field named like an id,
//! a name or a path is hardened by its name, `#[agent(hardening = false)]` turns it off for free
//! text, and `#[agent(hardening)]` turns it on for a field with another name; the registry the
//! faces and the runtime read says so, as the spec's `agentHardening` would.

use clap::Parser;
use pas::AgentTool;
use pas::spec::hardening::is_hardened;

/// Show one project.
#[derive(Parser, AgentTool)]
#[command(name = "projects", version = "0.1.0")]
#[agent(level = 2)]
struct Cli {
    /// The project's id.
    id: String,
    /// A display name, any text.
    #[agent(hardening = false)]
    #[arg(long)]
    name: Option<String>,
    /// The collection it belongs to.
    #[agent(hardening)]
    #[arg(long)]
    collection: Option<String>,
    /// A free-text title.
    #[arg(long)]
    title: Option<String>,
}

#[test]
fn the_derive_declares_hardening_either_way_and_names_decide_the_rest() {
    let registry = pas::registry_of::<Cli>();
    let params = &registry.commands[0].parameters;
    let hardened: Vec<(&str, Option<bool>, bool)> = params
        .iter()
        .map(|p| (p.name.as_str(), p.agent_hardening, is_hardened(p)))
        .collect();
    assert_eq!(
        hardened,
        [
            ("id", None, true),
            ("name", Some(false), false),
            ("collection", Some(true), true),
            ("title", None, false),
        ]
    );
}

mod spec {
    pas::include_spec!("tests/fixtures/valid/hardening.yaml");
}

/// A spec's `agentHardening` survives the emitter: `include_spec!` writes it as the derive's
/// `#[agent(hardening = ...)]`, and the binary's registry says what the spec said.
#[test]
fn a_compiled_spec_keeps_its_agent_hardening() {
    let registry = pas::registry_of::<spec::Cli>();
    let declared: Vec<(&str, Option<bool>)> = registry.commands[0]
        .parameters
        .iter()
        .map(|p| (p.name.as_str(), p.agent_hardening))
        .collect();
    assert_eq!(
        declared,
        [
            ("id", None),
            ("name", None),
            ("output-file", None),
            ("collection", Some(true)),
            ("label-id", Some(false)),
            ("title", None),
        ]
    );
}
