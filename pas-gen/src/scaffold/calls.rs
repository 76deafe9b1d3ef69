//! The calls the scaffold's contract test makes: one per command that parses (its argv words
//! and a value for each required parameter), one per resource verb (with a path the first
//! resource offering it matches), and the calls the runtime must refuse (a destructive command
//! without `--force`, a wildcard `rm` without `--force`). The test checks each answer keeps the
//! contract, whatever the handler does: so it holds for stubs and for handlers filled in.

use pas_spec::{Command, OutputKind, ParamKind, ParamType, Parameter, Registry};
use serde::Serialize;

/// One call and what its success prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Call {
    /// The argv, without the tool's name.
    pub argv: Vec<String>,
    /// Whether a success prints JSON (an object, JSON lines or events) rather than a document
    /// or nothing.
    pub json: bool,
}

/// One call per command, in registry order, then one per resource verb.
pub fn calls(registry: &Registry) -> Vec<Call> {
    let mut calls: Vec<Call> = registry
        .commands
        .iter()
        .map(|command| Call {
            argv: call(registry, command, &value, true),
            json: prints_json(command),
        })
        .collect();
    for command in pas_spec::verbs::verb_commands(registry) {
        let Some(path) = verb_path(registry, &command) else {
            continue;
        };
        let value_of = |param: &Parameter| match param.name.as_str() {
            "source" => "./x.json".to_owned(),
            "local" => "./synced".to_owned(),
            "path" | "dest" | "remote" => path.clone(),
            _ => value(param),
        };
        calls.push(Call {
            argv: call(registry, &command, &value_of, true),
            json: prints_json(&command),
        });
    }
    calls
}

/// The calls the runtime refuses before a handler runs: every command that needs the profile's
/// confirm flag without it (refused with `Surface::confirm_error_in`: `FORCE_REQUIRED`, robot's
/// confirmation code), and `rm` of a wildcard without `--force`.
pub fn refusals(registry: &Registry) -> Vec<Vec<String>> {
    let surface = pas_spec::surface::of(registry.profile);
    let mut refusals: Vec<Vec<String>> = registry
        .commands
        .iter()
        .filter(|command| surface.needs_confirm(command))
        .map(|command| call(registry, command, &value, false))
        .collect();
    let rm = pas_spec::verbs::verb_commands(registry)
        .into_iter()
        .find(|c| c.name == "rm");
    if let Some(rm) = rm
        && let Some(path) = verb_path(registry, &rm)
    {
        let pattern = match path.rsplit_once('/') {
            Some((parent, _)) => format!("{parent}/*"),
            None => "/*".to_owned(),
        };
        let value_of = |param: &Parameter| match param.name.as_str() {
            "path" => pattern.clone(),
            _ => value(param),
        };
        refusals.push(call(registry, &rm, &value_of, false));
    }
    refusals
}

/// A path the first resource offering the verb matches.
fn verb_path(registry: &Registry, command: &Command) -> Option<String> {
    let resource = registry
        .resources
        .iter()
        .find(|r| r.verbs.iter().any(|v| v.as_str() == command.name))?;
    Some(concrete(&resource.path))
}

fn prints_json(command: &Command) -> bool {
    matches!(
        command.output,
        OutputKind::Object | OutputKind::List | OutputKind::Events
    )
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

/// The argv of one call; `force` adds `--force` to a destructive command.
fn call(
    registry: &Registry,
    command: &Command,
    value: &dyn Fn(&Parameter) -> String,
    force: bool,
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
    // The profile's confirm flag (`--force`, robot's `--yes`), where the surface says it is needed.
    let surface = pas_spec::surface::of(registry.profile);
    if force && surface.needs_confirm(command) {
        argv.push(surface.confirm_long());
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
