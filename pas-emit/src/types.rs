//! The clap types: the root `Cli` (a `Parser`), one enum per group of commands (`Subcommand`),
//! one struct per command's arguments (`Args`), the global flags' struct, and the result structs.
//! Each derives `AgentTool` and carries the `#[agent(...)]` keys of what it describes.

use pas_spec::{Effect, Registry};
use proc_macro2::TokenStream;
use quote::quote;

use crate::agent;
use crate::error::EmitError;
use crate::items;
use crate::params;
use crate::plan::{Leaf, Plan, Root, Target};
use crate::text::{doc, lit};

pub(crate) fn types(plan: &Plan) -> Result<TokenStream, EmitError> {
    let registry = plan.registry;
    let mut out = Vec::new();
    out.push(root(plan)?);
    if let Some(globals) = &plan.globals {
        let fields = registry
            .global_flags
            .iter()
            .map(|param| params::field(param, true));
        let text = doc(&format!(
            "The flags every `{}` command accepts.",
            registry.name
        ));
        out.push(quote! {
            #text
            #[derive(Debug, Clone, clap::Args, pas::AgentTool)]
            pub struct #globals {
                #(#fields,)*
            }
        });
    }
    for group in &plan.groups {
        let ident = &group.ident;
        let mut variants = Vec::new();
        for variant in &group.variants {
            let name = &variant.ident;
            let word = lit(&variant.word);
            variants.push(match variant.target {
                Target::Group(inner) => {
                    let inner = &plan.groups[inner].ident;
                    quote! {
                        #[command(subcommand, name = #word)]
                        #name(#inner)
                    }
                }
                Target::Leaf(leaf) => {
                    let leaf = &plan.leaves[leaf];
                    let command = leaf.command;
                    let about = lit(&command.description);
                    let aliases = command.aliases.iter().map(|alias| {
                        let alias = lit(alias);
                        quote!(, visible_alias = #alias)
                    });
                    let keys = agent::command_keys(command, leaf.index, false)?;
                    let args = &leaf.args;
                    quote! {
                        #[command(name = #word, about = #about #(#aliases)*)]
                        #[agent(#(#keys),*)]
                        #name(#args)
                    }
                }
            });
        }
        out.push(quote! {
            #[derive(Debug, Clone, clap::Subcommand, pas::AgentTool)]
            pub enum #ident {
                #(#variants,)*
            }
        });
    }
    if matches!(plan.root, Root::Group) {
        for leaf in &plan.leaves {
            let ident = &leaf.args;
            let fields = fields(leaf);
            out.push(quote! {
                #[derive(Debug, Clone, clap::Args, pas::AgentTool)]
                pub struct #ident {
                    #(#fields,)*
                }
            });
        }
    }
    // One struct per distinct result type, documented with every command that returns it.
    let mut defined = std::collections::HashSet::new();
    for leaf in &plan.leaves {
        let items::ItemType::Struct { ident, .. } = &leaf.item else {
            continue;
        };
        if !defined.insert(ident.to_string()) {
            continue;
        }
        let commands: Vec<&pas_spec::Command> = plan
            .leaves
            .iter()
            .filter(|other| matches!(&other.item, items::ItemType::Struct { ident: i, .. } if i == ident))
            .map(|other| other.command)
            .collect();
        out.extend(items::definition(&leaf.item, &commands));
    }
    out.push(crate::codes::error_codes(plan));
    Ok(quote!(#(#out)*))
}

/// `Cli`: the tool's name, version and summary, its tool keys, and either its one command's
/// parameters or the global flags and the root group.
fn root(plan: &Plan) -> Result<TokenStream, EmitError> {
    let registry: &Registry = plan.registry;
    let name = lit(&registry.name);
    let version = lit(&registry.version);
    let about = lit(&registry.summary);
    // The long about is the summary, a blank line and the description, as clap makes it from a
    // doc comment; the registry reads the description back as what follows the first paragraph.
    // A summary that holds a blank line itself would be cut there, so then the long about is the
    // description alone (read back whole, as its first paragraph is not the summary).
    let long_about = registry.description.as_ref().map(|description| {
        let text = if registry.summary.contains("\n\n") {
            description.clone()
        } else {
            format!("{}\n\n{description}", registry.summary)
        };
        let text = lit(&text);
        quote!(, long_about = #text)
    });
    // Without a description, `long_about = None` keeps clap from taking the doc comment below
    // as one, which the registry would read back as a description the spec never had.
    let long_about = long_about.unwrap_or_else(|| quote!(, long_about = None));
    let text = doc(&format!(
        "{}: {}\n\nGenerated from its spec; the handlers are the `Handlers` trait.",
        registry.name, registry.summary
    ));
    let command = quote!(#[command(name = #name, version = #version, about = #about #long_about)]);
    // Clippy reads `#[agent(...)]` as attribute words: a verb in two `resource(...)` keys, or
    // `blocking` on two exit codes, looks to it like a repeated attribute.
    let repeats = |flag: fn(&pas_spec::ExitCode) -> bool| {
        registry.exit_codes.iter().filter(|c| flag(c)).count() > 1
    };
    let allow =
        (!registry.resources.is_empty() || repeats(|c| c.blocking) || repeats(|c| c.success))
            .then(|| quote!(#[allow(clippy::duplicated_attributes)]));
    let command = quote!(#command #allow);
    match plan.root {
        Root::Single(leaf) => {
            let leaf = &plan.leaves[leaf];
            let keys = agent::tool(registry, Some((leaf.index, leaf.command)))?;
            let fields = fields(leaf);
            Ok(quote! {
                #text
                #[derive(Debug, Clone, clap::Parser, pas::AgentTool)]
                #command
                #keys
                pub struct Cli {
                    #(#fields,)*
                }
            })
        }
        Root::Group => {
            let keys = agent::tool(registry, None)?;
            let globals = plan.globals.as_ref().map(|globals| {
                quote! {
                    #[command(flatten)]
                    pub globals: #globals,
                }
            });
            let commands = &plan.groups[0].ident;
            Ok(quote! {
                #text
                #[derive(Debug, Clone, clap::Parser, pas::AgentTool)]
                #command
                #keys
                pub struct Cli {
                    #globals
                    #[command(subcommand)]
                    pub command: #commands,
                }
            })
        }
    }
}

/// A command's parameters as fields, then the built-in switches it has.
fn fields(leaf: &Leaf) -> Vec<TokenStream> {
    let command = leaf.command;
    let mut fields: Vec<TokenStream> = command
        .parameters
        .iter()
        .map(|param| params::field(param, false))
        .collect();
    let declared = |long: &str| command.parameters.iter().any(|p| p.name == long);
    if command.dry_run && !declared("dry-run") {
        fields.push(params::builtin_switch(
            "dry-run",
            "Check and report what would change, and change nothing",
        ));
    }
    if command.effect == Effect::Destructive && !declared("force") {
        fields.push(params::builtin_switch(
            "force",
            "Confirm a destructive change (required to make it)",
        ));
    }
    fields
}
