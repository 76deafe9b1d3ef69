//! Level 3, the navigation contract (PAS 5): `ls`, `cat` and `stat` outputs, and the path
//! conventions. The tool is walked from its root: `ls /`, then the first file it lists.

use serde_json::Value;

use super::streams::ndjson_lines;
use super::{Verdict, json, words};
use crate::context::Ctx;
use crate::runner::Run;

/// `ls PATH` in machine mode.
fn list(ctx: &mut Ctx, path: &str) -> Run {
    let args = ctx.machine(&words(&["ls", path]));
    ctx.cached(&args)
}

/// The entries of `ls /`, when it succeeds with NDJSON.
fn root(ctx: &mut Ctx) -> (Run, Option<Vec<Value>>) {
    let run = list(ctx, "/");
    let entries = run
        .exited(0)
        .then(|| ndjson_lines(&run.out()).ok())
        .flatten();
    (run, entries)
}

/// An entry's `path` when its `type` is `kind`.
fn first_of(entries: &[Value], kind: &str) -> Option<String> {
    entries
        .iter()
        .find(|e| e["type"] == kind)
        .and_then(|e| e["path"].as_str())
        .map(str::to_owned)
}

/// At most this many `ls` calls to find a file: a data tool's files may sit a few directories
/// down (`/collections/books/docs/42`), but the walk must stay short.
const MAX_LISTINGS: usize = 8;

/// A file to read: the first one a breadth-first walk from the root lists.
pub(super) fn a_file(ctx: &mut Ctx) -> Option<String> {
    let (_, entries) = root(ctx);
    let mut level = entries?;
    let mut listings = 1;
    loop {
        if let Some(file) = first_of(&level, "file") {
            return Some(file);
        }
        let dirs: Vec<String> = level
            .iter()
            .filter(|e| e["type"] == "dir")
            .filter_map(|e| e["path"].as_str().map(str::to_owned))
            .collect();
        let mut next = Vec::new();
        for dir in dirs {
            if listings == MAX_LISTINGS {
                break;
            }
            listings += 1;
            let run = list(ctx, &dir);
            if let Ok(children) = ndjson_lines(&run.out()) {
                if let Some(file) = first_of(&children, "file") {
                    return Some(file);
                }
                next.extend(children);
            }
        }
        if next.is_empty() || listings == MAX_LISTINGS {
            return None;
        }
        level = next;
    }
}

/// nav.ls: `ls /` prints NDJSON whose lines have a string `path` and a `type` of file or dir.
pub fn ls(ctx: &mut Ctx) -> Verdict {
    let (run, entries) = root(ctx);
    let Some(entries) = entries else {
        return Verdict::fail("`ls /` did not exit 0 with NDJSON", &[&run]);
    };
    for entry in &entries {
        let typed = matches!(entry["type"].as_str(), Some("file" | "dir"));
        if !entry["path"].is_string() || !typed {
            return Verdict::fail(
                format!("an entry lacks path or type file|dir: {entry}"),
                &[&run],
            );
        }
    }
    Verdict::pass(&[&run])
}

/// nav.cat: `cat FILE` prints valid JSON (one value, or NDJSON chunks).
pub fn cat(ctx: &mut Ctx) -> Verdict {
    let Some(file) = a_file(ctx) else {
        return Verdict::skip("`ls` lists no file to read");
    };
    let args = ctx.machine(&words(&["cat", &file]));
    let run = ctx.cached(&args);
    let text = run.out();
    if run.exited(0) && (json(&text).is_ok() || ndjson_lines(&text).is_ok_and(|l| !l.is_empty())) {
        Verdict::pass(&[&run])
    } else {
        Verdict::fail("`cat` did not exit 0 with JSON", &[&run])
    }
}

/// nav.stat: `stat FILE` prints an object with path, type and (for a file) size.
pub fn stat(ctx: &mut Ctx) -> Verdict {
    let Some(file) = a_file(ctx) else {
        return Verdict::skip("`ls` lists no file to stat");
    };
    let args = ctx.machine(&words(&["stat", &file]));
    let run = ctx.cached(&args);
    let Ok(value) = json(&run.out()) else {
        return Verdict::fail("`stat` did not print one JSON object", &[&run]);
    };
    let ok = run.exited(0)
        && value["path"].is_string()
        && matches!(value["type"].as_str(), Some("file" | "dir"))
        && (value["type"] != "file" || value["size"].is_u64());
    if ok {
        Verdict::pass(&[&run])
    } else {
        Verdict::fail("`stat` lacks path, type file|dir or a file's size", &[&run])
    }
}

/// nav.paths: `ls /` and `ls ""` agree; a directory with and without its trailing slash agrees.
pub fn paths(ctx: &mut Ctx) -> Verdict {
    let (slash, entries) = root(ctx);
    let empty = list(ctx, "");
    if !slash.exited(0) {
        return Verdict::fail("`ls /` did not exit 0", &[&slash]);
    }
    if slash.stdout != empty.stdout || slash.code != empty.code {
        return Verdict::fail("`ls /` and `ls \"\"` differ", &[&slash, &empty]);
    }
    let Some(dir) = entries.as_deref().and_then(|e| first_of(e, "dir")) else {
        return Verdict::pass(&[&slash, &empty])
            .note("no directory listed: trailing slash not tried");
    };
    let bare = dir.trim_end_matches('/').to_owned();
    let plain = list(ctx, &bare);
    let trailing = list(ctx, &format!("{bare}/"));
    if !plain.exited(0) || plain.stdout != trailing.stdout || plain.code != trailing.code {
        return Verdict::fail(
            "a directory with and without a trailing slash differs",
            &[&plain, &trailing],
        );
    }
    Verdict::pass(&[&slash, &empty, &plain, &trailing])
}
