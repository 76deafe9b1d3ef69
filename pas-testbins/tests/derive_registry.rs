//! `#[derive(AgentTool)]` end to end: the registry a derive-built tool gets (pinned as YAML), that
//! it is a valid spec, that the binary's `--pas-spec` reads back to the same registry, and that
//! every command reaches the typed handler with the right variant.
//!
//! The tool is `tests/bin/derive_demo/tool.rs`, built as the `pas-derive-demo` binary and
//! included here so the test can call `registry_of` on the same types.

#[allow(dead_code)]
#[path = "bin/derive_demo/tool.rs"]
mod tool;

use assert_cmd::Command;
use clap::{CommandFactory, Parser};
use pas::AgentTool;
use pas::spec::{Format, Registry, Severity, Source, load, validate, write};

fn registry() -> Registry {
    pas::registry_of::<tool::Cli>()
}

fn demo() -> Command {
    let mut cmd = Command::cargo_bin("pas-derive-demo").expect("the demo binary is built");
    cmd.env_remove("PAS_AGENT")
        .env_remove("TASKS_FILE")
        .env_remove("TASKS_TOKEN");
    cmd
}

#[test]
fn registry_of_a_derived_tool() {
    insta::assert_snapshot!(write::to_yaml(&registry()));
}

#[test]
fn the_registry_is_a_valid_spec() {
    let diagnostics = validate::validate(&registry());
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
}

#[test]
fn pas_spec_output_reads_back_to_the_same_registry() {
    let output = demo().arg("--pas-spec").output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let source = Source::new("pas-derive-demo --pas-spec", text, Format::Json);
    let read = load::parse(&source).unwrap_or_else(|d| panic!("{d:?}"));
    assert_eq!(read, registry());
    // And through YAML, the form people keep specs in.
    let yaml = Source::new("derived.yaml", write::to_yaml(&read), Format::Yaml);
    assert_eq!(load::parse(&yaml).unwrap(), read);
    let (_, diagnostics) = pas::spec::check_source(&source);
    assert!(
        diagnostics.iter().all(|d| d.severity != Severity::Error),
        "{diagnostics:#?}"
    );
}

#[test]
fn every_command_reaches_the_typed_handler() {
    let run = |args: &[&str]| {
        let output = demo().args(args).output().unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
        )
    };
    // A nested group, an alias, an enum value and the global flag after the command.
    let (code, out) = run(&[
        "task", "ls", "--limit", "2", "--state", "done", "--agent", "--store", "x",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "{\"id\":1,\"title\":\"task 1\",\"state\":\"done\"}\n{\"id\":2,\"title\":\"task 2\",\"state\":\"done\"}\n"
    );
    // A variant whose args are a struct with a flattened struct.
    let (code, out) = run(&[
        "--agent", "task", "create", "--title", "milk", "-p", "1", "--weight", "0.5",
    ]);
    assert_eq!(
        (code, out.as_str()),
        (
            Some(0),
            "{\"id\":4,\"title\":\"milk\",\"state\":\"open\"}\n"
        )
    );
    // A renamed subcommand whose handler fails with a registry constant: its exit code.
    // It is destructive: refused without --force (issue 19) before the handler runs.
    let (code, out) = run(&["--agent", "task", "rm", "7"]);
    assert_eq!((code, out.as_str()), (Some(1), ""));
    let (code, out) = run(&["--agent", "task", "rm", "7", "--force"]);
    assert_eq!((code, out.as_str()), (Some(100), ""));
    // A command of a flattened group, and a global flag the handler reads.
    assert_eq!(
        run(&["--agent", "export"]),
        (Some(0), "# Tasks\n\n- task 1\n".to_owned())
    );
    assert_eq!(
        run(&["--agent", "--store", "down", "health"]),
        (Some(0), "{\"ok\":false}\n".to_owned())
    );
}

#[test]
fn the_derived_parser_is_clap_s_own() {
    // The derive adds nothing to clap's parser: the registry is read from it, not written to it.
    tool::Cli::command().debug_assert();
    let parsed = tool::Cli::try_parse_from(["tasks", "task", "create", "--title", "x"]).unwrap();
    assert!(matches!(
        parsed.command,
        tool::Command::Task(tool::TaskCommand::Create(_))
    ));
}

