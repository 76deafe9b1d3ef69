//! A tool whose commands commit, block and wait where a test says (tests/mcp_outcomes.rs and
//! tests/runtime_outcomes.rs): outcomes follow effects.
//!
//! - `put --dir D --name N`: creates D/N (the effect), reports `created`, answers `{"name"}`.
//! - `cat --path P`: reads P (a FIFO blocks it until a writer comes); a read.
//! - `slow-cat --path P`: the same, declaring a time limit of one second.
//! - `hang --path P`: a write that reads P before it changes anything (blocks on a FIFO).
//! - `gate --dir D --name N --gate G [--silent]`: creates D/N (and reports it, unless
//!   `--silent`), then reads the FIFO G (the test opens it to let the handler return), then
//!   answers `{"name"}`.
//! - `big --dir D --name N --size S`: creates D/N, then answers `{"name", "data"}` with S bytes
//!   of data (larger than a pipe holds, so writing it blocks until the reader reads).
//! - `list --dir D`: the names in D.

use std::path::PathBuf;
use std::process::ExitCode;

use pas::{App, Args, Change, Context, Error, Reply};
use serde_json::json;

const SPEC: &str = r#"{
  "specVersion": 1,
  "name": "outcomes",
  "version": "1.0.0",
  "summary": "Commands that commit, block and wait where a test says.",
  "commands": [
    {
      "name": "put",
      "description": "Create a file.",
      "effect": "write",
      "parameters": [
        { "name": "dir", "type": "string", "required": true, "description": "Where." },
        { "name": "name", "type": "string", "required": true, "description": "The file." }
      ],
      "output": "object"
    },
    {
      "name": "cat",
      "description": "Read a file.",
      "parameters": [
        { "name": "path", "type": "string", "required": true, "description": "The file." }
      ],
      "output": "object"
    },
    {
      "name": "slow-cat",
      "description": "Read a file, within a second.",
      "timeout": 1,
      "parameters": [
        { "name": "path", "type": "string", "required": true, "description": "The file." }
      ],
      "output": "object"
    },
    {
      "name": "hang",
      "description": "Read a file, then change nothing.",
      "effect": "write",
      "parameters": [
        { "name": "path", "type": "string", "required": true, "description": "The file." }
      ],
      "output": "object"
    },
    {
      "name": "gate",
      "description": "Create a file, then wait for the gate.",
      "effect": "write",
      "parameters": [
        { "name": "dir", "type": "string", "required": true, "description": "Where." },
        { "name": "name", "type": "string", "required": true, "description": "The file." },
        { "name": "gate", "type": "string", "required": true, "description": "The FIFO." },
        { "name": "silent", "type": "boolean", "description": "Report no effect." }
      ],
      "output": "object"
    },
    {
      "name": "big",
      "description": "Create a file, then answer with much data.",
      "effect": "write",
      "parameters": [
        { "name": "dir", "type": "string", "required": true, "description": "Where." },
        { "name": "name", "type": "string", "required": true, "description": "The file." },
        { "name": "size", "type": "integer", "required": true, "description": "Bytes of data." }
      ],
      "output": "object"
    },
    {
      "name": "list",
      "description": "The files in a directory.",
      "parameters": [
        { "name": "dir", "type": "string", "required": true, "description": "Where." }
      ],
      "output": "object"
    }
  ]
}"#;

fn create(args: &Args, ctx: &Context) -> Result<String, Error> {
    let dir = PathBuf::from(args.require::<String>("dir")?);
    let name: String = args.require("name")?;
    std::fs::write(dir.join(&name), b"made")?;
    ctx.set_effect(Change::Created);
    Ok(name)
}

fn read(args: &Args) -> Result<usize, Error> {
    let path = PathBuf::from(args.require::<String>("path")?);
    Ok(std::fs::read(path)?.len())
}

fn main() -> ExitCode {
    let registry: pas::spec::Registry = serde_json::from_str(SPEC).expect("the spec is valid");
    App::new(registry)
        .handler("put", |args: &Args, ctx: &Context| {
            let name = create(args, ctx)?;
            Ok(Reply::object(&json!({ "name": name })))
        })
        .handler("cat", |args: &Args, _: &Context| {
            Ok(Reply::object(&json!({ "bytes": read(args)? })))
        })
        .handler("slow-cat", |args: &Args, _: &Context| {
            Ok(Reply::object(&json!({ "bytes": read(args)? })))
        })
        .handler("hang", |args: &Args, _: &Context| {
            read(args)?;
            Ok(Reply::object(&json!({ "done": true })))
        })
        .handler("gate", |args: &Args, ctx: &Context| {
            let name = match args.get::<bool>("silent")?.unwrap_or(false) {
                true => {
                    let dir = PathBuf::from(args.require::<String>("dir")?);
                    let name: String = args.require("name")?;
                    std::fs::write(dir.join(&name), b"made")?;
                    name
                }
                false => create(args, ctx)?,
            };
            std::fs::read(args.require::<String>("gate")?)?;
            Ok(Reply::object(&json!({ "name": name })))
        })
        .handler("big", |args: &Args, ctx: &Context| {
            let name = create(args, ctx)?;
            let size: i64 = args.require("size")?;
            let data = "x".repeat(usize::try_from(size).unwrap_or(0));
            Ok(Reply::object(&json!({ "name": name, "data": data })))
        })
        .handler("list", |args: &Args, _: &Context| {
            let dir = PathBuf::from(args.require::<String>("dir")?);
            let mut names: Vec<String> = std::fs::read_dir(dir)?
                .filter_map(|entry| entry.ok())
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            Ok(Reply::object(&json!({ "names": names })))
        })
        .run()
}
