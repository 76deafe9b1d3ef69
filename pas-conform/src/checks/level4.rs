//! Level 4, the state contract (PAS 6): `rm` refuses an implicit or wildcard path, and a
//! container (which it would delete with everything in it), without `--force`, and the outputs
//! of `cp`, `rm`, `sync` and `feedback` have their PAS shapes.
//!
//! Level 4 tools write: these checks run the spec's examples of the state verbs for real, in the
//! scratch directory, so point them at a sandboxed tool.

use pas_spec::{Command, Registry};
use serde_json::{Value, json};

use super::streams::ndjson_lines;
use super::{Verdict, words};
use crate::context::Ctx;
use crate::runner::{Call, Run};
use crate::scratch::Scratch;

/// rm without a path, and rm with a wildcard, must fail with a structured error and no output.
pub fn rm_guard(ctx: &mut Ctx) -> Verdict {
    let bare = ctx.machine(&words(&["rm"]));
    let wildcard = ctx.machine(&words(&["rm", "/*"]));
    let runs = [ctx.cached(&bare), ctx.cached(&wildcard)];
    for run in &runs {
        let refused = run.code.is_some_and(|c| c != 0) && !run.timed_out && run.stdout.is_empty();
        if !refused {
            return Verdict::fail("rm went ahead (or printed output) without --force", &[run]);
        }
        if let Err(why) = super::errors::stderr_error(run) {
            return Verdict::fail(
                format!("the refusal is not a structured error: {why}"),
                &[run],
            );
        }
    }
    Verdict::pass(&[&runs[0], &runs[1]])
}

/// state.rm_container: `rm` of a container (a resource with children, which it would delete
/// with all of them: [`pas_spec::verbs::rm_containers`]) without --force is refused with a
/// structured error and no output, and the container is still there, holding what it held.
/// The container tried is a real one: each placeholder of its template is the first directory
/// `ls` lists at that level.
pub fn rm_container(ctx: &mut Ctx) -> Verdict {
    let Some(registry) = ctx.registry.clone() else {
        return Verdict::skip("no spec: which paths are containers comes from its resources");
    };
    let containers = pas_spec::verbs::rm_containers(&registry);
    if containers.is_empty() {
        return Verdict::skip("no resource offers rm on a container");
    }
    let mut judged: Vec<Run> = Vec::new();
    let mut unfound: Vec<&str> = Vec::new();
    for template in containers {
        let Some(path) = instance(ctx, template) else {
            unfound.push(template);
            continue;
        };
        // What the container holds (its listing, or its metadata when nothing lists it).
        let lists = registry
            .resources
            .iter()
            .any(|r| r.path == template && r.verbs.contains(&pas_spec::Verb::Ls));
        let look = ctx.machine(&words(&[if lists { "ls" } else { "stat" }, &path]));
        let before = ctx.run(&Call::new(&look));
        let run = ctx.run(&Call::new(&ctx.machine(&words(&["rm", &path]))));
        let after = ctx.run(&Call::new(&look));
        if run.timed_out || run.exited(0) {
            return Verdict::fail(
                format!(
                    "rm {path} (a {template}, a container) ran without --force ({}): it deletes \
                     everything in it, so it must refuse",
                    run.status()
                ),
                &[&before, &run, &after],
            );
        }
        if !run.stdout.is_empty() {
            return Verdict::fail(format!("rm {path} printed output while refusing"), &[&run]);
        }
        if let Err(why) = super::errors::stderr_error(&run) {
            return Verdict::fail(
                format!("the refusal is not a structured error: {why}"),
                &[&run],
            );
        }
        if !after.exited(0) || before.stdout != after.stdout {
            return Verdict::fail(
                format!("rm {path} without --force was refused, but the container changed"),
                &[&before, &run, &after],
            );
        }
        judged.push(run);
    }
    if judged.is_empty() {
        return Verdict::skip(format!(
            "no container found to try: ls lists nothing for {}",
            unfound.join(", ")
        ));
    }
    let verdict = Verdict::pass(&judged.iter().collect::<Vec<_>>());
    if unfound.is_empty() {
        verdict
    } else {
        verdict.note(format!("none found to try for {}", unfound.join(", ")))
    }
}

/// A path of `template` that exists: its literal segments as they are, each placeholder the
/// first directory (else the first entry) `ls` lists at that level.
fn instance(ctx: &mut Ctx, template: &str) -> Option<String> {
    let mut path = String::new();
    for segment in template.split('/').filter(|s| !s.is_empty()) {
        if !segment.starts_with('{') {
            path.push('/');
            path.push_str(segment);
            continue;
        }
        let parent = if path.is_empty() { "/" } else { path.as_str() };
        let listed = ctx.cached(&ctx.machine(&words(&["ls", parent])));
        if !listed.exited(0) {
            return None;
        }
        let entries = ndjson_lines(&listed.out()).unwrap_or_default();
        let child = entries
            .iter()
            .find(|e| e["type"] == "dir")
            .or_else(|| entries.first())
            .and_then(|e| e["path"].as_str())?;
        // The child's last segment under the path built so far.
        let name = child.trim_end_matches('/').rsplit('/').next()?;
        if name.is_empty() {
            return None;
        }
        path.push('/');
        path.push_str(name);
    }
    Some(if path.is_empty() {
        "/".to_owned()
    } else {
        path
    })
}

