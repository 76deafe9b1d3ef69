//! The shape of `#[agent(...)]`: a comma-separated list of `key`, `key = value` and
//! `key(...)` entries, and readers that turn one entry's value into a literal, a type or a
//! list.
//!
//! syn's `parse_nested_meta` stops at the first error. Here the list is first cut at its
//! top-level commas, so a bad entry is reported and the next one is still read: every mistake
//! of an attribute comes out in one compile.

use proc_macro2::{Delimiter, Group, Ident, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Lit, LitInt, LitStr, Type};

use crate::ctxt::Ctxt;

/// One entry of an attribute list.
pub(crate) struct Entry {
    /// The key, e.g. `effect`.
    pub key: Ident,
    /// What follows the key.
    pub value: Value,
}

/// What follows a key.
pub(crate) enum Value {
    /// `key` alone.
    Bare,
    /// `key = tokens`.
    Eq(TokenStream),
    /// `key(...)`: the parenthesised group.
    List(Group),
}

/// Cuts `tokens` at its top-level commas. A comma inside `<...>` (a type such as
/// `HashMap<K, V>`) does not cut; one inside a group never does, groups being single trees.
pub(crate) fn split_commas(tokens: TokenStream) -> Vec<TokenStream> {
    let mut pieces = Vec::new();
    let mut current = Vec::new();
    let mut angles = 0usize;
    let mut previous_joint_dash = false;
    for tree in tokens {
        let mut joint_dash = false;
        if let TokenTree::Punct(punct) = &tree {
            match punct.as_char() {
                ',' if angles == 0 => {
                    pieces.push(current.drain(..).collect());
                    continue;
                }
                '<' => angles += 1,
                // `->` in a function type is no closing angle.
                '>' if !previous_joint_dash => angles = angles.saturating_sub(1),
                '-' => joint_dash = punct.spacing() == Spacing::Joint,
                _ => {}
            }
        }
        previous_joint_dash = joint_dash;
        current.push(tree);
    }
    if !current.is_empty() {
        pieces.push(current.into_iter().collect());
    }
    pieces.retain(|piece: &TokenStream| !piece.is_empty());
    pieces
}

/// The entries of an attribute list; malformed ones are reported and skipped.
pub(crate) fn entries(tokens: TokenStream, ctxt: &Ctxt) -> Vec<Entry> {
    split_commas(tokens)
        .into_iter()
        .filter_map(|piece| entry(piece, ctxt))
        .collect()
}

/// The entries of one `#[agent(...)]` attribute.
pub(crate) fn attribute_entries(attr: &syn::Attribute, ctxt: &Ctxt) -> Vec<Entry> {
    match &attr.meta {
        syn::Meta::List(list) => entries(list.tokens.clone(), ctxt),
        other => {
            ctxt.spanned(other, "expected `#[agent(key = value, ...)]`");
            Vec::new()
        }
    }
}

fn entry(piece: TokenStream, ctxt: &Ctxt) -> Option<Entry> {
    let mut trees = piece.clone().into_iter();
    let key = match trees.next() {
        Some(TokenTree::Ident(key)) => key,
        _ => {
            ctxt.spanned(
                &piece,
                format!(
                    "expected a key such as `name = \"...\"`, found {}",
                    describe(&piece)
                ),
            );
            return None;
        }
    };
    let rest: Vec<TokenTree> = trees.collect();
    let value = match rest.first() {
        None => Value::Bare,
        Some(TokenTree::Punct(p)) if p.as_char() == '=' => {
            let value: TokenStream = rest[1..].iter().cloned().collect();
            if value.is_empty() {
                ctxt.spanned(&piece, format!("`{key} =` needs a value"));
                return None;
            }
            Value::Eq(value)
        }
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Parenthesis => {
            if rest.len() > 1 {
                let extra: TokenStream = rest[1..].iter().cloned().collect();
                ctxt.spanned(
                    extra,
                    format!("unexpected tokens after `{key}(...)`; separate entries with commas"),
                );
                return None;
            }
            Value::List(group.clone())
        }
        Some(TokenTree::Group(group)) => {
            ctxt.at(group.span(), format!("use parentheses: `{key}(...)`"));
            return None;
        }
        Some(TokenTree::Punct(p)) if p.as_char() == '-' => {
            // `rate-limit = ...`: the key was written in kebab-case.
            let words: Vec<String> = piece
                .clone()
                .into_iter()
                .take_while(|t| {
                    !matches!(t, TokenTree::Punct(p) if p.as_char() == '=')
                        && !matches!(t, TokenTree::Group(_))
                })
                .filter_map(|t| match t {
                    TokenTree::Ident(word) => Some(word.to_string()),
                    _ => None,
                })
                .collect();
            ctxt.spanned(
                &piece,
                format!("keys are snake_case: write `{}`", words.join("_")),
            );
            return None;
        }
        Some(TokenTree::Punct(p)) if p.as_char() == ':' => {
            ctxt.at(
                p.span(),
                format!("write `{key} = value`, not `{key}: value`"),
            );
            return None;
        }
        Some(other) => {
            ctxt.at(
                other.span(),
                format!("expected `=`, `(...)` or `,` after `{key}`"),
            );
            return None;
        }
    };
    Some(Entry { key, value })
}

