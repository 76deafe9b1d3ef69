//! Document order for diagnostics found family by family.
//!
//! The validator sees the registry, not the text, so it orders by pointer: array items by index,
//! object keys in the order the model declares them (the order a printed spec has, and the one
//! people follow). A node sorts before what is inside it. Inside free JSON (schemas, defaults) keys
//! sort in the order the value's map holds them (alphabetical with serde_json's default map), so
//! the order does not depend on the order in which the JSON Schema validator reports.

use serde_json::Value;

use crate::{Diagnostic, Registry};

/// The kinds of node a pointer can walk through.
#[derive(Debug, Clone, Copy)]
enum Node {
    Registry,
    Command,
    Parameter,
    ExitCode,
    Example,
    AntiPattern,
    Resource,
    Deprecation,
    Paging,
    /// An array whose items are of the given kind.
    Items(&'static Node),
    /// Free JSON, or a scalar.
    Opaque,
}

const OPAQUE: Node = Node::Opaque;
const COMMAND: Node = Node::Command;
const PARAMETER: Node = Node::Parameter;
const EXIT_CODE: Node = Node::ExitCode;
const EXAMPLE: Node = Node::Example;
const ANTI_PATTERN: Node = Node::AntiPattern;
const RESOURCE: Node = Node::Resource;

impl Node {
    /// The fields in model order, each with the kind of its value.
    fn fields(self) -> &'static [(&'static str, Node)] {
        match self {
            Node::Registry => &[
                ("specVersion", OPAQUE),
                ("name", OPAQUE),
                ("version", OPAQUE),
                ("summary", OPAQUE),
                ("description", OPAQUE),
                ("level", OPAQUE),
                ("profile", OPAQUE),
                ("schemaVersion", OPAQUE),
                ("globalFlags", Node::Items(&PARAMETER)),
                ("exitCodes", Node::Items(&EXIT_CODE)),
                ("antiPatterns", Node::Items(&ANTI_PATTERN)),
                ("examples", Node::Items(&EXAMPLE)),
                ("resources", Node::Items(&RESOURCE)),
                ("commands", Node::Items(&COMMAND)),
            ],
            Node::Command => &[
                ("name", OPAQUE),
                ("path", Node::Items(&OPAQUE)),
                ("category", OPAQUE),
                ("description", OPAQUE),
                ("effect", OPAQUE),
                ("idempotent", OPAQUE),
                ("rateLimit", OPAQUE),
                ("parameters", Node::Items(&PARAMETER)),
                ("stdin", OPAQUE),
                ("output", OPAQUE),
                ("outputSchema", OPAQUE),
                ("inputSchema", OPAQUE),
                ("errors", Node::Items(&OPAQUE)),
                ("examples", Node::Items(&EXAMPLE)),
                ("antiPatterns", Node::Items(&ANTI_PATTERN)),
                ("aliases", Node::Items(&OPAQUE)),
                ("deprecated", Node::Deprecation),
                ("dryRun", OPAQUE),
                ("paging", Node::Paging),
                ("timeout", OPAQUE),
                ("maxOutputBytes", OPAQUE),
                ("maxInputBytes", OPAQUE),
                ("lock", OPAQUE),
                ("job", OPAQUE),
            ],
            Node::Parameter => &[
                ("name", OPAQUE),
                ("kind", OPAQUE),
                ("short", OPAQUE),
                ("type", OPAQUE),
                ("items", OPAQUE),
                ("enum", Node::Items(&OPAQUE)),
                ("required", OPAQUE),
                ("default", OPAQUE),
                ("env", OPAQUE),
                ("secret", OPAQUE),
                ("description", OPAQUE),
                ("rustName", OPAQUE),
            ],
            Node::ExitCode => &[
                ("code", OPAQUE),
                ("name", OPAQUE),
                ("meaning", OPAQUE),
                ("blocking", OPAQUE),
                ("success", OPAQUE),
                ("trigger", OPAQUE),
            ],
            Node::Example => &[("command", OPAQUE), ("description", OPAQUE)],
            Node::AntiPattern => &[("pattern", OPAQUE), ("instead", OPAQUE)],
            Node::Resource => &[
                ("path", OPAQUE),
                ("description", OPAQUE),
                ("verbs", Node::Items(&OPAQUE)),
            ],
            Node::Deprecation => &[
                ("replacement", OPAQUE),
                ("since", OPAQUE),
                ("message", OPAQUE),
            ],
            Node::Paging => &[("limit", OPAQUE), ("cursor", OPAQUE)],
            Node::Items(_) | Node::Opaque => &[],
        }
    }
}

