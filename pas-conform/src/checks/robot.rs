//! The robot contract (sections 3 and 11): every call prints the common envelope, errors are
//! `status: error` with a structured error, and exit codes are the spec's named codes.
//!
//! The envelope fields checked are those the pas robot profile writes (`schema_version`,
//! `command`, `duration_ms`, `status`, `warnings`, `data`); the session fields of section 3.1
//! (`session_id`, `generated_at`, `host_id`) belong to session-keeping tools and are not required.

use serde_json::Value;

use super::errors::is_upper_snake;
use super::{Verdict, json};
use crate::context::Ctx;
use crate::runner::Run;

/// The envelope a call printed on stdout, or why it is not one.
pub fn envelope(run: &Run) -> Result<Value, String> {
    let value = json(&run.out()).map_err(|e| format!("stdout is not one JSON value: {e}"))?;
    if !value["schema_version"].is_string() {
        return Err("no string `schema_version`".into());
    }
    let status = value["status"].as_str().unwrap_or("");
    if !matches!(status, "success" | "partial" | "error") {
        return Err("`status` is not success, partial or error".into());
    }
    if status != "error" {
        let complete = value["command"].is_string()
            && value["duration_ms"].is_u64()
            && value["warnings"].is_array()
            && value.get("data").is_some();
        if !complete {
            return Err("a success lacks command, duration_ms, warnings or data".into());
        }
    }
    Ok(value)
}

/// robot.envelope: each example prints the envelope.
pub fn envelope_check(ctx: &mut Ctx) -> Verdict {
    let runs: Vec<Run> = ctx.example_runs().into_iter().map(|(_, r)| r).collect();
    if runs.is_empty() {
        return Verdict::skip(ctx.why_no_example());
    }
    Verdict::every(&runs, envelope)
}

/// robot.error: an unknown flag gives `status: error` with code, message and recoverable.
pub fn error(ctx: &mut Ctx) -> Verdict {
    let run = super::errors::unknown_flag_run(ctx);
    let value = match envelope(&run) {
        Ok(value) => value,
        Err(why) => return Verdict::fail(why, &[&run]),
    };
    let error = &value["error"];
    let ok = value["status"] == "error"
        && error["code"].as_str().is_some_and(is_upper_snake)
        && error["message"].is_string()
        && error["recoverable"].is_boolean();
    if ok && run.code.is_some_and(|c| c != 0) {
        Verdict::pass(&[&run])
    } else {
        Verdict::fail(
            "not status:error with error{code,message,recoverable} and a non-zero exit",
            &[&run],
        )
    }
}

/// robot.exit_codes: every exit seen is 0 or a code the spec names, and an error's code has the
/// exit code the spec gives that name.
pub fn exit_codes(ctx: &mut Ctx) -> Verdict {
    let Some(registry) = ctx.registry.clone() else {
        return Verdict::skip("no spec: the named exit codes come from it");
    };
    let named = |code: i32| {
        registry
            .exit_codes
            .iter()
            .any(|c| i32::from(c.code) == code)
    };
    let mut judged = Vec::new();
    for run in ctx.history.clone() {
        let Some(code) = run.code else { continue };
        if run.argv.iter().any(|a| a == "--help" || a == "--version") {
            continue;
        }
        if code != 0 && !named(code) {
            return Verdict::fail(
                format!("exit {code} is not a named code of the spec"),
                &[&run],
            );
        }
        if let Ok(value) = json(&run.out())
            && let Some(name) = value["error"]["code"].as_str()
            && let Some(declared) = registry.exit_codes.iter().find(|c| c.name == name)
            && i32::from(declared.code) != code
        {
            return Verdict::fail(
                format!("{name} exited {code}, the spec says {}", declared.code),
                &[&run],
            );
        }
        judged.push(run);
    }
    Verdict::pass(&judged.iter().collect::<Vec<_>>())
}

use pas_spec::robot::{ExitRole, SessionUse};
use pas_spec::{Command, OutputKind, Registry};

/// The registry of a robot tool whose built-ins are subcommands (no root command).
fn robot_registry(ctx: &Ctx) -> Result<Registry, Verdict> {
    let Some(registry) = ctx.registry.clone() else {
        return Err(Verdict::skip("no spec: the robot keys come from it"));
    };
    Ok(registry)
}

