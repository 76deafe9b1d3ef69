//! The tool the runtime's effect tests drive (`tests/runtime_effects.rs`, not meant for users):
//! a shopping list kept as files in `$EFFECTS_DIR`, from `effects-demo.yaml`, run under the
//! profile `$EFFECTS_PROFILE` names (`pas`, `compose` or `robot`). `add` counts every time its
//! handler runs in `$EFFECTS_DIR/runs`, so a test can tell a replay from a second run.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use pas::spec::{Format, Source};
use pas::{App, Args, Change, Context, Error, Reply};

const SPEC: &str = include_str!("effects-demo.yaml");

fn dir() -> PathBuf {
    PathBuf::from(std::env::var_os("EFFECTS_DIR").expect("EFFECTS_DIR is set"))
}

fn io_error(err: std::io::Error) -> Error {
    Error::general(err.to_string())
}

fn add(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let name: String = args.require("name")?;
    let item = dir().join("items").join(&name);
    if ctx.dry_run() {
        return Ok(Reply::object(
            &serde_json::json!({ "name": name, "runs": 0 }),
        ));
    }
    let mut runs = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir().join("runs"))
        .map_err(io_error)?;
    runs.write_all(b"add\n").map_err(io_error)?;
    let count = std::fs::read_to_string(dir().join("runs"))
        .map_err(io_error)?
        .lines()
        .count();
    // The declared side effects: an index in the tool's cache, a history in the home.
    if let Some(home) = std::env::var_os("HOME") {
        let cache = PathBuf::from(&home).join(".cache/shopping");
        std::fs::create_dir_all(&cache).map_err(io_error)?;
        std::fs::write(cache.join("index"), name.as_bytes()).map_err(io_error)?;
        std::fs::write(PathBuf::from(&home).join(".shopping-history"), b"add\n")
            .map_err(io_error)?;
    }
    if item.exists() {
        ctx.set_effect(Change::Noop);
    } else {
        std::fs::create_dir_all(dir().join("items")).map_err(io_error)?;
        std::fs::write(&item, b"").map_err(io_error)?;
        ctx.set_effect(Change::Created);
    }
    Ok(Reply::object(
        &serde_json::json!({ "name": name, "runs": count }),
    ))
}

fn list(_args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let mut names: Vec<String> = std::fs::read_dir(dir().join("items"))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    Ok(Reply::list(names.into_iter().map(|name| {
        Ok::<_, Error>(serde_json::json!({ "name": name }))
    })))
}

fn main() -> ExitCode {
    let source = Source::new("effects-demo.yaml", SPEC, Format::Yaml);
    let mut registry = pas::spec::load::parse(&source).expect("the demo spec is valid");
    registry.profile = match std::env::var("EFFECTS_PROFILE").as_deref() {
        Ok("compose") => pas::spec::Profile::Compose,
        Ok("robot") => pas::spec::Profile::Robot,
        _ => pas::spec::Profile::Pas,
    };
    App::new(registry)
        .handler("add", add)
        .handler("list", list)
        .run()
}
