//! `#[agent(...)]`: what the registry says that clap has no notion of, written with the derive's
//! keys exactly as a person would (see `pas-macros` for the syntax).

use pas_spec::{AntiPattern, Command, Effect, Example, OutputKind, Registry, StdinMode};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::error::EmitError;
use crate::text::lit;

/// The tool's keys, plus `command(...)` for a single-command tool's one command.
pub(crate) fn tool(
    registry: &Registry,
    single: Option<(usize, &Command)>,
) -> Result<TokenStream, EmitError> {
    let mut keys = Vec::new();
    let level = proc_macro2::Literal::u8_unsuffixed(registry.level);
    keys.push(quote!(level = #level));
    let profile = lit(registry.profile.as_str());
    keys.push(quote!(profile = #profile));
    if let Some(version) = &registry.schema_version {
        let version = lit(version);
        keys.push(quote!(schema_version = #version));
    }
    for (index, exit) in registry.exit_codes.iter().enumerate() {
        let code = proc_macro2::Literal::u16_unsuffixed(exit.code);
        let name = constant(&exit.name, &format!("/exitCodes/{index}/name"))?;
        let meaning = lit(&exit.meaning);
        let blocking = exit.blocking.then(|| quote!(, blocking));
        let success = exit.success.then(|| quote!(, success));
        let trigger = exit.trigger.as_deref().map(lit).map(|t| quote!(, #t));
        let role = exit
            .role
            .map(|r| lit(r.as_str()))
            .map(|r| quote!(, role = #r));
        keys.push(quote!(exit_code(#code, #name, #meaning #blocking #success #trigger #role)));
    }
    if registry.mask_high_entropy {
        keys.push(quote!(mask_high_entropy));
    }
    if !registry.changelog.is_empty() {
        let json = lit(&serde_json::to_string(&registry.changelog).unwrap_or_default());
        keys.push(quote!(changelog = #json));
    }
    if let Some(declared) = pas_spec::derive_declared::ToolDeclared::of(registry) {
        let json = lit(&serde_json::to_string(&declared).unwrap_or_default());
        keys.push(quote!(declared = #json));
    }
    if let Some(robot) = &registry.robot {
        let json = lit(&serde_json::to_string(robot).unwrap_or_default());
        keys.push(quote!(robot = #json));
    }
    keys.extend(examples(&registry.examples));
    keys.extend(anti_patterns(&registry.anti_patterns));
    for resource in &registry.resources {
        let path = lit(&resource.path);
        // Verbs are a closed set of lowercase words: identifiers as they are.
        let verbs = resource
            .verbs
            .iter()
            .map(|verb| Ident::new(verb.as_str(), Span::call_site()));
        let description = resource
            .description
            .as_deref()
            .map(lit)
            .map(|d| quote!(, #d));
        keys.push(quote!(resource(#path #(, #verbs)* #description)));
    }
    if let Some((index, command)) = single {
        let inner = command_keys(command, index, true)?;
        keys.push(quote!(command(#(#inner),*)));
    }
    Ok(quote!(#[agent(#(#keys),*)]))
}

/// One command's keys. `description` is a key only in a struct's `command(...)`; a variant's
/// description is its clap `about`.
pub(crate) fn command_keys(
    command: &Command,
    index: usize,
    with_description: bool,
) -> Result<Vec<TokenStream>, EmitError> {
    let pointer = |field: &str| format!("/commands/{index}/{field}");
    let mut keys = Vec::new();
    let name = lit(&command.name);
    keys.push(quote!(name = #name));
    if let Some(category) = &command.category {
        let category = lit(category);
        keys.push(quote!(category = #category));
    }
    if with_description {
        let description = lit(&command.description);
        keys.push(quote!(description = #description));
    }
    if command.effect != Effect::Read {
        let effect = lit(command.effect.as_str());
        keys.push(quote!(effect = #effect));
    }
    if let Some(idempotent) = command.idempotent {
        keys.push(quote!(idempotent = #idempotent));
    }
    if let Some(rate) = &command.rate_limit {
        let rate = lit(rate);
        keys.push(quote!(rate_limit = #rate));
    }
    // The declared limits (failure modes 11 and 43), as the derive reads them.
    if let Some(seconds) = command.timeout {
        let seconds = proc_macro2::Literal::f64_unsuffixed(seconds);
        keys.push(quote!(timeout = #seconds));
    }
    if let Some(bytes) = command.max_output_bytes {
        let bytes = proc_macro2::Literal::u64_unsuffixed(bytes);
        keys.push(quote!(max_output_bytes = #bytes));
    }
    if let Some(lock) = &command.lock {
        let lock = lit(lock);
        keys.push(quote!(lock = #lock));
    }
    if let Some(bytes) = command.max_input_bytes {
        let bytes = proc_macro2::Literal::u64_unsuffixed(bytes);
        keys.push(quote!(max_input_bytes = #bytes));
    }
    if command.output != OutputKind::Object {
        let kind = lit(command.output.as_str());
        keys.push(quote!(kind = #kind));
    }
    if let Some(job) = &command.job {
        if let Some(ms) = job.poll_interval_ms {
            let ms = proc_macro2::Literal::u64_unsuffixed(ms);
            keys.push(quote!(poll_interval_ms = #ms));
        }
        if let Some(ms) = job.timeout_ms {
            let ms = proc_macro2::Literal::u64_unsuffixed(ms);
            keys.push(quote!(job_timeout_ms = #ms));
        }
    }
    match &command.output_schema {
        Some(schema) => {
            let schema = lit(&schema.to_string());
            keys.push(quote!(output_schema = #schema));
        }
        // A list whose items the spec leaves undescribed: JSON of any shape, no schema.
        None if command.output == OutputKind::List => {
            keys.push(quote!(output = serde_json::Value));
        }
        None => {}
    }
    if let Some(schema) = &command.input_schema {
        let schema = lit(&schema.to_string());
        keys.push(quote!(input_schema = #schema));
    }
    if command.stdin != StdinMode::None {
        let stdin = lit(match command.stdin {
            StdinMode::Optional => "optional",
            _ => "required",
        });
        keys.push(quote!(stdin = #stdin));
    }
    if !command.errors.is_empty() {
        let errors = command
            .errors
            .iter()
            .enumerate()
            .map(|(i, e)| constant(e, &pointer(&format!("errors/{i}"))))
            .collect::<Result<Vec<_>, _>>()?;
        keys.push(quote!(errors(#(#errors),*)));
    }
    keys.extend(examples(&command.examples));
    keys.extend(anti_patterns(&command.anti_patterns));
    if command.dry_run {
        keys.push(quote!(dry_run));
    }
    if let Some(deprecated) = &command.deprecated {
        let mut inner = Vec::new();
        for (key, value) in [
            ("replacement", &deprecated.replacement),
            ("since", &deprecated.since),
            ("message", &deprecated.message),
        ] {
            if let Some(value) = value {
                let key = Ident::new(key, Span::call_site());
                let value = lit(value);
                inner.push(quote!(#key = #value));
            }
        }
        keys.push(if inner.is_empty() {
            quote!(deprecated)
        } else {
            quote!(deprecated(#(#inner),*))
        });
    }
    if !command.stability.is_stable() {
        let stability = lit(command.stability.as_str());
        keys.push(quote!(stability = #stability));
    }
    if let Some(paging) = &command.paging {
        let (limit, cursor) = (lit(&paging.limit), lit(&paging.cursor));
        keys.push(quote!(paging(limit = #limit, cursor = #cursor)));
    }
    if let Some(session) = command.session {
        let session = lit(session.as_str());
        keys.push(quote!(session = #session));
    }
    if command.confirm {
        keys.push(quote!(confirm));
    }
    if let Some(field) = &command.list_field {
        let field = lit(field);
        keys.push(quote!(list_field = #field));
    }
    if !command.compact_omit.is_empty() {
        let omit = lit(&command.compact_omit.join(","));
        keys.push(quote!(compact_omit = #omit));
    }
    if let Some(declared) = pas_spec::derive_declared::CommandDeclared::of(command) {
        let json = lit(&serde_json::to_string(&declared).unwrap_or_default());
        keys.push(quote!(declared = #json));
    }
    Ok(keys)
}

fn examples(examples: &[Example]) -> Vec<TokenStream> {
    examples
        .iter()
        .map(|example| {
            let command = lit(&example.command);
            match &example.description {
                Some(description) => {
                    let description = lit(description);
                    quote!(example(#command, #description))
                }
                None => quote!(example(#command)),
            }
        })
        .collect()
}

fn anti_patterns(anti_patterns: &[AntiPattern]) -> Vec<TokenStream> {
    anti_patterns
        .iter()
        .map(|anti| {
            let (pattern, instead) = (lit(&anti.pattern), lit(&anti.instead));
            quote!(anti_pattern(#pattern, #instead))
        })
        .collect()
}

/// An error constant is written as an identifier (`errors(NOT_FOUND)`): refuse anything else
/// rather than emit tokens that do not parse.
fn constant(name: &str, pointer: &str) -> Result<Ident, EmitError> {
    let valid = name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if valid {
        Ok(Ident::new(name, Span::call_site()))
    } else {
        Err(EmitError::unsupported(
            pointer,
            format!(
                "`{}` is not an UPPER_SNAKE_CASE constant",
                name.escape_debug()
            ),
            "write error constants like FILE_NOT_FOUND",
        ))
    }
}
