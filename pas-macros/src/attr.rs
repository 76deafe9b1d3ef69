//! Reading `#[agent(...)]` into typed attributes: the tool's keys (on the root type), one
//! command's keys (on a variant, or in a struct's `command(...)`), and nothing on fields.
//!
//! This step checks form only: that each key is known here, given once, and has a value of the
//! right kind (a string, an integer, a type, a list). What the values mean (a known effect, a
//! dotted name, an exit code in range) is checked by `valid.rs`.

mod keys;
mod syntax;

use std::collections::HashSet;

use proc_macro2::{Ident, TokenStream};
use syn::{Attribute, Lit, LitInt, LitStr, Type};

use keys::{COMMAND, DEPRECATED, PAGING, TOOL, usage};
pub(crate) use keys::{Scope, did_you_mean};
use syntax::{Entry, attribute_entries, item_ident, item_int, item_string};

use crate::ctxt::Ctxt;

/// The tool's keys, from the root type.
#[derive(Default)]
pub(crate) struct ToolAttrs {
    pub level: Option<LitInt>,
    pub profile: Option<LitStr>,
    pub schema_version: Option<LitStr>,
    pub exit_codes: Vec<ExitCodeAttr>,
    pub examples: Vec<ExampleAttr>,
    pub anti_patterns: Vec<AntiPatternAttr>,
    /// A struct's own command: the `command` key and what it holds.
    pub command: Option<(Ident, CommandAttrs)>,
    /// Every `resource(...)` (levels 3 and 4).
    pub resources: Vec<ResourceAttr>,
    /// `robot = "{...}"`: the robot settings as the spec's JSON.
    pub robot: Option<LitStr>,
    /// `changelog = "[...]"`: the releases as the spec's JSON (failure mode 22).
    pub changelog: Option<LitStr>,
    /// `declared = "{...}"`: the tool's `auth` and `requirements` as the spec's JSON.
    pub declared: Option<LitStr>,
    /// `mask_high_entropy`: mask JWTs, API keys and long base64 runs in output (failure
    /// mode 59; the spec's `maskHighEntropy`).
    pub mask_high_entropy: Option<bool>,
}

/// `resource("/notes/{id}", cat, stat, rm, "One note")`: a path template, the verbs it offers,
/// and optionally what lives there.
pub(crate) struct ResourceAttr {
    pub path: LitStr,
    pub verbs: Vec<Ident>,
    pub description: Option<LitStr>,
}

/// `exit_code(100, FILE_NOT_FOUND, "File not found")`, optionally followed by `blocking` or
/// `success`, and by a string: the invocation that triggers the code (the spec's `trigger`).
pub(crate) struct ExitCodeAttr {
    pub code: LitInt,
    pub name: Ident,
    pub meaning: LitStr,
    pub blocking: bool,
    pub success: bool,
    pub trigger: Option<LitStr>,
    /// `role = "arguments"` (robot).
    pub role: Option<LitStr>,
}

/// `example("command line", "what it does")`; the description may be left out.
pub(crate) struct ExampleAttr {
    pub command: LitStr,
    pub description: Option<LitStr>,
}

/// `anti_pattern("what not to do", "why, or what instead")`.
pub(crate) struct AntiPatternAttr {
    pub pattern: LitStr,
    pub instead: LitStr,
}

