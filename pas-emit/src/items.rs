//! The typed result of a command: a struct made from a simple `outputSchema` (an object with
//! typed properties) deriving `Serialize` and `JsonSchema`, else `serde_json::Value`.
//!
//! The struct is what the handler builds; the registry keeps the spec's schema itself (the
//! derive's `output_schema = "..."`), so the round trip is exact whatever the struct's own
//! schemars schema would say.

use pas_spec::{Command, OutputKind};
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use serde_json::{Map, Value};

use crate::names::{self, Scope};
use crate::text;

/// What a command's handler returns one of.
pub(crate) enum ItemType {
    /// A generated struct, defined from the schema.
    Struct { ident: Ident, schema: Value },
    /// Any JSON value.
    Json,
    /// No JSON item (documents and `none`).
    Nothing,
}

/// The structs already made, by schema: commands whose output schemas are equal share one
/// struct, so a handler can pass one command's result to another (an object command's result
/// and a list command's item alike).
///
/// Equal means structurally: the same JSON, keys in the same order (the order is the struct's
/// field order, and so the order the result is written in). A YAML anchor and its aliases are
/// always equal, since the loader expands them; two schemas written out alike are equal too;
/// a `$ref` is compared as written, not resolved.
pub(crate) type Shared = std::collections::HashMap<String, Ident>;

/// Chooses the item type of `command`; `base` is its UpperCamelCase name. A struct shared by
/// several commands is named after the first of them (`AddOutput` for `add` and `list`).
pub(crate) fn item_type(
    command: &Command,
    base: &str,
    types: &mut Scope,
    shared: &mut Shared,
) -> ItemType {
    if matches!(command.output, OutputKind::Document | OutputKind::None) {
        return ItemType::Nothing;
    }
    match &command.output_schema {
        Some(schema) if properties(schema).is_some() => {
            let suffix = match command.output {
                OutputKind::List | OutputKind::Events => "Item",
                _ => "Output",
            };
            let key = schema.to_string();
            let ident = shared
                .entry(key)
                .or_insert_with(|| names::ident(&types.fresh(format!("{base}{suffix}"))))
                .clone();
            ItemType::Struct {
                ident,
                schema: schema.clone(),
            }
        }
        _ => ItemType::Json,
    }
}

/// The properties of an object schema with at least one property.
fn properties(schema: &Value) -> Option<&Map<String, Value>> {
    if schema.get("type")?.as_str()? != "object" {
        return None;
    }
    let properties = schema.get("properties")?.as_object()?;
    (!properties.is_empty()).then_some(properties)
}

/// The type as written in a signature.
pub(crate) fn path(item: &ItemType) -> TokenStream {
    match item {
        ItemType::Struct { ident, .. } => quote!(#ident),
        ItemType::Json => quote!(serde_json::Value),
        ItemType::Nothing => quote!(()),
    }
}

/// The struct definition, when the item is a generated struct; `commands` are every command
/// whose result it is (the first decides the wording).
pub(crate) fn definition(item: &ItemType, commands: &[&Command]) -> Option<TokenStream> {
    commands.first()?;
    let ItemType::Struct { ident, schema } = item else {
        return None;
    };
    let properties = properties(schema)?;
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut fields = Scope::default();
    let fields = properties.iter().map(|(name, property)| {
        let field = names::ident(&fields.fresh(names::snake(name)));
        let ty = property_type(property);
        let doc = property
            .get("description")
            .and_then(Value::as_str)
            .map(text::doc);
        // serde writes the spec's own name, whatever Rust calls the field.
        let rename = (field.to_string().trim_start_matches("r#") != name).then(|| {
            let name = text::lit(name);
            quote!(#[serde(rename = #name)])
        });
        if required.contains(&name.as_str()) {
            quote! { #doc #rename pub #field: #ty }
        } else {
            quote! {
                #doc
                #rename
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub #field: Option<#ty>
            }
        }
    });
    // "The result of `a`; one item of `b`, `c`", in the order the commands first come.
    let which = |output: OutputKind| match output {
        OutputKind::List => "one item of",
        OutputKind::Events => "one event of",
        _ => "the result of",
    };
    let mut phrases: Vec<(&str, Vec<String>)> = Vec::new();
    for command in commands {
        let name = format!("`{}`", command.name);
        match phrases
            .iter_mut()
            .find(|(w, _)| *w == which(command.output))
        {
            Some((_, names)) => names.push(name),
            None => phrases.push((which(command.output), vec![name])),
        }
    }
    let phrases: Vec<String> = phrases
        .into_iter()
        .map(|(which, names)| format!("{which} {}", names.join(", ")))
        .collect();
    let phrases = phrases.join("; ");
    let whose = if commands.len() > 1 { "their" } else { "its" };
    let doc = text::doc(&format!(
        "{}{}, as {whose} `outputSchema` describes it.",
        phrases[..1].to_uppercase(),
        &phrases[1..]
    ));
    Some(quote! {
        #doc
        #[derive(
            Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
        )]
        pub struct #ident {
            #(#fields,)*
        }
    })
}

/// The Rust type of one property: scalars and arrays of scalars are typed, the rest is JSON.
fn property_type(schema: &Value) -> TokenStream {
    let json = quote!(serde_json::Value);
    let ty = match schema.get("type") {
        Some(Value::String(ty)) => ty.as_str(),
        // `enum` or `const` of strings: a string.
        None if string_choices(schema) => "string",
        _ => return json,
    };
    match ty {
        "array" => match schema.get("items").map(property_type) {
            Some(item) => quote!(Vec<#item>),
            None => quote!(Vec<serde_json::Value>),
        },
        other => scalar(other).unwrap_or(json),
    }
}

fn scalar(ty: &str) -> Option<TokenStream> {
    Some(match ty {
        "string" => quote!(String),
        "integer" => quote!(i64),
        "number" => quote!(f64),
        "boolean" => quote!(bool),
        _ => return None,
    })
}

fn string_choices(schema: &Value) -> bool {
    let all_strings = |values: &Value| {
        values
            .as_array()
            .is_some_and(|values| !values.is_empty() && values.iter().all(Value::is_string))
    };
    schema.get("enum").is_some_and(all_strings) || schema.get("const").is_some_and(Value::is_string)
}