/// A short description of what was written, for "expected X, found Y" messages.
pub(crate) fn describe(tokens: &TokenStream) -> String {
    if let Ok(lit) = syn::parse2::<Lit>(tokens.clone()) {
        return match lit {
            Lit::Str(_) => "a string".into(),
            Lit::Int(_) => "an integer".into(),
            Lit::Float(_) => "a float".into(),
            Lit::Bool(_) => "a boolean".into(),
            Lit::Char(_) => "a character".into(),
            _ => "a literal".into(),
        };
    }
    let mut text = tokens.to_string();
    if text.chars().count() > 40 {
        text = text.chars().take(37).collect::<String>() + "...";
    }
    format!("`{text}`")
}

impl Entry {
    /// The value's tokens, or the key's when there is no value.
    fn value_tokens(&self) -> TokenStream {
        match &self.value {
            Value::Bare => self.key.to_token_stream(),
            Value::Eq(value) => value.clone(),
            Value::List(group) => group.to_token_stream(),
        }
    }

    /// Reports that the value does not have the form `usage` shows.
    pub(crate) fn expected(&self, what: &str, usage: &str, ctxt: &Ctxt) {
        let found = match &self.value {
            Value::Bare => "nothing".to_owned(),
            Value::Eq(value) => describe(value),
            Value::List(_) => "a list `(...)`".to_owned(),
        };
        ctxt.spanned(
            self.value_tokens(),
            format!(
                "`{}` expects {what}, found {found}; write `{usage}`",
                self.key
            ),
        );
    }

    /// `key = "text"`.
    pub(crate) fn string(&self, usage: &str, ctxt: &Ctxt) -> Option<LitStr> {
        if let Value::Eq(value) = &self.value {
            if let Ok(Lit::Str(lit)) = syn::parse2::<Lit>(value.clone()) {
                return Some(lit);
            }
            // `name = task.create`: the value is right, the quotes are missing.
            if syn::parse2::<Lit>(value.clone()).is_err() {
                let text: String = value.to_string().split_whitespace().collect();
                self.expected("a string", &format!("{} = \"{text}\"", self.key), ctxt);
                return None;
            }
        }
        self.expected("a string", usage, ctxt);
        None
    }

    /// `key = 2`.
    pub(crate) fn int(&self, usage: &str, ctxt: &Ctxt) -> Option<LitInt> {
        if let Value::Eq(value) = &self.value
            && let Ok(Lit::Int(lit)) = syn::parse2::<Lit>(value.clone())
        {
            return Some(lit);
        }
        self.expected("an integer", usage, ctxt);
        None
    }

    /// `key = 30` or `key = 2.5`.
    pub(crate) fn number(&self, usage: &str, ctxt: &Ctxt) -> Option<Lit> {
        if let Value::Eq(value) = &self.value
            && let Ok(lit @ (Lit::Int(_) | Lit::Float(_))) = syn::parse2::<Lit>(value.clone())
        {
            return Some(lit);
        }
        self.expected("a number", usage, ctxt);
        None
    }

    /// `key` (true) or `key = true|false`.
    pub(crate) fn switch(&self, usage: &str, ctxt: &Ctxt) -> Option<bool> {
        match &self.value {
            Value::Bare => return Some(true),
            Value::Eq(value) => {
                if let Ok(Lit::Bool(lit)) = syn::parse2::<Lit>(value.clone()) {
                    return Some(lit.value);
                }
            }
            Value::List(_) => {}
        }
        self.expected("nothing or a boolean", usage, ctxt);
        None
    }

