//! The error collector every step writes into, so a user sees every mistake of one derive at
//! once (like serde_derive's `Ctxt`) instead of fixing them one compile at a time.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// Errors found so far. Reading and checking go on after an error; only emitting stops.
#[derive(Default)]
pub(crate) struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// An error spanning the whole of `tokens` (first to last token).
    pub(crate) fn spanned(&self, tokens: impl ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// An error at one span.
    pub(crate) fn at(&self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// An error syn produced while parsing.
    pub(crate) fn push(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    /// Whether nothing went wrong so far.
    pub(crate) fn is_clean(&self) -> bool {
        self.errors.borrow().is_empty()
    }

    /// Every error combined into one, in the order found (rustc reports each at its span).
    pub(crate) fn finish(self) -> Result<(), syn::Error> {
        let mut errors = self.errors.into_inner().into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut first) => {
                for error in errors {
                    first.combine(error);
                }
                Err(first)
            }
        }
    }
}
