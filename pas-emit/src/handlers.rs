//! The handlers trait (one typed method per command) and `app`, which wires it to the runtime:
//! the parsed `Cli` is matched down to the command's arguments, the method is called, and its
//! typed result becomes the runtime's `Reply`.

use pas_spec::OutputKind;
use proc_macro2::TokenStream;
use quote::quote;

use crate::items::{self, ItemType};
use crate::plan::{Leaf, Plan, Root};
use crate::text::doc;

pub(crate) fn handlers(plan: &Plan) -> TokenStream {
    let registry = plan.registry;
    let globals = plan.globals.as_ref();
    let methods = plan.leaves.iter().map(|leaf| {
        let command = leaf.command;
        let method = &leaf.method;
        let args = &leaf.args;
        let output = output_type(leaf);
        let text = doc(&format!(
            "{}\n\n`{}` ({}, {} output).",
            command.description,
            command.name,
            command.effect.as_str(),
            command.output.as_str()
        ));
        let globals = globals.map(|globals| quote!(globals: &#globals,));
        quote! {
            #text
            fn #method(&self, #globals args: #args, ctx: &pas::Context) -> Result<#output, pas::Error>;
        }
    });
    let trait_doc = doc(&format!(
        "The commands of `{}`: implement one method per command. A method gets its command's parsed arguments and returns a typed result or a `pas::Error`; it never prints.",
        registry.name
    ));
    let dispatch = dispatch(plan);
    let app_doc = doc(&format!(
        "`{}` with `handlers` for its commands: `fn main() -> ExitCode {{ app(MyHandlers).run() }}`.",
        registry.name
    ));
    if registry.resources.is_empty() {
        return quote! {
            #trait_doc
            pub trait Handlers {
                #(#methods)*
            }

            #app_doc
            pub fn app(handlers: impl Handlers + Send + Sync + 'static) -> pas::App {
                pas::App::from_tool::<Cli, _>(move |cli: Cli, ctx: &pas::Context| #dispatch)
            }
        };
    }
    // A level 3/4 tool: the same value serves the commands and, as `pas::Resources`, the verbs.
    let globals = match globals {
        Some(globals) => quote!(#globals),
        None => quote!(pas::NoGlobals),
    };
    let trait_doc = doc(&format!(
        "The commands of `{}`: implement one method per command, and `pas::Resources` for the verbs of its resources (`ls`, `cat`, ...). A method gets its command's parsed arguments and returns a typed result or a `pas::Error`; it never prints.",
        registry.name
    ));
    quote! {
        #trait_doc
        pub trait Handlers: pas::Resources<Globals = #globals> {
            #(#methods)*
        }

        #app_doc
        pub fn app<H: Handlers + Send + Sync>(handlers: H) -> pas::App {
            let handlers = std::sync::Arc::new(handlers);
            let resources = std::sync::Arc::clone(&handlers);
            pas::App::from_tool::<Cli, _>(move |cli: Cli, ctx: &pas::Context| #dispatch)
                .shared_resources(resources)
        }
    }
}

/// The `pas::Resources` methods a scaffold stubs: each verb some resource offers, except `sync`
/// and `feedback`, whose defaults work once `ls` and `cat` do.
pub(crate) fn resource_stubs(registry: &pas_spec::Registry) -> Vec<crate::HandlerSignature> {
    use pas_spec::Verb;
    let globals = if registry.global_flags.is_empty() {
        "NoGlobals"
    } else {
        crate::plan::GLOBALS
    };
    pas_spec::verbs::verb_commands(registry)
        .into_iter()
        .filter_map(|command| {
            let verb = Verb::ALL.into_iter().find(|v| v.as_str() == command.name)?;
            let (params, output) = match verb {
                Verb::Ls => ("path: &ResourcePath", "Items<Entry>"),
                Verb::Cat => ("path: &ResourcePath", "serde_json::Value"),
                Verb::Stat => ("path: &ResourcePath", "Stat"),
                Verb::Cp => ("source: &CopySource, dest: &ResourcePath", "Copied"),
                Verb::Rm => ("path: &ResourcePath", "Removed"),
                Verb::Sync | Verb::Feedback => return None,
            };
            let params = params
                .split(", ")
                .map(|p| format!("_{p}"))
                .collect::<Vec<_>>()
                .join(", ");
            Some(crate::HandlerSignature {
                command: command.name.clone(),
                description: command.description.clone(),
                method: command.name,
                params: format!("_globals: &{globals}, {params}, _ctx: &Context"),
                output: output.to_owned(),
            })
        })
        .collect()
}

/// The method of `leaf` as text for user-owned code.
pub(crate) fn signature(plan: &Plan, leaf: &Leaf) -> crate::HandlerSignature {
    let item = match &leaf.item {
        ItemType::Struct { ident, .. } => ident.to_string(),
        ItemType::Json => "serde_json::Value".to_owned(),
        ItemType::Nothing => "()".to_owned(),
    };
    let output = match leaf.command.output {
        OutputKind::Object | OutputKind::Job => item,
        OutputKind::List | OutputKind::Events => format!("Items<{item}>"),
        OutputKind::Document => "String".to_owned(),
        OutputKind::None => "()".to_owned(),
    };
    let globals = match &plan.globals {
        Some(globals) => format!("_globals: &{globals}, "),
        None => String::new(),
    };
    crate::HandlerSignature {
        command: leaf.command.name.clone(),
        description: leaf.command.description.clone(),
        method: leaf.method.to_string(),
        params: format!("{globals}_args: {}, _ctx: &Context", leaf.args),
        output,
    }
}

/// What a method returns on success.
fn output_type(leaf: &Leaf) -> TokenStream {
    let item = items::path(&leaf.item);
    match leaf.command.output {
        OutputKind::Object | OutputKind::Job => item,
        OutputKind::List | OutputKind::Events => quote!(pas::Items<#item>),
        OutputKind::Document => quote!(String),
        OutputKind::None => quote!(()),
    }
}

/// The call of one method, and its result as a `Reply`.
fn call(leaf: &Leaf, globals: bool, args: TokenStream) -> TokenStream {
    let method = &leaf.method;
    let globals = globals.then(|| quote!(&cli.globals,));
    let reply = match (leaf.command.output, &leaf.item) {
        (OutputKind::Object | OutputKind::Job, ItemType::Nothing) | (OutputKind::None, _) => {
            quote!(|()| pas::Reply::none())
        }
        // A job's handler returns its result; the runtime starts it detached and keeps it.
        (OutputKind::Object | OutputKind::Job, _) => quote!(|item| pas::Reply::object(&item)),
        (OutputKind::List, _) => quote!(pas::Items::into_list),
        (OutputKind::Events, _) => quote!(pas::Items::into_events),
        (OutputKind::Document, _) => quote!(pas::Reply::document),
    };
    quote!(handlers.#method(#globals #args, ctx).map(#reply))
}

fn dispatch(plan: &Plan) -> TokenStream {
    match plan.root {
        Root::Single(leaf) => {
            let call = call(&plan.leaves[leaf], false, quote!(cli));
            quote!({ #call })
        }
        Root::Group => {
            let globals = plan.globals.is_some();
            let arms = plan.leaves.iter().map(|leaf| {
                let mut pattern = quote!(args);
                for (group, variant) in leaf.route.iter().rev() {
                    pattern = quote!(#group::#variant(#pattern));
                }
                let call = call(leaf, globals, quote!(args));
                quote!(#pattern => #call)
            });
            quote! {
                match cli.command {
                    #(#arms,)*
                }
            }
        }
    }
}