    /// `key = Type`.
    pub(crate) fn ty(&self, usage: &str, ctxt: &Ctxt) -> Option<Type> {
        if let Value::Eq(value) = &self.value {
            if let Ok(Lit::Str(lit)) = syn::parse2::<Lit>(value.clone()) {
                ctxt.spanned(
                    value,
                    format!(
                        "`{}` expects a type, not a string: write `{} = {}`",
                        self.key,
                        self.key,
                        lit.value()
                    ),
                );
                return None;
            }
            match syn::parse2::<Type>(value.clone()) {
                Ok(ty) => return Some(ty),
                Err(_) => {
                    self.expected("a type", usage, ctxt);
                    return None;
                }
            }
        }
        self.expected("a type", usage, ctxt);
        None
    }

    /// `key(a, b, ...)`: the comma-separated pieces inside the parentheses.
    pub(crate) fn items(&self, usage: &str, ctxt: &Ctxt) -> Option<(Group, Vec<TokenStream>)> {
        if let Value::List(group) = &self.value {
            return Some((group.clone(), split_commas(group.stream())));
        }
        self.expected("a list in parentheses", usage, ctxt);
        None
    }

    /// `key(k = v, ...)`: nested entries.
    pub(crate) fn nested(&self, usage: &str, ctxt: &Ctxt) -> Option<Vec<Entry>> {
        if let Value::List(group) = &self.value {
            return Some(entries(group.stream(), ctxt));
        }
        self.expected("a list in parentheses", usage, ctxt);
        None
    }
}

/// One piece of a list that must be a string literal.
pub(crate) fn item_string(piece: &TokenStream, what: &str, ctxt: &Ctxt) -> Option<LitStr> {
    match syn::parse2::<Lit>(piece.clone()) {
        Ok(Lit::Str(lit)) => Some(lit),
        Err(_) => {
            let text: String = piece.to_string().split_whitespace().collect();
            ctxt.spanned(
                piece,
                format!("expected {what} (a string): write it in quotes, \"{text}\""),
            );
            None
        }
        Ok(_) => {
            ctxt.spanned(
                piece,
                format!("expected {what} (a string), found {}", describe(piece)),
            );
            None
        }
    }
}

/// One piece of a list that must be an integer literal.
pub(crate) fn item_int(piece: &TokenStream, what: &str, ctxt: &Ctxt) -> Option<LitInt> {
    match syn::parse2::<Lit>(piece.clone()) {
        Ok(Lit::Int(lit)) => Some(lit),
        _ => {
            ctxt.spanned(
                piece,
                format!("expected {what} (an integer), found {}", describe(piece)),
            );
            None
        }
    }
}

/// One piece of a list that must be a bare identifier (an error constant).
pub(crate) fn item_ident(piece: &TokenStream, what: &str, ctxt: &Ctxt) -> Option<Ident> {
    let mut trees = piece.clone().into_iter();
    if let (Some(TokenTree::Ident(ident)), None) = (trees.next(), trees.next()) {
        return Some(ident);
    }
    match syn::parse2::<Lit>(piece.clone()) {
        Ok(Lit::Str(lit)) => {
            ctxt.spanned(
                piece,
                format!("write {what} without quotes: `{}`", lit.value()),
            );
        }
        _ => ctxt.spanned(
            piece,
            format!(
                "expected {what} (an identifier such as `NOT_FOUND`), found {}",
                describe(piece)
            ),
        ),
    }
    None
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    fn pieces(tokens: TokenStream) -> Vec<String> {
        split_commas(tokens)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn commas_inside_types_and_groups_do_not_cut() {
        let cut =
            pieces(quote!(output = HashMap<String, Vec<u8>>, errors(A, B), f = fn(u8, u8) -> u8,));
        assert_eq!(cut.len(), 3, "{cut:?}");
        assert!(cut[0].starts_with("output"));
        assert!(cut[2].ends_with("u8"));
    }

    #[test]
    fn malformed_entries_are_reported_and_skipped() {
        let ctxt = Ctxt::new();
        let read = entries(
            quote!(effect = "write", "stray", rate-limit = "1/s", name =, kind = "list"),
            &ctxt,
        );
        let keys: Vec<String> = read.iter().map(|e| e.key.to_string()).collect();
        assert_eq!(keys, ["effect", "kind"]);
        assert!(ctxt.finish().is_err());
    }
}
