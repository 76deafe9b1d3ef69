//! The `.llm` default layout written in Rust (what a built CLI prints for `tool docs`, with no
//! template engine) against `templates/llm.md.j2` rendered by minijinja (`pas-gen llm`'s
//! default): the same bytes for every spec of the repository that loads, invalid ones included
//! (they exercise descriptions, notes, stdin and errors the examples may not).
#![cfg(all(feature = "template", feature = "load"))]

use std::path::{Path, PathBuf};

use pas_spec::faces::llm;

fn yaml_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() && !matches!(name.as_str(), "target" | "node_modules" | "snapshots") {
            yaml_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "json") {
            into.push(path);
        }
    }
}

#[test]
fn the_default_layout_is_the_default_template_byte_for_byte() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["specs", "examples", "tests/fixtures", "pas-gen"] {
        yaml_files(&repo.join(dir), &mut files);
    }
    files.sort();
    let mut compared = 0;
    for path in &files {
        let Ok((_, registry)) = pas_spec::load::load_path(path) else {
            continue;
        };
        let engine = llm::render_with(&registry, "llm.md.j2", llm::DEFAULT_TEMPLATE).unwrap();
        assert_eq!(llm::render(&registry), engine, "{}", path.display());
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} specs compared");
}
