//! `pas-gen generate SPEC --out DIR`: refresh the generated code of a scaffolded project after
//! its spec changed. Only files whose first line holds `@generated` are rewritten, and
//! `docs/<tool>.llm`, which pas-gen owns; a user's file is never touched, and no code is deleted. What the changed spec needs from the user (new
//! handler methods, and methods the trait no longer has) is listed instead.

use std::path::PathBuf;

use pas::{Args, Context, Error, Reply};
use serde_json::json;

use crate::cmd_new::write;
use crate::scaffold::{self, CONTRACT_RS, GENERATED_RS, HANDLERS_RS};

pub fn generate(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let spec: String = args.require("spec")?;
    let out = PathBuf::from(args.require::<String>("out")?);
    let (_, registry) = scaffold::load_spec(&spec)?;
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
    // The contract test follows the spec too, unless the user took it over (no header).
    let contract = scaffold::contract_test(&registry, &scaffold::spec_file_name(&spec))?;
    let contract_status = refresh(&out.join(CONTRACT_RS), &contract)?;

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

    let mut text = format!(
        "{GENERATED_RS}: {status}\n{llm_file}: {llm_status}\n{CONTRACT_RS}: {contract_status}"
    );
    if status == "kept" {
        text.push_str(" (it has no @generated header, so it is yours; nothing was written)");
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
    let value = json!({
        "out": out.display().to_string(),
        "files": [
            { "path": GENERATED_RS, "status": status },
            { "path": llm_file, "status": llm_status },
            { "path": CONTRACT_RS, "status": contract_status },
        ],
        "neededHandlers": needed,
        "obsoleteHandlers": obsolete,
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

/// Whether `source` defines a method `method` (a `fn NAME(` with any spacing).
fn defines(source: &str, method: &str) -> bool {
    source.match_indices("fn ").any(|(at, _)| {
        let rest = source[at + 3..].trim_start();
        rest.strip_prefix(method).is_some_and(|after| {
            after.trim_start().starts_with('(') || after.trim_start().starts_with('<')
        })
    })
}

/// The methods of the generated `Handlers` trait: every `fn NAME(&self` in the file.
fn trait_methods(generated: &str) -> Vec<String> {
    generated
        .match_indices("fn ")
        .filter_map(|(at, _)| {
            let rest = &generated[at + 3..];
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
        let source = "impl X {\n    fn count(&self) {}\n    fn r#type (&self) {}\n}";
        assert!(defines(source, "count"));
        assert!(defines(source, "r#type"));
        assert!(!defines(source, "coun"));
        assert_eq!(trait_methods(source), ["count", "r#type"]);
    }
}
