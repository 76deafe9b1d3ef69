//! A command's examples as MCP arguments (issue 31, item 5): each example line of the command
//! that reads as a call of it becomes the `arguments` object a client would send, so a client
//! can show its model calls that work (`_meta["pas-kit/inputExamples"]` of the tool).
//!
//! The line is read as the validator reads it (`crate::shell_line`: shell words, the tool's
//! simple command), then its words against the command: the command's path words, its flags
//! (by name, alias or short) and positionals, with values typed as the `inputSchema` types them.
//! The runtime's own flags (`--agent`, ...) change no argument and are left out; the runtime's
//! switches the tool's `inputSchema` has (`--dry-run`, `--force`, ...) are kept. A line that
//! does not read cleanly (another command, an unknown flag, a value of the wrong type, an id
//! read from stdin, a secret) gives no example: an example must be one a client can send as is.

use serde_json::{Map, Value, json};

use crate::{Command, ParamKind, ParamType, Parameter, Registry};

/// The command's examples as `arguments` objects, in the order the spec gives them (a line
/// that does not read as a call of the command is left out, and so is a repeat).
pub(crate) fn input_examples(registry: &Registry, command: &Command) -> Vec<Value> {
    let mut examples: Vec<Value> = Vec::new();
    for example in &command.examples {
        if let Some(arguments) = arguments_of(registry, command, &example.command)
            && !examples.contains(&arguments)
        {
            examples.push(arguments);
        }
    }
    examples
}

/// One example line as the command's arguments, or `None` when it does not read as one.
fn arguments_of(registry: &Registry, command: &Command, line: &str) -> Option<Value> {
    let invocation = crate::shell_line::invocation(line, &registry.name).ok()?;
    if invocation.appends_args {
        return None; // `xargs tool ...`: the arguments are not all in the line
    }
    let surface = crate::surface::of(registry.profile);
    let switches = super::words::command_switches(registry, command);
    let params: Vec<&Parameter> = command
        .parameters
        .iter()
        .chain(&registry.global_flags)
        .collect();
    let mut path = command.argv_path().into_iter().peekable();
    let mut positionals = params.iter().copied().filter(|p| p.kind != ParamKind::Flag);
    // The variadic positional, once reached, takes every positional after it.
    let mut rest: Option<&Parameter> = None;
    // `cat`, `stat` and `rm` take one path per MCP call (`faces::mcp`'s inputSchema).
    let one_path = crate::verbs::takes_many_paths(registry, command);
    let add = |arguments: &mut Map<String, Value>, param: &Parameter, text: &str| {
        add(arguments, param, text, one_path && param.name == "path")
    };
    let mut arguments = Map::new();
    let mut words = invocation.args.into_iter();
    let mut options_ended = false;
    while let Some(word) = words.next() {
        if !options_ended && word == "--" {
            options_ended = true;
            continue;
        }
        // The runtime's word that names a built-in, never one of a command.
        if !options_ended && word == crate::surface::BUILTIN_FLAG {
            return None;
        }
        if !options_ended && let Some(long) = word.strip_prefix("--") {
            let (name, glued) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value.to_owned())),
                None => (long, None),
            };
            if let Some(param) = params
                .iter()
                .find(|p| p.kind == ParamKind::Flag && names(p, name))
            {
                let value = match (glued, param.ty == ParamType::Boolean) {
                    (Some(value), _) => value,
                    (None, true) => "true".to_owned(),
                    (None, false) => words.next()?,
                };
                add(&mut arguments, param, &value)?;
            } else if let Some(switch) = switches.iter().find(|s| s.long == name) {
                let value = match (glued, switch.value) {
                    (Some(value), _) => json!(value),
                    (None, None) => json!(true),
                    (None, Some(_)) => json!(words.next()?),
                };
                arguments.insert(switch.long.to_owned(), value);
            } else if let Some(flag) = surface.flag(name).or_else(|| {
                (name == crate::surface::TIMEOUT.long).then_some(&crate::surface::TIMEOUT)
            }) {
                // The runtime's own flags change the form of the call, not its arguments.
                if flag.value.is_some() && glued.is_none() {
                    words.next()?;
                }
            } else if name == "format" && surface.list_format_flag {
                if glued.is_none() {
                    words.next()?;
                }
            } else {
                return None;
            }
            continue;
        }
        if !options_ended && word.len() == 2 && word.starts_with('-') && word != "-" {
            let short = word.chars().nth(1)?;
            let param = params
                .iter()
                .find(|p| p.kind == ParamKind::Flag && p.short == Some(short))?;
            let value = match param.ty == ParamType::Boolean {
                true => "true".to_owned(),
                false => words.next()?,
            };
            add(&mut arguments, param, &value)?;
            continue;
        }
        // The command's path words come first, in order.
        if let Some(expected) = path.peek() {
            if *expected == word {
                path.next();
                continue;
            }
            return None;
        }
        // A positional (a variadic takes the rest).
        if word == "-" {
            return None; // read from stdin: no MCP argument carries it
        }
        let param = match rest {
            Some(variadic) => variadic,
            None => positionals.next()?,
        };
        if param.kind == ParamKind::Variadic {
            rest = Some(param);
        }
        add(&mut arguments, param, &word)?;
    }
    if path.peek().is_some() {
        return None; // another command (or a group's help)
    }
    Some(Value::Object(arguments))
}

