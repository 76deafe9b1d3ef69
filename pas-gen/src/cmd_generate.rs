//! `pas-gen generate SPEC --out DIR`: refresh the generated parts of a scaffolded project after
//! its spec changed: files whose first line holds `@generated`, `docs/<tool>.llm`, the Agent
//! Skill (`skills/<name>/SKILL.md` and its `references/`), and the part of the README between
//! its `@generated` marks. A user's file is never touched, and no code is
//! deleted. What the changed spec asks of the handlers (methods to add or remove, parameters
//! added, removed or retyped, output and error changes) is listed instead, or that nothing does.

use std::path::{Path, PathBuf};

use pas::{Args, Context, Error, Reply};
use serde_json::json;

use crate::changes::{self, Change};
use crate::cmd_new::write;
use crate::scaffold::{self, CONTRACT_RS, GENERATED_RS, HANDLERS_RS};

/// The scaffold's README and the marks around the part pas-gen owns.
const README: &str = "README.md";
const README_START: &str = "<!-- @generated agent-help";
const README_END: &str = "<!-- @generated end -->";

pub fn generate(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let spec: String = args.require("spec")?;
    let out = PathBuf::from(args.require::<String>("out")?);
    let (_, mut registry) = scaffold::load_spec(&spec)?;
    // The faces it refreshes list the built-ins the project is built with (its Cargo.toml).
    registry.built = scaffold::features::of_project(&out);
    let code = scaffold::generated(&registry, &scaffold::spec_file_name(&spec))?;
    let path = out.join(GENERATED_RS);
    let old = std::fs::read_to_string(&path).ok();
    let status = match &old {
        Some(old) if !pas_emit::is_generated(old) => "kept",
        Some(old) if *old == code => "unchanged",
        Some(_) => "rewritten",
        None => "created",
    };
    if matches!(status, "rewritten" | "created") {
        write(&path, &code)?;
    }
    // The `.llm` document is pas-gen's too (the scaffold's README says so): it follows the spec.
    let llm_file = format!("docs/{}.llm", registry.name);
    let llm = pas_spec::faces::llm::render(&registry);
    let llm_status = match std::fs::read_to_string(out.join(&llm_file)) {
        Ok(old) if old == llm => "unchanged",
        Ok(_) => "rewritten",
        Err(_) => "created",
    };
    if llm_status != "unchanged" {
        write(&out.join(&llm_file), &llm)?;
    }
    // The Agent Skill and its references are the same face, pas-gen's too: a skill that kept
    // the old version or lacked a new command would tell agents what the tool no longer is.
    let skill_dir = format!("skills/{}", pas_spec::faces::skill::name(&registry));
    let mut skill_statuses = Vec::new();
    for (file, text) in pas_spec::faces::skill::files(&registry) {
        let path = format!("{skill_dir}/{file}");
        let status = match std::fs::read_to_string(out.join(&path)) {
            Ok(old) if old == text => "unchanged",
            Ok(_) => "rewritten",
            Err(_) => "created",
        };
        if status != "unchanged" {
            write(&out.join(&path), &text)?;
        }
        skill_statuses.push((path, status));
    }
    // The contract test follows the spec too, unless the user took it over (no header).
    let contract = scaffold::contract_test(&registry, &scaffold::spec_file_name(&spec))?;
    let contract_status = refresh(&out.join(CONTRACT_RS), &contract)?;
    let readme_status = refresh_readme(&out.join(README), &registry)?;

    let handlers = std::fs::read_to_string(out.join(HANDLERS_RS)).unwrap_or_default();
    let signatures = pas_emit::handler_signatures(&registry).map_err(scaffold::unsupported)?;
    let needed: Vec<serde_json::Value> = signatures
        .iter()
        .filter(|s| !defines(&handlers, &s.method))
        .map(|s| {
            json!({
                "command": s.command,
                "method": s.method,
                "signature": format!("fn {}(&self, {}) -> Result<{}, Error>", s.method, s.params, s.output),
            })
        })
        .collect();
    // Methods the previous generated trait had and the new one has not: the user's impl of
    // them no longer compiles, but deleting code is the user's call.
    let obsolete: Vec<String> = old
        .as_deref()
        .map(trait_methods)
        .unwrap_or_default()
        .into_iter()
        .filter(|m| !signatures.iter().any(|s| s.method == *m))
        .collect();
    // What changed since the registry the old module was made from (recorded on its last line).
    let recorded = old.as_deref().and_then(scaffold::recorded_registry);
    let changes: Vec<Change> = recorded
        .as_ref()
        .map(|before| changes::changes(before, &registry))
        .unwrap_or_default();

    let mut text = format!(
        "{GENERATED_RS}: {status}\n{llm_file}: {llm_status}\n{CONTRACT_RS}: {contract_status}"
    );
    if status == "kept" {
        text.push_str(" (it has no @generated header, so it is yours; nothing was written)");
    }
    if let Some(readme_status) = readme_status {
        text.push_str(&format!("\n{README}: {readme_status}"));
    }
    for (path, status) in &skill_statuses {
        text.push_str(&format!("\n{path}: {status}"));
    }
    for need in &needed {
        text.push_str(&format!(
            "\nadd to {HANDLERS_RS}: {}",
            need["signature"].as_str().unwrap_or_default()
        ));
    }
    for method in &obsolete {
        text.push_str(&format!(
            "\nremove from {HANDLERS_RS}: fn {method} (its command left the spec)"
        ));
    }
    // Commands added or removed are already said as methods to add or remove.
    for change in changes
        .iter()
        .filter(|c| !matches!(c.change, "commandAdded" | "commandRemoved"))
    {
        match &change.command {
            Some(command) => text.push_str(&format!("\n{command}: {}", change.text)),
            None => text.push_str(&format!("\n{}", change.text)),
        }
    }
    if needed.is_empty() && obsolete.is_empty() && changes.is_empty() {
        text.push_str(match recorded {
            Some(_) => "\nnothing to do in the handlers: they match the spec",
            None => "\nno handler method is missing or obsolete (the old generated module records no spec, so other changes are not listed)",
        });
    }
    let mut files = vec![
        json!({ "path": GENERATED_RS, "status": status }),
        json!({ "path": llm_file, "status": llm_status }),
        json!({ "path": CONTRACT_RS, "status": contract_status }),
    ];
    if let Some(readme_status) = readme_status {
        files.push(json!({ "path": README, "status": readme_status }));
    }
    files.extend(
        skill_statuses
            .iter()
            .map(|(path, status)| json!({ "path": path, "status": status })),
    );
    let value = json!({
        "out": out.display().to_string(),
        "files": files,
        "neededHandlers": needed,
        "obsoleteHandlers": obsolete,
        "changes": changes,
    });
    Ok(Reply::object_with_text(&value, text))
}

