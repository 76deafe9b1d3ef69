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

/// The `safety_gates` of a success envelope, where the spec keeps them (`gatesAt`), if any.
fn gates_of<'a>(registry: &Registry, value: &'a Value) -> Option<&'a Value> {
    let data = &value["data"];
    let at = registry.robot.as_ref().and_then(|r| r.gates_at.as_deref());
    at.and_then(|field| data[field].get("safety_gates"))
        .or_else(|| data.get("safety_gates"))
}

/// robot.gates: where an example reports safety gates (robot 9.2), each entry is a gate the spec
/// declares with a boolean `passed`, and `all_gates_passed` is true exactly when every one
/// passed.
pub fn gates(ctx: &mut Ctx) -> Verdict {
    let registry = match robot_registry(ctx) {
        Ok(registry) => registry,
        Err(verdict) => return verdict,
    };
    if registry.gates().is_empty() {
        return Verdict::skip("the spec declares no safety gates");
    }
    let mut judged = Vec::new();
    for (_, run) in ctx.example_runs() {
        let Ok(value) = envelope(&run) else { continue };
        if value["status"] == "error" {
            continue;
        }
        let Some(gates) = gates_of(&registry, &value) else {
            continue;
        };
        let Some(entries) = gates.as_object() else {
            return Verdict::fail("safety_gates is not an object", &[&run]);
        };
        let mut all = true;
        for (name, entry) in entries.iter().filter(|(k, _)| *k != "all_gates_passed") {
            if !registry.gates().iter().any(|g| &g.name == name) {
                return Verdict::fail(
                    format!("safety_gates reports `{name}`, a gate the spec does not declare"),
                    &[&run],
                );
            }
            let Some(passed) = entry["passed"].as_bool() else {
                return Verdict::fail(format!("gate `{name}` has no boolean passed"), &[&run]);
            };
            all &= passed;
        }
        if entries.get("all_gates_passed").and_then(Value::as_bool) != Some(all) {
            return Verdict::fail(
                format!("all_gates_passed is not {all}, the AND of every gate's passed"),
                &[&run],
            );
        }
        judged.push(run);
    }
    if judged.is_empty() {
        return Verdict::skip("no example's envelope reports safety_gates");
    }
    Verdict::pass(&judged.iter().collect::<Vec<_>>())
}

/// robot.resume: a session an example creates is listed by `sessions --session ID` in a state
/// the spec declares, with the spec's resumable flag; `--resume` of an unknown session, and of
/// one in a state that is not resumable, is the session code (robot 7.1, 7.2). Only commands
/// that need no confirmation are run with `--resume`, and only where the runtime must refuse.
pub fn resume(ctx: &mut Ctx) -> Verdict {
    let registry = match robot_registry(ctx) {
        Ok(registry) => registry,
        Err(verdict) => return verdict,
    };
    let Some(spec) = registry.sessions().cloned() else {
        return Verdict::skip("the spec declares no sessions");
    };
    let surface = pas_spec::surface::of(registry.profile);
    let Some(resumer) = registry
        .commands
        .iter()
        .find(|c| c.session == Some(SessionUse::Continue) && !surface.needs_confirm(c))
        .cloned()
    else {
        return Verdict::skip("no command continues a session without confirmation");
    };
    let (name, code) = registry.role_code(ExitRole::Session);
    let refused = |run: &Run| {
        let said = json(&run.out())
            .ok()
            .and_then(|v| v["error"]["code"].as_str().map(str::to_owned));
        run.code == Some(i32::from(code)) && said.as_deref() == Some(name.as_str())
    };
    // The required parameters of the resuming command, with a made-up value.
    let mut base: Vec<String> = resumer.argv_path();
    for param in resumer.parameters.iter().filter(|p| p.required) {
        base.push(format!("--{}", param.name));
        base.push("1".to_owned());
    }
    let resume_of = |id: &str| {
        let mut words = base.clone();
        words.extend(["--session".to_owned(), id.to_owned(), "--resume".to_owned()]);
        words
    };
    let unknown = format!("{}-20000101-000000-aaaa", spec.prefix);
    let args = ctx.machine(&resume_of(&unknown));
    let run = ctx.cached(&args);
    if !refused(&run) {
        return Verdict::fail(
            format!("--resume of an unknown session must exit {code} naming {name}"),
            &[&run],
        );
    }
    let mut judged = vec![run];
    let created = ctx.example_runs().into_iter().find_map(|(planned, run)| {
        let creates = planned.command.as_ref()?.session == Some(SessionUse::Create);
        let id = envelope(&run).ok()?["session_id"].as_str()?.to_owned();
        creates.then_some((id, run))
    });
    let Some((id, created)) = created else {
        return Verdict::pass(&judged.iter().collect::<Vec<_>>())
            .note("no example creates a session");
    };
    let args = ctx.machine(&["sessions".to_owned(), "--session".to_owned(), id.clone()]);
    let shown = ctx.cached(&args);
    let value = match envelope(&shown) {
        Ok(value) => value,
        Err(why) => return Verdict::fail(why, &[&created, &shown]),
    };
    // The detail is `data.session` (the pas runtime's), or `data` itself.
    let detail = match value["data"].get("session") {
        Some(session) if session.is_object() => session.clone(),
        _ => value["data"].clone(),
    };
    let state = detail["state"].as_str().unwrap_or_default().to_owned();
    let Some(declared) = spec.state(&state) else {
        return Verdict::fail(
            format!("session {id} is in `{state}`, a state the spec does not declare"),
            &[&created, &shown],
        );
    };
    if detail["resumable"].as_bool() != Some(declared.resumable) {
        return Verdict::fail(
            format!(
                "`{state}` is {}resumable in the spec; `sessions` says otherwise",
                if declared.resumable { "" } else { "not " }
            ),
            &[&shown],
        );
    }
    judged.extend([created, shown]);
    if declared.resumable {
        return Verdict::pass(&judged.iter().collect::<Vec<_>>()).note(format!(
            "the example's session is `{state}` (resumable): resuming it would act"
        ));
    }
    let args = ctx.machine(&resume_of(&id));
    let run = ctx.cached(&args);
    if !refused(&run) {
        return Verdict::fail(
            format!(
                "--resume of a `{state}` session (not resumable) must exit {code} naming {name}"
            ),
            &[&run],
        );
    }
    judged.push(run);
    Verdict::pass(&judged.iter().collect::<Vec<_>>())
}