/// One command's keys.
#[derive(Default)]
pub(crate) struct CommandAttrs {
    /// Every key given, for errors about the attribute as a whole.
    pub keys: Vec<Ident>,
    pub name: Option<LitStr>,
    pub category: Option<LitStr>,
    pub description: Option<LitStr>,
    pub effect: Option<LitStr>,
    pub idempotent: Option<bool>,
    pub rate_limit: Option<LitStr>,
    pub output: Option<Type>,
    pub kind: Option<LitStr>,
    pub input: Option<Type>,
    /// `output_schema = "{...}"`: the JSON Schema itself, as a spec writes it (spec-first code).
    pub output_schema: Option<LitStr>,
    /// `input_schema = "{...}"`.
    pub input_schema: Option<LitStr>,
    pub errors: Vec<Ident>,
    pub examples: Vec<ExampleAttr>,
    pub anti_patterns: Vec<AntiPatternAttr>,
    pub stdin: Option<LitStr>,
    pub dry_run: Option<bool>,
    pub deprecated: Option<DeprecatedAttr>,
    pub paging: Option<PagingAttr>,
    pub session: Option<LitStr>,
    /// `stability = "beta"`: the command's stability tier (failure mode 22).
    pub stability: Option<LitStr>,
    pub confirm: Option<bool>,
    pub list_field: Option<LitStr>,
    pub compact_omit: Option<LitStr>,
    /// `timeout = 30` (seconds; an integer or a decimal).
    pub timeout: Option<Lit>,
    /// `max_output_bytes = 65536`.
    pub max_output_bytes: Option<LitInt>,
    /// `max_input_bytes = 65536`.
    pub max_input_bytes: Option<LitInt>,
    /// `lock = "deploy"`.
    pub lock: Option<LitStr>,
    /// `poll_interval_ms = 500` (a `kind = "job"` command).
    pub poll_interval_ms: Option<LitInt>,
    /// `job_timeout_ms = 60000` (a `kind = "job"` command).
    pub job_timeout_ms: Option<LitInt>,
    /// `declared = "{...}"`: credentials, requirements, side effects, untrusted fields and
    /// parameter constraints, as the spec's JSON.
    pub declared: Option<LitStr>,
}

/// `deprecated` or `deprecated(replacement = "...", since = "...", message = "...")`.
pub(crate) struct DeprecatedAttr {
    pub replacement: Option<LitStr>,
    pub since: Option<LitStr>,
    pub message: Option<LitStr>,
}

/// `paging(limit = "...", cursor = "...")`.
pub(crate) struct PagingAttr {
    pub key: Ident,
    pub limit: Option<LitStr>,
    pub cursor: Option<LitStr>,
}

fn agent_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|attr| attr.path().is_ident("agent"))
}

/// Remembers the keys already given in one list, to report duplicates.
#[derive(Default)]
struct Seen(HashSet<String>);

impl Seen {
    /// False (and an error) when a non-repeatable key comes a second time.
    fn first(&mut self, key: &Ident, ctxt: &Ctxt) -> bool {
        let name = key.to_string();
        if keys::repeatable(&name) || self.0.insert(name.clone()) {
            return true;
        }
        ctxt.spanned(
            key,
            format!("duplicate key `{name}`: it is already given; keep one"),
        );
        false
    }
}

/// The tool keys of a struct or enum (all its `#[agent(...)]` attributes together).
pub(crate) fn tool(attrs: &[Attribute], scope: Scope, ctxt: &Ctxt) -> ToolAttrs {
    let mut tool = ToolAttrs::default();
    let mut seen = Seen::default();
    for entry in agent_attrs(attrs).flat_map(|attr| attribute_entries(attr, ctxt)) {
        let key = entry.key.to_string();
        let known =
            TOOL.iter().any(|(k, _)| *k == key) && (key != "command" || scope == Scope::Struct);
        if !known {
            if key == "command" {
                ctxt.spanned(
                    &entry.key,
                    "`command(...)` is for a struct, which is one command; an enum's commands are its variants: put the keys on each variant",
                );
            } else {
                keys::unknown(&entry.key, scope, ctxt);
            }
            continue;
        }
        if !seen.first(&entry.key, ctxt) {
            continue;
        }
        let usage = usage(TOOL, &key);
        match key.as_str() {
            "level" => tool.level = entry.int(usage, ctxt),
            "profile" => tool.profile = entry.string(usage, ctxt),
            "schema_version" => tool.schema_version = entry.string(usage, ctxt),
            "exit_code" => tool.exit_codes.extend(exit_code(&entry, ctxt)),
            "example" => tool.examples.extend(example(&entry, usage, ctxt)),
            "anti_pattern" => tool.anti_patterns.extend(anti_pattern(&entry, usage, ctxt)),
            "resource" => tool.resources.extend(resource(&entry, usage, ctxt)),
            "robot" => tool.robot = entry.string(usage, ctxt),
            "changelog" => tool.changelog = entry.string(usage, ctxt),
            "declared" => tool.declared = entry.string(usage, ctxt),
            "mask_high_entropy" => tool.mask_high_entropy = entry.switch(usage, ctxt),
            "command" => {
                if let Some(entries) = entry.nested(usage, ctxt) {
                    tool.command = Some((
                        entry.key.clone(),
                        command_entries(entries, Scope::StructCommand, ctxt),
                    ));
                }
            }
            _ => unreachable!("every tool key is handled"),
        }
    }
    tool
}

