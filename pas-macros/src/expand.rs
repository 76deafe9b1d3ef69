//! Emitting `impl pas::AgentTool`: registry-building data, never behaviour.
//!
//! Like clap_derive, which only emits builder calls, the impl returns what the author wrote (the
//! tool's keys, each command's keys, the JSON Schema of each field's type) as plain values of
//! `pas::tool`. The runtime pairs them with clap's `Command` and builds the registry; parsing,
//! dispatch and rendering stay in the runtime.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr, Type};

use crate::ast::{Body, Field, FieldRole, Input, Variant, VariantRole};
use crate::attr::{AntiPatternAttr, CommandAttrs, ExampleAttr, ToolAttrs};
use crate::ctxt::Ctxt;
use crate::{ast, valid};

/// The whole derive: read, check, then emit (or every error, plus a stub impl so the errors are
/// not followed by "AgentTool is not implemented" wherever the type is used).
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let ctxt = Ctxt::new();
    let ast = ast::Input::from_syn(input, &ctxt);
    if let Some(ast) = &ast {
        valid::check(ast, &ctxt);
    }
    match (ast, ctxt.is_clean()) {
        (Some(ast), true) => {
            ctxt.finish().expect("no errors were collected");
            let implementation = implementation(&ast);
            let errors_check = crate::errors_check::emit(&ast);
            quote! { #implementation #errors_check }
        }
        _ => {
            let errors = ctxt.finish().err().map(|e| e.into_compile_error());
            let stub = stub(input);
            quote! { #errors #stub }
        }
    }
}

fn stub(input: &DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    // The error-code check other derives call on this type: empty, as its errors are out already.
    let check = input.generics.params.is_empty().then(|| {
        quote! {
            #[automatically_derived]
            impl #ident {
                #[doc(hidden)]
                #[allow(non_snake_case)]
                pub const fn __pas_errors_check_needs_derive_AgentTool(_declared: &[&str]) {}
            }
        }
    });
    quote! {
        #check
        impl #impl_generics ::pas::AgentTool for #ident #ty_generics #where_clause {
            fn agent_node() -> ::pas::tool::Node {
                ::core::unimplemented!("#[derive(AgentTool)] failed")
            }
        }
    }
}

