//! String formats and agent hardening declared with the derive (CLI Agent Spec 34, 35): no
//! field is hardened by its name; `#[agent(format = "id")]` hardens an identifier,
//! `#[agent(format = "path")]` and `#[agent(format = "resource-path")]` say what a value is,
//! `#[agent(hardening)]` turns hardening on for any field and `#[agent(hardening = false)]` off;
//! the registry the faces and the runtime read says so, as the spec's `format` and
//! `agentHardening` would.

use std::path::PathBuf;

use clap::Parser;
use pas::AgentTool;
use pas::spec::StringFormat;
use pas::spec::hardening::is_hardened;

/// Show one project.
#[derive(Parser, AgentTool)]
#[command(name = "projects", version = "0.1.0")]
#[agent(level = 2)]
struct Cli {
    /// The project's id.
    #[agent(format = "id")]
    id: String,
    /// A display name, any text.
    #[arg(long)]
    name: Option<String>,
    /// The collection it belongs to.
    #[agent(hardening)]
    #[arg(long)]
    collection: Option<String>,
    /// A label, any text, though an identifier.
    #[agent(format = "id", hardening = false)]
    #[arg(long)]
    label: Option<String>,
    /// Where to write a copy.
    #[agent(format = "path")]
    #[arg(long)]
    output_file: Option<PathBuf>,
    /// The resource it is filed under.
    #[agent(format = "resource-path")]
    #[arg(long)]
    parent: Option<String>,
}

#[test]
fn the_derive_declares_formats_and_hardening_and_names_decide_nothing() {
    let registry = pas::registry_of::<Cli>();
    let params = &registry.commands[0].parameters;
    let declared: Vec<(&str, Option<StringFormat>, Option<bool>, bool)> = params
        .iter()
        .map(|p| (p.name.as_str(), p.format, p.agent_hardening, is_hardened(p)))
        .collect();
    assert_eq!(
        declared,
        [
            ("id", Some(StringFormat::Id), None, true),
            ("name", None, None, false),
            ("collection", None, Some(true), true),
            ("label", Some(StringFormat::Id), Some(false), false),
            ("output-file", Some(StringFormat::Path), None, false),
            ("parent", Some(StringFormat::ResourcePath), None, false),
        ]
    );
}

mod spec {
    pas::include_spec!("tests/fixtures/valid/hardening.yaml");
}

/// A spec's `format` and `agentHardening` survive the emitter: `include_spec!` writes them as
/// the derive's `#[agent(format = ...)]` and `#[agent(hardening = ...)]`, and the binary's
/// registry says what the spec said.
#[test]
fn a_compiled_spec_keeps_its_formats_and_agent_hardening() {
    let registry = pas::registry_of::<spec::Cli>();
    let declared: Vec<(&str, Option<StringFormat>, Option<bool>)> = registry.commands[0]
        .parameters
        .iter()
        .map(|p| (p.name.as_str(), p.format, p.agent_hardening))
        .collect();
    assert_eq!(
        declared,
        [
            ("id", Some(StringFormat::Id), None),
            ("name", Some(StringFormat::Id), None),
            ("output-file", Some(StringFormat::Path), None),
            ("owner", None, None),
            ("parent", Some(StringFormat::ResourcePath), None),
            ("collection", None, Some(true)),
            ("label-id", Some(StringFormat::Id), Some(false)),
            ("title", None, None),
        ]
    );
}
