//! `tools [NAME]`: the catalog face (`pas_spec::faces::catalog`), or one entry of it.

use pas_spec::Registry;
use pas_spec::faces::catalog;

use crate::error::Error;
use crate::handler::args::Args;
use crate::reply::Reply;

/// The constant of `tools NAME` for a name the registry does not have.
pub use pas_spec::runtime_codes::UNKNOWN_TOOL;

pub(crate) fn run(registry: &Registry, args: &Args) -> Result<Reply, Error> {
    let Some(name) = args.get::<String>("name")? else {
        return Ok(Reply::object(&catalog::catalog(registry)));
    };
    match catalog::tool(registry, &name) {
        Some(tool) => Ok(Reply::object(&tool)),
        None => Err(unknown(registry, &name, UNKNOWN_TOOL)),
    }
}

/// The error of `tools NAME` for a name no command has, under the profile's constant (compose:
/// [`UNKNOWN_TOOL`]; the others: a built-in constant their ERROR CODES document).
pub(crate) fn unknown(registry: &Registry, name: &str, code: &'static str) -> Error {
    let nearest = catalog::nearest(registry, name);
    let hint = if nearest.is_empty() {
        format!(
            "run `{}` for every command's dotted name",
            pas_spec::surface::builtin_call(registry, "tools")
        )
    } else {
        format!(
            "did you mean {}? `{}` lists every command",
            nearest.join(", "),
            pas_spec::surface::builtin_call(registry, "tools")
        )
    };
    Error::new(code, format!("no command is named `{name}`"))
        .with_suggestion(hint)
        .with_details(serde_json::json!({ "name": name, "nearest": nearest }))
}
