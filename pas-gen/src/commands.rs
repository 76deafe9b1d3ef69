//! The handlers of pas-gen's commands: typed arguments in, a reply out (`check` writes its human
//! diagnostics to stderr itself, where a compiler's go).

use crate::check::{self, FileReport};
use crate::render;
use pas::{Args, Context, Error, Reply};
use std::io::Write;

/// `check SPEC...`: every diagnostic of every spec; exit 1 when any is an error. Agents get one
/// JSON diagnostic per line on stdout; people get rustc-style diagnostics and a one-line summary
/// on stderr (stdout stays empty, as for a compiler).
pub fn check(args: &Args, ctx: &Context) -> Result<Reply, Error> {
    let names: Vec<String> = args.many("specs")?;
    let mut reports: Vec<FileReport> = Vec::new();
    for name in &names {
        reports.push(match name.as_str() {
            // The runtime's stdin: a pipe, or the file of `--input-file`.
            "-" => {
                let read = match ctx.stdin()? {
                    Some(reader) => pas_spec::load::read_reader("<stdin>", reader),
                    None => pas_spec::load::read_reader("<stdin>", std::io::empty()),
                };
                check::report(name, read)
            }
            _ => check::check_file(name),
        });
    }
    let failed = reports.iter().filter(|r| r.has_errors()).count();
    let total = reports.len();
    let items: Vec<render::Item> = reports.iter().flat_map(render::items).collect();
    let verdict = (failed > 0).then(|| {
        Error::general(format!("{failed} of {total} spec(s) have errors"))
            .with_suggestion("fix the errors listed above; each names its file:line:col and a hint")
    });
    if ctx.agent() {
        return Ok(Reply::list_with_text(
            items.into_iter().map(Ok).chain(verdict.map(Err)),
            |item| item.text.clone(),
        ));
    }
    let mut stderr = std::io::stderr().lock();
    for item in &items {
        // A closed stderr leaves nothing to tell; the exit code still says it all.
        let _ = writeln!(stderr, "{}", item.text);
    }
    if let Some(verdict) = verdict {
        return Err(verdict);
    }
    let warnings = reports
        .iter()
        .flat_map(|r| &r.diagnostics)
        .filter(|d| !d.is_error())
        .count();
    let _ = writeln!(stderr, "{}", render::summary(total, warnings));
    Ok(Reply::none())
}

/// `schema`: the spec format's JSON Schema (pretty-printed for people, compact for agents).
pub fn schema(_args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let text = pas_spec::schema::spec_schema_json();
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| Error::internal(e.to_string()))?;
    Ok(Reply::object_with_text(&value, text.trim_end()))
}
