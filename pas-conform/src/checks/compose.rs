//! The compose contract: one `{ok,data,meta}` envelope per call on stdout, errors with a code and
//! a hint, exit 0/1/2, and the orientation surface (`tools`, `tools <name>`, `health`,
//! `config show`, `--toon`).

use serde_json::Value;

use super::errors::is_upper_snake;
use super::{Verdict, json, words};
use crate::context::Ctx;
use crate::runner::Run;

/// The one envelope a call printed, or why it is not one.
pub fn envelope(run: &Run) -> Result<Value, String> {
    let text = run.out();
    if text.trim_end_matches('\n').contains('\n') {
        return Err("stdout holds more than one line".into());
    }
    let value = json(&text).map_err(|e| format!("stdout is not one JSON value: {e}"))?;
    let Some(ok) = value["ok"].as_bool() else {
        return Err("no boolean `ok`".into());
    };
    if !value["meta"]["tool"].is_string() {
        return Err("no `meta.tool`".into());
    }
    match ok {
        true if value.get("data").is_none() => Err("ok:true without `data`".into()),
        false if !value["error"].is_object() => Err("ok:false without an `error` object".into()),
        true if run.code != Some(0) => Err(format!("ok:true but {}", run.status())),
        false if run.code == Some(0) => Err("ok:false but exit 0".into()),
        _ => Ok(value),
    }
}

/// The orientation calls, run once each.
fn surface(ctx: &mut Ctx, args: &[&str]) -> Run {
    ctx.cached(&words(args))
}

/// compose.envelope: the examples and the orientation calls each print one envelope.
pub fn envelope_check(ctx: &mut Ctx) -> Verdict {
    let mut runs: Vec<Run> = ctx.example_runs().into_iter().map(|(_, r)| r).collect();
    for args in [&["tools"][..], &["health"], &["config", "show"]] {
        runs.push(surface(ctx, args));
    }
    Verdict::every(&runs, envelope)
}

/// compose.error: an unknown flag gives an error envelope with code, message and hint.
pub fn error(ctx: &mut Ctx) -> Verdict {
    let run = super::errors::unknown_flag_run(ctx);
    let value = match envelope(&run) {
        Ok(value) => value,
        Err(why) => return Verdict::fail(why, &[&run]),
    };
    let error = &value["error"];
    if value["ok"] != false {
        return Verdict::fail("an unknown flag did not fail", &[&run]);
    }
    if !error["code"].as_str().is_some_and(is_upper_snake) {
        return Verdict::fail("error.code is not an UPPER_SNAKE constant", &[&run]);
    }
    if !error["message"].is_string() || !error["hint"].is_string() {
        return Verdict::fail("error lacks a string message or hint", &[&run]);
    }
    if !matches!(run.code, Some(1 | 2)) {
        return Verdict::fail(format!("{}: errors exit 1 or 2", run.status()), &[&run]);
    }
    Verdict::pass(&[&run])
}

/// The catalog's tools, or why there are none.
fn catalog(ctx: &mut Ctx) -> (Run, Result<Vec<Value>, String>) {
    let run = surface(ctx, &["tools"]);
    let tools = envelope(&run).and_then(|v| match &v["data"]["tools"] {
        Value::Array(tools) => Ok(tools.clone()),
        _ => Err("`tools` has no data.tools array".into()),
    });
    (run, tools)
}

/// The per-tool fields compose requires (outputSchema and inputSchema only when known).
const FIELDS: [&str; 9] = [
    "name",
    "command",
    "category",
    "description",
    "parameters",
    "outputFields",
    "idempotent",
    "rateLimit",
    "example",
];

/// compose.tools: globalFlags, and every field on every tool and parameter.
pub fn tools(ctx: &mut Ctx) -> Verdict {
    let (run, tools) = catalog(ctx);
    let tools = match tools {
        Ok(tools) => tools,
        Err(why) => return Verdict::fail(why, &[&run]),
    };
    let data = envelope(&run)
        .map(|v| v["data"].clone())
        .unwrap_or_default();
    if !data["globalFlags"].is_array() {
        return Verdict::fail("the catalog has no globalFlags", &[&run]);
    }
    for tool in &tools {
        if let Some(field) = FIELDS.iter().find(|f| tool.get(**f).is_none()) {
            return Verdict::fail(format!("tool {} has no `{field}`", tool["name"]), &[&run]);
        }
        for param in tool["parameters"].as_array().into_iter().flatten() {
            if let Some(field) = ["name", "type", "required", "description"]
                .iter()
                .find(|f| param.get(**f).is_none())
            {
                return Verdict::fail(
                    format!("a parameter of {} has no `{field}`", tool["name"]),
                    &[&run],
                );
            }
        }
    }
    Verdict::pass(&[&run])
}