/// robot.arguments: an unknown flag exits with the spec's `arguments` code (when it declares
/// one), and never with a success code or 0.
pub fn arguments(ctx: &mut Ctx) -> Verdict {
    let registry = match robot_registry(ctx) {
        Ok(registry) => registry,
        Err(verdict) => return verdict,
    };
    let run = super::errors::unknown_flag_run(ctx);
    let Some(code) = run.code else {
        return Verdict::fail("no exit code", &[&run]);
    };
    let success = code == 0
        || registry
            .exit_codes
            .iter()
            .any(|c| c.success && i32::from(c.code) == code);
    if success {
        return Verdict::fail(
            format!("an argument error exited {code}, a success code"),
            &[&run],
        );
    }
    if let Some(declared) = registry.code_for_role(ExitRole::Arguments) {
        let named = json(&run.out()).ok();
        let name = named.as_ref().and_then(|v| v["error"]["code"].as_str());
        if i32::from(declared.code) != code || name != Some(declared.name.as_str()) {
            return Verdict::fail(
                format!(
                    "an argument error exited {code} naming {name:?}; the spec's arguments code is {} {}",
                    declared.code, declared.name
                ),
                &[&run],
            );
        }
    }
    Verdict::pass(&[&run])
}

/// robot.capabilities: `TOOL capabilities` is a success envelope with the OS, the privileges,
/// the storage and the limits (robot 5.8).
pub fn capabilities(ctx: &mut Ctx) -> Verdict {
    let registry = match robot_registry(ctx) {
        Ok(registry) => registry,
        Err(verdict) => return verdict,
    };
    if registry.commands.iter().any(|c| c.argv_path().is_empty()) {
        return Verdict::skip("a one-command tool has no built-in subcommands");
    }
    let args = ctx.machine(&["capabilities".to_owned()]);
    let run = ctx.cached(&args);
    let value = match envelope(&run) {
        Ok(value) => value,
        Err(why) => return Verdict::fail(why, &[&run]),
    };
    let data = &value["data"];
    let ok = value["status"] == "success"
        && data["os"]["family"].is_string()
        && data["privileges"].get("effective_uid").is_some()
        && data["storage"].is_object()
        && data["limits"].is_object();
    if ok && run.exited(0) {
        Verdict::pass(&[&run])
    } else {
        Verdict::fail(
            "not a success envelope with data.os.family, data.privileges.effective_uid, data.storage and data.limits",
            &[&run],
        )
    }
}

/// robot.sessions: `TOOL sessions` lists `sessions`, `total` and `resumable_count`, and a command
/// that continues or reads a session refuses an unknown id with the spec's session code.
pub fn sessions(ctx: &mut Ctx) -> Verdict {
    let registry = match robot_registry(ctx) {
        Ok(registry) => registry,
        Err(verdict) => return verdict,
    };
    let Some(spec) = registry.sessions().cloned() else {
        return Verdict::skip("the spec declares no sessions");
    };
    let args = ctx.machine(&["sessions".to_owned()]);
    let listing = ctx.cached(&args);
    let value = match envelope(&listing) {
        Ok(value) => value,
        Err(why) => return Verdict::fail(why, &[&listing]),
    };
    let data = &value["data"];
    if !(data["sessions"].is_array() && data["total"].is_u64() && data["resumable_count"].is_u64())
    {
        return Verdict::fail(
            "`sessions` has no data.sessions, data.total and data.resumable_count",
            &[&listing],
        );
    }
    let continuing = ctx.examples.iter().find(|p| {
        p.command
            .as_ref()
            .and_then(|c| c.session)
            .is_some_and(|s| s != SessionUse::Create)
            && p.args.iter().any(|a| a == "--session")
    });
    let Some(example) = continuing.cloned() else {
        return Verdict::pass(&[&listing]).note("no example continues a session");
    };
    let unknown = format!("{}-20000101-000000-aaaa", spec.prefix);
    let mut words = example.args.clone();
    if let Some(at) = words.iter().position(|a| a == "--session")
        && at + 1 < words.len()
    {
        words[at + 1] = unknown;
    }
    let args = ctx.machine(&words);
    let run = ctx.cached(&args);
    let (name, code) = registry.role_code(ExitRole::Session);
    let named = json(&run.out()).ok();
    let said = named.as_ref().and_then(|v| v["error"]["code"].as_str());
    if run.code == Some(i32::from(code)) && said == Some(name.as_str()) {
        Verdict::pass(&[&listing, &run])
    } else {
        Verdict::fail(
            format!("an unknown session must exit {code} naming {name}"),
            &[&run],
        )
    }
}

/// The items of a command's principal list in an envelope.
fn principal<'a>(command: &Command, value: &'a Value) -> Option<&'a Vec<Value>> {
    match (&command.list_field, command.output) {
        (Some(field), _) => value["data"][field].as_array(),
        (None, OutputKind::List) => value["data"].as_array(),
        _ => None,
    }
}

