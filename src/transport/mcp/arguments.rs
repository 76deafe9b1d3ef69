//! A `tools/call`'s arguments as the argv the CLI would have been given.
//!
//! Parsing through the tool's own clap command keeps one meaning per argument whatever the
//! transport: the same value parsers (a derive-built tool's own types), defaults, environment
//! variables, configuration file and guards. The arguments were validated against the tool's
//! `inputSchema` first, so what reaches clap is well typed; clap still has the last word.
//!
//! The argv is `TOOL [GLOBAL FLAGS] WORDS... [FLAGS] -- [POSITIONALS]`: every flag value is
//! joined with `=` and every positional follows `--`, so no value (however it starts) is read
//! as a flag.

use std::ffi::OsString;

use pas_spec::{Command, ParamKind, ParamType, Parameter, Registry};
use serde_json::{Map, Value};

/// The argument that carries a command's structured stdin input.
pub(crate) const INPUT: &str = "input";

/// What a call's arguments become: argv for clap, and the bytes of `input` if given.
pub(crate) struct Call {
    pub(crate) argv: Vec<OsString>,
    pub(crate) input: Option<Vec<u8>>,
}

/// The argv of a call. `has_long` says whether the command's clap subcommand has a flag of
/// that long name (the runtime's confirmation flag, `--force` or robot's `--yes`, and
/// `--dry-run` are there only where they apply).
pub(crate) fn argv(
    registry: &Registry,
    command: &Command,
    arguments: &Map<String, Value>,
    has_long: &dyn Fn(&str) -> bool,
) -> Call {
    let mut argv: Vec<OsString> = vec![registry.name.clone().into()];
    // Global flags before the command's words: clap reads them at the root in every tool.
    let own = |name: &str| command.parameters.iter().any(|p| p.name == name);
    for param in registry.global_flags.iter().filter(|p| !own(&p.name)) {
        if let Some(value) = arguments.get(&param.name) {
            push_flag(&mut argv, param, value);
        }
    }
    argv.extend(command.argv_path().into_iter().map(OsString::from));
    let mut positionals: Vec<OsString> = Vec::new();
    for param in &command.parameters {
        let Some(value) = arguments.get(&param.name) else {
            continue;
        };
        match param.kind {
            ParamKind::Flag => push_flag(&mut argv, param, value),
            ParamKind::Positional | ParamKind::Variadic => {
                positionals.extend(values(value).into_iter().map(OsString::from));
            }
        }
    }
    // The runtime's flags on this command, as the MCP export lists them (`dry-run`, the
    // confirm flag `force` or robot's `yes`, robot's `session` and `resume`).
    for flag in pas_spec::faces::command_switches(registry, command) {
        let name = flag.long;
        let declared = own(name) || registry.global_flags.iter().any(|p| p.name == name);
        if declared || !has_long(name) {
            continue;
        }
        match (flag.value, arguments.get(name)) {
            (None, Some(Value::Bool(true))) => argv.push(format!("--{name}").into()),
            (Some(_), Some(Value::String(value))) => argv.push(format!("--{name}={value}").into()),
            _ => {}
        }
    }
    if !positionals.is_empty() {
        argv.push("--".into());
        argv.extend(positionals);
    }
    let input = arguments
        .get(INPUT)
        .filter(|_| !own(INPUT) && command.stdin != pas_spec::StdinMode::None)
        .map(|value| serde_json::to_vec(value).unwrap_or_default());
    Call { argv, input }
}

fn push_flag(argv: &mut Vec<OsString>, param: &Parameter, value: &Value) {
    if param.ty == ParamType::Boolean {
        if value == &Value::Bool(true) {
            argv.push(format!("--{}", param.name).into());
        }
        return;
    }
    for value in values(value) {
        argv.push(format!("--{}={value}", param.name).into());
    }
}

/// One argument's values as typed on a command line.
fn values(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().flat_map(values).collect(),
        Value::String(text) => vec![text.clone()],
        Value::Null => Vec::new(),
        other => vec![other.to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn registry() -> Registry {
        let spec = json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "A test tool.",
            "globalFlags": [{"name": "units", "type": "string", "description": "Units."}],
            "commands": [{
                "name": "item.get", "description": "Gets one.", "effect": "destructive",
                "parameters": [
                    {"name": "id", "kind": "positional", "type": "string", "required": true, "description": "Id."},
                    {"name": "verbose", "type": "boolean", "description": "More."},
                    {"name": "tag", "type": "array", "items": "string", "description": "Tags."}
                ],
                "output": "object"
            }]
        });
        let source = pas_spec::load::read_reader("t.json", spec.to_string().as_bytes())
            .expect("the test spec reads");
        pas_spec::load::parse(&source).expect("the test spec loads")
    }

    #[test]
    fn flags_joined_positionals_after_double_dash() {
        let registry = registry();
        let args =
            json!({"id": "-1", "verbose": true, "tag": ["a", "b"], "units": "si", "force": true});
        let call = argv(
            &registry,
            &registry.commands[0],
            args.as_object().unwrap(),
            &|long| long == "force",
        );
        let words: Vec<String> = call
            .argv
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            words,
            [
                "t",
                "--units=si",
                "item",
                "get",
                "--verbose",
                "--tag=a",
                "--tag=b",
                "--force",
                "--",
                "-1"
            ]
        );
        assert!(call.input.is_none());
    }
}
