//! One OpenAPI parameter (path, query, header or cookie) to one pas parameter: path parameters
//! are positionals in the template's order, the others flags; types, enums, defaults, bounds,
//! `required` and descriptions kept, and whatever pas has no word for noted.

use pas_spec::{ParamKind, ParamType, Parameter, StringFormat};
use serde_json::{Number, Value};

use super::Context;
use super::names::{Scope, kebab};
use super::refs;
use super::report::Notes;

/// Where a parameter goes in the HTTP request, and the flag or positional that carries it: the
/// command's comment lists these, so a handler (or a person) knows how to call the API.
#[derive(Debug, Clone)]
pub struct Binding {
    pub location: String,
    pub api_name: String,
    pub name: String,
    pub positional: bool,
}

impl Binding {
    pub fn describe(&self) -> String {
        let carrier = if self.positional {
            format!("<{}>", self.name)
        } else {
            format!("--{}", self.name)
        };
        format!("{} {} = {carrier}", self.location, self.api_name)
    }
}

/// Headers the OpenAPI specification says to ignore as parameters (3.0 and 3.1, "Fixed Fields"
/// of the Parameter Object): the media types and the security schemes carry them.
const IGNORED_HEADERS: [&str; 3] = ["accept", "content-type", "authorization"];

/// The pas parameter for `raw` (its `$ref` followed), or `None` when the document itself says
/// to ignore it. `scope` holds the names already given in this command.
pub fn map(
    context: &Context,
    command: &str,
    raw: &Value,
    pointer: &str,
    scope: &mut Scope,
    notes: &mut Notes,
) -> Option<(Parameter, Binding)> {
    let (param, pointer) = refs::follow(context.root, raw, pointer);
    let api_name = param
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let location = param
        .get("in")
        .and_then(Value::as_str)
        .unwrap_or("query")
        .to_owned();
    if location == "header" && IGNORED_HEADERS.contains(&api_name.to_ascii_lowercase().as_str()) {
        notes.add(command, "skipped", &pointer, format!("the header parameter `{api_name}` is ignored, as OpenAPI says (media types and security schemes set it)"));
        return None;
    }
    if context
        .api_keys
        .contains(&(location.clone(), api_name.to_ascii_lowercase()))
    {
        notes.add(command, "skipped", &pointer, format!("the {location} parameter `{api_name}` is the API key of a security scheme: `auth` takes it from the environment, never argv"));
        return None;
    }
    let positional = location == "path";
    let name = claim_name(&api_name, &location, scope);
    let simple = kebab(&api_name, location != "header");
    if name != simple {
        notes.add(
            command,
            "renamed",
            &pointer,
            format!("the {location} parameter `{api_name}` is `{name}` (`{simple}` is taken)"),
        );
    }

    let schema = match param.get("schema") {
        Some(schema) => optional(context.root, refs::follow(context.root, schema, "").0),
        None => {
            if let Some(content) = param.get("content").and_then(Value::as_object) {
                let media = content.keys().next().cloned().unwrap_or_default();
                notes.add(command, "unsupported", &pointer, format!("the {location} parameter `{api_name}` is `{media}` content; pas takes it as text"));
            }
            Value::Object(Default::default())
        }
    };
    let mut description = text(param.get("description"))
        .or_else(|| text(schema.get("description")))
        .unwrap_or_else(|| format!("The `{api_name}` {location} parameter."));
    let required = positional || param.get("required") == Some(&Value::Bool(true));
    let mut parameter = Parameter {
        name: name.clone(),
        kind: if positional {
            ParamKind::Positional
        } else {
            ParamKind::Flag
        },
        short: None,
        ty: ParamType::String,
        items: None,
        values: None,
        required,
        default: None,
        env: None,
        secret: false,
        description: String::new(),
        rust_name: None,
        aliases: Vec::new(),
        deprecated_aliases: Vec::new(),
        minimum: None,
        maximum: None,
        min_length: None,
        max_length: None,
        pattern: None,
        requires: Vec::new(),
        conflicts: Vec::new(),
        format: None,
        agent_hardening: None,
    };
    let mut say = |kind: &'static str, text: String| {
        notes.add(command, kind, &pointer, format!("`{api_name}`: {text}"))
    };

    // The type of one value (the element's, for arrays).
    let (ty, element) = match type_of(&schema) {
        Some(ParamType::Array) => {
            let items = schema
                .get("items")
                .map(|i| refs::follow(context.root, i, "").0.clone())
                .unwrap_or(Value::Null);
            match type_of(&items) {
                Some(ParamType::Array) | None => {
                    say(
                        "changed",
                        "an array of structured values is taken as text values".to_owned(),
                    );
                    (ParamType::Array, (ParamType::String, items))
                }
                Some(inner) => (ParamType::Array, (inner, items)),
            }
        }
        Some(ty) => (ty, (ty, schema.clone())),
        None => {
            let what = if schema.get("type").and_then(Value::as_str) == Some("object")
                || schema.get("properties").is_some()
            {
                "an object value is taken as text (give it as the API expects it serialised)"
            } else if ["allOf", "anyOf", "oneOf"]
                .iter()
                .any(|k| schema.get(k).is_some())
            {
                "a composed schema (allOf/anyOf/oneOf) is taken as text"
            } else {
                ""
            };
            if !what.is_empty() {
                say("unsupported", what.to_owned());
            }
            (ParamType::String, (ParamType::String, schema.clone()))
        }
    };
    let (element_ty, element_schema) = element;
    parameter.ty = ty;
    if ty == ParamType::Array {
        parameter.items = (element_ty != ParamType::String).then_some(element_ty);
    }

    // A boolean the API defaults to true (or requires) cannot be a switch: a switch is off when
    // absent and cannot be turned off, so it is a `true`/`false` value instead.
    let default = param.get("schema").and(schema.get("default")).cloned();
    let switch_trap = ty == ParamType::Boolean && (required || default == Some(Value::Bool(true)));
    if switch_trap {
        parameter.ty = ParamType::String;
        parameter.values = Some(vec!["true".to_owned(), "false".to_owned()]);
        say("changed", "a boolean that defaults to true (or is required) is the value `true` or `false`, not a switch".to_owned());
    }

    if let Some(Value::Array(values)) = element_schema.get("enum") {
        let strings: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
        let others: Vec<String> = values
            .iter()
            .filter(|v| !v.is_string() && !v.is_null())
            .map(Value::to_string)
            .collect();
        if element_ty == ParamType::String && others.is_empty() && !strings.is_empty() {
            let mut unique: Vec<String> = Vec::new();
            for value in strings {
                if !unique.iter().any(|u| u == value) {
                    unique.push(value.to_owned());
                }
            }
            parameter.values = Some(unique);
        } else if !values.is_empty() {
            let listed: Vec<String> = values
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .collect();
            description.push_str(&format!(" One of: {}.", listed.join(", ")));
            say(
                "changed",
                "an enum of non-text values is listed in the description (pas enums are text)"
                    .to_owned(),
            );
        }
    }

    if let Some(default) = default
        && !switch_trap
    {
        let fits = match (&parameter.ty, &default) {
            (ParamType::String, Value::String(_)) => true,
            (ParamType::Integer, Value::Number(n)) => n.is_i64() || n.is_u64(),
            (ParamType::Number, Value::Number(_)) => true,
            (ParamType::Boolean, Value::Bool(false)) => true,
            (ParamType::Array, Value::Array(_)) => true,
            _ => false,
        };
        let in_enum = match (&parameter.values, &default) {
            (Some(values), Value::String(s)) => values.contains(s),
            _ => true,
        };
        if required {
            description.push_str(&format!(" The API's default: {default}."));
        } else if fits && in_enum && default != Value::Bool(false) {
            parameter.default = Some(default);
        } else if default != Value::Bool(false) {
            say(
                "changed",
                format!(
                    "the default {default} does not fit the parameter's type or values; it is in the description"
                ),
            );
            description.push_str(&format!(" The API's default: {default}."));
        }
    }

    // Bounds: numbers on numeric values, lengths and patterns on text.
    let numeric = matches!(element_ty, ParamType::Integer | ParamType::Number) && !switch_trap;
    if numeric {
        parameter.minimum = number(element_schema.get("minimum"));
        parameter.maximum = number(element_schema.get("maximum"));
        for key in ["exclusiveMinimum", "exclusiveMaximum"] {
            if let Some(bound) = element_schema.get(key).filter(|v| v.is_number()) {
                description.push_str(&format!(" ({key} {bound}.)"));
                say(
                    "unsupported",
                    format!(
                        "`{key}` {bound} is in the description only (pas bounds are inclusive)"
                    ),
                );
            }
        }
    } else if element_ty == ParamType::String && !switch_trap {
        parameter.min_length = element_schema
            .get("minLength")
            .and_then(Value::as_u64)
            .filter(|n| *n > 0);
        parameter.max_length = element_schema.get("maxLength").and_then(Value::as_u64);
        parameter.pattern = element_schema
            .get("pattern")
            .and_then(Value::as_str)
            .map(str::to_owned);
    }
    if let Some(format) = element_schema.get("format").and_then(Value::as_str) {
        description.push_str(&format!(" Format: {format}."));
    }
    if positional
        && parameter.ty == ParamType::String
        && parameter.values.is_none()
        && !api_name.to_ascii_lowercase().contains("path")
    {
        // A path segment is an identifier: machine mode refuses the spellings agents make up
        // (`..`, `%2F`, `?`) rather than sending them to the API.
        parameter.format = Some(StringFormat::Id);
    }
    // A credential is a secret read from the environment (argv shows in process lists).
    let lower = api_name.to_ascii_lowercase();
    if !positional
        && (element_schema.get("format").and_then(Value::as_str) == Some("password")
            || [
                "password",
                "passwd",
                "secret",
                "token",
                "api_key",
                "apikey",
                "access_token",
            ]
            .contains(&lower.as_str()))
    {
        parameter.secret = true;
        parameter.env = Some(format!(
            "{}_{}",
            context.env_prefix,
            super::names::upper_snake(&api_name)
        ));
        parameter.default = None;
        say(
            "changed",
            format!(
                "a credential: secret, and read from {} (prefer it to the flag)",
                parameter.env.as_deref().unwrap_or("")
            ),
        );
    }
    if param.get("deprecated") == Some(&Value::Bool(true)) {
        description = format!("Deprecated by the API. {description}");
    }
    check_style(param, &location, &mut say);
    parameter.description = description;
    Some((
        parameter,
        Binding {
            location,
            api_name,
            name,
            positional,
        },
    ))
}

