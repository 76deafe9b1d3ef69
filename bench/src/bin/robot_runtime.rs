//! One handler under two profiles, for the robot benchmark: `robot_runtime PROFILE ARGS...`
//! builds the same tool with `profile: pas` or `profile: robot` (with sessions declared) and
//! runs ARGS: `one` (one object) or `list --count N` (N items; `--fail-at I` fails at item I,
//! for the robot envelope's tests in `bench/tests/robot_envelope.rs`).

use std::process::ExitCode;

use pas::{App, Args, Context, Error, Reply};
use serde::Serialize;

const SPEC: &str = r#"{
  "specVersion": 1,
  "name": "robot-runtime",
  "version": "1.0.0",
  "summary": "One handler, two profiles, for the robot benchmark.",
  "level": 2,
  "exitCodes": [
    { "code": 10, "name": "ERR_ARGS", "meaning": "Invalid arguments", "role": "arguments" },
    { "code": 15, "name": "ERR_SESSION", "meaning": "Session not found", "role": "session" },
    { "code": 20, "name": "ERR_INTERNAL", "meaning": "Internal error", "role": "internal" }
  ],
  "robot": {
    "sessions": {
      "prefix": "bench",
      "states": [
        { "name": "planned", "resumable": true, "next": ["complete"] },
        { "name": "complete" },
        { "name": "interrupted", "resumable": true },
        { "name": "expired" }
      ]
    }
  },
  "commands": [
    { "name": "one", "description": "One object." },
    {
      "name": "list",
      "description": "COUNT items.",
      "output": "list",
      "parameters": [
        { "name": "count", "type": "integer", "default": 3, "description": "How many items." },
        { "name": "fail-at", "type": "integer", "default": -1, "description": "Fail at this item (tests)." }
      ]
    }
  ]
}"#;

#[derive(Serialize)]
struct Item {
    id: u64,
    name: String,
}

fn one(_args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    Ok(Reply::object(&Item {
        id: 1,
        name: "item-1".to_owned(),
    }))
}

fn list(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let count: i64 = args.require("count")?;
    let fail_at: i64 = args.get("fail-at")?.unwrap_or(-1);
    let items = (0..count.max(0) as u64).map(move |id| {
        if i64::try_from(id) == Ok(fail_at) {
            return Err(Error::new("ERR_INTERNAL", format!("item {id} failed")));
        }
        Ok(Item {
            id,
            name: format!("item-{id}"),
        })
    });
    Ok(Reply::list(items))
}

fn main() -> ExitCode {
    let mut argv: Vec<String> = std::env::args().collect();
    let profile = if argv.len() > 1 {
        argv.remove(1)
    } else {
        String::new()
    };
    let mut registry: pas::spec::Registry = serde_json::from_str(SPEC).expect("the spec is valid");
    if profile == "robot" {
        registry.profile = pas::spec::Profile::Robot;
    } else {
        registry.robot = None;
        registry.exit_codes.clear();
    }
    App::new(registry)
        .handler("one", one)
        .handler("list", list)
        .run_from(argv)
}
