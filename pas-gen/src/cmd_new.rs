//! `pas-gen new SPEC --out DIR`: a complete Cargo project that builds and passes its own contract
//! test before a handler is written.

use std::path::{Path, PathBuf};

use pas::{Args, Context, Error, Reply};
use serde_json::json;

use crate::scaffold::{self, Runtime};

pub fn new(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let spec: String = args.require("spec")?;
    let out = PathBuf::from(args.require::<String>("out")?);
    let templates: Option<String> = args.get("templates")?;
    let runtime = Runtime::chosen(args.get("pas-version")?, args.get("pas-path")?)?;
    let (source, registry) = scaffold::load_spec(&spec)?;
    let spec_file = scaffold::spec_file_name(&spec);
    // The same command run twice (a README's first line, say) finds its own scaffold: it adds
    // what is missing, refreshes pas-gen's files and leaves every other file as it is.
    let again = !is_empty_dir(&out)
        && std::fs::read_to_string(out.join(&spec_file)).is_ok_and(|text| text == source.text);
    if !args.flag("force") && !again && !is_empty_dir(&out) {
        return Err(Error::new(
            "OUT_NOT_EMPTY",
            format!("{} exists and is not empty", out.display()),
        )
        .with_suggestion("choose a new directory, or add --force to write over its files"));
    }
    let files = scaffold::project(
        &spec_file,
        &source.text,
        &registry,
        &runtime,
        templates.as_deref().map(Path::new),
    )?;
    let mut written = Vec::with_capacity(files.len());
    let mut kept = Vec::new();
    for file in &files {
        let path = out.join(&file.path);
        if again && !args.flag("force") {
            match std::fs::read_to_string(&path) {
                Ok(old) if old == file.text => continue,
                // Cargo rewrites the lockfile it was seeded with; the user owns the rest.
                Ok(old) if !pas_emit::is_generated(&old) || file.path == scaffold::CARGO_LOCK => {
                    kept.push(file.path.clone());
                    continue;
                }
                _ => {}
            }
        }
        write(&path, &file.text)?;
        written.push(file.path.clone());
    }
    let value = json!({
        "out": out.display().to_string(),
        "tool": registry.name,
        "commands": registry.commands.len(),
        "files": written,
    });
    let text = if again {
        let mut text = format!(
            "{} already holds this scaffold: {} file(s) written",
            out.display(),
            written.len()
        );
        if !kept.is_empty() {
            text.push_str(&format!(", kept as they are: {}", kept.join(", ")));
        }
        text.push_str(&format!(
            "\nafter editing the spec: pas-gen generate {} --out {}",
            out.join(&spec_file).display(),
            out.display()
        ));
        text
    } else {
        format!(
            "created {} ({} files)\nnext: cd {} && cargo test",
            out.display(),
            written.len(),
            out.display()
        )
    };
    Ok(Reply::object_with_text(&value, text))
}

fn is_empty_dir(dir: &Path) -> bool {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => entries.next().is_none(),
        Err(_) => !dir.exists(),
    }
}

/// Writes one file, creating its directory.
pub fn write(path: &Path, text: &str) -> Result<(), Error> {
    let fail = |err: std::io::Error| {
        Error::new(
            "WRITE_FAILED",
            format!("cannot write {}: {err}", path.display()),
        )
        .with_suggestion("check that the output directory is writable")
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    std::fs::write(path, text).map_err(fail)
}