/// The sort key of a pointer: one rank per reference token.
fn key(registry: &Registry, pointer: &str) -> Vec<u32> {
    let tokens: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
    let mut node = Node::Registry;
    // Inside free JSON, the value itself, so keys rank in the order the map holds them.
    let mut json: Option<&Value> = None;
    let mut ranks = Vec::with_capacity(tokens.len());
    for (depth, token) in tokens.iter().enumerate() {
        let (rank, next) = match node {
            Node::Items(item) => (token.parse().unwrap_or(u32::MAX), *item),
            Node::Opaque => {
                let (rank, child) = json_rank(json, token);
                json = child;
                (rank, Node::Opaque)
            }
            _ => {
                let fields = node.fields();
                match fields.iter().position(|(name, _)| name == token) {
                    Some(position) => {
                        json = free_json(registry, &tokens[..=depth]);
                        (position as u32, fields[position].1)
                    }
                    None => (fields.len() as u32, Node::Opaque),
                }
            }
        };
        ranks.push(rank);
        node = next;
    }
    ranks
}

/// RFC 6901: `~1` is `/` and `~0` is `~`.
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// The free JSON values of the model: schemas and defaults.
fn free_json<'r>(registry: &'r Registry, tokens: &[String]) -> Option<&'r Value> {
    let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let index = |token: &str| token.parse::<usize>().ok();
    match tokens.as_slice() {
        [
            "commands",
            command,
            field @ ("outputSchema" | "inputSchema"),
        ] => {
            let command = registry.commands.get(index(command)?)?;
            match *field {
                "outputSchema" => command.output_schema.as_ref(),
                _ => command.input_schema.as_ref(),
            }
        }
        ["commands", command, "parameters", parameter, "default"] => registry
            .commands
            .get(index(command)?)?
            .parameters
            .get(index(parameter)?)?
            .default
            .as_ref(),
        ["globalFlags", parameter, "default"] => registry
            .global_flags
            .get(index(parameter)?)?
            .default
            .as_ref(),
        _ => None,
    }
}

/// The rank of a key or index inside free JSON, and the value under it.
fn json_rank<'v>(json: Option<&'v Value>, token: &str) -> (u32, Option<&'v Value>) {
    match json {
        Some(Value::Object(map)) => match map.keys().position(|key| key == token) {
            Some(position) => (position as u32, map.get(token)),
            None => (u32::MAX, None),
        },
        Some(Value::Array(items)) => {
            let index = token.parse().unwrap_or(usize::MAX);
            (index.min(u32::MAX as usize) as u32, items.get(index))
        }
        _ => (token.parse().unwrap_or(0), None),
    }
}

/// Sort diagnostics into document order, keeping the found order among equals.
pub fn sort(registry: &Registry, diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by_cached_key(|diagnostic| key(registry, &diagnostic.pointer));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> Registry {
        serde_json::from_value(serde_json::json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "s",
            "commands": [{"name": "a", "description": "d",
                // Keys in alphabetical order, so the test holds with or without serde_json's
                // `preserve_order`.
                "outputSchema": {"allOf": [{}, {}], "properties": {"a": {}, "b": {}}, "type": "object"}}]
        }))
        .unwrap()
    }

    #[test]
    fn keys_follow_the_model() {
        let registry = registry();
        let mut pointers = vec![
            "/commands/10/name",
            "/commands/2/parameters/1/name",
            "/commands/2/examples/0/command",
            "/commands/2/name",
            "/commands/2",
            "/exitCodes/0/code",
            "/name",
            "/commands/2/parameters/0/short",
            "/specVersion",
        ];
        pointers.sort_by_key(|pointer| key(&registry, pointer));
        assert_eq!(
            pointers,
            [
                "/specVersion",
                "/name",
                "/exitCodes/0/code",
                "/commands/2",
                "/commands/2/name",
                "/commands/2/parameters/0/short",
                "/commands/2/parameters/1/name",
                "/commands/2/examples/0/command",
                "/commands/10/name",
            ]
        );
    }

    #[test]
    fn free_json_follows_the_value() {
        let registry = registry();
        let mut pointers = vec![
            "/commands/0/outputSchema/type",
            "/commands/0/outputSchema/properties/b",
            "/commands/0/outputSchema/allOf/1",
            "/commands/0/outputSchema/properties/a",
            "/commands/0/outputSchema/allOf/0",
        ];
        pointers.sort_by_key(|pointer| key(&registry, pointer));
        assert_eq!(
            pointers,
            [
                "/commands/0/outputSchema/allOf/0",
                "/commands/0/outputSchema/allOf/1",
                "/commands/0/outputSchema/properties/a",
                "/commands/0/outputSchema/properties/b",
                "/commands/0/outputSchema/type",
            ]
        );
    }

    #[test]
    fn tokens_are_unescaped() {
        assert_eq!(unescape("a~1b~0c"), "a/b~c");
    }
}
