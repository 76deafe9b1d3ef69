//! The handlers of pas-gen's commands: typed arguments in, a reply out; they never print.

use crate::check::{self, FileReport};
use crate::render;
use pas::{Args, Context, Error, Reply};

/// `check SPEC...`: every diagnostic of every spec, as a list; exit 1 when any is an error.
pub fn check(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let names: Vec<String> = args.many("specs")?;
    let reports: Vec<FileReport> = names.iter().map(|name| check::check_file(name)).collect();
    let failed = reports.iter().filter(|r| r.has_errors()).count();
    let total = reports.len();
    let items: Vec<render::Item> = reports.iter().flat_map(render::items).collect();
    let verdict = (failed > 0).then(|| {
        Err(
            Error::general(format!("{failed} of {total} spec(s) have errors")).with_suggestion(
                "fix the errors listed above; each names its file:line:col and a hint",
            ),
        )
    });
    Ok(Reply::list_with_text(
        items.into_iter().map(Ok).chain(verdict),
        |item| item.text.clone(),
    ))
}

/// `schema`: the spec format's JSON Schema (pretty-printed for people, compact for agents).
pub fn schema(_args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let text = pas_spec::schema::spec_schema_json();
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| Error::internal(e.to_string()))?;
    Ok(Reply::object_with_text(&value, text.trim_end()))
}