/// Rewrites a `@generated` file whose text changed: `created`, `rewritten`, `unchanged`, or
/// `kept` (the file has no header, so it is the user's now).
fn refresh(path: &std::path::Path, text: &str) -> Result<&'static str, Error> {
    let status = match std::fs::read_to_string(path) {
        Ok(old) if !pas_emit::is_generated(&old) => "kept",
        Ok(old) if old == text => "unchanged",
        Ok(_) => "rewritten",
        Err(_) => "created",
    };
    if matches!(status, "rewritten" | "created") {
        write(path, text)?;
    }
    Ok(status)
}

/// Rewrite the README's part between the `@generated` marks (the agent help): its status, or
/// None when the README has no such part (the user's own, or an older scaffold's).
fn refresh_readme(
    path: &Path,
    registry: &pas_spec::Registry,
) -> Result<Option<&'static str>, Error> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    let Some(start) = text.find(README_START) else {
        return Ok(None);
    };
    let Some(body) = text[start..].find('\n').map(|n| start + n + 1) else {
        return Ok(None);
    };
    let Some(end) = text[body..].find(README_END).map(|n| body + n) else {
        return Ok(None);
    };
    let help = pas_spec::faces::agent_help::render_tool(registry);
    let fresh = format!(
        "{}{}\n{}",
        &text[..body],
        scaffold::escape::fence(help),
        &text[end..]
    );
    if fresh == text {
        return Ok(Some("unchanged"));
    }
    write(path, &fresh)?;
    Ok(Some("rewritten"))
}

/// Whether `source` defines a method `method` (a `fn NAME(` with any spacing).
fn defines(source: &str, method: &str) -> bool {
    source.match_indices("fn ").any(|(at, _)| {
        let rest = source[at + 3..].trim_start();
        rest.strip_prefix(method).is_some_and(|after| {
            after.trim_start().starts_with('(') || after.trim_start().starts_with('<')
        })
    })
}

/// The methods of the generated `Handlers` trait: every `fn NAME(&self` in its block (other
/// items, such as `ErrorCode`'s impls, have `&self` methods too).
fn trait_methods(generated: &str) -> Vec<String> {
    let start = generated.find("trait Handlers").unwrap_or(0);
    let block = &generated[start..];
    let block = block.find("\n}").map_or(block, |end| &block[..end]);
    block
        .match_indices("fn ")
        .filter_map(|(at, _)| {
            let rest = &block[at + 3..];
            let (name, after) = rest.split_once('(')?;
            let name = name.trim();
            let ident = name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '#');
            (ident && after.trim_start().starts_with("&self")).then(|| name.to_owned())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_methods() {
        let source = "pub trait Handlers {\n    fn count(&self) {}\n    fn r#type (&self) {}\n}\nimpl X {\n    fn fmt(&self) {}\n}";
        assert!(defines(source, "count"));
        assert!(defines(source, "r#type"));
        assert!(!defines(source, "coun"));
        assert_eq!(trait_methods(source), ["count", "r#type"]);
    }
}