/// The fields the items of a command's principal list have, from its output schema.
fn known_fields(command: &Command) -> Vec<String> {
    let Some(schema) = &command.output_schema else {
        return Vec::new();
    };
    let item = match &command.list_field {
        Some(field) => schema.pointer(&format!("/properties/{field}/items")),
        None if command.output == OutputKind::List => Some(schema),
        None => None,
    };
    item.and_then(|i| i["properties"].as_object())
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

/// Examples that succeed (status success) with a non-empty principal list.
fn listing_examples(ctx: &mut Ctx) -> Vec<(Vec<String>, Command, Run)> {
    let mut found = Vec::new();
    for (planned, run) in ctx.example_runs() {
        let Some(command) = planned.command.clone() else {
            continue;
        };
        let Ok(value) = envelope(&run) else { continue };
        if value["status"] == "success"
            && principal(&command, &value).is_some_and(|l| !l.is_empty())
        {
            found.push((planned.args, command, run));
        }
    }
    found
}

/// robot.fields: `--fields a` keeps only `a` of each item of the principal list, and an
/// unknown field is an argument error (robot 8.2).
pub fn fields(ctx: &mut Ctx) -> Verdict {
    let registry = match robot_registry(ctx) {
        Ok(registry) => registry,
        Err(verdict) => return verdict,
    };
    let Some((args, command, _)) = listing_examples(ctx)
        .into_iter()
        .find(|(_, c, _)| !known_fields(c).is_empty())
    else {
        return Verdict::skip("no example lists items whose fields the spec names");
    };
    let field = known_fields(&command)[0].clone();
    let mut words = args.clone();
    words.extend(["--fields".to_owned(), field.clone()]);
    let words = ctx.machine(&words);
    let kept = ctx.cached(&words);
    let value = match envelope(&kept) {
        Ok(value) => value,
        Err(why) => return Verdict::fail(why, &[&kept]),
    };
    let only = principal(&command, &value).is_some_and(|items| {
        items
            .iter()
            .all(|i| i.as_object().is_some_and(|o| o.keys().all(|k| *k == field)))
    });
    if !only {
        return Verdict::fail(format!("--fields {field} kept other fields"), &[&kept]);
    }
    let mut words = args;
    words.extend([
        "--fields".to_owned(),
        "pas_conform_no_such_field".to_owned(),
    ]);
    let words = ctx.machine(&words);
    let refused = ctx.cached(&words);
    let (name, code) = registry.role_code(ExitRole::Arguments);
    let said = json(&refused.out())
        .ok()
        .and_then(|v| v["error"]["code"].as_str().map(str::to_owned));
    if refused.code == Some(i32::from(code)) && said.as_deref() == Some(name.as_str()) {
        Verdict::pass(&[&kept, &refused])
    } else {
        Verdict::fail(
            format!("an unknown --fields name must exit {code} naming {name}"),
            &[&refused],
        )
    }
}

/// robot.compact: `--compact` drops the fields the spec's `compactOmit` names (robot 8.1).
pub fn compact(ctx: &mut Ctx) -> Verdict {
    let Some((args, command, _)) = listing_examples(ctx)
        .into_iter()
        .find(|(_, c, _)| !c.compact_omit.is_empty())
    else {
        return Verdict::skip("no example lists items of a command with compactOmit");
    };
    let mut words = args;
    words.push("--compact".to_owned());
    let words = ctx.machine(&words);
    let run = ctx.cached(&words);
    let value = match envelope(&run) {
        Ok(value) => value,
        Err(why) => return Verdict::fail(why, &[&run]),
    };
    let dropped = principal(&command, &value).is_some_and(|items| {
        items
            .iter()
            .all(|i| command.compact_omit.iter().all(|f| i.get(f).is_none()))
    });
    if dropped {
        Verdict::pass(&[&run])
    } else {
        Verdict::fail(
            format!("--compact kept some of {:?}", command.compact_omit),
            &[&run],
        )
    }
}

/// robot.confirm: a command the spec marks `confirm` refuses to act without `--yes` (6.4).
pub fn confirm(ctx: &mut Ctx) -> Verdict {
    let registry = match robot_registry(ctx) {
        Ok(registry) => registry,
        Err(verdict) => return verdict,
    };
    // The checker runs no write command's example; this one, without `--yes`, must change
    // nothing, which is the rule itself.
    let Some(text) = registry
        .commands
        .iter()
        .filter(|c| c.confirm)
        .flat_map(|c| &c.examples)
        .map(|e| e.command.clone())
        .next()
    else {
        return Verdict::skip("no example of a command that needs confirmation");
    };
    let words: Vec<String> = text
        .split_whitespace()
        .skip(1)
        .filter(|a| *a != "--yes")
        .map(str::to_owned)
        .collect();
    let words = ctx.machine(&words);
    let run = ctx.cached(&words);
    let value = match envelope(&run) {
        Ok(value) => value,
        Err(why) => return Verdict::fail(why, &[&run]),
    };
    let success = run.code.is_none_or(|code| {
        code == 0
            || registry
                .exit_codes
                .iter()
                .any(|c| c.success && i32::from(c.code) == code)
    });
    if value["status"] == "error" && !success {
        Verdict::pass(&[&run])
    } else {
        Verdict::fail("acted (or claimed success) without --yes", &[&run])
    }
}
