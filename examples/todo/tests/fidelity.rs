//! Fidelity (issue 27, "exact by default") in the compose profile: whatever strings a task
//! holds (base64, keys, hashes, PEM blocks, JWT-shaped text, instruction-like text, any
//! Unicode) and in whatever order its tags are, `task create` answers what it stored and
//! `task get` / `task list` read it back unchanged, in a person's call (`todo task ...`), in
//! the pas `--agent` form (`todo --agent task ...`, a no-op in compose) and over `todo mcp`,
//! all three on one store: the same data, value for value.

#[path = "../../../tests/mcp_support/mod.rs"]
mod mcp_support;

#[path = "../../../tests/fidelity_support/mod.rs"]
mod fidelity_support;

mod support;

use std::io::Write;
use std::process::Stdio;

use fidelity_support::{distinct_strings, stored_string};
use mcp_support::Session;
use proptest::prelude::*;
use serde_json::{Value, json};
use support::{Call, Env};

/// The fields a task is given, as generated.
#[derive(Debug, Clone)]
struct Given {
    title: String,
    notes: String,
    tags: Vec<String>,
}

impl Given {
    /// `--title=T --notes=N --tag=...` (the `=` form: a value may start with `-`).
    fn flags(&self) -> Vec<String> {
        let mut flags = vec![
            format!("--title={}", self.title),
            format!("--notes={}", self.notes),
        ];
        flags.extend(self.tags.iter().map(|tag| format!("--tag={tag}")));
        flags
    }

    /// The task as JSON on stdin.
    fn input(&self) -> Value {
        json!({"title": self.title, "notes": self.notes, "tags": self.tags})
    }

    /// Whether `task` holds exactly these strings.
    fn check(&self, task: &Value) -> Result<(), TestCaseError> {
        prop_assert_eq!(&task["title"], &json!(self.title), "{}", task);
        prop_assert_eq!(&task["notes"], &json!(self.notes), "{}", task);
        prop_assert_eq!(&task["tags"], &json!(self.tags), "{}", task);
        Ok(())
    }
}

fn given() -> impl Strategy<Value = Given> {
    (stored_string(), stored_string(), distinct_strings(5)).prop_map(|(title, notes, tags)| Given {
        title,
        notes,
        tags,
    })
}

/// One store, and one `todo mcp` server on it.
struct Store {
    env: Env,
    mcp: Session,
}

impl Store {
    fn new() -> Store {
        let env = Env::new();
        let mut server = env.bare(&[]);
        server.env("TODO_DB", env.db()).stderr(Stdio::null());
        let mcp = Session::spawn(server);
        Store { env, mcp }
    }

    /// `todo [--agent] --db DB ARGS...` (a person's form, or the pas `--agent` form).
    fn cli(&self, agent: bool, args: &[&str]) -> Call {
        let mut all: Vec<&str> = Vec::new();
        if agent {
            all.push("--agent");
        }
        all.extend(args);
        self.env.call(&all)
    }

    /// `todo --agent --db DB task create` with `input` on stdin.
    fn create_from_stdin(&self, input: &Value) -> Call {
        let mut child = self
            .env
            .command(&["--agent", "task", "create"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.to_string().as_bytes()).unwrap();
        drop(stdin);
        Call::from(child.wait_with_output().unwrap())
    }

    /// A tool's structured content over MCP (the call must succeed).
    fn mcp(&mut self, tool: &str, arguments: Value) -> Value {
        let result = self.mcp.call(tool, arguments.clone());
        assert_ne!(result["isError"], true, "{tool} {arguments}: {result}");
        result["structuredContent"].clone()
    }

    /// `task get ID` three ways: they must agree; the task.
    fn get(&mut self, id: &Value) -> Result<Value, TestCaseError> {
        let id_text = id.to_string();
        let human = self.cli(false, &["task", "get", &id_text]).data().clone();
        let agent = self.cli(true, &["task", "get", &id_text]).data().clone();
        let mcp = self.mcp("task_get", json!({ "id": id }));
        prop_assert_eq!(&agent, &human);
        prop_assert_eq!(&mcp, &human);
        Ok(human)
    }
}

proptest! {
    // Each case starts the tool a dozen times: a few dozen cases cover the kinds of strings.
    #![proptest_config(fidelity_support::config(24))]

    #[test]
    fn a_task_reads_back_as_it_was_stored_in_every_form(given in given()) {
        let mut store = Store::new();
        let flags = given.flags();
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();

        // Stored three ways: a person's flags, an agent's JSON on stdin, an MCP call.
        let mut args = vec!["task", "create"];
        args.extend(&flags);
        let by_person = store.cli(false, &args).data().clone();
        given.check(&by_person)?;
        let by_agent = store.create_from_stdin(&given.input()).data().clone();
        given.check(&by_agent)?;
        let by_mcp = store.mcp(
            "task_create",
            json!({"title": given.title, "notes": given.notes, "tag": given.tags}),
        );
        given.check(&by_mcp)?;

        // Read back each way: the same task, with the strings it was given.
        for created in [&by_person, &by_agent, &by_mcp] {
            let task = store.get(&created["id"])?;
            given.check(&task)?;
            prop_assert_eq!(&task["created"], &created["created"]);
        }

        // The list, three ways: the same items, in the same order.
        let human = store.cli(false, &["task", "list", "--status", "all"]).data().clone();
        let agent = store.cli(true, &["task", "list", "--status", "all"]).data().clone();
        let mcp = store.mcp("task_list", json!({"status": "all"}))["items"].clone();
        prop_assert_eq!(&agent, &human);
        prop_assert_eq!(&mcp, &human);
        let items = human.as_array().unwrap();
        prop_assert_eq!(items.len(), 3);
        for item in items {
            prop_assert_eq!(&item["title"], &json!(given.title));
            prop_assert_eq!(&item["tags"], &json!(given.tags));
        }
        store.mcp.end();
    }
}

/// The reproduction of issue 27: `todo task create --notes "<base64 of a sentence>"` answered
/// with a mask (`[high-entropy string, N chars: ...]`), so the caller could not read back what
/// it stored. The answer, `task get` and MCP all give the value itself.
#[test]
fn base64_notes_come_back_as_stored_not_masked() {
    let notes = fidelity_support::base64(
        b"The quick brown fox jumps over the lazy dog, twice, for the record.",
        fidelity_support::STANDARD,
        true,
    );
    let mut store = Store::new();
    for agent in [false, true] {
        let created = store.cli(
            agent,
            &["task", "create", "--title", "encoded", "--notes", &notes],
        );
        assert_eq!(created.data()["notes"], json!(notes), "{created:?}");
        assert!(!created.stdout.contains("high-entropy"), "{created:?}");
        let id = created.data()["id"].to_string();
        let read = store.cli(agent, &["task", "get", &id]);
        assert_eq!(read.data()["notes"], json!(notes));
        let over_mcp = store.mcp("task_get", json!({"id": created.data()["id"]}));
        assert_eq!(over_mcp["notes"], json!(notes));
    }
    let over_mcp = store.mcp("task_create", json!({"title": "mcp", "notes": notes}));
    assert_eq!(over_mcp["notes"], json!(notes));
    store.mcp.end();
}
