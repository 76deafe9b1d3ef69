//! `config show`: each global flag's effective value and where it came from.
//!
//! Sources are what clap saw: `flag` (argv), `environment` (the flag's `env`), `file` (the
//! configuration file, whose values clap holds as defaults: see `config_file`), `default` (the
//! registry's default, or one the app set on its clap command; the value is null when there is
//! none). `configFile` is the file the call read, or null. Secret flags show `[REDACTED]`
//! whenever they have a value.

use clap::parser::ValueSource;
use pas_spec::{ParamType, Parameter, Registry};
use serde::Serialize;
use serde_json::Value;

use crate::guards::redact::REDACTED;
use crate::handler::args::Args;
use crate::parse::clap_face::arg_id;
use crate::parse::config_file::ConfigFile;
use crate::reply::Reply;

#[derive(Serialize)]
struct Config<'a> {
    tool: &'a str,
    version: &'a str,
    profile: &'static str,
    #[serde(rename = "configFile")]
    config_file: Option<String>,
    flags: Vec<Entry<'a>>,
}

#[derive(Serialize)]
struct Entry<'a> {
    name: &'a str,
    value: Value,
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    env: Option<&'a str>,
    secret: bool,
}

pub(crate) fn run(registry: &Registry, args: &Args, file: Option<&ConfigFile>) -> Reply {
    let matches = args.matches();
    let flags = registry
        .global_flags
        .iter()
        .map(|param| {
            let id = arg_id(param);
            let source = match matches.value_source(&id) {
                Some(ValueSource::CommandLine) => "flag",
                Some(ValueSource::EnvVariable) => "environment",
                Some(ValueSource::DefaultValue) if file.is_some_and(|f| f.supplied(&id)) => "file",
                _ => "default",
            };
            let raw: Vec<String> = matches
                .try_get_raw(&id)
                .ok()
                .flatten()
                .map(|values| values.map(|v| v.to_string_lossy().into_owned()).collect())
                .unwrap_or_default();
            let value = if param.secret && !raw.is_empty() {
                Value::String(REDACTED.to_owned())
            } else {
                typed(param, raw)
            };
            Entry {
                name: &param.name,
                value,
                source,
                env: param.env.as_deref(),
                secret: param.secret,
            }
        })
        .collect();
    Reply::object(&Config {
        tool: &registry.name,
        version: &registry.version,
        profile: registry.profile.as_str(),
        config_file: file.map(|f| f.path().display().to_string()),
        flags,
    })
}

/// The value as its JSON type (clap keeps raw text; the registry knows the type).
fn typed(param: &Parameter, raw: Vec<String>) -> Value {
    let one = |text: String| match param.element_type() {
        ParamType::Integer => text.parse::<i64>().map_or(Value::String(text), Value::from),
        ParamType::Number => text
            .parse::<f64>()
            .map_or(Value::String(text.clone()), Value::from),
        ParamType::Boolean => Value::Bool(matches!(text.as_str(), "true" | "1" | "yes" | "on")),
        ParamType::String | ParamType::Array => Value::String(text),
    };
    if param.is_many() {
        Value::Array(raw.into_iter().map(one).collect())
    } else if param.ty == ParamType::Boolean && param.kind == pas_spec::ParamKind::Flag {
        Value::Bool(raw.iter().any(|v| v == "true"))
    } else {
        raw.into_iter().next().map_or(Value::Null, one)
    }
}
