//! Every envelope todo can print is valid against tests/fixtures/compose-envelope.schema.json:
//! success, error (handler, runtime and argument errors), list pages, `tools`, `tools NAME`,
//! `health` and `config show`; results also match their command's outputSchema from the
//! catalog, and exit codes are 0 and 1 (blocking codes: see blocked.rs).

mod support;

use serde_json::Value;
use support::{Env, assert_def, assert_envelope, assert_valid};

fn output_schema(env: &Env, name: &str) -> Value {
    let call = env.call(&["tools", name]);
    call.data()["outputSchema"].clone()
}

#[test]
fn crud_round_trip_envelopes() {
    let env = Env::new();
    let created = env.call(&[
        "task",
        "create",
        "--title",
        "Renew passport",
        "--due",
        "2026-03-01",
        "--priority",
        "high",
        "--tag",
        "admin",
    ]);
    assert_eq!(created.exit, 0, "{created:?}");
    assert_envelope(&created, "task create");
    assert_valid(
        &output_schema(&env, "task.create"),
        created.data(),
        "task.create data",
    );
    assert_eq!(created.envelope["meta"]["tool"], "task.create");
    assert!(created.stderr.is_empty(), "stderr: {}", created.stderr);
    let id = created.data()["id"].as_i64().unwrap().to_string();

    let got = env.call(&["task", "get", &id]);
    assert_envelope(&got, "task get");
    assert_valid(
        &output_schema(&env, "task.get"),
        got.data(),
        "task.get data",
    );
    assert_eq!(got.data()["title"], "Renew passport");

    let updated = env.call(&["task", "update", &id, "--priority", "low", "--due", ""]);
    assert_envelope(&updated, "task update");
    assert_valid(
        &output_schema(&env, "task.update"),
        updated.data(),
        "task.update data",
    );
    assert_eq!(updated.data()["priority"], "low");
    assert!(
        updated.data().get("due").is_none(),
        "an empty --due clears it"
    );

    let done = env.call(&["task", "done", &id]);
    assert_envelope(&done, "task done");
    assert_valid(
        &output_schema(&env, "task.done"),
        done.data(),
        "task.done data",
    );
    let again = env.call(&["task", "done", &id]);
    assert_eq!(
        again.data()["doneAt"],
        done.data()["doneAt"],
        "done is idempotent"
    );

    let refused = env.call(&["task", "delete", &id]);
    assert_envelope(&refused, "delete without --force");
    assert_eq!((refused.exit, refused.code()), (1, "FORCE_REQUIRED"));
    assert!(
        refused.envelope["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("--force")
    );

    let preview = env.call(&["task", "delete", &id, "--dry-run"]);
    assert_envelope(&preview, "delete --dry-run");
    assert_eq!(preview.data()["deleted"], false);
    assert_eq!(
        env.call(&["task", "get", &id]).exit,
        0,
        "a dry run deletes nothing"
    );

    let deleted = env.call(&["task", "delete", &id, "--force"]);
    assert_envelope(&deleted, "delete --force");
    assert_valid(
        &output_schema(&env, "task.delete"),
        deleted.data(),
        "task.delete data",
    );
    assert_eq!(deleted.data()["deleted"], true);

    let gone = env.call(&["task", "get", &id]);
    assert_envelope(&gone, "get a deleted task");
    assert_eq!((gone.exit, gone.code()), (1, "TASK_NOT_FOUND"));
}

#[test]
fn dry_runs_change_nothing_and_stdin_input_is_validated() {
    let env = Env::new();
    let preview = env.call(&["task", "create", "--title", "Not really", "--dry-run"]);
    assert_envelope(&preview, "create --dry-run");
    assert_eq!(preview.data()["dryRun"], true);
    let list = env.call(&["task", "list", "--status", "all"]);
    assert_eq!(list.envelope["meta"]["total"], 0, "{list:?}");

    let mut cmd = env.command(&["task", "create"]);
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"title":"From stdin","tags":["a","b"]}"#)
        .unwrap();
    let from_stdin = support::Call::from(child.wait_with_output().unwrap());
    assert_envelope(&from_stdin, "create from stdin");
    assert_eq!(from_stdin.data()["tags"], serde_json::json!(["a", "b"]));

    let invalid = env.call(&["task", "create", "--title", "x", "--due", "tomorrow"]);
    assert_envelope(&invalid, "invalid input");
    assert_eq!((invalid.exit, invalid.code()), (1, "INVALID_INPUT"));
    let empty = env.call(&["task", "create"]);
    assert_eq!((empty.exit, empty.code()), (1, "INVALID_INPUT"));
}

