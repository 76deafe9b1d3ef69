//! CLI Agent Spec failure modes of the call's environment, in every profile (`pas-envs-demo`
//! runs `tests/fixtures/envs/envs.yaml` as pas, compose or robot): ids that pipe into the next
//! command (6: `--output-id`, `-` for an id), stable output (7: `--stable-output`), and the
//! working directory (29: `--cwd`, declared paths made absolute).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const PROFILES: [&str; 3] = ["pas", "compose", "robot"];

fn envs(profile: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pas-envs-demo"));
    cmd.env("PAS_ENVS_PROFILE", profile)
        .env_remove("PAS_AGENT")
        .env_remove("PAS_META")
        .env_remove("PAS_TRACE_ID")
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("pas-envs-none"),
        )
        .args(args)
        .stdin(Stdio::null());
    cmd
}

/// The call with `input` on stdin.
fn piped(profile: &str, args: &[&str], input: &str) -> Output {
    let mut child = envs(profile, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn run(profile: &str, args: &[&str]) -> Output {
    envs(profile, args).output().unwrap()
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The data of a call: pas prints it as is, compose and robot in their envelope.
fn data(profile: &str, out: &Output) -> Value {
    let value: Value = serde_json::from_str(text(out).trim_end()).unwrap_or_else(|e| {
        panic!("{profile}: one JSON value on stdout ({e}): {out:?}");
    });
    match profile {
        "pas" => value,
        _ => value["data"].clone(),
    }
}

/// The error constant of a failed call, wherever the profile puts it.
fn error_code(profile: &str, out: &Output) -> String {
    let value: Value = match profile {
        "pas" => serde_json::from_slice(&out.stderr).unwrap(),
        _ => serde_json::from_str(text(out).trim_end()).unwrap(),
    };
    let code = match profile {
        "pas" => &value["error"],
        _ => &value["error"]["code"],
    };
    code.as_str()
        .map_or_else(|| value.to_string(), str::to_owned)
}

fn agent(profile: &str) -> Vec<&'static str> {
    if profile == "pas" {
        vec!["--agent"]
    } else {
        vec![]
    }
}

fn with<'a>(profile: &str, args: &[&'a str]) -> Vec<&'a str> {
    let mut words = agent(profile);
    words.extend_from_slice(args);
    words
}

// ---- 6: command composition and piping ----

#[test]
fn output_id_prints_the_ids_one_per_line_in_every_profile() {
    for profile in PROFILES {
        let out = run(profile, &with(profile, &["list", "--output-id"]));
        assert!(out.status.success(), "{profile}: {out:?}");
        assert_eq!(text(&out), "3\n1\n2\n", "{profile}");
        // One object: its id, a string unquoted.
        let out = run(profile, &with(profile, &["get", "x", "--output-id"]));
        assert_eq!(text(&out), "u-x\n", "{profile}: {out:?}");
        // The id field the outputSchema marks "x-id": true.
        let out = run(profile, &["keys", "--output-id"]);
        assert_eq!(text(&out), "k1\nk2\n", "{profile}: {out:?}");
        // No results with ids: refused before the handler, as an argument error.
        let out = run(profile, &with(profile, &["doc", "--output-id"]));
        assert!(!out.status.success(), "{profile}: {out:?}");
        let code = error_code(profile, &out);
        assert!(
            code == "INVALID_ARGUMENT" || code == "ERR_ARGS",
            "{profile}: {code}"
        );
    }
    // pas without --agent: the same ids (a pipe wants them whoever reads).
    let out = run("pas", &["list", "--output-id"]);
    assert_eq!(text(&out), "3\n1\n2\n");
}