/// A hand-written impl that disagrees with clap's command tree is a bug the first call reports.
#[derive(Parser)]
enum Mismatched {
    /// One.
    One,
    /// Two.
    Two,
}

impl AgentTool for Mismatched {
    fn agent_node() -> pas::tool::Node {
        let command = pas::tool::VariantNode {
            ident: "One",
            role: pas::tool::Role::Command,
            command: Default::default(),
            fields: Vec::new(),
        };
        pas::tool::Node::Enum(vec![command])
    }
}

#[test]
#[should_panic(expected = "subcommands no variant accounts for: two")]
fn a_node_that_disagrees_with_clap_panics() {
    pas::registry_of::<Mismatched>();
}

/// A one-command struct with no `#[agent]` keys at all, and parameter shapes the demo lacks.
#[derive(Parser, AgentTool)]
#[command(name = "hello", version = "1.2.3", about = "Say hello")]
#[allow(dead_code)]
struct Hello {
    /// Who to greet.
    #[arg(long, default_values = ["world", "moon"])]
    name: Vec<String>,
    /// Say it louder (repeat for more).
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
    /// When to use colour.
    #[arg(long, value_enum, default_value = "auto")]
    color: Colour,
    /// For the author only.
    #[arg(long, hide = true)]
    debug: bool,
}

/// A clap value enum without `JsonSchema`: its type comes from clap's value parser instead.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Colour {
    Auto,
    Always,
    Never,
}

#[test]
fn a_single_command_struct_without_agent_keys() {
    use pas::spec::{ParamKind, ParamType};
    let registry = pas::registry_of::<Hello>();
    assert_eq!(
        (
            registry.name.as_str(),
            registry.version.as_str(),
            registry.level
        ),
        ("hello", "1.2.3", 1)
    );
    let [command] = registry.commands.as_slice() else {
        panic!("one command")
    };
    // Named after the tool, selected by no word at all.
    assert_eq!(
        (command.name.as_str(), command.path.as_deref()),
        ("hello", Some(&[][..]))
    );
    assert_eq!(command.description, "Say hello");
    let names: Vec<&str> = command.parameters.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        ["name", "verbose", "color"],
        "the hidden flag is not listed"
    );
    let [name, verbose, color] = &command.parameters[..] else {
        unreachable!()
    };
    assert_eq!(
        (name.kind, name.ty, name.items),
        (ParamKind::Flag, ParamType::Array, None)
    );
    assert_eq!(name.default, Some(serde_json::json!(["world", "moon"])));
    assert_eq!(
        (verbose.ty, verbose.short, &verbose.default),
        (ParamType::Integer, Some('v'), &None)
    );
    assert_eq!(color.ty, ParamType::String);
    assert_eq!(
        color.values.as_deref(),
        Some(&["auto".to_owned(), "always".to_owned(), "never".to_owned()][..])
    );
    assert_eq!(color.default, Some(serde_json::json!("auto")));
    assert!(
        validate::validate(&registry)
            .iter()
            .all(|d| d.severity != Severity::Error)
    );
}

/// `#[agent(stability = "beta")]` (failure mode 22) reaches the registry, and the binary warns
/// when the command runs.
#[test]
fn a_derived_stability_tier_reaches_the_registry_and_warns() {
    let registry = registry();
    let export = registry
        .commands
        .iter()
        .find(|c| c.name == "export")
        .expect("the export command");
    assert_eq!(export.stability, pas::spec::Stability::Beta);
    assert!(
        registry
            .commands
            .iter()
            .filter(|c| c.name != "export")
            .all(|c| c.stability.is_stable())
    );
    let out = demo().args(["--agent", "export"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warning: serde_json::Value =
        serde_json::from_str(stderr.lines().next().expect("a warning line")).unwrap();
    assert_eq!(warning["warning"]["code"], "UNSTABLE_COMMAND", "{stderr}");
}

/// `#[agent(changelog = "[...]")]` (failure mode 22): the `changelog` word prints it.
#[test]
fn a_derived_changelog_is_what_the_changelog_word_prints() {
    assert_eq!(registry().changelog.len(), 1);
    let out = demo().args(["--agent", "changelog"]).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        answer,
        serde_json::json!({
            "version": "0.3.0",
            "schema_version": "0.3.0",
            "changelog": [{"version": "0.3.0", "date": "2026-11-20",
                           "changes": ["task rm replaces task delete"]}]
        })
    );
}