/// Whether `name` (as typed after `--`) is the parameter's name or one of its aliases.
fn names(param: &Parameter, name: &str) -> bool {
    param.name == name
        || param.aliases.iter().any(|a| a == name)
        || param.deprecated_aliases.iter().any(|a| a == name)
}

/// Adds one value of `param` (typed as its schema types it, `single` where the schema takes one
/// value of a parameter the CLI takes many of), or `None` when it does not type.
fn add(
    arguments: &mut Map<String, Value>,
    param: &Parameter,
    text: &str,
    single: bool,
) -> Option<()> {
    if param.secret {
        return None; // a secret is never an MCP argument
    }
    let value = match param.element_type() {
        ParamType::Integer => json!(text.parse::<i64>().ok()?),
        ParamType::Number => serde_json::Number::from_f64(text.parse::<f64>().ok()?)?.into(),
        ParamType::Boolean => json!(text.parse::<bool>().ok()?),
        ParamType::String | ParamType::Array => json!(text),
    };
    if param.is_many() && !single {
        let values = arguments
            .entry(param.name.clone())
            .or_insert_with(|| json!([]));
        values.as_array_mut()?.push(value);
    } else if arguments.insert(param.name.clone(), value).is_some() {
        return None; // given twice
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> Registry {
        let spec = r#"
specVersion: 1
name: todo
version: 1.0.0
summary: Tasks.
globalFlags:
  - {name: db, description: The store.}
commands:
  - name: task.add
    description: Add a task.
    effect: write
    dryRun: true
    parameters:
      - {name: title, kind: positional, required: true, description: The title.}
      - {name: priority, type: integer, short: p, description: How urgent.}
      - {name: tag, type: array, description: Tags.}
      - {name: urgent, type: boolean, description: Now.}
    examples:
      - {command: "todo --agent task add 'Buy milk' --priority 2 --tag home --tag shop", description: one}
      - {command: "todo task add Call -p 1 --urgent --dry-run --db ./t.db", description: two}
      - {command: "todo --agent task add Call --priority=3 | jq .id", description: piped}
      - {command: "todo --agent task add Call --priority high", description: mistyped}
      - {command: "todo --agent task list", description: another command}
      - {command: "todo --agent task add Call --nope", description: unknown flag}
      - {command: "todo --agent task add Call --priority 3", description: a repeat}
"#;
        let source = crate::Source::new("todo.yaml", spec, crate::Format::Yaml);
        crate::load::parse(&source).unwrap()
    }

    #[test]
    fn each_line_that_reads_as_a_call_is_its_arguments() {
        let registry = registry();
        let command = &registry.commands[0];
        assert_eq!(
            input_examples(&registry, command),
            [
                json!({"title": "Buy milk", "priority": 2, "tag": ["home", "shop"]}),
                json!({"title": "Call", "priority": 1, "urgent": true, "dry-run": true, "db": "./t.db"}),
                json!({"title": "Call", "priority": 3}),
            ]
        );
    }
}
