//! fm22.schema_version (CLI Agent Spec §22 Schema Versioning & Output Stability): a tool whose
//! `changelog` answers its releases and its output schema version runs a call that pins that
//! version with `--schema-version`, and refuses an incompatible one with
//! `SCHEMA_VERSION_UNSUPPORTED` before any command runs.

use serde_json::Value;

use super::{Verdict, compose, json, robot};
use crate::context::Ctx;
use crate::runner::{Call, Run};
use crate::target::Contract;

/// The flag, as agent help lists it.
const FLAG: &str = "--schema-version";
/// A version no tool's output is compatible with.
const FAR_FUTURE: &str = "999999.0.0";

/// The answer's payload: stdout's object (pas), the envelope's `data` elsewhere.
fn data(contract: Contract, run: &Run) -> Result<Value, String> {
    match contract {
        Contract::Pas => json(&run.out()),
        Contract::Compose => Ok(compose::envelope(run)?["data"].clone()),
        Contract::Robot => Ok(robot::envelope(run)?["data"].clone()),
    }
}

/// The error constant of a failed call: pas's `error`, compose's `error.code`, robot's precise
/// `error.details.kind` (its `code` is the role's).
fn constant(contract: Contract, run: &Run) -> Option<String> {
    let error = match contract {
        Contract::Pas => super::errors::stderr_error(run).ok()?["error"].clone(),
        Contract::Compose => compose::envelope(run).ok()?["error"]["code"].clone(),
        Contract::Robot => robot::envelope(run).ok()?["error"]["details"]["kind"].clone(),
    };
    error.as_str().map(str::to_owned)
}

/// The check.
pub fn schema_version(ctx: &mut Ctx) -> Verdict {
    let own_word = ctx.registry.as_ref().is_some_and(|r| {
        r.commands
            .iter()
            .any(|c| c.argv_path().first().is_some_and(|w| w == "changelog"))
    });
    if own_word {
        return Verdict::skip("a command of the tool's own takes the word changelog");
    }
    // Reached as the faces write it: `--builtin changelog` where a root positional would take
    // the bare word (pas_spec::surface::builtin_argv).
    let word = ctx.builtin("changelog");
    let listed = ctx.run(&Call::new(&ctx.machine(&word)));
    // A tool without the built-in (not made with pas) answers it as an unknown word; a
    // one-command tool's agent help lists no global flags, so the answer is what says.
    let answer = match data(ctx.contract, &listed) {
        Ok(answer) if listed.exited(0) && answer.get("schema_version").is_some() => answer,
        _ => return Verdict::skip("the tool has no changelog built-in (nor --schema-version)"),
    };
    let Some(have) = answer["schema_version"].as_str().map(str::to_owned) else {
        return Verdict::fail("changelog answered no schema_version", &[&listed]);
    };
    if !answer["changelog"].is_array() {
        return Verdict::fail("changelog answered no changelog list", &[&listed]);
    }
    let pinned = |version: &str| {
        let mut args = vec![FLAG.to_owned(), version.to_owned()];
        args.extend(word.iter().cloned());
        args
    };
    let same = ctx.run(&Call::new(&ctx.machine(&pinned(&have))));
    if !same.exited(0) {
        let why = format!("--schema-version {have} (the tool's own) did not exit 0");
        return Verdict::fail(why, &[&same]);
    }
    let refused = ctx.run(&Call::new(&ctx.machine(&pinned(FAR_FUTURE))));
    if constant(ctx.contract, &refused).as_deref() != Some("SCHEMA_VERSION_UNSUPPORTED") {
        let why = format!("--schema-version {FAR_FUTURE} is not SCHEMA_VERSION_UNSUPPORTED");
        return Verdict::fail(why, &[&refused]);
    }
    // robot exits with its `arguments` role's code; pas and compose with 2.
    if ctx.contract != Contract::Robot && !refused.exited(2) {
        return Verdict::fail("SCHEMA_VERSION_UNSUPPORTED did not exit 2", &[&refused]);
    }
    Verdict::pass(&[&listed, &same, &refused])
}
