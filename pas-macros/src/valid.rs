//! What the attribute values mean, checked with spans: known spellings, dotted names, exit codes
//! in range, an item type for lists, keys on items that can hold them. Every check runs and
//! writes into the same [`Ctxt`]; nothing stops at the first mistake.
//!
//! These are the checks a span makes better. The registry the derive builds at run time still
//! goes through `pas_spec::validate` (a test should assert it is clean): that one knows what
//! only the whole tool shows, such as examples that do not parse against the clap parser.

use std::collections::HashMap;

use pas_spec::naming::{is_kebab, is_upper_snake};
use pas_spec::{Effect, OutputKind, Profile};
use proc_macro2::Ident;
use quote::ToTokens;
use syn::LitStr;

use crate::ast::{Body, FieldRole, Input, VariantRole};
use crate::attr::{CommandAttrs, ToolAttrs, did_you_mean};
use crate::ctxt::Ctxt;

mod resources;

/// Error constants every `pas` and `compose` tool has without declaring them.
const IMPLICIT: [&str; 2] = ["GENERAL_ERROR", "INVALID_ARGUMENT"];

const STDIN: [&str; 3] = ["none", "optional", "required"];

pub(crate) fn check(input: &Input, ctxt: &Ctxt) {
    let profile = tool(&input.tool, ctxt);
    let declared: Vec<String> = input
        .tool
        .exit_codes
        .iter()
        .map(|c| c.name.to_string())
        .collect();
    let codes = Codes {
        declared: &declared,
        profile,
    };
    let mut names = HashMap::new();
    match &input.body {
        Body::Struct(fields) => {
            if let Some((key, command_attrs)) = &input.tool.command {
                if let Some(field) = fields.iter().find(|f| f.role == FieldRole::Subcommand) {
                    ctxt.spanned(
                        key,
                        format!(
                            "this struct's commands are the variants of its `#[command(subcommand)]` field `{}`: put command keys on those variants",
                            field.ident
                        ),
                    );
                }
                command(command_attrs, &codes, ctxt);
                unique_name(command_attrs, &mut names, ctxt);
            }
        }
        Body::Enum(variants) => {
            for variant in variants {
                let group = match variant.role {
                    VariantRole::Command { .. } => None,
                    VariantRole::Nested(inner) => Some(format!(
                        "a `#[command(subcommand)]` variant is a group, not a command: put command keys on the variants of `{}`",
                        inner.to_token_stream()
                    )),
                    VariantRole::Flatten(inner) => Some(format!(
                        "a `#[command(flatten)]` variant adds the commands of `{}`: put command keys on its variants",
                        inner.to_token_stream()
                    )),
                    VariantRole::Skip => Some(
                        "this variant is no subcommand of its own, so it takes no command keys"
                            .to_owned(),
                    ),
                };
                match (group, variant.command.keys.first()) {
                    (Some(message), Some(key)) => ctxt.spanned(key, message),
                    (None, _) => {
                        command(&variant.command, &codes, ctxt);
                        unique_name(&variant.command, &mut names, ctxt);
                    }
                    (Some(_), None) => {}
                }
            }
        }
    }
}

