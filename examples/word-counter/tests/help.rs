//! Human `--help` of a one-command tool: clap's own text (no agent examples, no runtime flags)
//! and one line saying where the agent contract is.

use std::process::Command;

#[test]
fn human_help_is_the_tool_s_own_with_the_agent_line() {
    let output = Command::new(env!("CARGO_BIN_EXE_word-counter"))
        .arg("--help")
        .env_remove("PAS_AGENT")
        .output()
        .unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    assert!(!help.contains("Examples:"), "{help}");
    assert!(!help.contains("--output-id"), "{help}");
    assert!(
        help.ends_with(
            "\n\nAgents: add --agent for JSON output and JSON errors; `word-counter --agent --help` describes the contract.\n"
        ),
        "{help}"
    );
}
