//! From an example's shell line to the tool's own argv: the validator checks each example with
//! it, and the MCP face turns each into a tool's input example (`faces::mcp_examples`).
//!
//! Examples are whole shell lines: `cat a.txt | word-counter --agent > counts.json`, or PAS's own
//! `find . -name "*.md" | xargs word-counter --agent`. The line is split into words (shell-words
//! does the quoting), then into simple commands at `|`, `;`, `&&`, `||` and `&`, with redirections
//! dropped. The tool's invocation is the simple command that starts with the tool's name, else the
//! first one that contains it (after a prefix such as `xargs` or `env A=1`).

/// The tool's part of an example line.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Invocation {
    /// `NAME=value` words before the tool's name: environment given to it.
    pub environment: Vec<(String, String)>,
    /// The words after the tool's name.
    pub args: Vec<String>,
    /// Whether a prefix (`xargs`) appends more arguments at run time, so missing positionals in
    /// the line are not missing in the call.
    pub appends_args: bool,
}

/// Why a line yields no invocation.
#[derive(Debug, PartialEq, Eq)]
pub enum ShellError {
    /// Not a shell line: an unclosed quote, or nothing at all.
    Syntax(&'static str),
    /// The tool's name is not one of the commands.
    NoTool,
}

pub fn invocation(line: &str, tool: &str) -> Result<Invocation, ShellError> {
    let words =
        shell_words::split(line).map_err(|_| ShellError::Syntax("has an unclosed quote"))?;
    if words.is_empty() {
        return Err(ShellError::Syntax("is empty"));
    }
    let commands = simple_commands(words);
    let is_tool = |word: &String| word == tool || word.ends_with(&format!("/{tool}"));
    let starts_with_tool = |command: &&Vec<String>| {
        command
            .iter()
            .find(|word| !is_assignment(word))
            .is_some_and(is_tool)
    };
    let command = commands
        .iter()
        .find(starts_with_tool)
        .or_else(|| commands.iter().find(|command| command.iter().any(is_tool)))
        .ok_or(ShellError::NoTool)?;
    let at = command.iter().position(is_tool).ok_or(ShellError::NoTool)?;
    let prefix = &command[..at];
    Ok(Invocation {
        environment: prefix
            .iter()
            .filter(|word| is_assignment(word))
            .filter_map(|word| word.split_once('='))
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect(),
        args: command[at + 1..].to_vec(),
        appends_args: prefix
            .iter()
            .any(|word| word == "xargs" || word.ends_with("/xargs")),
    })
}

/// The simple commands of a line, redirections removed.
fn simple_commands(words: Vec<String>) -> Vec<Vec<String>> {
    let mut commands = vec![Vec::new()];
    let mut words = words.into_iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "|" | "|&" | "||" | "&&" | ";" | "&" => commands.push(Vec::new()),
            // A redirection whose target is the next word.
            ">" | ">>" | ">|" | "<" | "<<" | "<<<" | "&>" | "&>>" | "1>" | "1>>" | "2>" | "2>>" => {
                words.next();
            }
            _ if is_redirection(&word) => {}
            _ => commands.last_mut().expect("never empty").push(word),
        }
    }
    commands
}

/// `>out.txt`, `2>/dev/null`, `2>&1`, `<in.txt`; but not `<id>`, which examples use as a
/// placeholder.
fn is_redirection(word: &str) -> bool {
    // Output: `>`, after an optional descriptor (`1`, `2`) or `&`.
    let output = word.strip_prefix(['1', '2', '&']).unwrap_or(word);
    output.starts_with('>') || word.starts_with('<') && !(word.ends_with('>') && word.len() > 2)
}

/// `NAME=value`, as a shell reads it before a command.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        invocation(line, "word-counter").unwrap().args
    }

    #[test]
    fn the_tool_after_a_pipe_and_xargs() {
        let found = invocation(
            r#"find . -name "*.md" | xargs word-counter --agent # Count"#,
            "word-counter",
        )
        .unwrap();
        assert_eq!(found.args, ["--agent"]);
        assert!(found.appends_args);
    }

    #[test]
    fn the_tool_before_a_pipe_and_redirections() {
        assert_eq!(
            args("word-counter --agent a.txt | jq .count"),
            ["--agent", "a.txt"]
        );
        assert_eq!(args("word-counter a.txt > out.json 2>&1"), ["a.txt"]);
        assert_eq!(
            args("word-counter a.txt >out.json 2>/dev/null <in.txt"),
            ["a.txt"]
        );
        assert_eq!(args("word-counter <file> && echo done"), ["<file>"]);
        assert_eq!(args("cd x; ./target/release/word-counter 'a b'"), ["a b"]);
    }

    #[test]
    fn the_command_that_starts_with_the_tool_wins() {
        assert_eq!(
            args("echo word-counter | word-counter --stdin"),
            ["--stdin"]
        );
    }

    #[test]
    fn environment_before_the_tool() {
        let found = invocation("API_TOKEN=$TOKEN env X=1 word-counter a", "word-counter").unwrap();
        assert_eq!(
            found.environment,
            [
                ("API_TOKEN".to_owned(), "$TOKEN".to_owned()),
                ("X".to_owned(), "1".to_owned())
            ]
        );
        assert!(!found.appends_args);
    }

    #[test]
    fn lines_that_are_not_invocations() {
        assert_eq!(
            invocation("word-counter 'a", "word-counter"),
            Err(ShellError::Syntax("has an unclosed quote"))
        );
        assert_eq!(
            invocation("  ", "word-counter"),
            Err(ShellError::Syntax("is empty"))
        );
        assert_eq!(
            invocation("wc -l a.txt", "word-counter"),
            Err(ShellError::NoTool)
        );
    }
}
