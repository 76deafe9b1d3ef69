//! safety.force: a destructive command run without its confirm flag (`--force`) is refused and
//! changes nothing. Each destructive command's example is run without the flag; what the tool
//! shows before and after (every read example's output, and every file under the scratch
//! directory, where the tool's XDG homes and working directory are) must be the same.

use std::collections::BTreeMap;
use std::path::Path;

use pas_spec::Effect;

use super::Verdict;
use super::declared::error_name;
use crate::context::Ctx;
use crate::plan;
use crate::runner::{Call, Run};
use crate::target::Contract;

/// What the tool shows of its state: each read example's stdout, and each scratch file's bytes.
#[derive(PartialEq)]
struct State {
    reads: Vec<(String, Vec<u8>)>,
    files: BTreeMap<String, Vec<u8>>,
}

fn state(ctx: &mut Ctx) -> State {
    let examples = ctx.examples.clone();
    // Only the examples that read: running one that writes (a robot `plan` starts a session)
    // would change the state this compares.
    let reads = examples
        .iter()
        .filter(|planned| {
            planned
                .command
                .as_ref()
                // A robot command that starts a session writes one, whatever its effect says.
                .is_some_and(|c| {
                    c.effect == Effect::Read
                        && c.session != Some(pas_spec::robot::SessionUse::Create)
                })
        })
        .map(|planned| {
            let args = ctx.machine(&planned.args);
            let run = ctx.run(&Call::new(&args));
            (planned.text.clone(), without_timings(&run.stdout))
        })
        .collect();
    let mut files = BTreeMap::new();
    if let Some(scratch) = &ctx.scratch {
        walk(scratch.path(), scratch.path(), &mut files);
    }
    State { reads, files }
}

/// Output with the envelopes' timings set aside (`meta.elapsed`, `duration_ms`): they differ
/// between two identical calls.
fn without_timings(stdout: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(stdout);
    let lines: Vec<String> = text
        .lines()
        .map(
            |line| match serde_json::from_str::<serde_json::Value>(line) {
                Ok(mut value) => {
                    if let Some(meta) = value.get_mut("meta").and_then(|m| m.as_object_mut()) {
                        meta.remove("elapsed");
                        // A new id on every call (issue 17, failure mode 33).
                        meta.remove("requestId");
                    }
                    if let Some(object) = value.as_object_mut() {
                        // robot: the envelope's timing and its time of writing.
                        object.remove("duration_ms");
                        object.remove("generated_at");
                    }
                    value.to_string()
                }
                Err(_) => line.to_owned(),
            },
        )
        .collect();
    lines.join("\n").into_bytes()
}

fn walk(root: &Path, dir: &Path, files: &mut BTreeMap<String, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            walk(root, &path, files);
        } else if kind.is_file() {
            let name = path.strip_prefix(root).unwrap_or(&path);
            files.insert(
                name.to_string_lossy().into_owned(),
                std::fs::read(&path).unwrap_or_default(),
            );
        }
    }
}

/// safety.force (every contract).
pub fn force(ctx: &mut Ctx) -> Verdict {
    let Some(registry) = ctx.registry.clone() else {
        return Verdict::skip("no spec: the destructive commands and their examples come from it");
    };
    let confirm = format!("--{}", pas_spec::surface::of(registry.profile).confirm_flag);
    let destructive: Vec<_> = registry
        .commands
        .iter()
        .filter(|c| c.effect == Effect::Destructive)
        .collect();
    if destructive.is_empty() {
        return Verdict::skip("the spec declares no destructive command");
    }
    let mut judged: Vec<Run> = Vec::new();
    let mut unjudged: Vec<String> = Vec::new();
    for command in destructive {
        let Some(example) = command.examples.first() else {
            unjudged.push(format!("{} has no example to run", command.name));
            continue;
        };
        let args = match plan::argv(&registry, &example.command) {
            Ok(args) => args,
            Err(why) => {
                unjudged.push(format!("`{}`: {why}", example.command));
                continue;
            }
        };
        let args: Vec<String> = args.into_iter().filter(|a| *a != confirm).collect();
        let before = state(ctx);
        let run = ctx.run(&Call::new(&ctx.machine(&args)));
        let mut after = state(ctx);
        if before.files == after.files && before.reads != after.reads {
            // A read whose output changes by itself (an uptime, a process's age) tells nothing
            // about the refused call: one that changes again between two reads a second apart
            // is set aside; one that holds still is judged.
            let examples = ctx.examples.clone();
            for index in 0..after.reads.len().min(before.reads.len()) {
                if after.reads[index] == before.reads[index] {
                    continue;
                }
                let Some(planned) = examples.iter().find(|p| p.text == after.reads[index].0) else {
                    continue;
                };
                let args = ctx.machine(&planned.args);
                let first = without_timings(&ctx.run(&Call::new(&args)).stdout);
                std::thread::sleep(std::time::Duration::from_millis(1100));
                let second = without_timings(&ctx.run(&Call::new(&args)).stdout);
                if first != second {
                    after.reads[index] = before.reads[index].clone();
                }
            }
        }
        if run.timed_out || run.exited(0) {
            return Verdict::fail(
                format!(
                    "{} ran without {confirm} ({}): a destructive command must refuse",
                    command.name,
                    run.status()
                ),
                &[&run],
            );
        }
        if ctx.contract == Contract::Pas && !run.stdout.is_empty() {
            return Verdict::fail(
                format!("{} printed output while refusing", command.name),
                &[&run],
            );
        }
        if let Err(why) = error_name(ctx.contract, &run) {
            return Verdict::fail(
                format!("the refusal is not a structured error: {why}"),
                &[&run],
            );
        }
        if before != after {
            return Verdict::fail(
                format!(
                    "{} without {confirm} was refused, but the tool's state changed",
                    command.name
                ),
                &[&run],
            );
        }
        judged.push(run);
    }
    if judged.is_empty() {
        return Verdict::skip(format!(
            "no destructive command could be run: {}",
            unjudged.join("; ")
        ));
    }
    let verdict = Verdict::pass(&judged.iter().collect::<Vec<_>>());
    if unjudged.is_empty() {
        verdict
    } else {
        verdict.note(format!("not judged: {}", unjudged.join("; ")))
    }
}