/// The tool's keys; returns the profile the exit codes are checked against.
fn tool(tool: &ToolAttrs, ctxt: &Ctxt) -> Profile {
    resources::check(tool, ctxt);
    let profiles = [Profile::Pas, Profile::Compose, Profile::Robot];
    let profile = match &tool.profile {
        None => Profile::Pas,
        Some(lit) => spelled(lit, "profile", &profiles.map(Profile::as_str), ctxt)
            .map_or(Profile::Pas, |i| profiles[i]),
    };
    if let Some(lit) = &tool.robot
        && let Err(err) = serde_json::from_str::<pas_spec::robot::RobotSettings>(&lit.value())
    {
        ctxt.spanned(
            lit,
            format!("`robot` is the spec's robot settings as JSON: {err}"),
        );
    }
    if let Some(lit) = &tool.changelog
        && let Err(err) = serde_json::from_str::<Vec<pas_spec::ChangelogEntry>>(&lit.value())
    {
        ctxt.spanned(
            lit,
            format!("`changelog` is the spec's changelog as a JSON list: {err}"),
        );
    }
    if let Some(lit) = &tool.declared
        && let Err(err) =
            serde_json::from_str::<pas_spec::derive_declared::ToolDeclared>(&lit.value())
    {
        ctxt.spanned(
            lit,
            format!("`declared` is the spec's `auth`, `requirements` and `globalFlags` (by name: their constraints and relations) as a JSON object: {err}"),
        );
    }
    let roles = pas_spec::robot::ExitRole::ALL.map(pas_spec::robot::ExitRole::as_str);
    for exit in &tool.exit_codes {
        if let Some(role) = &exit.role {
            spelled(role, "role", &roles, ctxt);
        }
    }
    let mut seen_codes: HashMap<u16, &Ident> = HashMap::new();
    let mut seen_names: HashMap<String, &Ident> = HashMap::new();
    for exit in &tool.exit_codes {
        let name = exit.name.to_string();
        if !is_upper_snake(&name) {
            ctxt.spanned(
                &exit.name,
                format!(
                    "error constants are UPPER_SNAKE_CASE: write `{}`",
                    upper_snake(&name)
                ),
            );
        } else if profile != Profile::Robot && IMPLICIT.contains(&name.as_str()) {
            ctxt.spanned(
                &exit.name,
                format!(
                    "`{name}` is implicit in the `{}` profile; leave it out",
                    profile.as_str()
                ),
            );
        } else if profile != Profile::Robot && pas_spec::runtime_codes::owned_by_runtime(&name) {
            // The validator's E095: the runtime raises the constant itself, with its own meaning.
            ctxt.spanned(
                &exit.name,
                format!(
                    "`{name}` is an error constant the runtime raises itself: give the tool's own failure a name of its own, e.g. `UPSTREAM_{name}`"
                ),
            );
        }
        if seen_names.insert(name.clone(), &exit.name).is_some() {
            ctxt.spanned(
                &exit.name,
                format!("the constant `{name}` is declared twice"),
            );
        }
        let Ok(code) = exit
            .code
            .base10_parse::<u16>()
            .map_err(|_| ())
            .and_then(|c| if c > 255 { Err(()) } else { Ok(c) })
        else {
            ctxt.spanned(&exit.code, "an exit status is 0-255");
            continue;
        };
        if profile != Profile::Robot {
            let problem = match code {
                0..=2 => Some("0, 1 and 2 are implicit (success, GENERAL_ERROR, INVALID_ARGUMENT)"),
                64..=78 => Some("64-78 are reserved for sysexits.h"),
                100..=125 => None,
                _ => Some("a tool's own codes are 100-125"),
            };
            // The validator's E096: the runtime's TIMEOUT exits 124, inside the tools' range.
            let runtime = pas_spec::runtime_codes::runtime_exit_in_tool_range(code)
                .filter(|_| profile == Profile::Pas)
                .map(|name| format!("{code} is the runtime's `{name}`; pick another number"));
            let problem = problem.map(str::to_owned).or(runtime);
            if let Some(problem) = problem {
                ctxt.spanned(
                    &exit.code,
                    format!(
                        "exit code {code} in the `{}` profile: {problem}",
                        profile.as_str()
                    ),
                );
            }
        }
        if let Some(first) = seen_codes.insert(code, &exit.name) {
            ctxt.spanned(&exit.code, format!("exit code {code} is already `{first}`"));
        }
    }
    for example in &tool.examples {
        not_blank(&example.command, "an example's command line", ctxt);
    }
    profile
}

/// The exit-code constants a command's `errors` may name, when the same type declares them.
struct Codes<'a> {
    declared: &'a [String],
    profile: Profile,
}

