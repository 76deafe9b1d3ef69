//! `tests/fixtures/valid/declared.yaml` compiled with `pas::include_spec!` (the derive, through
//! pas-emit's `declared = "..."` keys), with the echo handlers of `pas-spec-cli`: answering
//! `PAS_SPEC_CLI_REPLY`, or failing with `PAS_SPEC_CLI_FAIL`. `runtime_declared.rs` runs its
//! checks against it as against the spec-driven runtime, so a declaration the emitter or the
//! derive drops fails there.

use std::process::ExitCode;

use pas::{Context, Error};
use serde_json::Value;

mod spec {
    pas::include_spec!("../tests/fixtures/valid/declared.yaml");
}

use spec::{Handlers, NoteCreateArgs, NoteExportArgs, NoteShowArgs, NoteShowOutput};

/// Answers every command with the reply the test set, or its failure.
struct Echo;

fn reply() -> Result<Value, Error> {
    if let Ok(code) = std::env::var("PAS_SPEC_CLI_FAIL") {
        return Err(Error::new(code, "the echo handler fails as told"));
    }
    let text = std::env::var("PAS_SPEC_CLI_REPLY").unwrap_or_else(|_| "{}".to_owned());
    Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
}

impl Handlers for Echo {
    fn note_create(&self, _: NoteCreateArgs, _: &Context) -> Result<Value, Error> {
        reply()
    }

    fn note_show(&self, _: NoteShowArgs, _: &Context) -> Result<NoteShowOutput, Error> {
        serde_json::from_value(reply()?).map_err(|err| Error::internal(err.to_string()))
    }

    fn note_export(&self, _: NoteExportArgs, _: &Context) -> Result<Value, Error> {
        reply()
    }
}

fn main() -> ExitCode {
    spec::app(Echo).run()
}