#[test]
fn a_dash_reads_ids_from_stdin_in_every_profile() {
    for profile in PROFILES {
        // tool get --output-id | tool show -
        let ids = text(&run(profile, &with(profile, &["get", "x", "--output-id"])));
        let out = piped(profile, &with(profile, &["show", "-"]), &ids);
        assert!(out.status.success(), "{profile}: {out:?}");
        assert_eq!(data(profile, &out)["id"], "u-x", "{profile}");
        // Many ids into a variadic integer positional.
        let ids = text(&run(profile, &with(profile, &["list", "--output-id"])));
        let out = piped(profile, &with(profile, &["remove", "-"]), &ids);
        assert_eq!(
            data(profile, &out)["removed"],
            serde_json::json!([3, 1, 2]),
            "{profile}"
        );
        // An integer id flag.
        let out = piped(profile, &with(profile, &["touch", "--item-id", "-"]), "7\n");
        assert_eq!(data(profile, &out)["touched"], 7, "{profile}: {out:?}");
        // Two ids for a parameter that takes one: an argument error, no handler.
        let out = piped(profile, &with(profile, &["show", "-"]), "a\nb\n");
        assert!(!out.status.success(), "{profile}: {out:?}");
        let code = error_code(profile, &out);
        assert!(
            code == "INVALID_ARGUMENT" || code == "ERR_ARGS",
            "{profile}: {code}"
        );
        // A parameter that is not an id keeps its `-` for the handler.
        let out = piped(profile, &with(profile, &["read", "--file", "-"]), "x\n");
        assert_eq!(data(profile, &out)["file"], "-", "{profile}: {out:?}");
    }
}

// ---- 7: output non-determinism ----

#[test]
fn stable_output_gives_the_same_bytes_twice_in_every_profile() {
    for profile in PROFILES {
        let args = with(profile, &["get", "x"]);
        // Without it, the volatile timestamp differs between two calls.
        assert_ne!(
            run(profile, &args).stdout,
            run(profile, &args).stdout,
            "{profile}"
        );
        let stable = with(profile, &["get", "x", "--stable-output"]);
        let (one, two) = (run(profile, &stable), run(profile, &stable));
        assert!(one.status.success(), "{profile}: {one:?}");
        assert_eq!(text(&one), text(&two), "{profile}");
        let data = data(profile, &one);
        // The field the schema marks "x-volatile" is gone; keys are sorted; an array keeps
        // its order (it is data) unless its schema declares a set (`uniqueItems: true`).
        assert!(data.get("checked_at").is_none(), "{profile}: {data}");
        assert_eq!(data["tags"], serde_json::json!(["b", "a"]), "{profile}");
        assert_eq!(data["labels"], serde_json::json!(["x", "y"]), "{profile}");
        let keys: Vec<&String> = data.as_object().unwrap().keys().collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "{profile}");
        let envelope: Value = serde_json::from_str(text(&one).trim_end()).unwrap();
        match profile {
            "compose" => {
                let meta = &envelope["meta"];
                assert!(meta.get("elapsed").is_none() && meta.get("requestId").is_none());
            }
            "robot" => {
                assert_eq!(envelope["duration_ms"], 0);
                assert_eq!(envelope["generated_at"], "1970-01-01T00:00:00.000Z");
            }
            _ => {}
        }
    }
}

#[test]
fn stable_output_keeps_a_lists_order() {
    // A list's order is data: --stable-output sorts each item's keys, never the items.
    let out = run("pas", &["--agent", "list", "--stable-output"]);
    assert_eq!(
        text(&out),
        "{\"id\":3,\"name\":\"c\"}\n{\"id\":1,\"name\":\"a\"}\n{\"id\":2,\"name\":\"b\"}\n"
    );
    let out = run("compose", &["list", "--stable-output"]);
    let ids: Vec<i64> = data("compose", &out)
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [3, 1, 2]);
}

#[test]
fn stable_output_sorts_a_list_declared_a_set() {
    let out = run("pas", &["--agent", "members", "--stable-output"]);
    assert_eq!(
        text(&out),
        "{\"id\":1,\"name\":\"a\"}\n{\"id\":2,\"name\":\"b\"}\n{\"id\":3,\"name\":\"c\"}\n"
    );
    // Without --stable-output the handler's order stands.
    let out = run("pas", &["--agent", "members"]);
    assert!(text(&out).starts_with("{\"name\":\"c\""), "{out:?}");
    let out = run("compose", &["members", "--stable-output"]);
    let ids: Vec<i64> = data("compose", &out)
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [1, 2, 3]);
}

