//! Spec text in Rust source, only ever through escaping made for where it lands: string literals
//! from `proc_macro2::Literal::string` (quotes, backslashes, NUL, newlines and invisible marks
//! escaped, so the value is exact), and doc comments one `#[doc]` per line.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// A Rust string literal whose value is exactly `text`.
pub(crate) fn lit(text: &str) -> Literal {
    Literal::string(text)
}

/// Characters that change the visible direction of text: rustc refuses them in comments
/// (`text_direction_codepoint_in_comment`), since they can make code read differently from what
/// it does.
pub fn is_bidi(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Doc attributes for `text`, one per line. Docs are for readers, not round-tripped, so control
/// characters a `///` comment may not hold (bare CR, NUL) are shown as escapes, and a line that
/// would open a rustdoc code fence (compiled as a doctest in a library) is neutralised.
pub(crate) fn doc(text: &str) -> TokenStream {
    let lines = text.lines().map(|line| {
        let mut shown: String = line
            .chars()
            .map(|c| match c {
                '\r' | '\0' => c.escape_default().to_string(),
                c if (c.is_control() && c != '\t') || is_bidi(c) => c.escape_unicode().to_string(),
                c => c.to_string(),
            })
            .collect();
        if shown.trim_start().starts_with("```") || shown.trim_start().starts_with("~~~") {
            shown.insert(0, '\\');
        }
        let line = lit(&format!(" {shown}"));
        quote!(#[doc = #line])
    });
    quote!(#(#lines)*)
}
