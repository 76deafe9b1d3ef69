//! What a spec declares once and the runtime enforces: credentials (`auth`), what the tool needs
//! from the machine (`requirements`), what a command leaves behind (`sideEffects`), and the
//! constraints on parameter values.
//!
//! The checks here are pure functions of the registry model and the values given, so the
//! runtime runs them without the spec validator (which only checks that the declarations make
//! sense). `pattern` is the one constraint that needs a regular-expression engine: the caller
//! passes the matcher, so this module links none.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::{ParamType, Parameter};

/// The constant of a call to a command marked `auth: true` when no credential is present.
pub const AUTH_REQUIRED: &str = "AUTH_REQUIRED";
/// The constant a handler returns when the credential it was given has expired (distinct from a
/// permission refusal, so an agent knows to re-authenticate rather than give up).
pub const CREDENTIALS_EXPIRED: &str = "CREDENTIALS_EXPIRED";
/// The constant of a call whose command `needs` a requirement the machine does not meet.
pub const REQUIREMENT_MISSING: &str = "REQUIREMENT_MISSING";
/// The constant of a call whose command `needs` a program present in a version outside the
/// range the requirement declares (`details.requirement` and `details.actual` say both).
pub const RUNTIME_VERSION: &str = "RUNTIME_VERSION";

/// The constants the runtime raises only for tools that declare `auth` or `requirements`, with
/// their meaning. Unlike the built-ins, a tool may declare them under `exitCodes` to give them an
/// exit code of its own; otherwise they exit 2 (blocking in compose).
pub static DECLARED_CODES: &[(&str, &str)] = &[
    (AUTH_REQUIRED, "No credentials were found"),
    (CREDENTIALS_EXPIRED, "The credentials have expired"),
    (REQUIREMENT_MISSING, "A declared requirement is missing"),
    (
        RUNTIME_VERSION,
        "A declared requirement's version is out of range",
    ),
];

/// The exit status of a declared constant when the registry gives it none (exit 2: the caller
/// must change the environment before a retry can help).
pub const DECLARED_EXIT: u8 = 2;

/// Whether `name` is one of [`DECLARED_CODES`] and the registry's declarations can raise it.
pub fn declared_code_in(registry: &crate::Registry, name: &str) -> bool {
    match name {
        AUTH_REQUIRED | CREDENTIALS_EXPIRED => registry.auth.is_some(),
        REQUIREMENT_MISSING => !registry.requirements.is_empty(),
        RUNTIME_VERSION => registry.requirements.iter().any(|r| r.version.is_some()),
        _ => false,
    }
}

/// Whether `name` can name a command's lock: a file name under the tool's state directory
/// (letters, digits, `-`, `_`, `.`, not first, at most 128 characters).
pub fn is_lock_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Where a tool's credentials come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Auth {
    /// Environment variables that hold a credential; any one of them set (or the flag whose
    /// `env` it is given) counts as credentials present.
    pub env: Vec<String>,
    /// How to authenticate, in a few words each (e.g. `set TODO_TOKEN to an API token`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<String>,
    /// The command that obtains fresh credentials, e.g. `todo auth login` (the re-auth hint).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub login: Option<String>,
    /// Every scope the tool's credentials may carry, with what it allows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<Scope>,
}

/// One credential scope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scope {
    /// The scope's name as the service spells it, e.g. `tasks:write`.
    pub name: String,
    /// What it allows.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// Something the tool needs from the machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Requirement {
    /// The name commands list under `needs`, kebab-case, e.g. `git`.
    pub name: String,
    /// What kind of thing it is.
    pub kind: RequirementKind,
    /// What is looked for: the program name (searched on `PATH`), the variable, or the path.
    pub target: String,
    /// The exact step that makes it present, e.g. `apt-get install git`.
    pub fix: String,
    /// For a `program`: the versions it must be in, as a semver range (`>=2.30`, `^1.4, <1.9`).
    /// The runtime runs `TARGET --version` before the handler and compares the first version
    /// the program prints (`2.39` reads as `2.39.0`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Why the tool needs it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// The kinds of requirement the runtime can check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RequirementKind {
    /// An executable found on `PATH`.
    Program,
    /// An environment variable that is set and not empty.
    Env,
    /// A file or directory that exists (`~/` is the home directory).
    File,
}

