//! `pas-gen plugin SPEC --out DIR`: the tool's Agent Plugins package in `DIR/<name>/`: its
//! manifest `plugin.json`, its Agent Skill under `skills/<name>/` and its MCP server in
//! `mcp.json`, the very files the CLI built from SPEC writes with `docs --plugin DIR`. DIR is
//! where a client looks for plugins, or any directory to publish the package from.
//!
//! Like `pas-gen skill`, it writes the package's files and no other: a file of the same name is
//! replaced, anything else stays, and the reply lists every file written.

use pas::{Args, Context, Error, Reply};
use pas_spec::faces::plugin;

use crate::cmd_docs::load_spec;
use crate::cmd_skill::write_package;

pub fn plugin(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let registry = load_spec(&args.require::<String>("spec")?)?;
    let name = plugin::name(&registry);
    let (dir, value) = write_package(args, &name, plugin::files(&registry))?;
    let files: Vec<&str> = value["files"]
        .as_array()
        .map(|files| files.iter().filter_map(|f| f.as_str()).collect())
        .unwrap_or_default();
    let text = format!(
        "wrote the plugin {name} in {} ({} files: {})",
        dir.display(),
        files.len(),
        files.join(", ")
    );
    Ok(Reply::object_with_text(&value, text))
}