/// The PAS output schemas of the state verbs (one item, for the events of sync).
fn verb_schemas() -> Vec<Command> {
    let registry: Registry = serde_json::from_value(json!({
        "specVersion": 1, "name": "x", "version": "0.0.0", "summary": "x",
        "resources": [{"path": "/x", "verbs": ["cp", "rm", "sync", "feedback"]}],
        "commands": []
    }))
    .expect("a minimal registry deserialises");
    pas_spec::verbs::verb_commands(&registry)
}

/// state.shapes: each example of a state verb in the spec, run, prints its PAS shape.
pub fn shapes(ctx: &mut Ctx) -> Verdict {
    let Some(registry) = ctx.registry.clone() else {
        return Verdict::skip("no spec: the examples of cp, rm, sync and feedback come from it");
    };
    let mut checked: Vec<Run> = Vec::new();
    let mut missing = Vec::new();
    for shape in verb_schemas() {
        let Some(command) = registry
            .all_commands()
            .into_iter()
            .find(|c| c.name == shape.name)
        else {
            missing.push(shape.name.clone());
            continue;
        };
        let Some(example) = command.examples.first() else {
            missing.push(shape.name.clone());
            continue;
        };
        // An example that is not one argv cannot show the shape: as good as none.
        let Ok(words) = shell_words::split(&example.command) else {
            missing.push(shape.name.clone());
            continue;
        };
        let args: Vec<String> = words
            .into_iter()
            .skip(1)
            .filter(|w| w != "--agent")
            .collect();
        if let Some(scratch) = &ctx.scratch {
            Scratch::provide_files(scratch.path(), &args);
        }
        let args = ctx.machine(&args);
        let run = ctx.run(&Call::new(&args));
        let schema = shape.output_schema.clone().unwrap_or(Value::Null);
        let validator = jsonschema::validator_for(&schema).expect("the verb schemas compile");
        let items = ndjson_lines(&run.out()).unwrap_or_default();
        if !run.exited(0) || items.is_empty() {
            return Verdict::fail(
                format!("`{}` did not succeed with JSON", example.command),
                &[&run],
            );
        }
        if let Some(bad) = items
            .iter()
            .find_map(|i| validator.iter_errors(i).next().map(|e| e.to_string()))
        {
            return Verdict::fail(format!("`{}`: {bad}", example.command), &[&run]);
        }
        checked.push(run);
    }
    if !missing.is_empty() {
        return Verdict::fail(
            format!(
                "no command or no runnable example for: {}",
                missing.join(", ")
            ),
            &[],
        );
    }
    Verdict::pass(&checked.iter().collect::<Vec<_>>())
}

/// The name given to a resource that does not exist (a placeholder's value).
const MISSING: &str = "pas-conform-no-such";

/// state.sync_source: `sync` of a source that does not exist fails before any work starts: a
/// structured error, and stdout empty (PAS 2.1.1; the missing path is known before the first
/// event).
pub fn sync_source(ctx: &mut Ctx) -> Verdict {
    let Some(registry) = ctx.registry.clone() else {
        return Verdict::skip("no spec: the paths sync takes come from its resources");
    };
    let sync_paths: Vec<String> = registry
        .resources
        .iter()
        .filter(|r| r.verbs.contains(&pas_spec::Verb::Sync))
        .map(|r| r.path.clone())
        .collect();
    // A placeholder names a missing resource by itself; else a child below a sync path.
    let missing = match sync_paths.iter().find(|path| path.contains('{')) {
        Some(template) => placeholders_as(template, MISSING),
        None => match sync_paths.first() {
            Some(path) => format!("{}/{MISSING}", path.trim_end_matches('/')),
            None => return Verdict::skip("no resource offers sync"),
        },
    };
    let args = ctx.machine(&words(&["sync", &missing, "./pas-conform-sync"]));
    let run = ctx.run(&Call::new(&args));
    if run.timed_out || run.exited(0) {
        return Verdict::fail(
            format!("sync of the missing {missing} did not fail"),
            &[&run],
        );
    }
    if !run.stdout.is_empty() {
        return Verdict::fail(
            "sync of a missing source wrote to stdout before failing (check the source first)",
            &[&run],
        );
    }
    if let Err(why) = super::errors::stderr_error(&run) {
        return Verdict::fail(
            format!("the failure is not a structured error: {why}"),
            &[&run],
        );
    }
    Verdict::pass(&[&run])
}

/// `template` with every `{placeholder}` replaced by `value`.
fn placeholders_as(template: &str, value: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in template.chars() {
        match c {
            '{' => {
                inside = true;
                out.push_str(value);
            }
            '}' => inside = false,
            _ if inside => {}
            _ => out.push(c),
        }
    }
    out
}