impl RequirementKind {
    /// The spelling used in specs.
    pub fn as_str(self) -> &'static str {
        match self {
            RequirementKind::Program => "program",
            RequirementKind::Env => "env",
            RequirementKind::File => "file",
        }
    }
}

/// One effect a command has outside its output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SideEffect {
    /// What is touched.
    pub kind: SideEffectKind,
    /// Where: a path (`~/.cache/todo/`), a host, or a program.
    pub target: String,
    /// What happens there, in a few words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The command that undoes it (e.g. removes a cache), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cleanup: Option<String>,
}

/// The kinds of side effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SideEffectKind {
    /// Files written outside the command's output (caches, logs, temp files).
    Filesystem,
    /// Calls to other machines.
    Network,
    /// Programs started.
    Process,
    /// Processes started to outlive the call on purpose (a server it launches): the runtime
    /// records them, and `TOOL cleanup` lists them and ends them when confirmed.
    Background,
}

impl SideEffectKind {
    /// The spelling used in specs.
    pub fn as_str(self) -> &'static str {
        match self {
            SideEffectKind::Filesystem => "filesystem",
            SideEffectKind::Network => "network",
            SideEffectKind::Process => "process",
            SideEffectKind::Background => "background",
        }
    }
}

impl SideEffect {
    /// One line for the text faces: `writes ~/.cache/todo/ (the index; undo: todo cache clear)`.
    pub fn summary(&self) -> String {
        let mut text = format!("{} {}", self.kind.as_str(), self.target);
        let mut extra: Vec<String> = Vec::new();
        if !self.description.is_empty() {
            extra.push(self.description.clone());
        }
        if let Some(cleanup) = &self.cleanup {
            extra.push(format!("undo: {cleanup}"));
        }
        if !extra.is_empty() {
            text.push_str(&format!(" ({})", extra.join("; ")));
        }
        text
    }
}

/// One value that breaks one constraint: what an argument error lists, all at once.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The parameter's name.
    pub parameter: String,
    /// The constraint's key as the spec spells it (`minimum`, `maxLength`, `requires`, ...).
    pub constraint: &'static str,
    /// The limit, the pattern or the other parameter(s).
    pub limit: Value,
    /// The value given (absent for `requires`).
    pub value: Option<String>,
    /// One sentence for the message.
    pub message: String,
}

impl Violation {
    /// The violation as the JSON an error's `details.violations` lists.
    pub fn to_json(&self) -> Value {
        let mut object = json!({
            "parameter": self.parameter,
            "constraint": self.constraint,
            "limit": self.limit,
            "message": self.message,
        });
        if let Some(value) = &self.value {
            object["value"] = value.clone().into();
        }
        object
    }
}