// ---- 29: working directory sensitivity ----

#[test]
fn cwd_runs_the_call_there_and_declared_paths_come_back_absolute() {
    let here = tempfile::tempdir().unwrap();
    let there = tempfile::tempdir().unwrap();
    let there_path = there.path().canonicalize().unwrap();
    for profile in PROFILES {
        // Without --cwd: absolute against where the call started.
        let out = envs(profile, &with(profile, &["get", "x"]))
            .current_dir(here.path())
            .output()
            .unwrap();
        let file = data(profile, &out)["file"].as_str().unwrap().to_owned();
        assert!(Path::new(&file).is_absolute(), "{profile}: {file}");
        assert!(file.ends_with("notes/x.md"), "{profile}: {file}");
        // With --cwd: the same answer from anywhere.
        let dir = there_path.to_str().unwrap();
        let out = envs(profile, &with(profile, &["--cwd", dir, "get", "x"]))
            .current_dir(here.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{profile}: {out:?}");
        assert_eq!(
            data(profile, &out)["file"],
            there_path.join("notes/x.md").to_str().unwrap(),
            "{profile}"
        );
        if profile == "compose" {
            let envelope: Value = serde_json::from_str(text(&out).trim_end()).unwrap();
            assert_eq!(envelope["meta"]["cwd"], dir);
        }
        // A directory that is not there: an argument error, nothing run.
        let out = run(
            profile,
            &with(profile, &["--cwd", "/no/such/dir", "get", "x"]),
        );
        assert!(!out.status.success(), "{profile}: {out:?}");
        let code = error_code(profile, &out);
        assert!(
            code == "INVALID_ARGUMENT" || code == "ERR_ARGS",
            "{profile}: {code}"
        );
    }
}

// ---- 28: config file shadowing and precedence ----

/// A configuration file setting `region`.
fn config_file(dir: &Path) -> String {
    let path = dir.join("envs.toml");
    std::fs::write(&path, "region = \"ap\"\n").unwrap();
    path.to_str().unwrap().to_owned()
}

/// The `--show-config` entry of `region`.
fn region(profile: &str, out: &Output) -> Value {
    let data = data(profile, out);
    data["flags"]
        .as_array()
        .and_then(|flags| flags.iter().find(|f| f["name"] == "region"))
        .cloned()
        .unwrap_or_else(|| panic!("{profile}: no region in {data}"))
}

#[test]
fn show_config_names_each_settings_source_in_every_profile() {
    let dir = tempfile::tempdir().unwrap();
    let file = config_file(dir.path());
    for profile in PROFILES {
        // The file alone: its value, its source, the file named.
        let out = run(
            profile,
            &with(profile, &["--config", &file, "--show-config"]),
        );
        assert!(out.status.success(), "{profile}: {out:?}");
        let entry = region(profile, &out);
        assert_eq!(
            (&entry["value"], &entry["source"]),
            (&"ap".into(), &"file".into())
        );
        assert_eq!(
            data(profile, &out)["configFile"],
            file.as_str(),
            "{profile}"
        );
        // The environment beats the file, a flag beats both; after a command word too.
        let out = envs(
            profile,
            &with(profile, &["--config", &file, "get", "x", "--show-config"]),
        )
        .env("ENVS_REGION", "us")
        .output()
        .unwrap();
        assert_eq!(region(profile, &out)["source"], "environment", "{profile}");
        let args = ["--config", &file, "--region", "sa", "--show-config"];
        let out = envs(profile, &with(profile, &args))
            .env("ENVS_REGION", "us")
            .output()
            .unwrap();
        let entry = region(profile, &out);
        assert_eq!(
            (&entry["value"], &entry["source"]),
            (&"sa".into(), &"flag".into())
        );
        // --no-config: no file, even the one the environment names.
        let out = envs(profile, &with(profile, &["--no-config", "--show-config"]))
            .env("ENVS_CONFIG", &file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{profile}: {out:?}");
        assert_eq!(data(profile, &out)["configFile"], Value::Null, "{profile}");
        assert_eq!(region(profile, &out)["source"], "default", "{profile}");
        // Both: a contradiction, refused.
        let out = run(
            profile,
            &with(profile, &["--config", &file, "--no-config", "get", "x"]),
        );
        assert!(!out.status.success(), "{profile}: {out:?}");
    }
}

#[test]
fn the_file_a_call_read_is_in_its_meta() {
    let dir = tempfile::tempdir().unwrap();
    let file = config_file(dir.path());
    // compose: meta.configSources, absolute.
    let out = run("compose", &["--config", &file, "get", "x"]);
    let envelope: Value = serde_json::from_str(text(&out).trim_end()).unwrap();
    assert_eq!(envelope["meta"]["configSources"], serde_json::json!([file]));
    // None read: none listed.
    let out = run("compose", &["--no-config", "get", "x"]);
    let envelope: Value = serde_json::from_str(text(&out).trim_end()).unwrap();
    assert!(envelope["meta"].get("configSources").is_none());
    // pas: the meta line on request (PAS_META=1).
    let out = envs("pas", &["--agent", "--config", &file, "get", "x"])
        .env("PAS_META", "1")
        .output()
        .unwrap();
    let meta: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(meta["meta"]["config_sources"], serde_json::json!([file]));
}

// ---- 27 and 26: platform portability, the call's context and state ----

#[test]
fn doctor_reports_platform_context_and_state_in_every_profile() {
    for profile in PROFILES {
        let out = envs(profile, &with(profile, &["doctor"]))
            .env("SHELL", "/bin/sh")
            .env("USER", "agent")
            .output()
            .unwrap();
        assert!(out.status.success(), "{profile}: {out:?}");
        let data = data(profile, &out);
        assert_eq!(data["ok"], true, "{profile}: {data}");
        assert_eq!(data["platform"]["os"], std::env::consts::OS);
        assert_eq!(data["platform"]["shell"], "/bin/sh");
        let checks: Vec<&str> = data["checks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        for name in ["os", "shell", "working_directory", "config_home"] {
            assert!(checks.contains(&name), "{profile}: {checks:?}");
        }
        assert_eq!(data["context"]["stateless"], true);
        assert_eq!(data["context"]["user"], "agent");
        let config = &data["state_files"][0];
        assert_eq!(config["kind"], "config");
        assert_eq!(config["written_by_runtime"], false);
    }
}

/// The report's shape, key by key in order: agents read it by name, people by eye.
#[test]
fn doctor_report_keeps_its_keys_in_order_and_a_fix_only_on_a_failed_check() {
    let keys =
        |value: &Value| -> Vec<String> { value.as_object().unwrap().keys().cloned().collect() };
    let out = envs("pas", &with("pas", &["doctor"]))
        .env_remove("HOME")
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let data = data("pas", &out);
    let top = [
        "ok",
        "tool",
        "version",
        "profile",
        "platform",
        "checks",
        "context",
        "state_files",
    ];
    assert_eq!(keys(&data), top);
    assert_eq!(keys(&data["platform"]), ["os", "family", "arch", "shell"]);
    let context = [
        "stateless",
        "current_context",
        "user",
        "cwd",
        "config_file",
        "credentials",
    ];
    assert_eq!(keys(&data["context"]), context);
    assert_eq!(data["context"]["current_context"], Value::Null);
    let config = [
        "kind",
        "path",
        "scope",
        "exists",
        "written_by_runtime",
        "override",
    ];
    assert_eq!(keys(&data["state_files"][0]), config);
    assert_eq!(data["state_files"][0]["path"], Value::Null);
    // Without a home there is no config home: that check fails with its fix, the others have none.
    assert_eq!(data["ok"], false);
    for check in data["checks"].as_array().unwrap() {
        let failed = check["ok"] == false;
        assert_eq!(check.get("fix").is_some(), failed, "{check}");
        let expected: &[&str] = if failed {
            &["name", "ok", "message", "fix"]
        } else {
            &["name", "ok", "message"]
        };
        assert_eq!(keys(check), expected);
    }
}
