//! todo's configuration file: `db` from `--config FILE`, `TODO_CONFIG` or
//! `$XDG_CONFIG_HOME/todo/config.toml` reaches the handlers like `--db`, `config show` says
//! `file`, the precedence is flag > environment > file > default, and a broken file is a
//! blocking `CONFIG_INVALID` (exit 2) whose hint names the file and key.

mod support;

use std::path::Path;

use support::{Call, Env, assert_def, assert_envelope};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn db_line(path: &Path) -> String {
    // TOML basic strings escape backslashes; paths here are temp paths without quotes.
    format!(
        "db = \"{}\"\n",
        path.display().to_string().replace('\\', "\\\\")
    )
}

fn config_show(cmd: &mut std::process::Command) -> Call {
    let call = Call::from(cmd.output().expect("todo runs"));
    assert_eq!(call.exit, 0, "{call:?}");
    assert_envelope(&call, "config show");
    assert_def(call.data(), "config");
    call
}

#[test]
fn a_file_value_reaches_the_handler_and_shows_as_file() {
    let env = Env::new();
    let store = env.dir.path().join("from-file.db");
    write(&env.default_config(), &db_line(&store));

    let created = Call::from(
        env.bare(&["task", "create", "--title", "x"])
            .output()
            .unwrap(),
    );
    assert_eq!(created.exit, 0, "{created:?}");
    assert!(store.is_file(), "the store named by the file was created");
    assert!(!env.dir.path().join("xdg/todo/todo.db").exists());

    let shown = config_show(&mut env.bare(&["config", "show"]));
    let data = shown.data();
    assert_eq!(
        data["configFile"],
        env.default_config().display().to_string()
    );
    assert_eq!(data["flags"][0]["source"], "file");
    assert_eq!(data["flags"][0]["value"], store.display().to_string());
}

#[test]
fn flag_beats_environment_beats_file_beats_default() {
    let env = Env::new();
    let show = |cmd: &mut std::process::Command| {
        let data = config_show(cmd).data()["flags"][0].clone();
        (data["source"].clone(), data["value"].clone())
    };
    let (source, _) = show(&mut env.bare(&["config", "show"]));
    assert_eq!(source, "default");

    write(&env.default_config(), &db_line(Path::new("/file.db")));
    assert_eq!(
        show(&mut env.bare(&["config", "show"])),
        ("file".into(), "/file.db".into())
    );
    assert_eq!(
        show(env.bare(&["config", "show"]).env("TODO_DB", "/env.db")),
        ("environment".into(), "/env.db".into())
    );
    assert_eq!(
        show(
            env.bare(&["config", "show", "--db", "/flag.db"])
                .env("TODO_DB", "/env.db")
        ),
        ("flag".into(), "/flag.db".into())
    );
}

#[test]
fn config_flag_and_todo_config_choose_the_file() {
    let env = Env::new();
    let by_var = env.dir.path().join("by-var.toml");
    let by_flag = env.dir.path().join("by-flag.toml");
    write(&by_var, &db_line(Path::new("/var.db")));
    write(&by_flag, &db_line(Path::new("/flag.db")));
    write(&env.default_config(), &db_line(Path::new("/default.db")));

    let var = config_show(env.bare(&["config", "show"]).env("TODO_CONFIG", &by_var));
    assert_eq!(var.data()["configFile"], by_var.display().to_string());
    assert_eq!(var.data()["flags"][0]["value"], "/var.db");

    let flag = by_flag.display().to_string();
    let both = config_show(
        env.bare(&["--config", &flag, "config", "show"])
            .env("TODO_CONFIG", &by_var),
    );
    assert_eq!(both.data()["configFile"], flag);
    assert_eq!(both.data()["flags"][0]["value"], "/flag.db");
    assert_eq!(both.data()["flags"][0]["source"], "file");
}

fn blocked(call: &Call, file: &Path, key: Option<&str>) {
    assert_eq!(call.exit, 2, "{call:?}");
    assert_envelope(call, "CONFIG_INVALID");
    assert_eq!(call.code(), "CONFIG_INVALID");
    let hint = call.envelope["error"]["hint"].as_str().unwrap();
    assert!(hint.contains(&file.display().to_string()), "{hint}");
    if let Some(key) = key {
        assert!(hint.contains(&format!("`{key}`")), "{hint}");
        let message = call.envelope["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("{}:{key}", file.display())),
            "{message}"
        );
    }
}

#[test]
fn a_broken_file_is_a_blocking_error_naming_file_and_key() {
    let env = Env::new();
    let file = env.default_config();
    write(&file, "colour = \"red\"\n");
    let unknown = Call::from(env.bare(&["task", "list"]).output().unwrap());
    blocked(&unknown, &file, Some("colour"));

    write(&file, "db = 42\n");
    let wrong = Call::from(env.bare(&["config", "show"]).output().unwrap());
    blocked(&wrong, &file, Some("db"));
    // The error, not the whole envelope: `meta.requestId` is random hex that may hold "42".
    assert!(
        !wrong.envelope["error"].to_string().contains("42"),
        "errors never quote values: {}",
        wrong.stdout
    );
}

#[test]
fn a_named_file_must_exist_and_the_default_one_need_not() {
    let env = Env::new();
    let missing = env.dir.path().join("missing.toml");
    let flag = missing.display().to_string();
    let by_flag = Call::from(env.bare(&["--config", &flag, "health"]).output().unwrap());
    blocked(&by_flag, &missing, None);
    let by_var = Call::from(
        env.bare(&["health"])
            .env("TODO_CONFIG", &missing)
            .output()
            .unwrap(),
    );
    blocked(&by_var, &missing, None);
    assert!(
        by_var.envelope["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("TODO_CONFIG")
    );

    let none = config_show(&mut env.bare(&["config", "show"]));
    assert_eq!(none.data()["configFile"], serde_json::Value::Null);
}
