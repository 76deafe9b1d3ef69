//! Rust names for spec names: types in UpperCamelCase, fields and methods in snake_case, keywords
//! written raw (`type` -> `r#type`), and every name made unique in its scope.
//!
//! The validator already keeps command and parameter names kebab-case, but output-schema
//! property names are free text, so anything that is not an identifier character becomes `_`.

use std::collections::HashSet;

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span};

/// Strict and reserved keywords of edition 2024 (these need `r#`).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "try", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "yield",
];

/// Keywords that cannot be raw identifiers: they get a trailing `_` instead.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// An identifier for `text`, which must already be made of identifier characters.
pub(crate) fn ident(text: &str) -> Ident {
    if NOT_RAW.contains(&text) {
        Ident::new(&format!("{text}_"), Span::call_site())
    } else if KEYWORDS.contains(&text) {
        Ident::new_raw(text, Span::call_site())
    } else {
        Ident::new(text, Span::call_site())
    }
}

/// `text` with every character that cannot be in an identifier replaced by `_`, never empty and
/// never starting with a digit.
fn clean(text: &str, fallback: &str) -> String {
    let mut out: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.chars().all(|c| c == '_') {
        out = fallback.to_owned();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// `task.create` or `["task", "create"]` as `TaskCreate`.
pub(crate) fn pascal(words: &[&str]) -> String {
    let joined = words.join(" ").to_upper_camel_case();
    let cleaned = clean(&joined, "Command");
    // A type name must start with a letter to read as a type (`_2fa` is legal but odd).
    match cleaned.strip_prefix('_') {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_digit()) => format!("N{rest}"),
        _ => cleaned,
    }
}

/// `dry-run`, `observedAt`, `task.create` as `dry_run`, `observed_at`, `task_create`.
pub(crate) fn snake(text: &str) -> String {
    clean(&text.replace('.', "_").to_snake_case(), "value")
}

/// Hands out names unique within one scope (types of a module, fields of a struct).
#[derive(Default)]
pub(crate) struct Scope {
    taken: HashSet<String>,
}

impl Scope {
    /// A scope where `reserved` are already taken.
    pub(crate) fn with(reserved: &[&str]) -> Self {
        Scope {
            taken: reserved.iter().map(|name| (*name).to_owned()).collect(),
        }
    }

    /// `base`, or `base2`, `base3`... if taken.
    pub(crate) fn fresh(&mut self, base: String) -> String {
        let mut name = base.clone();
        let mut n = 2;
        while !self.taken.insert(name.clone()) {
            name = format!("{base}{n}");
            n += 1;
        }
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(pascal(&["task", "create"]), "TaskCreate");
        assert_eq!(pascal(&["2fa"]), "N2fa");
        assert_eq!(snake("observedAt"), "observed_at");
        assert_eq!(snake("dry-run"), "dry_run");
        assert_eq!(snake("a \"b\" */"), "a_b");
        assert_eq!(snake("🙂"), "value");
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ident("self").to_string(), "self_");
        let mut scope = Scope::with(&["Cli"]);
        assert_eq!(scope.fresh("Cli".into()), "Cli2");
    }
}