/// The command keys of an enum variant.
pub(crate) fn variant(attrs: &[Attribute], ctxt: &Ctxt) -> CommandAttrs {
    let entries = agent_attrs(attrs)
        .flat_map(|attr| attribute_entries(attr, ctxt))
        .collect();
    command_entries(entries, Scope::Variant, ctxt)
}

/// The `#[agent(...)]` keys of a field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    /// `secret`: a flag-only secret (no environment variable to hide, so clap's
    /// `hide_env_values` cannot say it).
    pub secret: bool,
    /// `hardening` (`= false`): the spec's `agentHardening`.
    pub hardening: Option<bool>,
    /// `format = "path" | "resource-path" | "id"`: the spec's `format`, checked here.
    pub format: Option<String>,
}

/// The spellings `format = "..."` takes, as the spec's `format` does.
const FORMATS: &[&str] = &["path", "resource-path", "id"];

/// Fields take three `#[agent]` keys: `secret`, `hardening` and `format`. Everything else about
/// a parameter is clap's.
pub(crate) fn field(attrs: &[Attribute], ctxt: &Ctxt) -> FieldAttrs {
    let mut field = FieldAttrs::default();
    for attr in agent_attrs(attrs) {
        for entry in attribute_entries(attr, ctxt) {
            match (entry.key.to_string().as_str(), &entry.value) {
                ("secret", syntax::Value::Bare) => field.secret = true,
                ("hardening", _) => {
                    field.hardening = entry.switch("hardening = false", ctxt).or(field.hardening);
                }
                ("format", _) => {
                    let Some(lit) = entry.string("format = \"path\"", ctxt) else {
                        continue;
                    };
                    let value = lit.value();
                    if FORMATS.contains(&value.as_str()) {
                        field.format = Some(value);
                    } else {
                        ctxt.spanned(
                            &lit,
                            format!(
                                "`format` is one of \"path\" (a local file path, taken as given), \"resource-path\" (a level 3/4 resource path) or \"id\" (an identifier, hardened in machine mode), not {value:?}; free text declares no format"
                            ),
                        );
                    }
                }
                _ => ctxt.spanned(
                    &entry.key,
                    "`#[agent(...)]` on a field takes only `secret` (a secret without an environment variable), `format` (`format = \"path\"`, `\"resource-path\"` or `\"id\"`: what the string value is) and `hardening` (`hardening` to refuse hallucinated spellings in machine mode, `hardening = false` to turn that off for a `format = \"id\"`); a parameter's name, type, help, default and env come from clap's `#[arg(...)]` (`env = \"TOKEN\", hide_env_values = true` marks a secret read from the environment)",
                ),
            }
        }
    }
    field
}

fn command_entries(entries: Vec<Entry>, scope: Scope, ctxt: &Ctxt) -> CommandAttrs {
    let mut command = CommandAttrs::default();
    let mut seen = Seen::default();
    for entry in entries {
        let key = entry.key.to_string();
        let known = COMMAND.iter().any(|(k, _)| *k == key)
            && (key != "description" || scope == Scope::StructCommand);
        if !known {
            keys::unknown(&entry.key, scope, ctxt);
            continue;
        }
        if !seen.first(&entry.key, ctxt) {
            continue;
        }
        command.keys.push(entry.key.clone());
        let usage = usage(COMMAND, &key);
        match key.as_str() {
            "name" => command.name = entry.string(usage, ctxt),
            "category" => command.category = entry.string(usage, ctxt),
            "description" => command.description = entry.string(usage, ctxt),
            "effect" => command.effect = entry.string(usage, ctxt),
            "idempotent" => command.idempotent = entry.switch(usage, ctxt),
            "rate_limit" => command.rate_limit = entry.string(usage, ctxt),
            "output" => command.output = entry.ty(usage, ctxt),
            "kind" => command.kind = entry.string(usage, ctxt),
            "input" => command.input = entry.ty(usage, ctxt),
            "output_schema" => command.output_schema = entry.string(usage, ctxt),
            "input_schema" => command.input_schema = entry.string(usage, ctxt),
            "errors" => command.errors = errors(&entry, usage, ctxt),
            "example" => command.examples.extend(example(&entry, usage, ctxt)),
            "anti_pattern" => command
                .anti_patterns
                .extend(anti_pattern(&entry, usage, ctxt)),
            "stdin" => command.stdin = entry.string(usage, ctxt),
            "dry_run" => command.dry_run = entry.switch(usage, ctxt),
            "deprecated" => command.deprecated = deprecated(&entry, usage, ctxt),
            "paging" => command.paging = paging(&entry, usage, ctxt),
            "session" => command.session = entry.string(usage, ctxt),
            "stability" => command.stability = entry.string(usage, ctxt),
            "confirm" => command.confirm = entry.switch(usage, ctxt),
            "list_field" => command.list_field = entry.string(usage, ctxt),
            "compact_omit" => command.compact_omit = entry.string(usage, ctxt),
            "timeout" => command.timeout = entry.number(usage, ctxt),
            "max_output_bytes" => command.max_output_bytes = entry.int(usage, ctxt),
            "max_input_bytes" => command.max_input_bytes = entry.int(usage, ctxt),
            "lock" => command.lock = entry.string(usage, ctxt),
            "poll_interval_ms" => command.poll_interval_ms = entry.int(usage, ctxt),
            "job_timeout_ms" => command.job_timeout_ms = entry.int(usage, ctxt),
            "declared" => command.declared = entry.string(usage, ctxt),
            _ => unreachable!("every command key is handled"),
        }
    }
    command
}

