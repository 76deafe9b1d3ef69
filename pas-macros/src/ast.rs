//! The derive input as a small AST: a struct (one command, or the root of a tool whose commands
//! come from a `#[command(subcommand)]` field) or an enum (a group of commands, one per
//! variant), with the `#[agent]` attributes read and the clap structure each field and variant
//! has.
//!
//! The AST keeps what the macro must know at compile time: where nested command groups and
//! flattened argument structs are, which Rust type each field has (for its JSON Schema), and
//! the attributes. Everything else about parameters is clap's, read from its `Command` at run
//! time.

use proc_macro2::Ident;
use syn::{Data, DeriveInput, Fields, Generics, Type};

use crate::attr::{self, CommandAttrs, Scope, ToolAttrs};
use crate::ctxt::Ctxt;

pub(crate) struct Input<'a> {
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    pub tool: ToolAttrs,
    pub body: Body<'a>,
}

pub(crate) enum Body<'a> {
    Struct(Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

/// A named field of a struct or a struct-like variant.
pub(crate) struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub role: FieldRole,
    /// `#[agent(secret)]`: a secret whatever clap says of its environment variable.
    pub secret: bool,
    /// `#[agent(hardening = false)]` (or `hardening`): the spec's `agentHardening`.
    pub hardening: Option<bool>,
    /// `#[agent(format = "path")]`: the spec's `format` (`path`, `resource-path`, `id`).
    pub format: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum FieldRole {
    /// A clap arg whose id is the field's name.
    Arg,
    /// `#[command(flatten)]`: the args of another struct.
    Flatten,
    /// `#[command(subcommand)]`: the commands of an enum.
    Subcommand,
}

pub(crate) struct Variant<'a> {
    pub ident: &'a Ident,
    pub role: VariantRole<'a>,
    pub fields: Vec<Field<'a>>,
    pub command: CommandAttrs,
}

pub(crate) enum VariantRole<'a> {
    /// One subcommand: a command. Its args are its fields, or those of its one unnamed field.
    Command { payload: Option<&'a Type> },
    /// `#[command(subcommand)] Group(Inner)`: a subcommand whose own subcommands are `Inner`'s.
    Nested(&'a Type),
    /// `#[command(flatten)] More(Inner)`: `Inner`'s subcommands at this level.
    Flatten(&'a Type),
    /// `#[command(skip)]` or `#[command(external_subcommand)]`: no subcommand of its own.
    Skip,
}

impl<'a> Input<'a> {
    /// The AST, or `None` when the input is not something the derive applies to.
    pub(crate) fn from_syn(input: &'a DeriveInput, ctxt: &Ctxt) -> Option<Input<'a>> {
        // The type's own attributes first, so errors come out in source order.
        let scope = match &input.data {
            Data::Struct(_) => Scope::Struct,
            Data::Enum(_) => Scope::Enum,
            Data::Union(data) => {
                ctxt.spanned(
                    data.union_token,
                    "`AgentTool` derives on a struct (one command) or an enum (a group of commands), like clap's derives",
                );
                return None;
            }
        };
        let tool = attr::tool(&input.attrs, scope, ctxt);
        let body = match &input.data {
            Data::Enum(data) => {
                Body::Enum(data.variants.iter().map(|v| variant(v, ctxt)).collect())
            }
            Data::Struct(data) => Body::Struct(fields(&data.fields, ctxt)),
            Data::Union(_) => return None,
        };
        Some(Input {
            ident: &input.ident,
            generics: &input.generics,
            tool,
            body,
        })
    }
}

fn fields<'a>(fields: &'a Fields, ctxt: &Ctxt) -> Vec<Field<'a>> {
    fields
        .iter()
        .filter_map(|field| {
            let attr::FieldAttrs {
                secret,
                hardening,
                format,
            } = attr::field(&field.attrs, ctxt);
            // Unnamed fields have no clap id of their own (clap rejects them outside variants).
            let ident = field.ident.as_ref()?;
            let role = if attr::clap_word(&field.attrs, "subcommand") {
                FieldRole::Subcommand
            } else if attr::clap_word(&field.attrs, "flatten") {
                FieldRole::Flatten
            } else {
                FieldRole::Arg
            };
            Some(Field {
                ident,
                ty: &field.ty,
                role,
                secret,
                hardening,
                format,
            })
        })
        .collect()
}

fn variant<'a>(variant: &'a syn::Variant, ctxt: &Ctxt) -> Variant<'a> {
    let mut command = attr::variant(&variant.attrs, ctxt);
    // clap drops the final period of a one-sentence doc comment from `about`; the registry
    // keeps the text as written.
    if command.description.is_none() {
        command.description =
            doc_summary(&variant.attrs).map(|text| syn::LitStr::new(&text, variant.ident.span()));
    }
    let newtype = match &variant.fields {
        Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => Some(&unnamed.unnamed[0].ty),
        _ => None,
    };
    let attrs = &variant.attrs;
    let role = if attr::clap_word(attrs, "skip") || attr::clap_word(attrs, "external_subcommand") {
        VariantRole::Skip
    } else if let (true, Some(inner)) = (attr::clap_word(attrs, "subcommand"), newtype) {
        VariantRole::Nested(inner)
    } else if let (true, Some(inner)) = (attr::clap_word(attrs, "flatten"), newtype) {
        VariantRole::Flatten(inner)
    } else {
        VariantRole::Command { payload: newtype }
    };
    let fields = fields(&variant.fields, ctxt);
    Variant {
        ident: &variant.ident,
        role,
        fields,
        command,
    }
}

/// The first paragraph of a doc comment, its lines joined as clap joins them, with its final
/// period; None when there is no doc comment, or when clap's `about` is set explicitly (then
/// clap's text is the description) or the comment is kept verbatim.
fn doc_summary(attrs: &[syn::Attribute]) -> Option<String> {
    let explicit = attrs.iter().any(|attr| {
        (attr.path().is_ident("command") || attr.path().is_ident("clap"))
            && quote::ToTokens::to_token_stream(attr)
                .to_string()
                .contains("about")
            || quote::ToTokens::to_token_stream(attr)
                .to_string()
                .contains("verbatim_doc_comment")
    });
    if explicit {
        return None;
    }
    let mut lines = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        let syn::Meta::NameValue(meta) = &attr.meta else {
            return None;
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) = &meta.value
        else {
            return None;
        };
        lines.push(text.value());
    }
    let paragraph: Vec<String> = lines
        .iter()
        .flat_map(|line| line.split('\n'))
        .map(|line| line.trim().to_owned())
        .skip_while(String::is_empty)
        .take_while(|line| !line.is_empty())
        .collect();
    let text = paragraph.join(" ");
    (!text.is_empty()).then_some(text)
}