/// `anyOf`/`oneOf` of one schema and `null` (how FastAPI and 3.1 spell an optional value) is
/// that schema: an absent flag already says "no value". The outer keywords (description,
/// default) stay.
fn optional(root: &Value, schema: &Value) -> Value {
    for key in ["anyOf", "oneOf"] {
        let Some(choices) = schema.get(key).and_then(Value::as_array) else {
            continue;
        };
        let real: Vec<&Value> = choices
            .iter()
            .map(|c| refs::follow(root, c, "").0)
            .filter(|c| c.get("type").and_then(Value::as_str) != Some("null"))
            .collect();
        if let [only] = real.as_slice()
            && real.len() < choices.len()
            && let (Some(inner), Some(outer)) = (only.as_object(), schema.as_object())
        {
            let mut merged = inner.clone();
            for (k, v) in outer.iter().filter(|(k, _)| k.as_str() != key) {
                merged.insert(k.clone(), v.clone());
            }
            return Value::Object(merged);
        }
    }
    schema.clone()
}

/// The name: kebab-case of the API's, else prefixed by its location (`header-id`), else numbered.
fn claim_name(api_name: &str, location: &str, scope: &mut Scope) -> String {
    let simple = kebab(api_name, location != "header");
    if !scope.is_taken(&simple) && !["self", "super", "crate"].contains(&simple.as_str()) {
        scope.take(&simple);
        return simple;
    }
    scope.claim(&format!("{location}-{simple}"))
}

