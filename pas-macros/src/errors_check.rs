//! Error codes checked across derives, at compile time. A command's `errors(...)` may sit on a
//! subcommand enum far from the root type that declares the tool's `exit_code(...)`s, and each
//! derive sees only its own type. So every derive gives its type a hidden `const fn` that checks
//! its commands' codes (and its nested groups') against a list, panicking at the span of the
//! first one missing; the root (the type with tool keys) calls it on itself in a `const` with
//! its declared codes. The panic is a compile error naming the code, pointing at it.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::Type;

use crate::ast::{Body, FieldRole, Input, VariantRole};
use crate::attr::CommandAttrs;

/// The hidden function that checks the codes, and (on the root) the `const` that calls it.
pub(crate) fn emit(input: &Input) -> TokenStream {
    // A generic type's function would need its parameters to be named; such types are rare
    // enough that their codes are left to the run-time validator.
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let ident = input.ident;
    let mut checks = Vec::new();
    let mut commands = |command: &CommandAttrs| {
        for error in &command.errors {
            let name = error.to_string();
            let message = format!(
                "`{name}` is not a declared exit code of this tool: add `exit_code(1xx, {name}, \"...\")` to the root type, or fix the spelling"
            );
            checks.push(quote_spanned! {error.span()=>
                if !::pas::__private::declares(declared, #name) {
                    ::core::panic!(#message);
                }
            });
        }
    };
    let mut nested: Vec<&Type> = Vec::new();
    match &input.body {
        Body::Struct(fields) => {
            if let Some((_, command)) = &input.tool.command {
                commands(command);
            }
            nested.extend(
                fields
                    .iter()
                    .filter(|f| matches!(f.role, FieldRole::Subcommand))
                    .map(|f| f.ty),
            );
        }
        Body::Enum(variants) => {
            for variant in variants {
                match variant.role {
                    VariantRole::Command { .. } => commands(&variant.command),
                    VariantRole::Nested(inner) | VariantRole::Flatten(inner) => nested.push(inner),
                    VariantRole::Skip => {}
                }
            }
        }
    }
    for inner in nested {
        // Only plain paths (`Inner`, `crate::Inner`): an `Option<Inner>` or a generic type has
        // no such function of its own.
        let plain = matches!(inner, Type::Path(path) if path.qself.is_none()
            && path.path.segments.iter().all(|s| s.arguments.is_empty()));
        if plain {
            let inner = inner.to_token_stream();
            checks.push(quote!(<#inner>::__pas_errors_check_needs_derive_AgentTool(declared);));
        }
    }
    let root = is_root(input).then(|| {
        let tool = &input.tool;
        let robot = tool.profile.as_ref().is_some_and(|p| p.value() == "robot");
        let mut declared: Vec<String> =
            tool.exit_codes.iter().map(|c| c.name.to_string()).collect();
        if !robot {
            declared.extend(["GENERAL_ERROR", "INVALID_ARGUMENT"].map(str::to_owned));
        }
        quote! {
            const _: () = #ident::__pas_errors_check_needs_derive_AgentTool(&[#(#declared),*]);
        }
    });
    quote! {
        #[automatically_derived]
        impl #ident {
            #[doc(hidden)]
            // Named so that a nested type without the derive says why in the error.
            #[allow(unused_variables, non_snake_case, clippy::all)]
            pub const fn __pas_errors_check_needs_derive_AgentTool(declared: &[&str]) {
                #(#checks)*
            }
        }
        #root
    }
}

/// The root of a tool is the type that carries tool keys (the derive on a subcommand enum has
/// none of them).
fn is_root(input: &Input) -> bool {
    let tool = &input.tool;
    tool.level.is_some()
        || tool.profile.is_some()
        || tool.schema_version.is_some()
        || !tool.exit_codes.is_empty()
        || !tool.examples.is_empty()
        || !tool.anti_patterns.is_empty()
        || !tool.resources.is_empty()
}
