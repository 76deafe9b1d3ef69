//! A tool whose one command waits for other calls: what proves that `TOOL mcp` serves
//! concurrent `tools/call`s (tests/mcp_clients.rs). `meet --dir D --name N --party P` leaves
//! the file D/N, then waits until D holds P files; served one call at a time, the first call
//! waits for a second that cannot start, and fails with `ALONE` after `--patience` seconds.
//! Its state (the calls that met) is kept in an `Arc<Mutex<..>>`, as a handler's must be.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pas::{App, Args, Context, Error, Reply};
use serde_json::json;

const SPEC: &str = r#"{
  "specVersion": 1,
  "name": "rendezvous",
  "version": "1.0.0",
  "summary": "Calls that wait for each other.",
  "exitCodes": [{ "code": 100, "name": "ALONE", "meaning": "No other call came in time" }],
  "commands": [
    {
      "name": "meet",
      "description": "Leave a mark in a directory, then wait until the whole party has.",
      "parameters": [
        { "name": "dir", "type": "string", "required": true, "description": "The meeting place." },
        { "name": "name", "type": "string", "required": true, "description": "This call's mark." },
        { "name": "party", "type": "integer", "default": 2, "description": "How many calls meet." },
        { "name": "patience", "type": "integer", "default": 30, "description": "Seconds to wait." }
      ],
      "output": "object",
      "outputSchema": {
        "type": "object",
        "properties": {
          "name": { "type": "string" },
          "met": { "type": "integer" },
          "calls": { "type": "integer" }
        },
        "required": ["name", "met", "calls"]
      },
      "errors": ["ALONE"]
    }
  ]
}"#;

fn meet(args: &Args, ctx: &Context, calls: &Mutex<u64>) -> Result<Reply, Error> {
    let dir = PathBuf::from(args.require::<String>("dir")?);
    let name: String = args.require("name")?;
    let party: i64 = args.require("party")?;
    let patience: i64 = args.require("patience")?;
    std::fs::write(dir.join(&name), b"here")?;
    let started = Instant::now();
    loop {
        let met = std::fs::read_dir(&dir)?.count() as i64;
        if met >= party {
            let calls = {
                let mut calls = calls.lock().unwrap_or_else(|e| e.into_inner());
                *calls += 1;
                *calls
            };
            return Ok(Reply::object(
                &json!({ "name": name, "met": met, "calls": calls }),
            ));
        }
        if ctx.stop_requested() || started.elapsed() > Duration::from_secs(patience.max(0) as u64) {
            return Err(Error::new(
                "ALONE",
                format!("{name} waited alone: {met} of {party} came"),
            )
            .with_suggestion("call meet again while the others wait"));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn main() -> ExitCode {
    let registry: pas::spec::Registry = serde_json::from_str(SPEC).expect("the spec is valid");
    let calls = Arc::new(Mutex::new(0u64));
    App::new(registry)
        .handler("meet", move |args: &Args, ctx: &Context| {
            meet(args, ctx, &calls)
        })
        .run()
}
