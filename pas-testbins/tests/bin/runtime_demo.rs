//! The demo tool the `runtime_*` tests drive: one command per path of the runtime, from a
//! JSON spec (`runtime-demo.json`), with handlers that never print.

use std::io::{Read, Write};
use std::process::ExitCode;
use std::thread::sleep;
use std::time::Duration;

use pas::{App, Args, Context, Error, Reply};
use serde::Serialize;
use serde_json::json;

const SPEC: &str = include_str!("runtime-demo.json");

#[derive(Serialize)]
struct Item {
    id: i64,
    name: String,
    tags: [&'static str; 2],
    /// Only on the item `DEMO_TOKEN_AT` names (a token to mask, see `list`).
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<String>,
}

fn item(id: i64) -> Item {
    Item {
        id,
        name: format!("item-{id}"),
        tags: ["a", "b"],
        token: None,
    }
}

fn get(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let id: i64 = args.require("id")?;
    let token: Option<String> = args.get("token")?;
    if id == 0 {
        return Err(Error::new("NOT_FOUND", format!("no item with id {id}"))
            .with_suggestion("list ids with `demo --agent item list`")
            .with_details(json!({ "id": id })));
    }
    if id == 13 {
        // A handler that leaks its credentials into an error: the runtime must redact it.
        let url = format!(
            "https://api.example/items/13?token={}",
            token.unwrap_or_default()
        );
        return Err(
            Error::general(format!("request to {url} failed")).with_details(json!({ "url": url }))
        );
    }
    if id == 14 {
        // A handler that echoes its credentials in a result: the runtime must redact it.
        let url = format!(
            "https://api.example/items/14?token={}",
            token.unwrap_or_default()
        );
        return Ok(Reply::object(&json!({ "id": id, "url": url })));
    }
    let mut value = json!({ "id": id, "name": format!("item-{id}") });
    if args.flag("verbose") {
        value["history"] = json!(["created"]);
    }
    Ok(Reply::object(&value))
}

/// Pages of ten over thirty items; the cursor is the first id of the page.
fn page(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let start: u64 = match args.get::<String>("cursor")? {
        Some(cursor) => cursor
            .parse()
            .map_err(|_| Error::invalid_argument(format!("not a cursor: {cursor}")))?,
        None => 0,
    };
    let end = (start + 10).min(30);
    let page = pas::Page {
        total: Some(30),
        has_more: end < 30,
        next_cursor: (end < 30).then(|| end.to_string()),
    };
    // With a token, each item says where it came from, token included (to be redacted).
    let token: Option<String> = args.get("token")?;
    let items = (start..end).map(move |id| {
        let mut value = serde_json::to_value(item(id as i64)).expect("an item is JSON");
        if let Some(token) = &token {
            value["via"] = json!(format!("https://api.example/items?token={token}"));
        }
        Ok(value)
    });
    Ok(Reply::page(items, page))
}

fn list(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let count: i64 = args.require("count")?;
    let fail_at: Option<i64> = args.get("fail_at")?;
    let panic_at: Option<i64> = args.get("panic-at")?;
    let delay = Duration::from_millis(args.require::<i64>("delay-ms")?.max(0) as u64);
    // A library that prints while each item is made (failure mode 68's tests).
    let chatty = std::env::var_os("DEMO_LIBRARY_PRINTS").is_some();
    // A handler that makes the item `DEMO_TOKEN_AT` with `DEMO_LIST_TOKEN` in it, then blocks for a
    // minute (the tests that a line to scrub is not held back while the handler blocks).
    let token_at: Option<i64> = std::env::var("DEMO_TOKEN_AT")
        .ok()
        .and_then(|at| at.parse().ok());
    let token = std::env::var("DEMO_LIST_TOKEN").unwrap_or_default();
    let items = (0..count).map(move |id| {
        if !delay.is_zero() {
            sleep(delay);
        }
        if token_at.is_some_and(|at| id == at + 1) {
            sleep(Duration::from_secs(60));
        }
        if chatty {
            println!("library: made item {id}");
        }
        if Some(id) == panic_at {
            panic!("the demo panics at item {id}");
        }
        if Some(id) == fail_at {
            // A busy store: the same call may succeed in a quarter of a second.
            return Err(
                Error::new("STORE_FAILED", format!("the store failed at item {id}"))
                    .with_retry_after_ms(250),
            );
        }
        let mut item = item(id);
        if Some(id) == token_at {
            item.token = Some(token.clone());
        }
        Ok(item)
    });
    Ok(Reply::list(items))
}

fn doc(_args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    Ok(Reply::document(
        "# Demo\n\nUse `demo --agent item list` to list items.\n\n```sh\ndemo --agent item get 1\n```",
    ))
}

fn watch(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let steps: i64 = args.require("steps")?;
    let progress = ctx.progress(Some(steps as u64));
    progress.set_message("starting");
    for _ in 0..steps {
        progress.inc(1);
    }
    progress.finish();
    Ok(Reply::events([Ok(
        json!({ "event": "done", "steps": steps }),
    )]))
}

fn work(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let steps: i64 = args.require("steps")?;
    let progress = ctx.progress(Some(steps as u64));
    for _ in 0..steps {
        sleep(Duration::from_millis(150));
        progress.inc(1);
    }
    progress.finish();
    Ok(Reply::list_with_text(
        (0..steps).map(|id| Ok(item(id))),
        |item: &Item| format!("#{} {}", item.id, item.name),
    ))
}

fn crash(_args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    panic!("the demo crashes on purpose");
}

/// Starts `sh -c 'sleep TAG & sleep TAG'` as a process group the call's end must kill.
fn spawn(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let tag: String = args.require("tag")?;
    let seconds: i64 = args.require("seconds")?;
    // `std::process` directly (failure mode 17's tests): a child, its background child, and a
    // daemon that leaves its session, none of which the handler ever waits for.
    if std::env::var_os("DEMO_SPAWN_DIRECT").is_some() {
        if std::env::var_os("DEMO_KEEP_CHILDREN").is_some() {
            pas::process::keep_children();
        }
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("sleep {tag} & setsid sleep {tag} & sleep {tag}"))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .spawn()
            .map_err(|err| Error::general(format!("cannot start sh: {err}")))?;
        sleep(Duration::from_secs(seconds.max(0) as u64));
        return Ok(Reply::object(&json!({ "spawned": true })));
    }
    let child = pas::process::spawn(
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("sleep {tag} & sleep {tag}"))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null()),
    )?;
    if seconds == 0 {
        // A handler that forgets its child: the runtime still ends it with the call.
        std::mem::forget(child);
        return Ok(Reply::object(&json!({ "spawned": true })));
    }
    sleep(Duration::from_secs(seconds.max(0) as u64));
    drop(child);
    Ok(Reply::object(&json!({ "spawned": true })))
}