fn command(command: &CommandAttrs, codes: &Codes, ctxt: &Ctxt) {
    if let Some(lit) = &command.declared
        && let Err(err) =
            serde_json::from_str::<pas_spec::derive_declared::CommandDeclared>(&lit.value())
    {
        ctxt.spanned(
            lit,
            format!("`declared` is the spec's `auth`, `scopes`, `needs`, `sideEffects`, `untrusted` and `parameters` (by name: `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `requires`, `conflicts`) as a JSON object: {err}"),
        );
    }
    if let Some(name) = &command.name {
        dotted(name, "command name", ctxt);
    }
    if let Some(category) = &command.category {
        not_blank(category, "a category", ctxt);
    }
    if let Some(effect) = &command.effect {
        spelled(
            effect,
            "effect",
            &[Effect::Read, Effect::Write, Effect::Destructive].map(Effect::as_str),
            ctxt,
        );
    }
    let kinds = [
        OutputKind::Object,
        OutputKind::List,
        OutputKind::Document,
        OutputKind::Events,
        OutputKind::None,
        OutputKind::Job,
    ];
    let kind = match &command.kind {
        None => Some(OutputKind::Object),
        Some(lit) => spelled(lit, "kind", &kinds.map(OutputKind::as_str), ctxt).map(|i| kinds[i]),
    };
    if let Some(stability) = &command.stability {
        spelled(
            stability,
            "stability",
            &["stable", "beta", "experimental"],
            ctxt,
        );
    }
    if let Some(session) = &command.session {
        spelled(session, "session", &["create", "continue", "read"], ctxt);
    }
    for (schema, key) in [
        (&command.output_schema, "output_schema"),
        (&command.input_schema, "input_schema"),
    ] {
        if let Some(lit) = schema {
            json_schema_text(lit, key, ctxt);
        }
    }
    if let (Some(ty), Some(_)) = (&command.output, &command.output_schema) {
        ctxt.spanned(
            ty,
            "give `output = Type` or `output_schema = \"...\"`, not both",
        );
    }
    match (kind, &command.output, &command.kind) {
        (Some(OutputKind::List), None, Some(lit)) if command.output_schema.is_none() => ctxt.spanned(
            lit,
            "a `list` command needs the type of one item: add `output = Item` (a type deriving `schemars::JsonSchema`), or `output = serde_json::Value` for items of any shape (no schema)",
        ),
        (Some(kind @ (OutputKind::None | OutputKind::Document)), Some(output), _) => ctxt.spanned(
            output,
            format!(
                "a `{}` command has no JSON output, so no output type; remove `output` or choose another `kind`",
                kind.as_str()
            ),
        ),
        _ => {}
    }
    if let Some(stdin) = &command.stdin {
        spelled(stdin, "stdin", &STDIN, ctxt);
    }
    if let Some(rate) = &command.rate_limit {
        not_blank(rate, "a rate limit", ctxt);
    }
    crate::limits::check(
        command.timeout.as_ref(),
        command.max_output_bytes.as_ref(),
        ctxt,
    );
    crate::limits::check_input(command.max_input_bytes.as_ref(), ctxt);
    crate::limits::check_job(command, kind, ctxt);
    if let Some(lock) = &command.lock
        && !pas_spec::declare::is_lock_name(&lock.value())
    {
        ctxt.spanned(
            lock,
            "a lock name is letters, digits, `-`, `_` and `.` (not first), e.g. `lock = \"deploy\"`",
        );
    }
    if let Some(paging) = &command.paging {
        if kind.is_some() && kind != Some(OutputKind::List) {
            ctxt.spanned(&paging.key, "only a `kind = \"list\"` command pages");
        }
        for (value, what) in [(&paging.limit, "limit"), (&paging.cursor, "cursor")] {
            match value {
                Some(lit) if !is_kebab(&lit.value()) => {
                    ctxt.spanned(
                        lit,
                        format!("`{what}` names a parameter in kebab-case, e.g. `\"page-size\"`"),
                    );
                }
                Some(_) => {}
                None => ctxt.spanned(
                    &paging.key,
                    format!("`paging` needs `{what} = \"...\"`, the parameter that carries it"),
                ),
            }
        }
    }
    if let Some(replacement) = command
        .deprecated
        .as_ref()
        .and_then(|d| d.replacement.as_ref())
    {
        dotted(replacement, "replacement command name", ctxt);
    }
    let mut listed: Vec<String> = Vec::new();
    for error in &command.errors {
        let name = error.to_string();
        if !is_upper_snake(&name) {
            ctxt.spanned(
                error,
                format!(
                    "error constants are UPPER_SNAKE_CASE: write `{}`",
                    upper_snake(&name)
                ),
            );
            continue;
        }
        if listed.contains(&name) {
            ctxt.spanned(error, format!("`{name}` is listed twice"));
        }
        let implicit = codes.profile != Profile::Robot && IMPLICIT.contains(&name.as_str());
        if !codes.declared.is_empty() && !implicit && !codes.declared.contains(&name) {
            let message = match did_you_mean(&name, codes.declared.iter().map(String::as_str)) {
                Some(best) => {
                    format!("`{name}` is not a declared exit code; did you mean `{best}`?")
                }
                None => format!(
                    "`{name}` is not a declared exit code: add `exit_code(1xx, {name}, \"...\")` to the tool"
                ),
            };
            ctxt.spanned(error, message);
        }
        listed.push(name);
    }
    for example in &command.examples {
        not_blank(&example.command, "an example's command line", ctxt);
    }
}

