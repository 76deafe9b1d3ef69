//! The Agent Skill face of every example spec and pas-gen's own: within the format's limits (as
//! the reference validator `skills-ref` reads them), smaller than the `.llm` document it refers
//! to, and saying what a skill must say (every command's agent invocation, every exit code, every
//! anti-pattern). Snapshots pin the bytes.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use pas_spec::Registry;
use pas_spec::faces::{llm, skill};

/// Every example spec and pas-gen's own, by file stem.
fn all_specs() -> Vec<(String, Registry)> {
    let mut specs: Vec<(String, Registry)> = common::example_specs()
        .iter()
        .map(|p| (common::stem(p), common::load(p)))
        .collect();
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pas-gen/pas-gen.yaml");
    specs.push(("pas-gen".to_owned(), common::load(&own)));
    specs
}

/// The frontmatter as the validator reads it: the text between the first two `---` lines, as a
/// YAML mapping; and the body after it.
fn frontmatter(text: &str) -> (BTreeMap<String, String>, String) {
    let rest = text
        .strip_prefix("---\n")
        .expect("SKILL.md starts with ---");
    let (yaml, body) = rest
        .split_once("\n---\n")
        .expect("the frontmatter is closed");
    let map: BTreeMap<String, String> = serde_saphyr::from_str(yaml).expect("frontmatter YAML");
    (map, body.to_owned())
}

#[test]
fn every_skill_keeps_the_format_s_limits() {
    for (stem, registry) in all_specs() {
        let text = skill::render(&registry);
        let (meta, body) = frontmatter(&text);
        let keys: Vec<&str> = meta.keys().map(String::as_str).collect();
        assert_eq!(keys, ["description", "name"], "{stem}: only the two fields");
        let name = &meta["name"];
        assert_eq!(name, &skill::name(&registry), "{stem}");
        assert!(!name.is_empty() && name.len() <= skill::NAME_MAX, "{stem}");
        assert!(
            name.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{stem}: {name}"
        );
        assert!(!name.starts_with('-') && !name.ends_with('-') && !name.contains("--"));
        let description = &meta["description"];
        assert!(!description.trim().is_empty(), "{stem}");
        assert!(
            description.encode_utf16().count() <= skill::DESCRIPTION_MAX,
            "{stem}: {} units",
            description.encode_utf16().count()
        );
        assert!(!description.contains("---") && !description.contains('\n'));
        assert!(
            description.starts_with(registry.summary.trim()),
            "{stem}: the description starts with what the tool does"
        );
        assert!(!body.trim().is_empty(), "{stem}");
    }
}

#[test]
fn every_skill_is_smaller_than_its_reference() {
    for (stem, registry) in all_specs() {
        let skill = skill::render(&registry);
        let reference = llm::render(&registry);
        assert!(
            skill.len() < reference.len(),
            "{stem}: SKILL.md {} bytes, .llm {} bytes",
            skill.len(),
            reference.len()
        );
    }
}

#[test]
fn every_skill_names_its_commands_exit_codes_anti_patterns_and_reference() {
    for (stem, registry) in all_specs() {
        let text = skill::render(&registry);
        let doc = llm::document(&registry);
        for section in [
            "## When to use",
            "## Calling it",
            "## Commands",
            "## Exit codes",
            "## Reference",
        ] {
            assert!(text.contains(section), "{stem}: {section}");
        }
        for command in &doc.commands {
            assert!(
                text.contains(&format!("- `{}`:", command.usage)),
                "{stem}: {}",
                command.usage
            );
            let prefix = pas_spec::surface::of(registry.profile)
                .invocation_prefix(&registry)
                .join(" ");
            assert!(
                command.usage.starts_with(&prefix),
                "{stem}: an agent invocation starts with `{prefix}`: {}",
                command.usage
            );
        }
        for code in &doc.exit_codes {
            assert!(text.contains(&format!("- {}: ", code.code)), "{stem}");
        }
        for anti in &doc.anti_patterns {
            assert!(text.contains(&format!("`{}`", anti.command)), "{stem}");
        }
        assert!(text.contains(&skill::reference_path(&registry)), "{stem}");
    }
}

#[test]
fn the_skill_files_are_skill_md_and_the_llm_reference() {
    let (_, registry) = all_specs().remove(0);
    let files = skill::files(&registry);
    assert_eq!(files[0], ("SKILL.md".to_owned(), skill::render(&registry)));
    assert_eq!(
        files[1],
        (
            format!("references/{}.llm", registry.name),
            llm::render(&registry)
        )
    );
}

#[test]
fn skills_are_pinned() {
    for (stem, registry) in all_specs() {
        insta::assert_snapshot!(format!("skill-{stem}"), skill::render(&registry));
    }
}