fn slow(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let seconds: i64 = args.require("seconds")?;
    sleep(Duration::from_secs(seconds.max(0) as u64));
    Ok(Reply::object(&json!({ "slept": seconds })))
}

fn ingest(_args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let Some(mut stdin) = ctx.stdin()? else {
        return Err(Error::new("MISSING_INPUT", "nothing on stdin"));
    };
    let mut text = String::new();
    stdin.read_to_string(&mut text)?;
    Ok(Reply::object(
        &json!({ "lines": text.lines().count(), "bytes": text.len() }),
    ))
}

fn login(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let user: String = args.require("user")?;
    let password: String = args.require("password")?;
    Err(
        Error::general(format!("wrong password {password} for {user}"))
            .with_suggestion(format!("not {password}")),
    )
}

fn nothing(_args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    Ok(Reply::none())
}

/// The same items written by hand with serde_json and a BufWriter: the speed to match.
fn baseline(count: i64) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    for id in 0..count {
        if serde_json::to_writer(&mut out, &item(id)).is_err() || out.write_all(b"\n").is_err() {
            return ExitCode::FAILURE;
        }
    }
    let _ = out.flush();
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    if let Some(count) = std::env::var_os("DEMO_BASELINE") {
        return baseline(count.to_string_lossy().parse().unwrap_or(0));
    }
    let registry: pas::spec::Registry = serde_json::from_str(SPEC).expect("the demo spec is valid");
    let app = App::new(registry)
        .handler("item.get", get)
        .handler("item.list", list)
        .handler("item.page", page)
        .handler("doc", doc)
        .handler("watch", watch)
        .handler("work", work)
        .handler("crash", crash)
        .handler("sleep", slow)
        .handler("spawn", spawn)
        .handler("ingest", ingest)
        .handler("login", login)
        .handler("nothing", nothing);
    debug_assert!(
        app.missing_handlers().is_empty(),
        "{:?}",
        app.missing_handlers()
    );
    app.run()
}
