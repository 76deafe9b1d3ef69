//! A call of each command that parses (its argv words and a value for each required
//! parameter), for the scaffold's contract test: every stub must answer `NOT_IMPLEMENTED`.
//! The resource verbs the scaffold stubs (`ls`, `cat`, `stat`, `cp`, `rm`) are called with a
//! path their first resource template matches; `sync` and `feedback` have working defaults.

use pas_spec::{Command, Effect, ParamKind, ParamType, Parameter, Registry, Verb};

/// The verbs a scaffold stubs.
const STUBBED: [Verb; 5] = [Verb::Ls, Verb::Cat, Verb::Stat, Verb::Cp, Verb::Rm];

/// One argv (without the tool's name) per command, in registry order, then one per stubbed verb.
pub fn calls(registry: &Registry) -> Vec<Vec<String>> {
    let mut calls: Vec<Vec<String>> = registry
        .commands
        .iter()
        .map(|command| call(registry, command, &value))
        .collect();
    for command in pas_spec::verbs::verb_commands(registry) {
        let Some(verb) = STUBBED.into_iter().find(|v| v.as_str() == command.name) else {
            continue;
        };
        let Some(resource) = registry.resources.iter().find(|r| r.verbs.contains(&verb)) else {
            continue;
        };
        let path = concrete(&resource.path);
        let value_of = |param: &Parameter| match param.name.as_str() {
            "source" => "./x.json".to_owned(),
            "path" | "dest" => path.clone(),
            _ => value(param),
        };
        calls.push(call(registry, &command, &value_of));
    }
    calls
}

/// A path a template matches: each placeholder becomes `x`.
fn concrete(template: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in template.chars() {
        match c {
            '{' => {
                inside = true;
                out.push('x');
            }
            '}' => inside = false,
            _ if inside => {}
            _ => out.push(c),
        }
    }
    out
}

fn call(
    registry: &Registry,
    command: &Command,
    value: &dyn Fn(&Parameter) -> String,
) -> Vec<String> {
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
    let robot = registry.profile == pas_spec::Profile::Robot;
    if command.effect == Effect::Destructive && !robot {
        argv.push("--force".to_owned());
    }
    if robot && command.confirm {
        argv.push("--yes".to_owned());
    }
    // A session that cannot exist: the runtime answers the session error before the stub.
    if robot
        && let (Some(sessions), Some(usage)) = (registry.sessions(), command.session)
        && usage != pas_spec::robot::SessionUse::Create
    {
        argv.push("--session".to_owned());
        argv.push(format!("{}-20000101-000000-aaaa", sessions.prefix));
    }
    if !positionals.is_empty() {
        argv.push("--".to_owned());
    }
    argv.extend(positionals.into_iter().map(value));
    argv
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

#[cfg(test)]
mod tests {
    use super::concrete;

    #[test]
    fn placeholders_become_a_word() {
        assert_eq!(concrete("/c/{collection}/docs/{id}"), "/c/x/docs/x");
        assert_eq!(concrete("/files/{name}.json"), "/files/x.json");
        assert_eq!(concrete("/"), "/");
    }
}