#[test]
fn list_pages_carry_count_total_has_more_and_cursor() {
    let env = Env::new();
    for i in 0..5 {
        assert_eq!(
            env.call(&["task", "create", "--title", &format!("t{i}")])
                .exit,
            0
        );
    }
    let item_schema = output_schema(&env, "task.list");
    let mut cursor: Option<String> = None;
    let mut seen = Vec::new();
    for page in 0..3 {
        let mut args = vec!["task", "list", "--limit", "2"];
        if let Some(c) = &cursor {
            args.extend(["--cursor", c.as_str()]);
        }
        let call = env.call(&args);
        assert_envelope(&call, "list page");
        let meta = &call.envelope["meta"];
        let items = call.data().as_array().unwrap();
        for item in items {
            assert_valid(&item_schema, item, "task.list item");
            seen.push(item["id"].as_i64().unwrap());
        }
        assert_eq!(meta["count"], items.len());
        assert_eq!(meta["total"], 5);
        assert_eq!(meta["hasMore"], page < 2, "page {page}: {meta}");
        cursor = meta["cursor"].as_str().map(str::to_owned);
        assert_eq!(cursor.is_some(), page < 2);
    }
    assert_eq!(seen, [1, 2, 3, 4, 5]);

    let bad = env.call(&["task", "list", "--cursor", "nonsense"]);
    assert_envelope(&bad, "bad cursor");
    assert_eq!((bad.exit, bad.code()), (1, "INVALID_CURSOR"));
}

#[test]
fn argument_errors_are_plain_failures_in_an_envelope() {
    let env = Env::new();
    for (args, code) in [
        (&["task", "nope"][..], "UNKNOWN_COMMAND"),
        (&["task", "get"][..], "MISSING_ARGUMENT"),
        (&["task", "list", "--limit", "many"][..], "INVALID_VALUE"),
        (&["task", "list", "--bogus"][..], "UNKNOWN_ARGUMENT"),
        (&["task", "list", "--limit", "0"][..], "INVALID_ARGUMENT"),
        (&[][..], "MISSING_COMMAND"),
    ] {
        let call = env.call(args);
        assert_envelope(&call, &format!("{args:?}"));
        assert_eq!((call.exit, call.code()), (1, code), "{args:?}: {call:?}");
    }
}

#[test]
fn tools_catalog_and_one_tool() {
    let env = Env::new();
    let tools = env.call(&["tools"]);
    assert_envelope(&tools, "tools");
    assert_def(tools.data(), "catalog");
    let keys: Vec<(String, String)> = tools.data()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["category"].as_str().unwrap().into(),
                t["name"].as_str().unwrap().into(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "tools sort by category, then name");
    assert_eq!(keys.len(), 6);
    assert_eq!(tools.data()["globalFlags"][0]["name"], "db");

    let one = env.call(&["tools", "task.update"]);
    assert_envelope(&one, "tools task.update");
    assert_def(one.data(), "tool");
    assert_eq!(one.data()["inputSchema"]["minProperties"], 1);
    let same = tools.data()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "task.update");
    assert_eq!(Some(one.data()), same, "tools NAME is the catalog's entry");

    let unknown = env.call(&["tools", "task.creat"]);
    assert_envelope(&unknown, "tools unknown");
    assert_eq!((unknown.exit, unknown.code()), (1, "UNKNOWN_TOOL"));
    assert!(
        unknown.envelope["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("task.create")
    );
}

#[test]
fn catalog_is_the_spec_face() {
    // The built CLI prints exactly what `pas_spec::faces::catalog` makes of the spec.
    let env = Env::new();
    let spec = include_str!("../../../specs/todo.yaml");
    let registry = pas::spec::load::parse(&pas::spec::Source::new(
        "todo.yaml",
        spec,
        pas::spec::Format::Yaml,
    ))
    .unwrap();
    let face: Value = serde_json::from_str(&pas::spec::faces::catalog::to_json(&registry)).unwrap();
    assert_eq!(env.call(&["tools"]).data(), &face);
    let raw = env.call(&["tools"]).stdout;
    let expected = format!(
        "{{\"ok\":true,\"data\":{},",
        pas::spec::faces::catalog::to_json(&registry)
    );
    assert!(
        raw.starts_with(&expected),
        "the catalog bytes are the face's bytes"
    );
}

