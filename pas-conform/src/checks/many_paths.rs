//! fm70.many_paths (CLI Agent Spec §70, Single-Argument Arity Restriction): `stat` takes several
//! paths in one call and answers one JSON line per path, in the order given, each
//! `{"path", "ok": true, "result"}`; a line that says `"ok": false` makes the call exit
//! non-zero, so a failed path is never a silent success.

use serde_json::Value;

use super::streams::ndjson_lines;
use super::{Verdict, words};
use crate::context::Ctx;

/// A path no tool's resources hold.
const MISSING: &str = "/pas-conform-fm70-no-such-path";

/// fm70.many_paths: `stat FILE FILE` answers two `{path, ok: true, result}` lines; `stat FILE
/// MISSING`, when it answers per path, exits non-zero if any line says `ok: false`.
pub fn many_paths(ctx: &mut Ctx) -> Verdict {
    let Some(file) = super::level3::a_file(ctx) else {
        return Verdict::skip("`ls` lists no file to stat");
    };
    let args = ctx.machine(&words(&["stat", &file, &file]));
    let twice = ctx.cached(&args);
    let items = ndjson_lines(&twice.out()).unwrap_or_default();
    let each_ok = |item: &Value| {
        item["path"] == file.as_str() && item["ok"] == true && item["result"].is_object()
    };
    if !twice.exited(0) || items.len() != 2 || !items.iter().all(each_ok) {
        return Verdict::fail(
            "`stat FILE FILE` did not exit 0 with two {path, ok: true, result} lines",
            &[&twice],
        );
    }
    let args = ctx.machine(&words(&["stat", &file, MISSING]));
    let mixed = ctx.cached(&args);
    let items = ndjson_lines(&mixed.out()).unwrap_or_default();
    let failed = items.iter().any(|item| item["ok"] == false);
    if failed && mixed.exited(0) {
        return Verdict::fail(
            "`stat FILE MISSING` said ok: false for a path and still exited 0",
            &[&twice, &mixed],
        );
    }
    Verdict::pass(&[&twice, &mixed])
}
