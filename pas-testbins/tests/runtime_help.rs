//! `--agent --help` for the tool, a group and each command (pinned), wherever `--help` and
//! `--agent` stand; human `--help` is clap's with the examples; `--version` names the level.

mod runtime_support;

use runtime_support::{code, run, stderr, stdout};

fn agent_help(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    assert_eq!(stderr(&out), "");
    let text = stdout(&out);
    assert!(!text.contains('\x1b'));
    text
}

#[test]
fn tool_help_is_pinned() {
    let text = agent_help(&["--agent", "--help"]);
    for section in [
        "USAGE:",
        "COMMANDS:",
        "COMMON PATTERNS:",
        "ERROR CODES:",
        "ANTI-PATTERNS:",
    ] {
        assert!(text.contains(section), "{section}");
    }
    insta::assert_snapshot!("tool", text);
}

#[test]
fn command_help_is_pinned() {
    insta::assert_snapshot!(
        "item_get",
        agent_help(&["--agent", "item", "get", "--help"])
    );
    insta::assert_snapshot!(
        "item_list",
        agent_help(&["--agent", "item", "list", "--help"])
    );
    insta::assert_snapshot!("ingest", agent_help(&["--agent", "ingest", "--help"]));
    insta::assert_snapshot!("login", agent_help(&["--agent", "login", "--help"]));
    insta::assert_snapshot!("group_item", agent_help(&["--agent", "item", "--help"]));
}

#[test]
fn every_command_has_agent_help_with_typed_parameters_and_all_error_codes() {
    let registry: pas::spec::Registry =
        serde_json::from_str(include_str!("bin/runtime-demo.json")).unwrap();
    for command in &registry.commands {
        let mut args = vec!["--agent".to_owned()];
        args.extend(command.argv_path());
        args.push("--help".to_owned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let text = agent_help(&args);
        assert_eq!(
            text,
            pas::faces::agent_help::render_command(&registry, command),
            "pure face"
        );
        for line in [
            "  0   Success",
            "  1   General error",
            "  2   Invalid arguments",
        ] {
            assert!(text.contains(line), "{}: {line}", command.name);
        }
        for error in &command.errors {
            assert!(
                text.contains(&format!("({error})")),
                "{}: {error}",
                command.name
            );
        }
        for param in &command.parameters {
            assert!(
                text.contains(param.element_type().as_str()),
                "{}: {}",
                command.name,
                param.name
            );
        }
    }
    let tool = agent_help(&["--agent", "--help"]);
    for code in &registry.exit_codes {
        assert!(tool.contains(&format!("  {:<4}", code.code)) && tool.contains(&code.name));
    }
}

#[test]
fn help_and_agent_in_any_order_give_the_same_bytes() {
    let tool = agent_help(&["--agent", "--help"]);
    assert_eq!(agent_help(&["--help", "--agent"]), tool);
    assert_eq!(agent_help(&["-h", "--agent"]), tool);
    let get = agent_help(&["--agent", "item", "get", "--help"]);
    for args in [
        &["item", "get", "--help", "--agent"][..],
        &["--help", "--agent", "item", "get"],
        &["item", "--agent", "get", "-h"],
        &["--agent", "help", "item", "get"],
        &["--agent", "item", "get", "--token", "x", "--help"],
    ] {
        assert_eq!(agent_help(args), get, "{args:?}");
    }
    let via_env = runtime_support::demo(&["item", "get", "--help"])
        .env("PAS_AGENT", "1")
        .output()
        .unwrap();
    assert_eq!(stdout(&via_env), get);
}

#[test]
fn human_help_is_the_tool_s_own_clap_help() {
    let out = run(&["item", "list", "--help"]);
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    assert!(
        text.starts_with("List items, streamed.\n\nUsage: demo item list [OPTIONS]"),
        "{text}"
    );
    // The agent's examples and the runtime's flags are in the agent help, not a person's.
    assert!(!text.contains("Examples:"), "{text}");
    for runtime in ["--agent", "--output-id", "--max-output", "--format"] {
        assert!(!text.contains(runtime), "{runtime}: {text}");
    }
    assert!(!text.contains("ERROR CODES"));
    // The root's help says where the agent contract is, in one line.
    let root = stdout(&run(&["-h"]));
    assert!(
        root.ends_with(
            "\n\nAgents: add --agent for JSON output and JSON errors; `demo --agent --help` describes the contract.\n"
        ),
        "{root}"
    );
}

#[test]
fn version_is_the_tool_s_and_machine_mode_names_the_backed_level() {
    for args in [&["--version"][..], &["-V"]] {
        let out = run(args);
        assert_eq!(code(&out), 0);
        assert_eq!(stdout(&out), "demo 1.2.3\n");
    }
    for args in [&["--agent", "--version"][..], &["-V", "--agent"]] {
        let out = run(args);
        assert_eq!(code(&out), 0);
        assert_eq!(stdout(&out), "demo 1.2.3 (PAS Level 2 Compliant)\n");
    }
}