fn implementation(input: &Input) -> TokenStream {
    let ident = input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let tool = tool(&input.tool);
    let offers_jobs = offers_jobs(input);
    let changes_state = changes_state(input);
    let checks_input = checks_input(input);
    let takes_locks = takes_locks(input);
    let confirms = confirms(input);
    let has_global_flags = has_global_flags(&input.body);
    // Value constraints, requirements, credentials and side effects come only from `declared`
    // keys (or a nested type that does not know).
    let mut declares_checks = any_command(
        input,
        &|command| command.declared.is_some(),
        quote!(DECLARES_CHECKS),
    );
    if input.tool.declared.is_some() {
        declares_checks = quote!(true);
    }
    let offers_cleanup = any_command(input, &offers_cleanup, quote!(OFFERS_CLEANUP));
    // The profile as a constant too, so `App::from_tool` links only that profile.
    let profile = match input.tool.profile.as_ref().map(LitStr::value).as_deref() {
        Some("compose") => quote!(Compose),
        Some("robot") => quote!(Robot),
        _ => quote!(Pas),
    };
    let node = match &input.body {
        Body::Struct(fields) => {
            let command = match &input.tool.command {
                Some((_, command)) => {
                    let command = command_meta(command);
                    quote!(::core::option::Option::Some(#command))
                }
                None => quote!(::core::option::Option::None),
            };
            let fields = field_schemas(fields, None);
            let subcommands = match fields_of_role(&input.body, FieldRole::Subcommand) {
                Some(ty) => {
                    let node = node_of(ty);
                    quote!(::core::option::Option::Some(::std::boxed::Box::new(#node)))
                }
                None => quote!(::core::option::Option::None),
            };
            quote! {
                ::pas::tool::Node::Struct(::pas::tool::StructNode {
                    command: #command,
                    fields: #fields,
                    subcommands: #subcommands,
                })
            }
        }
        Body::Enum(variants) => {
            let variants = variants.iter().map(variant);
            quote!(::pas::tool::Node::Enum(::std::vec![#(#variants),*]))
        }
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics ::pas::AgentTool for #ident #ty_generics #where_clause {
            const PROFILE: ::core::option::Option<::pas::spec::Profile> =
                ::core::option::Option::Some(::pas::spec::Profile::#profile);

            const OFFERS_JOBS: ::core::option::Option<bool> =
                ::core::option::Option::Some(#offers_jobs);

            const CHANGES_STATE: ::core::option::Option<bool> =
                ::core::option::Option::Some(#changes_state);

            const DECLARES_CHECKS: ::core::option::Option<bool> =
                ::core::option::Option::Some(#declares_checks);

            const CHECKS_INPUT: ::core::option::Option<bool> =
                ::core::option::Option::Some(#checks_input);

            const OFFERS_CLEANUP: ::core::option::Option<bool> =
                ::core::option::Option::Some(#offers_cleanup);

            const TAKES_LOCKS: ::core::option::Option<bool> =
                ::core::option::Option::Some(#takes_locks);

            const CONFIRMS: ::core::option::Option<bool> =
                ::core::option::Option::Some(#confirms);

            const HAS_GLOBAL_FLAGS: ::core::option::Option<bool> =
                ::core::option::Option::Some(#has_global_flags);

            fn agent_tool() -> ::pas::tool::ToolMeta {
                #tool
            }

            fn agent_node() -> ::pas::tool::Node {
                #node
            }
        }
    }
}

/// Whether a command's `declared` names a `filesystem` or `background` side effect (what
/// `cleanup` undoes): read by `App::from_tool` at compile time to link `cleanup` only then.
fn offers_cleanup(command: &CommandAttrs) -> bool {
    command.declared.as_ref().is_some_and(|lit| {
        serde_json::from_str::<pas_spec::derive_declared::CommandDeclared>(&lit.value())
            .is_ok_and(|declared| declared.offers_cleanup())
    })
}

/// Whether a command of the type, or of a type nested in it, is `kind = "job"`: read by
/// `App::from_tool` at compile time to link the job runtime only then.
fn offers_jobs(input: &Input) -> TokenStream {
    let is_job = |command: &CommandAttrs| command.kind.as_ref().is_some_and(|k| k.value() == "job");
    any_command(input, &is_job, quote!(OFFERS_JOBS))
}

/// Whether a command of the type, or of a type nested in it, changes state (`effect = "write"`
/// or `"destructive"`), or the type serves resources (whose state verbs do): read by
/// `App::from_tool` at compile time to link idempotency keys only then.
fn changes_state(input: &Input) -> TokenStream {
    let changes = |command: &CommandAttrs| {
        command
            .effect
            .as_ref()
            .is_some_and(|e| matches!(e.value().as_str(), "write" | "destructive"))
    };
    let mut any = any_command(input, &changes, quote!(CHANGES_STATE));
    if !input.tool.resources.is_empty() {
        any = quote!(true);
    }
    any
}

/// Whether a command of the type, or of a type nested in it, declares an input schema
/// (`input = Type` or `input_schema = "..."`), or the type serves resources (whose verbs have
/// theirs): read by `App::from_tool` at compile time to link the input schema check only then.
fn checks_input(input: &Input) -> TokenStream {
    let declares =
        |command: &CommandAttrs| command.input.is_some() || command.input_schema.is_some();
    let mut any = any_command(input, &declares, quote!(CHECKS_INPUT));
    if !input.tool.resources.is_empty() {
        any = quote!(true);
    }
    any
}

/// Whether a command of the type, or of a type nested in it, declares a `lock`: read by
/// `App::from_tool` at compile time to link the named locks only then.
fn takes_locks(input: &Input) -> TokenStream {
    any_command(
        input,
        &|command| command.lock.is_some(),
        quote!(TAKES_LOCKS),
    )
}

/// Whether a command of the type, or of a type nested in it, needs confirming (`effect =
/// "destructive"`, or `confirm`): read by `App::from_tool` at compile time to link the confirm
/// guard only then.
fn confirms(input: &Input) -> TokenStream {
    let needs = |command: &CommandAttrs| {
        command.confirm == Some(true)
            || command
                .effect
                .as_ref()
                .is_some_and(|e| e.value() == "destructive")
    };
    any_command(input, &needs, quote!(CONFIRMS))
}

/// Whether the type, as a tool's root, has global flags: a struct with a subcommand and args (or
/// flattened groups, which may hold args) of its own. Read by `App::from_tool` at compile time
/// to link the TOML reader of configuration files only then (a nested type's answer is unused).
fn has_global_flags(body: &Body) -> bool {
    match body {
        Body::Struct(fields) => {
            fields.iter().any(|f| f.role == FieldRole::Subcommand)
                && fields.iter().any(|f| f.role != FieldRole::Subcommand)
        }
        Body::Enum(_) => false,
    }
}

/// A const expression: whether `test` holds for a command of the type, or the nested types'
/// own `constant` says so for theirs (a type that does not know counts as yes, so what it
/// gates is linked).
fn any_command(
    input: &Input,
    test: &dyn Fn(&CommandAttrs) -> bool,
    constant: TokenStream,
) -> TokenStream {
    let nested = |ty: &Type| {
        quote_spanned!(ty.span()=> match <#ty as ::pas::AgentTool>::#constant {
            ::core::option::Option::Some(holds) => holds,
            ::core::option::Option::None => true,
        })
    };
    let mut terms = Vec::new();
    match &input.body {
        Body::Struct(_) => {
            if input.tool.command.as_ref().is_some_and(|(_, c)| test(c)) {
                terms.push(quote!(true));
            }
            if let Some(ty) = fields_of_role(&input.body, FieldRole::Subcommand) {
                terms.push(nested(ty));
            }
        }
        Body::Enum(variants) => {
            for variant in variants {
                match &variant.role {
                    VariantRole::Command { .. } if test(&variant.command) => {
                        terms.push(quote!(true));
                    }
                    VariantRole::Nested(ty) | VariantRole::Flatten(ty) => terms.push(nested(ty)),
                    VariantRole::Command { .. } | VariantRole::Skip => {}
                }
            }
        }
    }
    if terms.is_empty() {
        quote!(false)
    } else {
        quote!(#(#terms)||*)
    }
}

fn fields_of_role<'a>(body: &'a Body, role: FieldRole) -> Option<&'a Type> {
    match body {
        Body::Struct(fields) => fields.iter().find(|f| f.role == role).map(|f| f.ty),
        Body::Enum(_) => None,
    }
}

/// `<T as AgentTool>::agent_node()`, spanned at `T` so a missing derive is reported there.
fn node_of(ty: &Type) -> TokenStream {
    quote_spanned!(ty.span()=> <#ty as ::pas::AgentTool>::agent_node())
}

fn tool(tool: &ToolAttrs) -> TokenStream {
    let level = option(tool.level.as_ref().map(|level| quote!(#level)));
    let profile = option(tool.profile.as_ref().map(|lit| {
        let variant = match lit.value().as_str() {
            "compose" => quote!(Compose),
            "robot" => quote!(Robot),
            _ => quote!(Pas),
        };
        quote!(::pas::spec::Profile::#variant)
    }));
    let schema_version = option(tool.schema_version.as_ref().map(string));
    let exit_codes = tool.exit_codes.iter().map(|exit| {
        let code = &exit.code;
        let name = string(&LitStr::new(&exit.name.to_string(), exit.name.span()));
        let meaning = string(&exit.meaning);
        let (blocking, success) = (exit.blocking, exit.success);
        let trigger = option(exit.trigger.as_ref().map(string));
        let role = option(exit.role.as_ref().map(|role| {
            let variant = pas_spec::robot::ExitRole::ALL
                .into_iter()
                .find(|r| r.as_str() == role.value())
                .map(|r| format_ident(&format!("{r:?}")))
                .unwrap_or_else(|| format_ident("Internal"));
            quote!(::pas::spec::robot::ExitRole::#variant)
        }));
        quote! {
            ::pas::spec::ExitCode { code: #code, name: #name, meaning: #meaning, blocking: #blocking, success: #success, trigger: #trigger, role: #role }
        }
    });
    let examples = examples(&tool.examples);
    let anti_patterns = anti_patterns(&tool.anti_patterns);
    let robot = option(
        tool.robot
            .as_ref()
            .map(|lit| quote!(::pas::__private::robot_from_json(#lit))),
    );
    let mask_high_entropy = tool.mask_high_entropy.unwrap_or(false);
    let changelog = tool.changelog.as_ref().map_or_else(
        || quote!(::std::vec::Vec::new()),
        |lit| quote!(::pas::__private::changelog_from_json(#lit)),
    );
    let declared = option(
        tool.declared
            .as_ref()
            .map(|lit| quote!(::pas::__private::tool_declared_from_json(#lit))),
    );
    let resources = tool.resources.iter().map(|resource| {
        let path = string(&resource.path);
        let description = option(resource.description.as_ref().map(string));
        // Unknown verbs are compile errors already (valid.rs); leave them out here.
        let verbs = resource.verbs.iter().filter_map(|verb| {
            let variant = match verb.to_string().as_str() {
                "ls" => quote!(Ls),
                "cat" => quote!(Cat),
                "stat" => quote!(Stat),
                "cp" => quote!(Cp),
                "rm" => quote!(Rm),
                "sync" => quote!(Sync),
                "feedback" => quote!(Feedback),
                _ => return None,
            };
            Some(quote!(::pas::spec::Verb::#variant))
        });
        quote! {
            ::pas::spec::Resource { path: #path, description: #description, verbs: ::std::vec![#(#verbs),*] }
        }
    });
    quote! {
        ::pas::tool::ToolMeta {
            package: ::pas::tool::Package {
                name: ::core::env!("CARGO_PKG_NAME"),
                version: ::core::env!("CARGO_PKG_VERSION"),
                description: ::core::env!("CARGO_PKG_DESCRIPTION"),
            },
            level: #level,
            profile: #profile,
            schema_version: #schema_version,
            exit_codes: ::std::vec![#(#exit_codes),*],
            examples: #examples,
            anti_patterns: #anti_patterns,
            resources: ::std::vec![#(#resources),*],
            robot: #robot,
            changelog: #changelog,
            declared: #declared,
            mask_high_entropy: #mask_high_entropy,
        }
    }
}

fn format_ident(name: &str) -> proc_macro2::Ident {
    proc_macro2::Ident::new(name, proc_macro2::Span::call_site())
}

fn variant(variant: &Variant) -> TokenStream {
    let ident = variant.ident.unraw().to_string();
    let command = command_meta(&variant.command);
    let (role, fields) = match &variant.role {
        VariantRole::Command { payload } => (
            quote!(::pas::tool::Role::Command),
            field_schemas(&variant.fields, *payload),
        ),
        VariantRole::Nested(inner) => {
            let node = node_of(inner);
            (
                quote!(::pas::tool::Role::Nested(::std::boxed::Box::new(#node))),
                quote!(::std::vec::Vec::new()),
            )
        }
        VariantRole::Flatten(inner) => {
            let node = node_of(inner);
            (
                quote!(::pas::tool::Role::Flatten(::std::boxed::Box::new(#node))),
                quote!(::std::vec::Vec::new()),
            )
        }
        VariantRole::Skip => (
            quote!(::pas::tool::Role::Skip),
            quote!(::std::vec::Vec::new()),
        ),
    };
    quote! {
        ::pas::tool::VariantNode { ident: #ident, role: #role, command: #command, fields: #fields }
    }
}

/// The JSON Schema of each arg field's type by clap id (the field's name), and the fields of
/// flattened structs and of a variant's payload struct. Types without `schemars::JsonSchema`
/// and structs without `AgentTool` give nothing here; the runtime then reads the type from
/// clap's value parser.
fn field_schemas(fields: &[Field], payload: Option<&Type>) -> TokenStream {
    let mut pushes = Vec::new();
    for field in fields {
        let ty = field.ty;
        match field.role {
            FieldRole::Arg => {
                let id = field.ident.unraw().to_string();
                let secret = field.secret;
                let hardening = match field.hardening {
                    Some(on) => quote!(::std::option::Option::Some(#on)),
                    None => quote!(::std::option::Option::None),
                };
                let format = match field.format.as_deref() {
                    Some(word) => {
                        let variant = format_ident(match word {
                            "path" => "Path",
                            "resource-path" => "ResourcePath",
                            _ => "Id",
                        });
                        quote!(::std::option::Option::Some(::pas::spec::StringFormat::#variant))
                    }
                    None => quote!(::std::option::Option::None),
                };
                pushes.push(quote! {
                    fields.push(::pas::tool::FieldSchema {
                        id: #id,
                        secret: #secret,
                        hardening: #hardening,
                        format: #format,
                        schema: {
                            use ::pas::__private::{JsonSchemaOf as _, NoJsonSchema as _};
                            (&::pas::__private::Probe::<#ty>::new()).json_schema()
                        },
                    });
                });
            }
            FieldRole::Flatten => pushes.push(tool_fields(ty)),
            FieldRole::Subcommand => {}
        }
    }
    if let Some(ty) = payload {
        pushes.push(tool_fields(ty));
    }
    if pushes.is_empty() {
        return quote!(::std::vec::Vec::new());
    }
    quote! {{
        let mut fields = ::std::vec::Vec::new();
        #(#pushes)*
        fields
    }}
}

fn tool_fields(ty: &Type) -> TokenStream {
    quote! {
        fields.extend({
            use ::pas::__private::{ToolFieldsOf as _, NoToolFields as _};
            (&::pas::__private::Probe::<#ty>::new()).tool_fields()
        });
    }
}

fn command_meta(command: &CommandAttrs) -> TokenStream {
    let mut fields = Vec::new();
    let mut set = |name: &str, value: TokenStream| {
        let name = syn::Ident::new(name, proc_macro2::Span::call_site());
        fields.push(quote!(#name: #value));
    };
    for (key, lit) in [
        ("name", &command.name),
        ("category", &command.category),
        ("description", &command.description),
        ("rate_limit", &command.rate_limit),
        ("lock", &command.lock),
    ] {
        if let Some(lit) = lit {
            set(key, some(string(lit)));
        }
    }
    if let Some(effect) = &command.effect {
        let variant = match effect.value().as_str() {
            "write" => quote!(Write),
            "destructive" => quote!(Destructive),
            _ => quote!(Read),
        };
        set("effect", quote!(::pas::spec::Effect::#variant));
    }
    if let Some(idempotent) = command.idempotent {
        set("idempotent", some(quote!(#idempotent)));
    }
    if let Some(kind) = &command.kind {
        let variant = match kind.value().as_str() {
            "list" => quote!(List),
            "document" => quote!(Document),
            "events" => quote!(Events),
            "none" => quote!(None),
            "job" => quote!(Job),
            _ => quote!(Object),
        };
        set("output", quote!(::pas::spec::OutputKind::#variant));
    }
    // `output = serde_json::Value`: items of any shape, which no schema describes (a spec's
    // `list` without `outputSchema`), so the registry holds none rather than schemars' `true`.
    if let Some(output) = command.output.as_ref().filter(|ty| !is_any_json(ty)) {
        set("output_schema_lazy", some(schema_of(output)));
    }
    if let Some(input) = &command.input {
        set("input_schema_lazy", some(schema_of(input)));
    }
    // A schema written as JSON (spec-first code) is kept exactly, which a Rust type's schemars
    // schema could not promise; `valid.rs` has checked it parses. Both kinds are made only when
    // a face shows them (not at every start).
    for (key, lit) in [
        ("output_schema_lazy", &command.output_schema),
        ("input_schema_lazy", &command.input_schema),
    ] {
        if let Some(lit) = lit {
            set(
                key,
                some(quote!(::pas::tool::LazySchema(|| {
                    ::pas::__private::schema_from_json(#lit)
                }))),
            );
        }
    }
    if let Some(stdin) = &command.stdin {
        let variant = match stdin.value().as_str() {
            "optional" => quote!(Optional),
            "required" => quote!(Required),
            _ => quote!(None),
        };
        set("stdin", quote!(::pas::spec::StdinMode::#variant));
    }
    if !command.errors.is_empty() {
        let errors = command
            .errors
            .iter()
            .map(|e| string(&LitStr::new(&e.to_string(), e.span())));
        set("errors", quote!(::std::vec![#(#errors),*]));
    }
    if !command.examples.is_empty() {
        set("examples", examples(&command.examples));
    }
    if !command.anti_patterns.is_empty() {
        set("anti_patterns", anti_patterns(&command.anti_patterns));
    }
    if let Some(dry_run) = command.dry_run {
        set("dry_run", quote!(#dry_run));
    }
    if let Some(deprecated) = &command.deprecated {
        let replacement = option(deprecated.replacement.as_ref().map(string));
        let since = option(deprecated.since.as_ref().map(string));
        let message = option(deprecated.message.as_ref().map(string));
        set(
            "deprecated",
            some(
                quote!(::pas::spec::Deprecation { replacement: #replacement, since: #since, message: #message }),
            ),
        );
    }
    if let Some(paging) = &command.paging
        && let (Some(limit), Some(cursor)) = (&paging.limit, &paging.cursor)
    {
        let (limit, cursor) = (string(limit), string(cursor));
        set(
            "paging",
            some(quote!(::pas::spec::Paging { limit: #limit, cursor: #cursor })),
        );
    }
    if let Some(session) = &command.session {
        let variant = match session.value().as_str() {
            "continue" => quote!(Continue),
            "read" => quote!(Read),
            _ => quote!(Create),
        };
        set(
            "session",
            some(quote!(::pas::spec::robot::SessionUse::#variant)),
        );
    }
    if let Some(stability) = &command.stability {
        let variant = match stability.value().as_str() {
            "beta" => quote!(Beta),
            "experimental" => quote!(Experimental),
            _ => quote!(Stable),
        };
        set("stability", quote!(::pas::spec::Stability::#variant));
    }
    if let Some(confirm) = command.confirm {
        set("confirm", quote!(#confirm));
    }
    if let Some(lit) = &command.declared {
        set(
            "declared",
            some(quote!(::pas::__private::command_declared_from_json(#lit))),
        );
    }
    if let Some(seconds) = command.timeout.as_ref().and_then(crate::limits::seconds) {
        let seconds = proc_macro2::Literal::f64_suffixed(seconds);
        set("timeout", some(quote!(#seconds)));
    }
    if let Some(bytes) = command
        .max_output_bytes
        .as_ref()
        .and_then(crate::limits::bytes)
    {
        let bytes = proc_macro2::Literal::u64_suffixed(bytes);
        set("max_output_bytes", some(quote!(#bytes)));
    }
    if let Some(bytes) = command
        .max_input_bytes
        .as_ref()
        .and_then(crate::limits::bytes)
    {
        let bytes = proc_macro2::Literal::u64_suffixed(bytes);
        set("max_input_bytes", some(quote!(#bytes)));
    }
    if command.poll_interval_ms.is_some() || command.job_timeout_ms.is_some() {
        let ms = |lit: &Option<syn::LitInt>| match lit
            .as_ref()
            .and_then(|l| l.base10_parse::<u64>().ok())
        {
            Some(ms) => quote!(::core::option::Option::Some(#ms)),
            None => quote!(::core::option::Option::None),
        };
        let (poll, timeout) = (ms(&command.poll_interval_ms), ms(&command.job_timeout_ms));
        set(
            "job",
            some(
                quote!(::pas::spec::job::JobSettings { poll_interval_ms: #poll, timeout_ms: #timeout }),
            ),
        );
    }
    if let Some(list_field) = &command.list_field {
        set("list_field", some(string(list_field)));
    }
    if let Some(omit) = &command.compact_omit {
        let fields = omit
            .value()
            .split(',')
            .map(str::trim)
            .filter(|f| !f.is_empty())
            .map(|f| quote!(::std::string::String::from(#f)))
            .collect::<Vec<_>>();
        set("compact_omit", quote!(::std::vec![#(#fields),*]));
    }
    quote! {
        ::pas::tool::CommandMeta {
            #(#fields,)*
            ..::core::default::Default::default()
        }
    }
}

/// Whether `ty` is spelled `serde_json::Value` (or `::serde_json::Value`): output of any shape.
fn is_any_json(ty: &Type) -> bool {
    let Type::Path(path) = ty else {
        return false;
    };
    let names: Vec<String> = path
        .path
        .segments
        .iter()
        .map(|segment| segment.ident.to_string())
        .collect();
    path.qself.is_none() && names == ["serde_json", "Value"]
}

/// The JSON Schema of an output or input type, made when asked for, spanned at the type so
/// that a type without `JsonSchema` is reported where the author named it.
fn schema_of(ty: &Type) -> TokenStream {
    quote_spanned!(ty.span()=> ::pas::tool::LazySchema(::pas::__private::schema_of::<#ty>))
}

fn examples(examples: &[ExampleAttr]) -> TokenStream {
    let examples = examples.iter().map(|example| {
        let command = string(&example.command);
        let description = option(example.description.as_ref().map(string));
        quote!(::pas::spec::Example { command: #command, description: #description })
    });
    quote!(::std::vec![#(#examples),*])
}

fn anti_patterns(anti_patterns: &[AntiPatternAttr]) -> TokenStream {
    let anti_patterns = anti_patterns.iter().map(|anti| {
        let (pattern, instead) = (string(&anti.pattern), string(&anti.instead));
        quote!(::pas::spec::AntiPattern { pattern: #pattern, instead: #instead })
    });
    quote!(::std::vec![#(#anti_patterns),*])
}

fn string(lit: &LitStr) -> TokenStream {
    quote!(::std::string::String::from(#lit))
}

fn some(value: impl ToTokens) -> TokenStream {
    quote!(::core::option::Option::Some(#value))
}

fn option(value: Option<TokenStream>) -> TokenStream {
    match value {
        Some(value) => some(value),
        None => quote!(::core::option::Option::None),
    }
}