#[test]
fn health_and_config_show() {
    let env = Env::new();
    let health = env.call(&["health"]);
    assert_envelope(&health, "health");
    assert_def(health.data(), "health");
    assert_eq!(health.data()["status"], "ready");

    let default = support::Call::from(env.bare(&["config", "show"]).output().unwrap());
    assert_envelope(&default, "config show");
    assert_def(default.data(), "config");
    let db = &default.data()["flags"][0];
    assert_eq!(db["source"], "default");
    let xdg = env.dir.path().join("xdg/todo/todo.db");
    assert_eq!(db["value"], xdg.display().to_string());

    let from_env = support::Call::from(
        env.bare(&["config", "show"])
            .env("TODO_DB", "/tmp/x.db")
            .output()
            .unwrap(),
    );
    assert_eq!(from_env.data()["flags"][0]["source"], "environment");
    let from_flag = env.call(&["config", "show"]);
    assert_eq!(from_flag.data()["flags"][0]["source"], "flag");
    assert_eq!(
        from_flag.data()["flags"][0]["value"],
        env.db().display().to_string()
    );
}

#[test]
fn the_default_store_is_in_the_xdg_data_directory() {
    let env = Env::new();
    let call = support::Call::from(
        env.bare(&["task", "create", "--title", "x"])
            .output()
            .unwrap(),
    );
    assert_eq!(call.exit, 0, "{call:?}");
    assert!(env.dir.path().join("xdg/todo/todo.db").is_file());
}

/// Failure mode 43: a list past the bound the caller asks for (`PAS_OUTPUT_LIMIT`) stops at a
/// whole item and the envelope says so (`meta.truncated`, `meta.totalBytes`, an
/// `OUTPUT_IN_FILE` warning), and `meta.rest` points at the file holding the other items.
#[test]
fn a_list_past_the_output_cap_is_cut_and_marked() {
    let env = Env::new();
    for n in 0..5 {
        let title = format!("task number {n}");
        assert_eq!(
            env.call(&["task", "create", "--title", &title]).envelope["ok"],
            true
        );
    }
    let whole = env.call(&["task", "list"]);
    assert!(whole.envelope["meta"].get("truncated").is_none());
    let out = env
        .command(&["task", "list"])
        .env("PAS_OUTPUT_LIMIT", "300")
        .output()
        .unwrap();
    let cut = support::Call::from(out);
    assert_envelope(&cut, "a cut list");
    let meta = &cut.envelope["meta"];
    assert_eq!(meta["truncated"], true, "{meta}");
    let kept = cut.data().as_array().unwrap().len();
    assert!(kept > 0 && kept < 5, "{meta}");
    assert_eq!(meta["count"], kept);
    assert!(meta["totalBytes"].as_u64().unwrap() <= 300);
    assert_eq!(meta["warnings"][0]["code"], "OUTPUT_IN_FILE");
    // Nothing lost: the rest of the items are in the file `meta.rest` points at.
    let rest = std::fs::read_to_string(meta["rest"]["path"].as_str().unwrap()).unwrap();
    assert_eq!(rest.lines().count() + kept, 5, "{meta}");
    assert_eq!(meta["rest"]["bytes"], rest.len() as u64);
}

#[test]
fn fields_keep_only_the_named_fields_of_each_item() {
    // CLI Agent Spec failure mode 4: `--fields` in the compose profile, checked against the
    // command's output schema before the handler runs.
    let env = Env::new();
    assert_eq!(env.call(&["task", "create", "--title", "a"]).exit, 0);
    let call = env.call(&["task", "list", "--fields", "id,title"]);
    assert_envelope(&call, "fields");
    assert_eq!(call.data(), &serde_json::json!([{"id": 1, "title": "a"}]));
    assert_eq!(call.envelope["meta"]["count"], 1);

    let bad = env.call(&["task", "list", "--fields", "id,colour"]);
    assert_envelope(&bad, "unknown field");
    assert_eq!((bad.exit, bad.code()), (1, "INVALID_ARGUMENT"));
    let known = &bad.envelope["error"]["details"]["known"];
    assert!(
        known.as_array().unwrap().contains(&"title".into()),
        "{known}"
    );
    assert_eq!(
        bad.envelope["error"]["details"]["unknown"],
        serde_json::json!(["colour"])
    );

    // A command with no list refuses the flag.
    let get = env.call(&["task", "get", "1", "--fields", "id"]);
    assert_eq!((get.exit, get.code()), (1, "INVALID_ARGUMENT"));
}
