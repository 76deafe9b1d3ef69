//! The error collector every step writes into, so a user sees every mistake of one derive at
//! once (like serde_derive's `Ctxt`) instead of fixing them one compile at a time.
//!
//! A context must be checked: [`Ctxt::finish`] hands its errors over, and a context dropped
//! without it panics (outside another panic), so no error collected can be lost silently by a
//! code path that forgets to emit them.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// Errors found so far. Reading and checking go on after an error; only emitting stops.
pub(crate) struct Ctxt {
    /// `None` once [`Ctxt::finish`] took them.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    /// An empty context, which must be [`finish`](Ctxt::finish)ed before it is dropped.
    pub(crate) fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

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
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("an error pushed after the context was finished")
            .push(error);
    }

    /// Whether nothing went wrong so far.
    pub(crate) fn is_clean(&self) -> bool {
        self.errors.borrow().as_ref().is_none_or(Vec::is_empty)
    }

    /// Every error combined into one, in the order found (rustc reports each at its span).
    pub(crate) fn finish(self) -> Result<(), syn::Error> {
        let errors = self
            .errors
            .borrow_mut()
            .take()
            .expect("a context is finished once");
        let mut errors = errors.into_iter();
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

impl Drop for Ctxt {
    fn drop(&mut self) {
        // Not while unwinding from another panic: that one is the message worth reading.
        if self.errors.get_mut().is_some() && !std::thread::panicking() {
            panic!("pas-macros bug: an error context was dropped without Ctxt::finish");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finish_hands_over_every_error() {
        let ctxt = Ctxt::new();
        ctxt.at(Span::call_site(), "one");
        ctxt.at(Span::call_site(), "two");
        assert!(!ctxt.is_clean());
        let error = ctxt.finish().unwrap_err();
        assert_eq!(error.into_iter().count(), 2);
        assert!(Ctxt::new().finish().is_ok());
    }

    #[test]
    #[should_panic(expected = "an error context was dropped without Ctxt::finish")]
    fn a_context_never_checked_panics_on_drop() {
        let ctxt = Ctxt::new();
        ctxt.at(Span::call_site(), "lost");
    }
}
