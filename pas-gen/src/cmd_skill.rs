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
    let out = PathBuf::from(args.require::<String>("out")?);
    let name = skill::name(&registry);
    let dir = out.join(&name);
    let mut files = Vec::new();
    for (path, text) in skill::files(&registry) {
        write(&dir.join(&path), &text)?;
        files.push(path);
    }
    let value = json!({
        "dir": dir.display().to_string(),
        "name": name,
        "files": files,
    });
    let text = format!("wrote the skill {name} in {}", dir.display());
    Ok(Reply::object_with_text(&value, text))
}