fn unique_name<'a>(
    command: &'a CommandAttrs,
    names: &mut HashMap<String, &'a LitStr>,
    ctxt: &Ctxt,
) {
    if let Some(name) = &command.name
        && names.insert(name.value(), name).is_some()
    {
        ctxt.spanned(name, format!("two commands are named `{}`", name.value()));
    }
}

/// The index of `lit`'s value among `allowed`, or an error with the closest spelling.
fn spelled(lit: &LitStr, what: &str, allowed: &[&str], ctxt: &Ctxt) -> Option<usize> {
    let value = lit.value();
    if let Some(index) = allowed.iter().position(|a| *a == value) {
        return Some(index);
    }
    let list: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
    let message = match did_you_mean(&value, allowed.iter().copied()) {
        Some(best) => format!("unknown {what} \"{value}\"; did you mean \"{best}\"?"),
        None => format!(
            "unknown {what} \"{value}\"; expected one of {}",
            list.join(", ")
        ),
    };
    ctxt.spanned(lit, message);
    None
}

/// A dotted kebab-case name such as `task.create` or `count`.
fn dotted(lit: &LitStr, what: &str, ctxt: &Ctxt) {
    let value = lit.value();
    if !value.split('.').all(is_kebab) {
        let suggestion: String = value
            .split('.')
            .filter(|segment| !segment.is_empty())
            .map(|segment| upper_snake(segment).to_ascii_lowercase().replace('_', "-"))
            .collect::<Vec<_>>()
            .join(".");
        ctxt.spanned(
            lit,
            format!("the {what} \"{value}\" is not dotted kebab-case (`group.action`); write e.g. \"{suggestion}\""),
        );
    }
}

fn not_blank(lit: &LitStr, what: &str, ctxt: &Ctxt) {
    if lit.value().trim().is_empty() {
        ctxt.spanned(lit, format!("{what} cannot be empty"));
    }
}

/// `output_schema` and `input_schema` hold a JSON object (a JSON Schema), checked here so a typo
/// is a compile error at the literal rather than a panic when the registry is built.
fn json_schema_text(lit: &LitStr, key: &str, ctxt: &Ctxt) {
    match serde_json::from_str::<serde_json::Value>(&lit.value()) {
        Ok(serde_json::Value::Object(_)) => {}
        Ok(_) => ctxt.spanned(lit, format!("`{key}` is a JSON Schema: a JSON object")),
        Err(err) => ctxt.spanned(lit, format!("`{key}` is not JSON: {err}")),
    }
}

/// `fileNotFound`, `file-not-found`, `File_Not_Found` -> `FILE_NOT_FOUND`, for suggestions.
fn upper_snake(text: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if c == '-' || c == '_' || c == ' ' {
            if !out.ends_with('_') && !out.is_empty() {
                out.push('_');
            }
            previous_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && previous_lower {
            out.push('_');
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        out.push(c.to_ascii_uppercase());
    }
    out.trim_end_matches('_').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings() {
        assert!(
            is_kebab("task") && is_kebab("user-group2") && !is_kebab("Task") && !is_kebab("a--b")
        );
        assert!(
            is_upper_snake("FILE_NOT_FOUND")
                && !is_upper_snake("File_Not_Found")
                && !is_upper_snake("A__B")
        );
        assert_eq!(upper_snake("fileNotFound"), "FILE_NOT_FOUND");
        assert_eq!(upper_snake("file-not-found"), "FILE_NOT_FOUND");
        assert_eq!(upper_snake("File_Not_Found"), "FILE_NOT_FOUND");
    }

    #[test]
    fn did_you_mean_ignores_case_and_far_words() {
        assert_eq!(did_you_mean("TAKN", ["TAKEN", "GONE"]), Some("TAKEN"));
        assert_eq!(did_you_mean("Read", ["read", "write"]), Some("read"));
        assert_eq!(did_you_mean("colour", ["level", "profile"]), None);
    }
}
