//! What a call that ended early says of its effect: outcomes follow effects.
//!
//! A call stopped before its handler ran changed nothing, and says so plainly (retryable). A call
//! whose handler returned reports its result, whatever comes after (a late cancel, stdin's end,
//! a signal while the result is written). A call stopped *while its handler ran* (a time
//! limit, a signal, a cancel) may or may not have changed something; its error says which of
//! these holds, in `details.outcome`:
//!
//! - the command is idempotent (a `read`, or `idempotent: true`), or the handler said it
//!   changed nothing (`Context::set_effect(Change::Noop)`): no field; the error is retryable,
//!   since a retry cannot duplicate anything;
//! - the handler said what it changed (`created`, `updated`, `deleted`): `"outcome":
//!   "changed"` and `"effect"`, not retryable;
//! - otherwise `"outcome": "unknown"`, not retryable, and the hint names the command that reads
//!   the state (a `read` command of the same group) and, for a call given an idempotency key,
//!   that the same key replays the first call's result.

use std::sync::{Arc, Mutex, PoisonError};

use pas_spec::{Command, Effect, Registry};
use serde_json::{Value, json};

use crate::effect::Change;
use crate::error::Error;

/// What is known of the command an interrupted call ran.
pub(crate) struct Facts {
    /// Running it again cannot duplicate anything.
    pub(crate) idempotent: bool,
    /// How to read the state it changes, in the caller's words (`todo task list`, or an MCP
    /// tool's name), when the tool has such a command.
    pub(crate) check: Option<String>,
    /// The call was given an idempotency key.
    pub(crate) keyed: bool,
}

impl Facts {
    /// The facts of `command`; `name` spells a command as the caller calls it.
    pub(crate) fn of(
        registry: &Registry,
        command: &Command,
        keyed: bool,
        name: impl Fn(&Command) -> String,
    ) -> Facts {
        Facts {
            idempotent: command.is_idempotent(),
            check: reader_of(registry, command).map(|reader| name(&reader)),
            keyed,
        }
    }
}

/// A handler running, as the signal handling sees it: its command and what it said it changed
/// so far. Cheap to make (every CLI call makes one): what reads the state is found only when
/// an error needs it.
pub(crate) struct Running {
    registry: Arc<Registry>,
    /// The command's dotted name (a level 3/4 verb's included).
    command: String,
    idempotent: bool,
    keyed: bool,
    effect: Arc<Mutex<Option<Change>>>,
}

impl Running {
    /// `command` runs in a CLI call (`keyed`: with an idempotency key); `effect` is what its
    /// handler reports ([`crate::handler::context::Context::set_effect`]).
    pub(crate) fn cli(
        registry: &Arc<Registry>,
        command: &Command,
        keyed: bool,
        effect: Arc<Mutex<Option<Change>>>,
    ) -> Running {
        Running {
            registry: registry.clone(),
            command: command.name.clone(),
            idempotent: command.is_idempotent(),
            keyed,
            effect,
        }
    }

    /// Running the command again cannot duplicate anything.
    pub(crate) fn idempotent(&self) -> bool {
        self.idempotent
    }

    /// `error`, with what is known of the effect now.
    pub(crate) fn interrupted(&self, error: Error) -> Error {
        let effect = *self.effect.lock().unwrap_or_else(PoisonError::into_inner);
        if self.idempotent || effect == Some(Change::Noop) {
            return error.with_retryable(true);
        }
        let registry = &*self.registry;
        let commands = registry.all_commands_ref();
        let facts = match commands.iter().find(|c| c.name == self.command) {
            Some(command) => Facts::of(registry, command, self.keyed, |reader| {
                format!("{} {}", registry.name, reader.argv_path().join(" "))
            }),
            None => Facts {
                idempotent: false,
                check: None,
                keyed: self.keyed,
            },
        };
        interrupted(error, &facts, effect)
    }
}

/// A command that reads what `command` changes: a `read` command beside it (the same argv path
/// but its last word: `task list` for `task create`), a listing first.
fn reader_of(registry: &Registry, command: &Command) -> Option<Command> {
    let parent = |c: &Command| {
        let mut path = c.argv_path();
        path.pop();
        path
    };
    let group = parent(command);
    let commands = registry.all_commands_ref();
    let readers: Vec<&Command> = commands
        .iter()
        .filter(|c| c.effect == Effect::Read && !c.argv_path().is_empty() && parent(c) == group)
        .collect();
    let listing = readers.iter().position(|c| {
        c.argv_path()
            .last()
            .is_some_and(|w| w == "list" || w == "ls")
    });
    let at = listing.unwrap_or(0);
    readers.get(at).map(|reader| (*reader).clone())
}

