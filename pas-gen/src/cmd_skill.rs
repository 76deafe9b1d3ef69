//! `pas-gen skill SPEC --out DIR`: the tool's Agent Skill, `DIR/<name>/SKILL.md` and its
//! `references/<name>.llm`, the very bytes the CLI built from SPEC prints with `docs --skill` and
//! `docs`. DIR is where an agent looks for skills (e.g. a project's `.claude/skills`).

use std::path::PathBuf;

use pas::{Args, Context, Error, Reply};
use pas_spec::faces::skill;
use serde_json::json;

use crate::cmd_docs::load_spec;
use crate::cmd_new::write;

pub fn skill(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let registry = load_spec(&args.require::<String>("spec")?)?;
    let name = skill::name(&registry);
    let (dir, value) = write_package(args, &name, skill::files(&registry))?;
    let text = format!("wrote the skill {name} in {}", dir.display());
    Ok(Reply::object_with_text(&value, text))
}

/// Writes a face's `files` under `--out DIR`/`name`/ (those files replaced, nothing else
/// touched), and answers `{dir, name, files}`: the skill's and the plugin package's writing.
pub fn write_package(
    args: &Args,
    name: &str,
    files: Vec<(String, String)>,
) -> Result<(PathBuf, serde_json::Value), Error> {
    let dir = PathBuf::from(args.require::<String>("out")?).join(name);
    let mut written = Vec::new();
    for (path, text) in files {
        write(&dir.join(&path), &text)?;
        written.push(path);
    }
    let value = json!({
        "dir": dir.display().to_string(),
        "name": name,
        "files": written,
    });
    Ok((dir, value))
}
