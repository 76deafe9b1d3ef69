//! The runtime's list path: a tool on `pas::App` whose handler yields `COUNT` serialisable
//! items, run as an agent runs it (`list_runtime --agent list --count N`). Measured against
//! `list_baseline N`, which writes the same bytes by hand. `object --bytes N` answers one object
//! of about N bytes (the `--max-output` figure: written whole vs to a file with a pointer).

use std::process::ExitCode;

use pas::{App, Args, Context, Error, Reply};
use serde::Serialize;

const SPEC: &str = r#"{
  "specVersion": 1,
  "name": "list-runtime",
  "version": "1.0.0",
  "summary": "Streams items, for the runtime benchmark.",
  "level": 2,
  "commands": [
    {
      "name": "list",
      "description": "List COUNT items, streamed.",
      "output": "list",
      "parameters": [
        { "name": "count", "short": "n", "type": "integer", "default": 3, "description": "How many items." }
      ]
    },
    {
      "name": "object",
      "description": "Answer one object of about BYTES bytes.",
      "output": "object",
      "parameters": [
        { "name": "bytes", "type": "integer", "default": 1000, "description": "About how many bytes." }
      ]
    }
  ]
}"#;

#[derive(Serialize)]
struct Item {
    id: u64,
    name: String,
}

fn list(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let count: i64 = args.require("count")?;
    let items = (0..count.max(0) as u64).map(|id| {
        Ok(Item {
            id,
            name: format!("item-{id}"),
        })
    });
    Ok(Reply::list(items))
}

#[derive(Serialize)]
struct Large {
    id: u64,
    body: String,
}

fn object(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let bytes: i64 = args.require("bytes")?;
    let body = "0123456789abcdef".repeat(bytes.max(0) as usize / 16);
    Ok(Reply::object(&Large { id: 1, body }))
}

fn main() -> ExitCode {
    let registry: pas::spec::Registry = serde_json::from_str(SPEC).expect("the spec is valid");
    App::new(registry)
        .handler("list", list)
        .handler("object", object)
        .run()
}
