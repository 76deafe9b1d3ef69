//! The claimed PAS level, and the resources that have to back levels 3 and 4.

use std::collections::HashMap;

use crate::{Resource, Verb};

use super::context::Context;
use super::report::{Pointer, Report};

/// The verbs level 3 needs (navigation) and the ones level 4 adds (state).
const NAVIGATION: [Verb; 3] = [Verb::Ls, Verb::Cat, Verb::Stat];
const STATE: [Verb; 4] = [Verb::Cp, Verb::Rm, Verb::Sync, Verb::Feedback];

pub fn check(context: &Context, report: &mut Report) {
    check_level(context, report);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (index, resource) in context.registry.resources.iter().enumerate() {
        let pointer = Pointer::root().at("resources").at(index);
        check_path(resource, &pointer.at("path"), &mut seen, index, report);
        check_verbs(resource, &pointer, report);
    }
}

fn check_level(context: &Context, report: &mut Report) {
    let registry = context.registry;
    let level = registry.level;
    let pointer = Pointer::root().at("level");
    if !(1..=4).contains(&level) {
        report.error(
            "E016",
            &pointer,
            format!("The level is {level}, but PAS levels run from 1 to 4."),
            "Claim the level the tool keeps: 1 (agent mode), 2 (the default target), 3 (navigation) or 4 (state).",
        );
        return;
    }
    if level < 3 {
        if !registry.resources.is_empty() {
            report.warning(
                "W001",
                &Pointer::root().at("resources"),
                format!("The tool declares resources but claims level {level}; resources serve levels 3 and 4."),
                "Claim level 3 (or 4) if the tool offers navigation, or remove the resources.",
            );
        }
        return;
    }
    let required: Vec<Verb> = match level {
        3 => NAVIGATION.to_vec(),
        _ => NAVIGATION.into_iter().chain(STATE).collect(),
    };
    let missing: Vec<&str> = required
        .iter()
        .filter(|verb| !context.verbs.contains(verb))
        .map(|verb| verb.as_str())
        .collect();
    if !missing.is_empty() {
        report.error(
            "E017",
            &pointer,
            format!(
                "Level {level} needs the verbs {}, but no resource offers {}.",
                list(&required.iter().map(|v| v.as_str()).collect::<Vec<_>>()),
                list(&missing)
            ),
            format!(
                "Add the missing verbs to the `verbs` of a resource (e.g. `verbs: [{}]`), or claim a lower level.",
                missing.join(", ")
            ),
        );
    }
}

/// `/`, or `/seg/{id}/seg` with no empty segment and no trailing slash; placeholders are
/// identifiers, each named once; the same template (placeholder names aside) only once.
fn check_path(
    resource: &Resource,
    pointer: &Pointer,
    seen: &mut HashMap<String, usize>,
    index: usize,
    report: &mut Report,
) {
    let path = resource.path.as_str();
    let malformed = |why: &str| {
        (
            format!("The resource path `{path}` {why}."),
            "Write an absolute path such as `/users/{id}/orders`: it starts with `/`, has no empty segment and no trailing slash.",
        )
    };
    let problem = if !path.starts_with('/') {
        Some(malformed("does not start with `/`"))
    } else if path.len() > 1 && path.ends_with('/') {
        Some(malformed("ends with `/`"))
    } else if path.contains("//") {
        Some(malformed("has an empty segment"))
    } else if path.contains(char::is_whitespace) || path.contains('\\') {
        Some(malformed("contains whitespace or a backslash"))
    } else {
        None
    };
    if let Some((message, hint)) = problem {
        report.error("E018", pointer, message, hint);
        return;
    }
    match placeholders(path) {
        Err(()) => report.error(
            "E018",
            pointer,
            format!("The resource path `{path}` has an unbalanced `{{` or `}}`."),
            "Write each placeholder as `{name}`, e.g. `/users/{id}`.",
        ),
        Ok(names) => {
            let mut named: Vec<&str> = Vec::new();
            for name in names {
                if !is_placeholder_name(name) {
                    report.error(
                        "E019",
                        pointer,
                        format!("The placeholder `{{{name}}}` in `{path}` is not an identifier."),
                        "Name placeholders with letters, digits and `_`, starting with a letter or `_`, e.g. `{user_id}`.",
                    );
                } else if named.contains(&name) {
                    report.error(
                        "E019",
                        pointer,
                        format!("The placeholder `{{{name}}}` appears twice in `{path}`."),
                        "Give each placeholder of a path its own name, e.g. `{org}` and `{repo}`.",
                    );
                }
                named.push(name);
            }
            let shape = template_shape(path);
            if let Some(first) = seen.get(&shape) {
                report.error(
                    "E020",
                    pointer,
                    format!(
                        "The resource path `{path}` is the same template as /resources/{first}."
                    ),
                    "Merge the two resources into one and list all their verbs there.",
                );
            } else {
                seen.insert(shape, index);
            }
        }
    }
}

fn check_verbs(resource: &Resource, pointer: &Pointer, report: &mut Report) {
    if resource.verbs.is_empty() {
        report.error(
            "E021",
            &pointer.at("verbs"),
            format!("The resource `{}` offers no verbs.", resource.path),
            "List the verbs the path supports, e.g. `verbs: [ls, cat, stat]`, or remove the resource.",
        );
    }
    for (index, verb) in resource.verbs.iter().enumerate() {
        if resource.verbs[..index].contains(verb) {
            report.error(
                "E021",
                &pointer.at("verbs").at(index),
                format!(
                    "The verb `{}` is listed twice for `{}`.",
                    verb.as_str(),
                    resource.path
                ),
                "List each verb once.",
            );
        }
    }
}

/// The names inside `{...}`, or `Err` when the braces do not pair up.
fn placeholders(path: &str) -> Result<Vec<&str>, ()> {
    let mut names = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find(['{', '}']) {
        if rest.as_bytes()[open] == b'}' {
            return Err(());
        }
        let after = &rest[open + 1..];
        let close = after.find('}').ok_or(())?;
        let name = &after[..close];
        if name.contains('{') {
            return Err(());
        }
        names.push(name);
        rest = &after[close + 1..];
    }
    Ok(names)
}

fn is_placeholder_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The path with every placeholder name dropped: `/users/{id}` and `/users/{uid}` match the
/// same paths, so they are the same template.
fn template_shape(path: &str) -> String {
    let mut shape = String::with_capacity(path.len());
    let mut inside = false;
    for c in path.chars() {
        match c {
            '{' => {
                inside = true;
                shape.push('{');
            }
            '}' => {
                inside = false;
                shape.push('}');
            }
            _ if inside => {}
            _ => shape.push(c),
        }
    }
    shape
}

/// `a, b and c`, each in backticks.
fn list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|item| format!("`{item}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_pair_up() {
        assert_eq!(placeholders("/a/{id}/b/{x}"), Ok(vec!["id", "x"]));
        assert_eq!(placeholders("/a/{id"), Err(()));
        assert_eq!(placeholders("/a/id}"), Err(()));
        assert_eq!(placeholders("/a/{{id}}"), Err(()));
    }

    #[test]
    fn templates_ignore_placeholder_names() {
        assert_eq!(
            template_shape("/users/{id}"),
            template_shape("/users/{uid}")
        );
        assert_ne!(template_shape("/users/{id}"), template_shape("/user/{id}"));
    }

    #[test]
    fn lists_read_as_prose() {
        assert_eq!(list(&["ls"]), "`ls`");
        assert_eq!(list(&["ls", "cat", "stat"]), "`ls`, `cat` and `stat`");
    }
}
