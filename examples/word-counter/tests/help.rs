//! Human `--help` of a one-command tool: clap's text with one "Examples:" block holding the
//! tool's examples and the command's, each once.

use std::process::Command;

#[test]
fn human_help_has_one_examples_block() {
    let output = Command::new(env!("CARGO_BIN_EXE_word-counter"))
        .arg("--help")
        .env_remove("PAS_AGENT")
        .output()
        .unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    assert_eq!(help.matches("Examples:").count(), 1, "{help}");
    let examples = &help[help.find("Examples:").unwrap()..];
    for line in [
        "word-counter --agent file.txt",
        "word-counter --agent README.md LICENSE.md",
        "word-counter README.md ",
    ] {
        assert_eq!(examples.matches(line).count(), 1, "{line}: {examples}");
    }
}