/// The pas type of a schema's values, `None` when it has no single scalar or array type.
pub fn type_of(schema: &Value) -> Option<ParamType> {
    let ty = match schema.get("type") {
        Some(Value::String(ty)) => ty.as_str(),
        Some(Value::Array(types)) => {
            let mut named = types
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null");
            let first = named.next()?;
            if named.next().is_some() {
                return None;
            }
            first
        }
        _ if schema
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|v| v.iter().all(Value::is_string)) =>
        {
            "string"
        }
        _ => return None,
    };
    match ty {
        "string" => Some(ParamType::String),
        "integer" => Some(ParamType::Integer),
        "number" => Some(ParamType::Number),
        "boolean" => Some(ParamType::Boolean),
        "array" => Some(ParamType::Array),
        _ => None,
    }
}

fn number(value: Option<&Value>) -> Option<Number> {
    match value? {
        Value::Number(n) => Some(n.clone()),
        _ => None,
    }
}

fn text(value: Option<&Value>) -> Option<String> {
    let text = value?.as_str()?.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// A serialisation other than the location's default is the handler's to honour: noted.
fn check_style(param: &Value, location: &str, say: &mut impl FnMut(&'static str, String)) {
    let default_style = match location {
        "query" | "cookie" => "form",
        _ => "simple",
    };
    if let Some(style) = param.get("style").and_then(Value::as_str)
        && style != default_style
    {
        say(
            "unsupported",
            format!(
                "style `{style}` is how the handler must serialise it; pas takes the values as given"
            ),
        );
    }
    let default_explode = default_style == "form";
    if let Some(explode) = param.get("explode").and_then(Value::as_bool)
        && explode != default_explode
    {
        say(
            "unsupported",
            format!("explode {explode} is how the handler must serialise it"),
        );
    }
    for key in ["allowReserved", "allowEmptyValue"] {
        if param.get(key) == Some(&Value::Bool(true)) {
            say(
                "unsupported",
                format!("`{key}: true` is the handler's to honour"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map_one(param: Value) -> (Option<(Parameter, Binding)>, Notes) {
        let root = json!({"components": {"parameters": {"Ref": {"name": "per_page", "in": "query", "schema": {"type": "integer"}}}}});
        let context = Context {
            root: &root,
            version: super::super::load::Version::V30,
            reserved_flags: vec!["help".to_owned()],
            api_keys: vec![("header".to_owned(), "api_key".to_owned())],
            env_prefix: "PETS".to_owned(),
        };
        let mut scope = Scope::with(context.reserved_flags.clone());
        let mut notes = Notes::default();
        let mapped = map(&context, "a.b", &param, "/p", &mut scope, &mut notes);
        (mapped, notes)
    }

    #[test]
    fn path_parameters_are_required_positional_ids() {
        let (mapped, _) = map_one(
            json!({"name": "petId", "in": "path", "required": true, "schema": {"type": "string"}}),
        );
        let (parameter, binding) = mapped.unwrap();
        assert_eq!(
            (parameter.name.as_str(), parameter.kind, parameter.required),
            ("pet-id", ParamKind::Positional, true)
        );
        assert_eq!(parameter.format, Some(StringFormat::Id));
        assert_eq!(binding.describe(), "path petId = <pet-id>");
    }

    #[test]
    fn types_enums_defaults_and_bounds_are_kept() {
        let (mapped, notes) = map_one(
            json!({"name": "state", "in": "query", "description": "Which.", "schema": {"type": "string", "enum": ["open", "closed", "open"], "default": "open", "maxLength": 9}}),
        );
        let parameter = mapped.unwrap().0;
        assert_eq!(
            parameter.values,
            Some(vec!["open".to_owned(), "closed".to_owned()])
        );
        assert_eq!(
            (parameter.default, parameter.max_length),
            (Some(json!("open")), Some(9))
        );
        assert!(notes.list.is_empty());
        let (mapped, _) = map_one(json!({"$ref": "#/components/parameters/Ref"}));
        assert_eq!(mapped.unwrap().0.ty, ParamType::Integer);
        let (mapped, _) = map_one(
            json!({"name": "ids", "in": "query", "schema": {"type": "array", "items": {"type": "integer", "minimum": 1}}}),
        );
        let parameter = mapped.unwrap().0;
        assert_eq!(
            (parameter.ty, parameter.items, parameter.minimum),
            (ParamType::Array, Some(ParamType::Integer), Some(1.into()))
        );
    }

    #[test]
    fn what_pas_cannot_say_is_noted_never_dropped() {
        let (mapped, notes) = map_one(
            json!({"name": "level", "in": "query", "schema": {"type": "integer", "enum": [1, 2]}}),
        );
        assert!(mapped.unwrap().0.description.contains("One of: 1, 2."));
        assert_eq!(notes.list[0].kind, "changed");
        let (mapped, notes) = map_one(
            json!({"name": "filter", "in": "query", "style": "deepObject", "schema": {"type": "object"}}),
        );
        assert!(mapped.is_some());
        assert_eq!(notes.list.len(), 2, "{:?}", notes.list);
        let (mapped, notes) =
            map_one(json!({"name": "Accept", "in": "header", "schema": {"type": "string"}}));
        assert!(mapped.is_none());
        assert_eq!(notes.list[0].kind, "skipped");
    }

    #[test]
    fn an_optional_any_of_is_its_one_real_schema() {
        let (mapped, notes) = map_one(
            json!({"name": "cursor", "in": "query", "schema": {"anyOf": [{"type": "integer"}, {"type": "null"}], "title": "Cursor"}}),
        );
        assert_eq!(mapped.unwrap().0.ty, ParamType::Integer);
        assert!(notes.list.is_empty());
    }

    #[test]
    fn credentials_are_secrets_from_the_environment_never_flags_alone() {
        let (mapped, _) =
            map_one(json!({"name": "api_key", "in": "header", "schema": {"type": "string"}}));
        assert!(mapped.is_none(), "the security scheme's key is auth's");
        let (mapped, _) =
            map_one(json!({"name": "password", "in": "query", "schema": {"type": "string"}}));
        let parameter = mapped.unwrap().0;
        assert!(parameter.secret);
        assert_eq!(parameter.env.as_deref(), Some("PETS_PASSWORD"));
    }

    #[test]
    fn a_boolean_defaulting_to_true_is_a_value_not_a_switch() {
        let (mapped, _) = map_one(
            json!({"name": "archived", "in": "query", "schema": {"type": "boolean", "default": true}}),
        );
        let parameter = mapped.unwrap().0;
        assert_eq!(parameter.ty, ParamType::String);
        assert_eq!(
            parameter.values,
            Some(vec!["true".to_owned(), "false".to_owned()])
        );
        assert_eq!(parameter.default, None);
    }

    #[test]
    fn a_built_in_flag_name_is_prefixed_with_the_location() {
        let (mapped, notes) =
            map_one(json!({"name": "help", "in": "header", "schema": {"type": "string"}}));
        assert_eq!(mapped.unwrap().0.name, "header-help");
        assert_eq!(notes.list[0].kind, "renamed");
    }
}
