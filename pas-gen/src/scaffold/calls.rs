//! A call of each command that parses (its argv words and a value for each required
//! parameter), for the scaffold's contract test: every stub must answer `NOT_IMPLEMENTED`.

use pas_spec::{Effect, ParamKind, ParamType, Parameter, Registry};

/// One argv (without the tool's name) per command, in registry order.
pub fn calls(registry: &Registry) -> Vec<Vec<String>> {
    registry
        .commands
        .iter()
        .map(|command| {
            let mut argv = command.argv_path();
            let required = registry
                .global_flags
                .iter()
                .chain(&command.parameters)
                .filter(|p| p.required);
            let (flags, positionals): (Vec<&Parameter>, Vec<&Parameter>) =
                required.partition(|p| p.kind == ParamKind::Flag);
            for flag in flags {
                argv.push(format!("--{}", flag.name));
                if flag.ty != ParamType::Boolean {
                    argv.push(value(flag));
                }
            }
            if command.effect == Effect::Destructive {
                argv.push("--force".to_owned());
            }
            if !positionals.is_empty() {
                argv.push("--".to_owned());
            }
            argv.extend(positionals.into_iter().map(value));
            argv
        })
        .collect()
}

fn value(param: &Parameter) -> String {
    if let Some(first) = param.values.as_ref().and_then(|values| values.first()) {
        return first.clone();
    }
    match param.element_type() {
        ParamType::Integer => "1",
        ParamType::Number => "1.5",
        ParamType::Boolean => "true",
        ParamType::String | ParamType::Array => "x",
    }
    .to_owned()
}