/// `error` (a time limit, a signal, a cancel that stopped a running handler) with what is known
/// of the call's effect (see the module docs). `effect` is what the handler reported so far.
pub(crate) fn interrupted(error: Error, facts: &Facts, effect: Option<Change>) -> Error {
    if facts.idempotent || effect == Some(Change::Noop) {
        return error.with_retryable(true);
    }
    let mut details = match error.details() {
        Some(Value::Object(map)) => map.clone(),
        _ => serde_json::Map::new(),
    };
    let check = match &facts.check {
        Some(reader) => format!("check with `{reader}`"),
        None => "check the state it acts on".to_owned(),
    };
    let replay = match facts.keyed {
        true => {
            "; calling again with the same idempotency key replays its result and runs nothing twice"
        }
        false => "",
    };
    let hint = match effect {
        Some(change) => {
            details.insert("outcome".into(), json!("changed"));
            details.insert("effect".into(), json!(change.as_str()));
            format!(
                "the call stopped after it {} something, before its result: {check} before calling again{replay}",
                change.as_str()
            )
        }
        None => {
            details.insert("outcome".into(), json!("unknown"));
            format!(
                "the call stopped while it ran and may have changed state: {check} before calling again{replay}"
            )
        }
    };
    error
        .with_details(Value::Object(details))
        .with_suggestion(hint)
        .with_retryable(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> Registry {
        let spec = r#"{"specVersion": 1, "name": "t", "version": "1.0.0", "summary": "A tool.",
            "commands": [
              {"name": "task.create", "description": "Creates.", "effect": "write", "output": "object"},
              {"name": "task.get", "description": "Gets.", "output": "object"},
              {"name": "task.list", "description": "Lists.", "output": "list"},
              {"name": "tag.set", "description": "Sets.", "effect": "write", "idempotent": true, "output": "object"}
            ]}"#;
        let source = pas_spec::load::read_reader("t.json", spec.as_bytes()).unwrap();
        pas_spec::load::parse(&source).unwrap()
    }

    fn facts(name: &str, keyed: bool) -> Facts {
        let registry = registry();
        let command = registry.commands.iter().find(|c| c.name == name).unwrap();
        Facts::of(&registry, command, keyed, |c| {
            format!("t {}", c.argv_path().join(" "))
        })
    }

    fn timeout() -> Error {
        Error::new(crate::codes::TIMEOUT, "late").with_details(json!({"limit_ms": 5}))
    }

    #[test]
    fn a_write_stopped_while_it_ran_has_an_unknown_outcome_and_a_way_to_check() {
        let error = interrupted(timeout(), &facts("task.create", true), None);
        assert!(!error.retryable());
        assert_eq!(
            error.details(),
            Some(&json!({"limit_ms": 5, "outcome": "unknown"}))
        );
        let hint = error.suggestion().unwrap();
        assert!(hint.contains("`t task list`"), "{hint}");
        assert!(hint.contains("same idempotency key"), "{hint}");
    }

    #[test]
    fn a_reported_change_is_named_and_a_noop_or_an_idempotent_command_is_retryable() {
        let changed = interrupted(
            timeout(),
            &facts("task.create", false),
            Some(Change::Created),
        );
        assert_eq!(changed.details().unwrap()["outcome"], "changed");
        assert_eq!(changed.details().unwrap()["effect"], "created");
        assert!(!changed.retryable());
        assert!(!changed.suggestion().unwrap().contains("idempotency"));
        let noop = interrupted(timeout(), &facts("task.create", false), Some(Change::Noop));
        assert!(noop.retryable());
        assert_eq!(noop.details(), Some(&json!({"limit_ms": 5})));
        for name in ["task.get", "tag.set"] {
            let read = interrupted(timeout(), &facts(name, false), None);
            assert!(read.retryable(), "{name}");
            assert!(read.details().unwrap().get("outcome").is_none(), "{name}");
        }
    }
}
