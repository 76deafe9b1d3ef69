//! What the Agent Skill costs an agent against the `.llm` document it refers to, in o200k tokens
//! (tiktoken's `o200k_base`): `SKILL.md` is what an agent loads when the skill's description
//! matches its task, and must stay smaller than the `.llm` reference it opens only when needed.
//! The frontmatter's description (read for every skill an agent has, before any is loaded) is
//! counted apart.

use std::fmt::Write as _;
use std::path::PathBuf;

use pas::spec::Registry;
use pas::spec::faces::{llm, skill};

use crate::{report, tools};

/// The token counts of one spec.
struct Row {
    spec: String,
    description: usize,
    skill: usize,
    llm: usize,
}

/// Every example spec in `specs/` (sorted) and pas-gen's own.
fn specs() -> Vec<(String, Registry)> {
    let root = tools::workspace();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join("specs"))
        .expect("specs/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    paths.push(root.join("pas-gen/pas-gen.yaml"));
    paths
        .iter()
        .map(|path| {
            let (_, registry) = pas::spec::load::load_path(path).expect("the spec loads");
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, registry)
        })
        .collect()
}

/// The frontmatter's `description:` line.
fn description_line(skill: &str) -> &str {
    skill
        .lines()
        .find(|l| l.starts_with("description: "))
        .expect("a description line")
}

fn rows() -> Vec<Row> {
    let bpe = tiktoken_rs::o200k_base_singleton();
    specs()
        .iter()
        .map(|(spec, registry)| {
            let text = skill::render(registry);
            Row {
                spec: spec.clone(),
                description: bpe.encode_ordinary(description_line(&text)).len(),
                skill: bpe.encode_ordinary(&text).len(),
                llm: bpe.encode_ordinary(&llm::render(registry)).len(),
            }
        })
        .collect()
}

fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "## Agent Skill against `.llm`, in o200k tokens\n\nCommand: `cargo run --release -p \
         pas-bench -- skills`. o200k tokens (tiktoken-rs `o200k_base`) of `SKILL.md` (`pas-gen \
         skill` = `TOOL docs --skill`) and of the `.llm` document it keeps as \
         `references/<tool>.llm` (`TOOL docs`), for every example spec and pas-gen's own. \
         *Description*: the frontmatter line an agent reads for every installed skill.\n\n",
    );
    out.push_str("| spec | description | SKILL.md | .llm | SKILL.md / .llm |\n");
    out.push_str("|---|---:|---:|---:|---:|\n");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.2} |",
            r.spec,
            r.description,
            r.skill,
            r.llm,
            r.skill as f64 / r.llm as f64
        );
    }
    out
}

/// Count, print the table and write it into BENCHMARKS.md.
pub fn run() {
    let body = table(&rows());
    print!("{body}");
    let file = tools::workspace().join("BENCHMARKS.md");
    report::update_section(&file, "skills", &body).expect("write BENCHMARKS.md");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The skill is the lean face: fewer tokens than the `.llm` it refers to, for every spec.
    #[test]
    fn every_skill_costs_fewer_tokens_than_its_llm() {
        let rows = rows();
        assert!(rows.len() >= 5);
        for r in &rows {
            assert!(r.description > 0 && r.skill > r.description, "{}", r.spec);
            assert!(
                r.skill < r.llm,
                "{}: SKILL.md {} >= .llm {} tokens",
                r.spec,
                r.skill,
                r.llm
            );
        }
    }
}