/// The constraints one value of `param` breaks. `matches` answers whether a value matches the
/// parameter's `pattern` (the caller's regex engine); values that are not numbers for a numeric
/// parameter are left to the parser.
pub fn check_value(
    param: &Parameter,
    value: &str,
    matches: &dyn Fn(&str, &str) -> bool,
) -> Vec<Violation> {
    let mut found = Vec::new();
    let flag = display_name(param);
    let violation = |constraint: &'static str, limit: Value, message: String| Violation {
        parameter: param.name.clone(),
        constraint,
        limit,
        value: Some(value.to_owned()),
        message,
    };
    if matches!(param.element_type(), ParamType::Integer | ParamType::Number)
        && let Ok(number) = value.trim().parse::<f64>()
    {
        if let Some(min) = param.minimum.as_ref().and_then(serde_json::Number::as_f64)
            && number < min
        {
            found.push(violation(
                "minimum",
                param.minimum.clone().map_or(Value::Null, Value::Number),
                format!(
                    "{flag} is {value}, below its minimum {}",
                    param
                        .minimum
                        .as_ref()
                        .map_or(String::new(), |n| n.to_string())
                ),
            ));
        }
        if let Some(max) = param.maximum.as_ref().and_then(serde_json::Number::as_f64)
            && number > max
        {
            found.push(violation(
                "maximum",
                param.maximum.clone().map_or(Value::Null, Value::Number),
                format!(
                    "{flag} is {value}, above its maximum {}",
                    param
                        .maximum
                        .as_ref()
                        .map_or(String::new(), |n| n.to_string())
                ),
            ));
        }
    }
    if param.element_type() == ParamType::String {
        let length = value.chars().count() as u64;
        if let Some(min) = param.min_length
            && length < min
        {
            found.push(violation(
                "minLength",
                min.into(),
                format!("{flag} has {length} characters, fewer than its minLength {min}"),
            ));
        }
        if let Some(max) = param.max_length
            && length > max
        {
            found.push(violation(
                "maxLength",
                max.into(),
                format!(
                    "{flag} has {length} characters, more than its maxLength {max} (it is refused, not truncated)"
                ),
            ));
        }
        if let Some(pattern) = &param.pattern
            && !matches(pattern, value)
        {
            found.push(violation(
                "pattern",
                pattern.clone().into(),
                format!("{flag} does not match the pattern {pattern}"),
            ));
        }
    }
    found
}

/// The `requires` and `conflicts` a call breaks: `given` says whether a parameter (by name) was
/// given by the caller (on the command line or through its environment variable, not by a
/// default). Every missing co-required parameter of a given one is reported in one violation.
pub fn check_relations<'a>(
    params: impl IntoIterator<Item = &'a Parameter> + Clone,
    given: &dyn Fn(&str) -> bool,
) -> Vec<Violation> {
    let mut found = Vec::new();
    for param in params.clone() {
        if !given(&param.name) {
            continue;
        }
        let flag = display_name(param);
        let missing: Vec<&String> = param.requires.iter().filter(|r| !given(r)).collect();
        if !missing.is_empty() {
            let names: Vec<String> = missing.iter().map(|m| named(params.clone(), m)).collect();
            found.push(Violation {
                parameter: param.name.clone(),
                constraint: "requires",
                limit: missing.iter().map(|m| Value::from(m.as_str())).collect(),
                value: None,
                message: format!("{flag} also needs {}", names.join(" and ")),
            });
        }
        for other in &param.conflicts {
            // Each pair once: skip the second of two parameters that name each other.
            let mutual = params
                .clone()
                .into_iter()
                .find(|p| &p.name == other)
                .is_some_and(|p| p.conflicts.contains(&param.name));
            if given(other) && !(mutual && other < &param.name) {
                found.push(Violation {
                    parameter: param.name.clone(),
                    constraint: "conflicts",
                    limit: vec![Value::from(other.as_str())].into(),
                    value: None,
                    message: format!(
                        "{flag} cannot be given with {}",
                        named(params.clone(), other)
                    ),
                });
            }
        }
    }
    found
}

fn named<'a>(params: impl IntoIterator<Item = &'a Parameter>, name: &str) -> String {
    match params.into_iter().find(|p| p.name == name) {
        Some(param) => display_name(param),
        None => format!("--{name}"),
    }
}

/// `--name` for a flag, `<name>` for a positional.
pub fn display_name(param: &Parameter) -> String {
    match param.kind {
        crate::ParamKind::Flag => format!("--{}", param.name),
        _ => format!("<{}>", param.name),
    }
}

