//! Invocations derived from the spec: each example becomes an argv the checks can run, or a
//! reason why it cannot be run.

use pas_spec::{Command, Effect, Registry};

/// An example the checks can run.
#[derive(Debug, Clone)]
pub struct Planned {
    /// The example as written in the spec.
    pub text: String,
    /// Its arguments after the program, without `--agent` (checks add it where they want it).
    pub args: Vec<String>,
    /// The command it calls, when it could be told.
    pub command: Option<Command>,
}

impl Planned {
    /// The argv words that select the command (empty for a single-command tool or unknown).
    pub fn path_len(&self) -> usize {
        self.command.as_ref().map_or(0, |c| c.argv_path().len())
    }
}

/// An example that is not run, and why.
#[derive(Debug, Clone)]
pub struct Unrunnable {
    /// The example as written.
    pub text: String,
    /// Why it is skipped.
    pub reason: String,
}

/// Every example of the spec (the tool's, then each command's), deduplicated, split into those
/// the checks run and those they skip.
pub fn examples(registry: &Registry) -> (Vec<Planned>, Vec<Unrunnable>) {
    let commands = registry.all_commands();
    let mut texts: Vec<(String, Option<&Command>)> = registry
        .examples
        .iter()
        .map(|e| (e.command.clone(), None))
        .collect();
    for command in &commands {
        texts.extend(
            command
                .examples
                .iter()
                .map(|e| (e.command.clone(), Some(command))),
        );
    }
    let mut planned: Vec<Planned> = Vec::new();
    let mut skipped = Vec::new();
    for (text, owner) in texts {
        match plan_one(registry, &commands, &text, owner) {
            Ok(plan) => {
                if !planned.iter().any(|p| p.args == plan.args) {
                    planned.push(plan);
                }
            }
            Err(reason) => skipped.push(Unrunnable { text, reason }),
        }
    }
    (planned, skipped)
}

fn plan_one(
    registry: &Registry,
    commands: &[Command],
    text: &str,
    owner: Option<&Command>,
) -> Result<Planned, String> {
    let args = argv(registry, text)?;
    let command = owner.cloned().or_else(|| command_of(commands, &args));
    if let Some(command) = &command
        && command.effect != Effect::Read
    {
        return Err(format!(
            "`{}` is a {} command: the checker changes nothing",
            command.name,
            command.effect.as_str()
        ));
    }
    Ok(Planned {
        text: text.to_owned(),
        args,
        command,
    })
}

/// The arguments of an invocation line (an example, or an exit code's trigger) after the tool's
/// name, without `--agent`; or why it is not one argv of the tool.
pub fn argv(registry: &Registry, text: &str) -> Result<Vec<String>, String> {
    let words = shell_words::split(text).map_err(|e| format!("not shell words: {e}"))?;
    if let Some(word) = words.iter().find(|w| is_shell_syntax(w)) {
        return Err(format!("a shell pipeline or glob (`{word}`), not one argv"));
    }
    match words.first() {
        Some(first) if *first == registry.name => {}
        _ => {
            return Err(format!(
                "does not start with the tool's name `{}`",
                registry.name
            ));
        }
    }
    Ok(words[1..]
        .iter()
        .filter(|w| *w != "--agent")
        .cloned()
        .collect())
}

/// The command whose argv path is the longest prefix of the example's leading words.
fn command_of(commands: &[Command], args: &[String]) -> Option<Command> {
    let words: Vec<&String> = args.iter().take_while(|w| !w.starts_with('-')).collect();
    commands
        .iter()
        .filter(|c| {
            let path = c.argv_path();
            path.len() <= words.len() && path.iter().zip(&words).all(|(p, w)| p == *w)
        })
        .max_by_key(|c| c.argv_path().len())
        .cloned()
}

/// A word only a shell gives meaning to: the example is a pipeline or relies on expansion.
fn is_shell_syntax(word: &str) -> bool {
    matches!(word, "|" | "||" | "&&" | ";" | ">" | ">>" | "<" | "&")
        || word.contains(['*', '?', '$', '`'])
        || word.starts_with('>')
        || word.starts_with('<')
}