/// compose.tools_order: category, then name.
pub fn tools_order(ctx: &mut Ctx) -> Verdict {
    let (run, tools) = catalog(ctx);
    let Ok(tools) = tools else {
        return Verdict::fail("no catalog", &[&run]);
    };
    let keys: Vec<(String, String)> = tools
        .iter()
        .map(|t| {
            (
                t["category"].as_str().unwrap_or("").to_owned(),
                t["name"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    if keys == sorted {
        Verdict::pass(&[&run])
    } else {
        Verdict::fail("the catalog is not sorted by category, then name", &[&run])
    }
}

/// compose.tools_detail: `tools NAME` prints that tool.
pub fn tools_detail(ctx: &mut Ctx) -> Verdict {
    let (run, tools) = catalog(ctx);
    let Some(name) = tools.ok().and_then(|t| {
        t.first()
            .and_then(|t| t["name"].as_str().map(str::to_owned))
    }) else {
        return Verdict::fail("no tool in the catalog to ask about", &[&run]);
    };
    let detail = ctx.cached(&words(&["tools", &name]));
    match envelope(&detail) {
        Ok(value) if value["data"]["name"] == name.as_str() => Verdict::pass(&[&detail]),
        Ok(_) => Verdict::fail(format!("data.name is not {name}"), &[&detail]),
        Err(why) => Verdict::fail(why, &[&detail]),
    }
}

/// compose.health: a lifecycle status and checks that each carry a fix.
pub fn health(ctx: &mut Ctx) -> Verdict {
    let run = surface(ctx, &["health"]);
    let value = match envelope(&run) {
        Ok(value) => value,
        Err(why) => return Verdict::fail(why, &[&run]),
    };
    let data = &value["data"];
    if !matches!(
        data["status"].as_str(),
        Some("ready" | "degraded" | "blocked")
    ) {
        return Verdict::fail("data.status is not ready, degraded or blocked", &[&run]);
    }
    let Some(checks) = data["checks"].as_array() else {
        return Verdict::fail("no data.checks array", &[&run]);
    };
    if let Some(check) = checks.iter().find(|c| c.get("fix").is_none()) {
        return Verdict::fail(format!("a check has no `fix`: {check}"), &[&run]);
    }
    Verdict::pass(&[&run])
}

/// compose.config_show: a successful envelope.
pub fn config_show(ctx: &mut Ctx) -> Verdict {
    let run = surface(ctx, &["config", "show"]);
    match envelope(&run) {
        Ok(value) if value["ok"] == true => Verdict::pass(&[&run]),
        Ok(_) => Verdict::fail("config show failed", &[&run]),
        Err(why) => Verdict::fail(why, &[&run]),
    }
}

/// compose.toon: `tools --toon` is the envelope in TOON: `ok`, `data` and `meta` keys, not JSON.
pub fn toon(ctx: &mut Ctx) -> Verdict {
    let run = surface(ctx, &["tools", "--toon"]);
    let text = run.out();
    if !run.exited(0) || json(&text).is_ok() {
        return Verdict::fail("`tools --toon` did not exit 0 with TOON", &[&run]);
    }
    let keys: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with([' ', '\t']))
        .filter_map(|l| l.split(':').next())
        .collect();
    if ["ok", "data", "meta"].iter().all(|k| keys.contains(k)) {
        Verdict::pass(&[&run])
    } else {
        Verdict::fail(
            "the TOON document lacks ok, data or meta at its top",
            &[&run],
        )
    }
}

/// compose.exit_codes: 0, 1 or 2 only.
pub fn exit_codes(ctx: &mut Ctx) -> Verdict {
    for run in ctx.history.clone() {
        if run.code.is_some_and(|c| !(0..=2).contains(&c)) {
            return Verdict::fail(
                format!("{}: compose allows 0, 1 and 2", run.status()),
                &[&run],
            );
        }
    }
    Verdict::pass(&[])
}
