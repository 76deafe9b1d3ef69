//! `ErrorCode`: the spec's own error constants as a Rust enum, so a handler names a code the
//! compiler knows (`ErrorCode::NotFound.error("...")`) and a misspelt one does not build. The
//! built-in constants stay in `pas::codes`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::names::{self, Scope};
use crate::plan::{ERROR_CODE, Plan};
use crate::text::{doc, lit};

/// The `ErrorCode` variant of each of the registry's exit codes, in order (`CITY_NOT_FOUND` ->
/// `CityNotFound`).
pub(crate) fn variants(registry: &pas_spec::Registry) -> Vec<String> {
    let mut variants = Scope::with(&["Self"]);
    registry
        .exit_codes
        .iter()
        .map(|code| variants.fresh(names::pascal(&[&code.name.to_ascii_lowercase()])))
        .collect()
}

/// The `ErrorCode` enum of `plan`'s registry, one variant per declared exit code.
pub(crate) fn error_codes(plan: &Plan) -> TokenStream {
    let registry = plan.registry;
    let ident = names::ident(ERROR_CODE);
    let codes: Vec<(proc_macro2::Ident, &pas_spec::ExitCode)> = variants(registry)
        .into_iter()
        .zip(&registry.exit_codes)
        .map(|(variant, code)| (names::ident(&variant), code))
        .collect();
    let definitions = codes.iter().map(|(variant, code)| {
        let text = doc(&format!(
            "`{}` (exit {}): {}",
            code.name, code.code, code.meaning
        ));
        quote!(#text #variant)
    });
    let arms = codes.iter().map(|(variant, code)| {
        let name = lit(&code.name);
        quote!(Self::#variant => #name)
    });
    let text = doc(&format!(
        "The error codes `{}` declares (its spec's `exitCodes`). A handler fails with \
         `Err(ErrorCode::X.error(\"...\"))`, so a misspelt code does not compile; the built-in \
         ones are in `pas::codes`.",
        registry.name
    ));
    quote! {
        #text
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum #ident {
            #(#definitions,)*
        }
        impl #ident {
            /// The constant agents read in the error's `error` field.
            pub const fn name(self) -> &'static str {
                match self {
                    #(#arms,)*
                }
            }
            /// A `pas::Error` with this code and `message`.
            pub fn error(self, message: impl Into<String>) -> pas::Error {
                pas::Error::new(self.name(), message)
            }
        }
        impl From<#ident> for std::borrow::Cow<'static, str> {
            fn from(code: #ident) -> Self {
                std::borrow::Cow::Borrowed(code.name())
            }
        }
        impl std::fmt::Display for #ident {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    }
}
