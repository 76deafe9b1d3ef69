//! `TOOL docs --plugin DIR`: the tool's Agent Plugins package written into `DIR/<name>/`, the
//! very files `pas-gen plugin SPEC --out DIR` writes from the spec (`pas_spec::faces::plugin`).
//!
//! Like `pas-gen skill` and `pas-gen plugin`, it writes the package's files and no other:
//! a file of the same name is replaced, anything else in the directory stays, and the answer
//! lists every file written so that nothing is replaced unsaid. Each file is written whole in
//! one rename (`crate::services::atomic_file`), so a reader never sees half a manifest.

use std::path::Path;

use pas_spec::Registry;
use pas_spec::faces::plugin;
use pas_spec::surface::DOCS_PLUGIN;
use serde_json::json;

use crate::codes;
use crate::error::Error;

/// Writes the package for `docs --plugin DIR` (`rest` is what follows `--plugin`, or the
/// `=DIR` glued to it) and answers with what it wrote: one JSON line `{dir, name, files}` in
/// machine mode, a sentence for a person.
pub(crate) fn write(
    registry: &Registry,
    machine: bool,
    glued: Option<&str>,
    rest: &[String],
) -> Result<Vec<u8>, Error> {
    let usage = format!("docs {}", DOCS_PLUGIN.signature());
    let (out, extra) = match glued {
        Some(dir) => (Some(dir), rest.first()),
        None => (rest.first().map(String::as_str), rest.get(1)),
    };
    let Some(out) = out.filter(|dir| !dir.is_empty()) else {
        return Err(Error::new(
            codes::MISSING_ARGUMENT,
            format!("`{usage}` needs the directory to write the plugin into"),
        )
        .with_suggestion(format!(
            "{} --{} plugins",
            pas_spec::surface::builtin_call(registry, "docs"),
            DOCS_PLUGIN.long
        )));
    };
    if let Some(extra) = extra {
        return Err(Error::new(
            codes::UNKNOWN_ARGUMENT,
            format!("`{usage}` takes one directory, got `{extra}` after it"),
        ));
    }
    let name = plugin::name(registry);
    let dir = Path::new(out).join(&name);
    let mut files = Vec::new();
    for (path, text) in plugin::files(registry) {
        write_file(&dir.join(&path), text.as_bytes())?;
        files.push(path);
    }
    let mut answer = if machine {
        json!({ "dir": dir.display().to_string(), "name": name, "files": files }).to_string()
    } else {
        format!(
            "wrote the plugin {name} in {} ({} files: {})",
            dir.display(),
            files.len(),
            files.join(", ")
        )
    };
    answer.push('\n');
    Ok(answer.into_bytes())
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let fail = |err: std::io::Error| {
        Error::general(format!("cannot write {}: {err}", path.display()))
            .with_suggestion("choose a directory this tool can write to")
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    crate::services::atomic_file::write_atomic(path, bytes).map_err(fail)
}