fn exit_code(entry: &Entry, ctxt: &Ctxt) -> Option<ExitCodeAttr> {
    let usage = usage(TOOL, "exit_code");
    let (group, items) = entry.items(usage, ctxt)?;
    if items.len() < 3 {
        ctxt.at(
            group.span_close(),
            format!("`exit_code` needs a code, a constant and a meaning: `{usage}`"),
        );
        return None;
    }
    let code = item_int(&items[0], "the exit status", ctxt);
    let name = item_ident(&items[1], "the error constant", ctxt);
    let meaning = item_string(&items[2], "what the code means", ctxt);
    let (mut blocking, mut success, mut trigger, mut role) = (false, false, None, None);
    for flag in &items[3..] {
        // `role = "arguments"` (robot).
        if let Ok(pair) = syn::parse2::<syn::MetaNameValue>(flag.clone())
            && pair.path.is_ident("role")
        {
            match pair.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: Lit::Str(lit), ..
                }) => role = Some(lit),
                other => ctxt.spanned(
                    &other,
                    "expected a role string, e.g. `role = \"arguments\"`",
                ),
            }
            continue;
        }
        // A string is the trigger; anything else must be one of the flag words.
        if let Ok(Lit::Str(lit)) = syn::parse2::<Lit>(flag.clone()) {
            trigger = Some(lit);
            continue;
        }
        match item_ident(flag, "`blocking`, `success` or a trigger string", ctxt) {
            Some(word) if word == "blocking" => blocking = true,
            Some(word) if word == "success" => success = true,
            Some(word) => ctxt.spanned(&word, "expected `blocking` (compose) or `success` (robot)"),
            None => {}
        }
    }
    Some(ExitCodeAttr {
        code: code?,
        name: name?,
        meaning: meaning?,
        blocking,
        success,
        trigger,
        role,
    })
}

fn resource(entry: &Entry, usage: &str, ctxt: &Ctxt) -> Option<ResourceAttr> {
    let (group, items) = entry.items(usage, ctxt)?;
    let Some((path, rest)) = items.split_first() else {
        ctxt.at(
            group.span_close(),
            format!("`resource` needs a path template and its verbs: `{usage}`"),
        );
        return None;
    };
    let path = item_string(path, "the path template", ctxt);
    let (mut verbs, mut description) = (Vec::new(), None);
    for (index, item) in rest.iter().enumerate() {
        // A string is the description, and comes last; anything else is a verb.
        if let Ok(Lit::Str(lit)) = syn::parse2::<Lit>(item.clone()) {
            if index + 1 == rest.len() {
                description = Some(lit);
            } else {
                ctxt.spanned(&lit, "the description comes last, after the verbs");
            }
            continue;
        }
        verbs.extend(item_ident(
            item,
            "a verb (`ls`, `cat`, `stat`, `cp`, `rm`, `sync`, `feedback`)",
            ctxt,
        ));
    }
    Some(ResourceAttr {
        path: path?,
        verbs,
        description,
    })
}

