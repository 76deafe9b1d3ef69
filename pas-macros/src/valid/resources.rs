//! The claimed level and the `resource(...)` keys, checked by the spec validator itself: the
//! derive builds the registry part they make (level and resources) and reports each of the
//! validator's findings at the attribute it comes from, so a path template or a level 3/4
//! claim means the same in a derive as in a spec.

use pas_spec::{Registry, Resource, Verb};
use proc_macro2::Span;

use crate::attr::ToolAttrs;
use crate::ctxt::Ctxt;

pub(crate) fn check(tool: &ToolAttrs, ctxt: &Ctxt) {
    let mut resources = Vec::new();
    let mut spans = Vec::new();
    for attr in &tool.resources {
        let mut verbs = Vec::new();
        for ident in &attr.verbs {
            let word = ident.to_string();
            match Verb::ALL.into_iter().find(|v| v.as_str() == word) {
                Some(verb) => verbs.push(verb),
                None => {
                    let known: Vec<&str> = Verb::ALL.iter().map(|v| v.as_str()).collect();
                    ctxt.spanned(
                        ident,
                        format!(
                            "`{word}` is no PAS verb; the verbs are {}",
                            known.join(", ")
                        ),
                    );
                }
            }
        }
        resources.push(Resource {
            path: attr.path.value(),
            description: attr.description.as_ref().map(|d| d.value()),
            verbs,
        });
        spans.push(attr.path.span());
    }
    let level = match &tool.level {
        Some(lit) => match lit.base10_parse::<u8>() {
            Ok(level) => level,
            Err(_) => {
                ctxt.spanned(lit, "the PAS level is 1, 2, 3 or 4");
                return;
            }
        },
        None => 1,
    };
    let registry = Registry {
        level,
        resources,
        ..skeleton()
    };
    let level_span = tool
        .level
        .as_ref()
        .map_or_else(Span::call_site, |lit| lit.span());
    for diagnostic in pas_spec::validate::validate(&registry) {
        let span = if diagnostic.pointer == "/level" {
            level_span
        } else if let Some(index) = resource_index(&diagnostic.pointer) {
            spans.get(index).copied().unwrap_or(level_span)
        } else {
            // Findings about the rest of the skeleton are not the attributes' doing.
            continue;
        };
        // One sentence: `what is wrong; how to fix it`, in the derive's words.
        let mut message = derive_words(diagnostic.message.trim_end_matches('.'));
        if let Some(hint) = &diagnostic.hint {
            message.push_str("; ");
            message.push_str(&derive_words(hint.trim_end_matches('.')));
        }
        if diagnostic.severity == pas_spec::Severity::Error {
            ctxt.at(span, message);
        }
    }
}

/// `/resources/2/path` gives 2.
fn resource_index(pointer: &str) -> Option<usize> {
    pointer
        .strip_prefix("/resources/")?
        .split('/')
        .next()?
        .parse()
        .ok()
}

/// The validator speaks of spec keys; in a derive the same things are attribute keys.
fn derive_words(text: &str) -> String {
    // The derive's messages run on from a lowercase word: `The level` is `the level` (an
    // acronym such as `PAS` keeps its case).
    let mut chars = text.chars();
    let text = match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if first.is_uppercase() && second.is_lowercase() => first
            .to_lowercase()
            .chain(text[first.len_utf8()..].chars())
            .collect(),
        _ => text.to_owned(),
    };
    let mut text = text
        .replace("the `verbs` of a resource", "a `resource(...)`")
        .replace("no resource offers", "no `resource(...)` offers");
    // `verbs: [cp, rm]` is `resource("/path", cp, rm)` here.
    if let Some(start) = text.find("`verbs: [")
        && let Some(len) = text[start..].find("]`")
    {
        let verbs = text[start + "`verbs: [".len()..start + len].to_owned();
        text.replace_range(
            start..start + len + 2,
            &format!("`resource(\"/path\", {verbs})`"),
        );
    }
    text
}

/// A registry with nothing but what the check needs to be otherwise clean.
fn skeleton() -> Registry {
    Registry {
        spec_version: pas_spec::SPEC_VERSION,
        name: "tool".to_owned(),
        version: "1.0.0".to_owned(),
        summary: "A tool.".to_owned(),
        description: None,
        level: 1,
        profile: pas_spec::Profile::Pas,
        schema_version: None,
        global_flags: Vec::new(),
        exit_codes: Vec::new(),
        anti_patterns: Vec::new(),
        examples: Vec::new(),
        resources: Vec::new(),
        commands: Vec::new(),
        robot: None,
        auth: None,
        requirements: Vec::new(),
        changelog: Vec::new(),
        mask_high_entropy: false,
        built: pas_spec::Features::ALL,
    }
}
