//! A CLI built at run time from any spec (`PAS_SPEC_CLI_SPEC=path`), with no command handlers:
//! what the runtime alone makes of a registry. The documentation-face tests compare its
//! `--agent --help`, `docs` and `tools` with what `pas-gen help|llm|catalog` print from the same
//! spec. A spec with resources gets `Echo` as its resource handlers, which answers each verb
//! with what the runtime handed it (the path, its template and placeholders), so tests see the
//! routing of a spec-driven app.

use std::path::PathBuf;
use std::process::ExitCode;

use pas::resources::{Copied, CopySource, Entry, Removed, ResourcePath, Stat};
use pas::{Context, Error, Items, NoGlobals, Resources};
use serde_json::{Value, json};

/// Answers every verb from the path alone.
struct Echo;

fn described(path: &ResourcePath) -> Value {
    let params: serde_json::Map<String, Value> = path
        .params()
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    json!({ "path": path.as_str(), "template": path.template(), "params": params })
}

impl Resources for Echo {
    type Globals = NoGlobals;

    fn ls(&self, _: &NoGlobals, path: &ResourcePath, _: &Context) -> Result<Items<Entry>, Error> {
        Ok(Items::ok([
            Entry::dir(path.child("one")),
            Entry::file(path.child("two")).with_size(2),
        ]))
    }

    fn cat(&self, _: &NoGlobals, path: &ResourcePath, _: &Context) -> Result<Value, Error> {
        Ok(described(path))
    }

    fn stat(&self, _: &NoGlobals, path: &ResourcePath, _: &Context) -> Result<Stat, Error> {
        Ok(Stat::file(path.as_str(), 7).with_etag(path.template().unwrap_or_default()))
    }

    fn cp(
        &self,
        _: &NoGlobals,
        source: &CopySource,
        dest: &ResourcePath,
        _: &Context,
    ) -> Result<Copied, Error> {
        match source {
            CopySource::Local(file) => {
                let bytes = pas::input::read_file(file)?;
                Ok(Copied::new(dest.as_str()).with_bytes(bytes.len() as u64))
            }
            CopySource::Resource(_) => Ok(Copied::new(dest.as_str())),
        }
    }

    fn rm(&self, _: &NoGlobals, path: &ResourcePath, _: &Context) -> Result<Removed, Error> {
        Ok(Removed::deleted(path.as_str()))
    }
}

/// With `PAS_SPEC_CLI_REPLY=JSON`, every declared command gets a handler answering that object
/// (or, with `PAS_SPEC_CLI_FAIL=CODE`, failing with that constant): what the runtime does around
/// a handler (declared checks before it, untrusted fields after it) can then be seen end to end.
fn with_echo_handlers(app: pas::App) -> pas::App {
    let Ok(reply) = std::env::var("PAS_SPEC_CLI_REPLY") else {
        return app;
    };
    let reply: Value = serde_json::from_str(&reply).unwrap_or(Value::Null);
    let fail = std::env::var("PAS_SPEC_CLI_FAIL").ok();
    let names: Vec<String> = app
        .registry()
        .commands
        .iter()
        .map(|c| c.name.clone())
        .collect();
    names.into_iter().fold(app, |app, name| {
        let reply = reply.clone();
        let fail = fail.clone();
        app.handler(name, move |_, ctx| {
            // With `PAS_SPEC_CLI_LOCK=PATH`, the handler holds that lock (`pas::lock`) for
            // `PAS_SPEC_CLI_HOLD_MS` (failure modes 15 and 58).
            if let Ok(path) = std::env::var("PAS_SPEC_CLI_LOCK") {
                let _held = pas::lock::Lock::at(path)
                    .retry_after(std::time::Duration::from_millis(300))
                    .acquire(ctx)?;
                let hold = std::env::var("PAS_SPEC_CLI_HOLD_MS")
                    .ok()
                    .and_then(|ms| ms.parse().ok())
                    .unwrap_or(0);
                std::thread::sleep(std::time::Duration::from_millis(hold));
            }
            // With `PAS_SPEC_CLI_PRINT=TEXT`, a library that prints, and a child process that
            // inherits stdout, before the reply (failure mode 68).
            if let Ok(text) = std::env::var("PAS_SPEC_CLI_PRINT") {
                println!("{text}");
                print!("{text} without a newline");
                let _ = std::process::Command::new("echo")
                    .arg(format!("{text} from a child"))
                    .status();
            }
            match &fail {
                Some(code) => Err(Error::new(code.clone(), "the echo handler fails as told")),
                // With PAS_SPEC_CLI_ECHO_STDIN, a command that reads stdin answers what it read.
                None if std::env::var_os("PAS_SPEC_CLI_ECHO_STDIN").is_some()
                    && ctx.command().stdin != pas::spec::StdinMode::None =>
                {
                    let mut text = String::new();
                    if let Some(mut stdin) = ctx.stdin()? {
                        std::io::Read::read_to_string(&mut stdin, &mut text)?;
                    }
                    Ok(pas::Reply::object(&json!({ "stdin": text })))
                }
                // An array answers a list command as its items, one by one (streamed).
                None if let Some(items) = reply.as_array()
                    && ctx.command().output == pas::spec::OutputKind::List =>
                {
                    let items: Vec<Result<Value, Error>> = items.iter().cloned().map(Ok).collect();
                    Ok(pas::Reply::list(items))
                }
                None => Ok(pas::Reply::object(&reply)),
            }
        })
    })
}

fn main() -> ExitCode {
    let Some(path) = std::env::var_os("PAS_SPEC_CLI_SPEC").map(PathBuf::from) else {
        eprintln!("set PAS_SPEC_CLI_SPEC to a spec file");
        return ExitCode::from(2);
    };
    match pas::spec::load::load_path(&path) {
        Ok((_, registry)) => with_echo_handlers(pas::App::new(registry).resources(Echo)).run(),
        Err(diagnostic) => {
            eprintln!("{}: {}", path.display(), diagnostic.message);
            ExitCode::from(2)
        }
    }
}
