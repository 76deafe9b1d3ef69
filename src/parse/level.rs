//! The PAS level a tool can honestly print in `--version`.
//!
//! The runtime gives every `pas`-profile tool level 1 (the agent flag, no interactivity,
//! structured errors) and the machinery of level 2 (NDJSON lists, `--agent --help`, exit codes).
//! What the registry must add for level 2 is a coherent exit-code table; levels 3 and 4 need
//! resources offering their verbs (the runtime synthesises the verb commands and routes them to
//! the tool's `Resources` handlers). The result never exceeds
//! the level the registry claims: the author may deliberately claim less.

use pas_spec::{Profile, Registry, Verb};

use crate::codes;

/// The level `--version` prints: what the registry backs, capped by what it claims.
pub fn backed_level(registry: &Registry) -> u8 {
    let mut level = 1;
    if level_two(registry) {
        level = 2;
        if verbs_backed(registry, &[Verb::Ls, Verb::Cat, Verb::Stat]) {
            level = 3;
            if verbs_backed(registry, &[Verb::Cp, Verb::Rm, Verb::Sync, Verb::Feedback]) {
                level = 4;
            }
        }
    }
    level.min(registry.level.max(1))
}

/// NDJSON lists need the `pas` profile; semantic exit codes need every constant a command names
/// to exist, tool codes to stay off 0, 1 and 2, and no code or constant to be declared twice.
fn level_two(registry: &Registry) -> bool {
    if registry.profile != Profile::Pas {
        return false;
    }
    let table = &registry.exit_codes;
    let declared =
        |name: &str| codes::builtin(name).is_some() || table.iter().any(|c| c.name == name);
    let names_resolve = registry
        .commands
        .iter()
        .flat_map(|c| &c.errors)
        .all(|e| declared(e));
    let off_reserved = table
        .iter()
        .all(|c| codes::builtin(&c.name).is_some() || !matches!(c.code, 0..=2));
    let unique = table.iter().enumerate().all(|(i, a)| {
        table[..i]
            .iter()
            .all(|b| b.name != a.name && (b.code != a.code || a.code <= 2))
    });
    names_resolve && off_reserved && unique
}

/// A verb is backed when a resource offers it: the runtime then adds its command and routes it
/// to the tool's `Resources` handlers (`App::missing_handlers` names a tool that has none).
fn verbs_backed(registry: &Registry, verbs: &[Verb]) -> bool {
    verbs
        .iter()
        .all(|verb| registry.resources.iter().any(|r| r.verbs.contains(verb)))
}

#[cfg(test)]
mod tests {
    use super::backed_level;
    use pas_spec::Registry;
    use serde_json::json;

    fn registry(extra: serde_json::Value) -> Registry {
        let mut spec = json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "s", "level": 4,
            "commands": [{ "name": "get", "description": "d", "errors": ["NOT_FOUND"] }],
            "exitCodes": [{ "code": 100, "name": "NOT_FOUND", "meaning": "m" }]
        });
        for (key, value) in extra.as_object().unwrap() {
            spec[key] = value.clone();
        }
        serde_json::from_value(spec).unwrap()
    }

    #[test]
    fn level_two_needs_a_coherent_exit_code_table() {
        assert_eq!(backed_level(&registry(json!({}))), 2);
        assert_eq!(
            backed_level(&registry(json!({ "exitCodes": [] }))),
            1,
            "NOT_FOUND undeclared"
        );
        let reserved = json!({ "exitCodes": [{ "code": 2, "name": "NOT_FOUND", "meaning": "m" }] });
        assert_eq!(backed_level(&registry(reserved)), 1, "a tool code on 2");
        assert_eq!(
            backed_level(&registry(json!({ "profile": "compose" }))),
            1,
            "no NDJSON"
        );
    }

    #[test]
    fn never_above_the_claim_and_three_and_four_need_their_verbs_offered() {
        assert_eq!(backed_level(&registry(json!({ "level": 1 }))), 1);
        let navigation = json!({ "resources": [{ "path": "/x", "verbs": ["ls", "cat", "stat"] }] });
        assert_eq!(backed_level(&registry(navigation)), 3);
        let partial = json!({ "resources": [{ "path": "/x", "verbs": ["ls", "cat"] }] });
        assert_eq!(backed_level(&registry(partial)), 2, "stat missing");
        let state = json!({ "resources": [
            { "path": "/x", "verbs": ["ls", "cat", "stat"] },
            { "path": "/x/{id}", "verbs": ["cp", "rm", "sync", "feedback"] }
        ] });
        assert_eq!(backed_level(&registry(state)), 4);
    }
}
