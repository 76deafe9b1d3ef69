//! A parameter as a clap field: the Rust type says how many values and whether one is needed,
//! `#[arg(...)]` says everything else explicitly (long, short, help, default, env, values), so
//! clap's introspection gives the runtime back exactly the spec's parameter.
//!
//! Help is `help = "..."` rather than a doc comment: clap's derive reworks doc comments (it drops
//! a one-line comment's final period), which would change the registry.

use pas_spec::{ParamKind, ParamType, Parameter, StringFormat};
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use serde_json::Value;

use crate::names;
use crate::text::lit;

/// The field for `param`; `global` for the tool's global flags.
pub(crate) fn field(param: &Parameter, global: bool) -> TokenStream {
    let ident = names::ident(
        &param
            .rust_name
            .clone()
            .unwrap_or_else(|| names::snake(&param.name)),
    );
    let switch = param.kind == ParamKind::Flag && param.ty == ParamType::Boolean;
    let element = match param.element_type() {
        ParamType::Integer => quote!(i64),
        ParamType::Number => quote!(f64),
        ParamType::Boolean => quote!(bool),
        // A local file path is the operating system's, not text: any bytes a file name may hold
        // reach the handler, as a code-first `PathBuf` field takes them.
        ParamType::String | ParamType::Array
            if param.format == Some(StringFormat::Path) && param.values.is_none() =>
        {
            quote!(std::path::PathBuf)
        }
        ParamType::String | ParamType::Array => quote!(String),
    };
    let ty = if switch {
        quote!(bool)
    } else if param.is_many() {
        quote!(Vec<#element>)
    } else if param.required || param.default.is_some() {
        element
    } else {
        quote!(Option<#element>)
    };

    let mut args = Vec::new();
    if param.kind == ParamKind::Flag {
        let long = lit(&param.name);
        args.push(quote!(long = #long));
        if let Some(short) = param.short {
            let short = Literal::character(short);
            args.push(quote!(short = #short));
        }
        // Visible aliases are the spec's `aliases`, hidden ones its `deprecatedAliases`.
        for alias in &param.aliases {
            let alias = lit(alias);
            args.push(quote!(visible_alias = #alias));
        }
        for alias in &param.deprecated_aliases {
            let alias = lit(alias);
            args.push(quote!(alias = #alias));
        }
    } else if param.kind == ParamKind::Positional && param.element_type() == ParamType::Boolean {
        // clap's derive makes a `bool` field a switch; a positional takes the word `true`/`false`.
        args.push(quote!(action = clap::ArgAction::Set));
    }
    if !param.description.is_empty() {
        let help = lit(&param.description);
        args.push(quote!(help = #help));
    }
    if param.required && !switch {
        args.push(quote!(required = true));
    }
    if global {
        args.push(quote!(global = true));
    }
    if let Some(values) = &param.values
        && param.element_type() == ParamType::String
    {
        let values = values.iter().map(|v| lit(v));
        args.push(quote!(value_parser = [#(#values),*]));
    }
    if let Some(default) = &param.default
        && !switch
    {
        match default {
            Value::Array(items) => {
                let items = items.iter().map(|v| lit(&scalar_text(v)));
                args.push(quote!(default_values = [#(#items),*]));
            }
            other => {
                let text = lit(&scalar_text(other));
                args.push(quote!(default_value = #text));
            }
        }
    }
    if let Some(env) = &param.env {
        let env = lit(env);
        args.push(quote!(env = #env));
    }
    if param.secret {
        // What marks a secret for the registry, and keeps env values and defaults out of help.
        args.push(quote!(hide_env_values = true));
        args.push(quote!(hide_default_value = true));
    }
    // The spec's `agentHardening`, as the derive declares it.
    let hardening = param
        .agent_hardening
        .map(|on| quote!(#[agent(hardening = #on)]));
    // The spec's `format`, as the derive declares it.
    let format = param.format.map(|format| {
        let word = format.as_str();
        quote!(#[agent(format = #word)])
    });
    quote! {
        #[arg(#(#args),*)]
        #hardening
        #format
        pub #ident: #ty
    }
}

/// The built-in switch a command gets from the registry (`--dry-run`, `--force`): not listed as
/// a parameter, but the handler needs to read it.
pub(crate) fn builtin_switch(long: &str, help: &str) -> TokenStream {
    let ident = names::ident(&names::snake(long));
    let (long, help) = (lit(long), lit(help));
    quote! {
        #[arg(long = #long, help = #help)]
        pub #ident: bool
    }
}

/// A JSON default as clap's text (strings unquoted).
fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}
