//! The tool of the CLI Agent Spec environment tests (`tests/fixtures/envs/envs.yaml`), in the
//! profile `PAS_ENVS_PROFILE` names (`pas`, `compose` or `robot`): ids to pipe (`--output-id`,
//! `-`), volatile fields and unordered arrays (`--stable-output`), a relative path
//! (`format: path`, `--cwd`).

use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use pas::{App, Args, Context, Error, Reply};
use serde_json::json;

const SPEC: &str = include_str!("../../../tests/fixtures/envs/envs.yaml");

/// What a robot spec needs besides the rest: its schema version and exit-code roles.
const ROBOT: &str = "schemaVersion: 1.0.0\nexitCodes:\n  - {code: 10, name: ERR_ARGS, meaning: Invalid arguments, role: arguments}\n  - {code: 20, name: ERR_INTERNAL, meaning: Internal error, role: internal}\n";

fn spec() -> String {
    let profile = std::env::var("PAS_ENVS_PROFILE").unwrap_or_else(|_| "pas".to_owned());
    let mut text = SPEC.replace("profile: pas", &format!("profile: {profile}"));
    if profile == "robot" {
        text = text.replace("commands:\n", &format!("{ROBOT}commands:\n"));
    }
    text
}

fn now() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    nanos.to_string()
}

fn main() -> ExitCode {
    let text = spec();
    let source = pas::spec::Source::new("envs.yaml", &text, pas::spec::Format::Yaml);
    let registry = match pas::spec::load::parse(&source) {
        Ok(registry) => registry,
        Err(diagnostics) => {
            eprintln!("{diagnostics:?}");
            return ExitCode::from(2);
        }
    };
    App::new(registry)
        .handler("get", |args: &Args, _: &Context| {
            let name = args.require::<String>("name")?;
            Ok::<_, Error>(Reply::object(&json!({
                "tags": ["b", "a"],
                "labels": ["y", "x"],
                "name": name,
                "id": format!("u-{name}"),
                "file": format!("notes/{name}.md"),
                "checked_at": now(),
            })))
        })
        .handler("list", |_: &Args, _: &Context| {
            Ok::<_, Error>(Reply::list(
                [(3, "c"), (1, "a"), (2, "b")]
                    .map(|(id, name)| Ok::<_, Error>(json!({"name": name, "id": id}))),
            ))
        })
        .handler("members", |_: &Args, _: &Context| {
            Ok::<_, Error>(Reply::list(
                [(3, "c"), (1, "a"), (2, "b")]
                    .map(|(id, name)| Ok::<_, Error>(json!({"name": name, "id": id}))),
            ))
        })
        .handler("keys", |_: &Args, _: &Context| {
            Ok::<_, Error>(Reply::list(
                ["k1", "k2"].map(|key| Ok::<_, Error>(json!({"key": key, "label": "x"}))),
            ))
        })
        .handler("show", |args: &Args, _: &Context| {
            let id = args.require::<String>("id")?;
            Ok::<_, Error>(Reply::object(&json!({ "id": id })))
        })
        .handler("remove", |args: &Args, _: &Context| {
            let ids: Vec<i64> = args.many("ids")?;
            Ok::<_, Error>(Reply::object(&json!({ "removed": ids })))
        })
        .handler("touch", |args: &Args, _: &Context| {
            let id = args.require::<i64>("item-id")?;
            Ok::<_, Error>(Reply::object(&json!({ "touched": id })))
        })
        .handler("read", |args: &Args, _: &Context| {
            let file = args.require::<String>("file")?;
            Ok::<_, Error>(Reply::object(&json!({ "file": file })))
        })
        .handler("doc", |_: &Args, _: &Context| {
            Ok::<_, Error>(Reply::document("# doc\n"))
        })
        .run()
}