/// The constraints of a parameter in words for the text faces (`1 to 100`, `at most 64
/// characters`, `matching ^[a-z]+$`, `requires --b`, `conflicts with --c`), empty when none.
pub fn constraint_words(param: &Parameter, all: &[&Parameter]) -> Vec<String> {
    let mut words = Vec::new();
    match (&param.minimum, &param.maximum) {
        (Some(min), Some(max)) => words.push(format!("{min} to {max}")),
        (Some(min), None) => words.push(format!("at least {min}")),
        (None, Some(max)) => words.push(format!("at most {max}")),
        (None, None) => {}
    }
    match (param.min_length, param.max_length) {
        (Some(min), Some(max)) => words.push(format!("{min} to {max} characters")),
        (Some(min), None) => words.push(format!("at least {min} characters")),
        (None, Some(max)) => words.push(format!("at most {max} characters")),
        (None, None) => {}
    }
    if let Some(pattern) = &param.pattern {
        words.push(format!("matching {pattern}"));
    }
    let name = |n: &String| named(all.iter().copied(), n);
    if !param.requires.is_empty() {
        let names: Vec<String> = param.requires.iter().map(name).collect();
        words.push(format!("requires {}", names.join(" and ")));
    }
    if !param.conflicts.is_empty() {
        let names: Vec<String> = param.conflicts.iter().map(name).collect();
        words.push(format!("conflicts with {}", names.join(", ")));
    }
    words
}

/// The JSON Schema keywords of a parameter's constraints on one value (`minimum`, `maximum`,
/// `minLength`, `maxLength`, `pattern`), for the catalog and the MCP export.
pub fn schema_keywords(param: &Parameter) -> serde_json::Map<String, Value> {
    let mut map = serde_json::Map::new();
    if let Some(min) = &param.minimum {
        map.insert("minimum".into(), Value::Number(min.clone()));
    }
    if let Some(max) = &param.maximum {
        map.insert("maximum".into(), Value::Number(max.clone()));
    }
    if let Some(min) = param.min_length {
        map.insert("minLength".into(), min.into());
    }
    if let Some(max) = param.max_length {
        map.insert("maxLength".into(), max.into());
    }
    if let Some(pattern) = &param.pattern {
        map.insert("pattern".into(), pattern.clone().into());
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(json: Value) -> Parameter {
        serde_json::from_value(json).unwrap()
    }

    fn no_pattern(_: &str, _: &str) -> bool {
        true
    }

    #[test]
    fn numbers_outside_their_range_are_named_with_the_limit() {
        let p = param(json!({"name": "limit", "type": "integer", "minimum": 1, "maximum": 100}));
        assert!(check_value(&p, "50", &no_pattern).is_empty());
        let low = check_value(&p, "0", &no_pattern);
        assert_eq!(low[0].constraint, "minimum");
        assert_eq!(low[0].message, "--limit is 0, below its minimum 1");
        let high = check_value(&p, "101", &no_pattern);
        assert_eq!(high[0].to_json()["limit"], json!(100));
    }

    #[test]
    fn lengths_count_characters_and_patterns_use_the_callers_engine() {
        let p = param(json!({"name": "title", "maxLength": 3, "minLength": 2, "pattern": "x"}));
        assert!(check_value(&p, "été", &|_, _| true).is_empty());
        let long = check_value(&p, "abcd", &|_, _| true);
        assert_eq!(long[0].constraint, "maxLength");
        let bad = check_value(&p, "ab", &|_, _| false);
        assert_eq!(bad[0].constraint, "pattern");
        assert_eq!(
            check_value(&p, "a", &|_, _| true)[0].constraint,
            "minLength"
        );
    }

    #[test]
    fn relations_list_every_missing_parameter_and_each_conflict_once() {
        let params = [
            param(json!({"name": "auth-type", "requires": ["user", "password"]})),
            param(json!({"name": "user"})),
            param(json!({"name": "password"})),
            param(json!({"name": "json", "type": "boolean", "conflicts": ["csv"]})),
            param(json!({"name": "csv", "type": "boolean", "conflicts": ["json"]})),
        ];
        let given = |n: &str| matches!(n, "auth-type" | "json" | "csv");
        let found = check_relations(&params, &given);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].limit, json!(["user", "password"]));
        assert_eq!(
            found[0].message,
            "--auth-type also needs --user and --password"
        );
        assert_eq!(found[1].constraint, "conflicts");
    }
}