fn example(entry: &Entry, usage: &str, ctxt: &Ctxt) -> Option<ExampleAttr> {
    let (group, items) = entry.items(usage, ctxt)?;
    match items.as_slice() {
        [command] => Some(ExampleAttr {
            command: item_string(command, "the command line", ctxt)?,
            description: None,
        }),
        [command, description] => {
            let command = item_string(command, "the command line", ctxt);
            let description = item_string(description, "what the example does", ctxt);
            Some(ExampleAttr {
                command: command?,
                description: Some(description?),
            })
        }
        [] => {
            ctxt.at(
                group.span_close(),
                format!("`example` needs a command line: `{usage}`"),
            );
            None
        }
        [_, _, extra, ..] => {
            ctxt.spanned(
                extra,
                format!("`example` takes a command line and a description: `{usage}`"),
            );
            None
        }
    }
}

fn anti_pattern(entry: &Entry, usage: &str, ctxt: &Ctxt) -> Option<AntiPatternAttr> {
    let (group, items) = entry.items(usage, ctxt)?;
    match items.as_slice() {
        [pattern, instead] => {
            let pattern = item_string(pattern, "the pattern to avoid", ctxt);
            let instead = item_string(instead, "why, or what to do instead", ctxt);
            Some(AntiPatternAttr {
                pattern: pattern?,
                instead: instead?,
            })
        }
        [_, _, extra, ..] => {
            ctxt.spanned(
                extra,
                format!("`anti_pattern` takes a pattern and what to do instead: `{usage}`"),
            );
            None
        }
        _ => {
            ctxt.at(
                group.span_close(),
                format!("`anti_pattern` needs a pattern and what to do instead: `{usage}`"),
            );
            None
        }
    }
}

fn errors(entry: &Entry, usage: &str, ctxt: &Ctxt) -> Vec<Ident> {
    let Some((_, items)) = entry.items(usage, ctxt) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| item_ident(item, "an error constant", ctxt))
        .collect()
}

fn deprecated(entry: &Entry, usage: &str, ctxt: &Ctxt) -> Option<DeprecatedAttr> {
    let mut deprecated = DeprecatedAttr {
        replacement: None,
        since: None,
        message: None,
    };
    if matches!(entry.value, syntax::Value::Bare) {
        return Some(deprecated);
    }
    let mut seen = Seen::default();
    for inner in entry.nested(usage, ctxt)? {
        let key = inner.key.to_string();
        if !DEPRECATED.iter().any(|(k, _)| *k == key) {
            ctxt.spanned(&inner.key, keys::unknown_in(&key, DEPRECATED));
            continue;
        }
        if !seen.first(&inner.key, ctxt) {
            continue;
        }
        let value = inner.string(keys::usage(DEPRECATED, &key), ctxt);
        match key.as_str() {
            "replacement" => deprecated.replacement = value,
            "since" => deprecated.since = value,
            _ => deprecated.message = value,
        }
    }
    Some(deprecated)
}

fn paging(entry: &Entry, usage: &str, ctxt: &Ctxt) -> Option<PagingAttr> {
    let mut paging = PagingAttr {
        key: entry.key.clone(),
        limit: None,
        cursor: None,
    };
    let mut seen = Seen::default();
    for inner in entry.nested(usage, ctxt)? {
        let key = inner.key.to_string();
        if !PAGING.iter().any(|(k, _)| *k == key) {
            ctxt.spanned(&inner.key, keys::unknown_in(&key, PAGING));
            continue;
        }
        if !seen.first(&inner.key, ctxt) {
            continue;
        }
        let value = inner.string(keys::usage(PAGING, &key), ctxt);
        match key.as_str() {
            "limit" => paging.limit = value,
            _ => paging.cursor = value,
        }
    }
    Some(paging)
}

/// Whether a clap attribute (`#[command(...)]`, `#[clap(...)]`) holds the bare word `word`,
/// e.g. `#[command(subcommand)]`. Only these structural words are read from clap's attributes;
/// everything about parameters is read from clap's `Command` at run time.
pub(crate) fn clap_word(attrs: &[Attribute], word: &str) -> bool {
    attrs
        .iter()
        .filter(|attr| attr.path().is_ident("command") || attr.path().is_ident("clap"))
        .filter_map(|attr| match &attr.meta {
            syn::Meta::List(list) => Some(list.tokens.clone()),
            _ => None,
        })
        .flat_map(syntax::split_commas)
        .any(|piece: TokenStream| {
            let mut trees = piece.into_iter();
            matches!((trees.next(), trees.next()), (Some(proc_macro2::TokenTree::Ident(ident)), None) if ident == word)
        })
}
