//! A clap arg as a registry parameter, by introspection (as clap_mangen reads a `Command`):
//! long, short, positional or variadic, required, defaults, env, possible values, help, and
//! `hide_env_values` as the mark of a secret. The JSON type comes from the arg's value parser when
//! that is a std type, else from the field's JSON Schema when the derive found one, else it is a
//! string.

use std::any::TypeId;

use clap::{Arg, ArgAction};
use pas_spec::{ParamKind, ParamType, Parameter};
use serde_json::Value;

use super::json_type::{self, Shape};
use super::meta::LazySchema;

/// Whether an arg is part of the tool's contract: hidden args and clap's own help and version
/// flags are not.
pub(crate) fn is_listed(arg: &Arg) -> bool {
    !arg.is_hide_set()
        && !matches!(
            arg.get_action(),
            ArgAction::Help | ArgAction::HelpShort | ArgAction::HelpLong | ArgAction::Version
        )
}

/// The parameter for `arg`, given the JSON Schema of its field's type (made only when clap's
/// value parser does not already say the type, see [`known_parser_type`]).
pub(crate) fn parameter(arg: &Arg, schema: Option<LazySchema>) -> Parameter {
    let id = arg.get_id().as_str();
    let positional = arg.is_positional();
    let name = match arg.get_long() {
        Some(long) if !positional => long.to_owned(),
        _ => id.replace('_', "-"),
    };
    let action = arg.get_action();
    let switch = matches!(action, ArgAction::SetTrue | ArgAction::SetFalse);
    let counter = matches!(action, ArgAction::Count);
    let many_values = arg
        .get_num_args()
        .is_some_and(|range| range.max_values() > 1);
    let many = matches!(action, ArgAction::Append) || many_values;

    let element = if switch {
        ParamType::Boolean
    } else if counter {
        ParamType::Integer
    } else {
        known_parser_type(arg)
            .or_else(|| schema.and_then(|schema| element_type(&schema.schema(), many)))
            .unwrap_or_else(|| parser_type(arg))
    };
    let kind = match (positional, many) {
        (false, _) => ParamKind::Flag,
        (true, false) => ParamKind::Positional,
        (true, true) => ParamKind::Variadic,
    };
    // A repeatable flag is an array of its elements; a variadic's type names each element.
    let (ty, items) = if kind == ParamKind::Flag && many {
        (
            ParamType::Array,
            (element != ParamType::String).then_some(element),
        )
    } else {
        (element, None)
    };
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|value| !value.is_hide_set())
        .map(|value| value.get_name().to_owned())
        .collect();
    let values = (element == ParamType::String && !values.is_empty()).then_some(values);
    let default = if switch || counter {
        None
    } else {
        default(arg, element, many)
    };
    let help = arg
        .get_help()
        .or(arg.get_long_help())
        .map(plain_text)
        .unwrap_or_default();
    let rust_name = (id != name.replace('-', "_")).then(|| id.to_owned());
    Parameter {
        name,
        kind,
        short: if positional { None } else { arg.get_short() },
        ty,
        items,
        values,
        required: arg.is_required_set() && !switch,
        default,
        env: arg
            .get_env()
            .and_then(|env| env.to_str())
            .map(str::to_owned),
        secret: arg.is_hide_env_values_set(),
        description: help,
        rust_name,
        // clap's visible aliases are the spec's aliases, its hidden ones the deprecated.
        aliases: arg
            .get_visible_aliases()
            .unwrap_or_default()
            .into_iter()
            .map(str::to_owned)
            .collect(),
        deprecated_aliases: arg
            .get_all_aliases()
            .unwrap_or_default()
            .into_iter()
            .filter(|a| !arg.get_visible_aliases().unwrap_or_default().contains(a))
            .map(str::to_owned)
            .collect(),
        minimum: None,
        maximum: None,
        min_length: None,
        max_length: None,
        pattern: None,
        requires: Vec::new(),
        conflicts: Vec::new(),
        format: None,
        agent_hardening: None,
    }
}

/// clap's text without its styling, as its `Display` gives it. `Display` strips ANSI escapes
/// byte by byte through a parser (a visible share of start-up for a tool's few texts); a text
/// with no control character but whitespace has nothing to strip, so it is taken as it is.
pub(crate) fn plain_text(styled: &clap::builder::StyledStr) -> String {
    let raw = styled.ansi().to_string();
    if raw
        .bytes()
        .all(|b| !b.is_ascii_control() || b.is_ascii_whitespace())
    {
        raw
    } else {
        styled.to_string()
    }
}

/// The type of one value: of the field for single values, of its elements for many.
fn element_type(schema: &Value, many: bool) -> Option<ParamType> {
    match json_type::shape(schema)? {
        Shape::Scalar(ty) => Some(ty),
        Shape::Array(items) if many => items,
        // A single value whose Rust type is a collection: clap parses one text; call it a string.
        Shape::Array(_) => Some(ParamType::String),
    }
}

/// The type of each value when clap parses it into a std type whose JSON Schema could only say
/// the same: integers, floats, `bool`, `String`, `PathBuf`, `OsString`. The derive's parser
/// yields the field's type itself, or the `T` of `Option<T>`/`Vec<T>` (nested ones too), and
/// schemars gives those wrappers the shape [`element_type`] reads `T`'s type from (or no shape,
/// for `Vec<Vec<T>>`, whose fallback is this same type). So the field's schema (schemars, a
/// visible share of a tool's start-up per field) is made only for other types.
fn known_parser_type(arg: &Arg) -> Option<ParamType> {
    let id = arg.get_value_parser().type_id();
    let strings = [
        TypeId::of::<String>(),
        TypeId::of::<std::path::PathBuf>(),
        TypeId::of::<std::ffi::OsString>(),
    ];
    if strings.iter().any(|t| id == *t) {
        return Some(ParamType::String);
    }
    Some(parser_type(arg)).filter(|ty| *ty != ParamType::String)
}

/// The type clap parses each value into, for field types without a JSON Schema.
fn parser_type(arg: &Arg) -> ParamType {
    let id = arg.get_value_parser().type_id();
    let integers = [
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<i128>(),
        TypeId::of::<isize>(),
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<u128>(),
        TypeId::of::<usize>(),
    ];
    if integers.iter().any(|t| id == *t) {
        ParamType::Integer
    } else if id == TypeId::of::<f64>() || id == TypeId::of::<f32>() {
        ParamType::Number
    } else if id == TypeId::of::<bool>() {
        ParamType::Boolean
    } else {
        // Strings, paths, and any other type parsed from text.
        ParamType::String
    }
}

/// clap's default values as JSON of the parameter's type (an array when it takes many).
fn default(arg: &Arg, element: ParamType, array: bool) -> Option<Value> {
    let values: Vec<Value> = arg
        .get_default_values()
        .iter()
        .map(|value| typed(&value.to_string_lossy(), element))
        .collect();
    match (values.len(), array) {
        (0, _) => None,
        (_, true) => Some(Value::Array(values)),
        (1, false) => values.into_iter().next(),
        (_, false) => Some(Value::Array(values)),
    }
}

fn typed(text: &str, ty: ParamType) -> Value {
    let parsed = match ty {
        ParamType::Integer => text.parse::<i64>().ok().map(Value::from),
        ParamType::Number => text
            .parse::<f64>()
            .ok()
            .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number)),
        ParamType::Boolean => text.parse::<bool>().ok().map(Value::Bool),
        ParamType::String | ParamType::Array => None,
    };
    parsed.unwrap_or_else(|| Value::String(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;
    use std::path::PathBuf;

    use clap::{Arg, ArgAction};
    use pas_spec::ParamType;
    use schemars::JsonSchema;

    use super::{element_type, known_parser_type};
    use crate::derive::probe::schema_of;

    /// A field of type `Field` whose clap parser yields a std type (the derive's pairing: the
    /// field itself, or the `T` of its `Option`/`Vec`): the type read from the parser alone is
    /// the one the field's schema gives (or the schema gives none), so skipping the schema
    /// changes no registry.
    fn check<Field: JsonSchema>(arg: Arg, many: bool, expected: ParamType) {
        let from_parser = known_parser_type(&arg);
        assert_eq!(from_parser, Some(expected), "{arg:?}");
        let from_schema = element_type(&schema_of::<Field>(), many);
        assert!(
            from_schema.is_none_or(|ty| ty == expected),
            "{arg:?}: the schema says {from_schema:?}"
        );
    }

    fn one(parser: impl Into<clap::builder::ValueParser>) -> Arg {
        Arg::new("x").long("x").value_parser(parser.into())
    }

    fn many(parser: impl Into<clap::builder::ValueParser>) -> Arg {
        one(parser).action(ArgAction::Append)
    }

    #[test]
    fn the_parser_of_a_std_type_says_what_its_schema_says() {
        check::<u32>(one(clap::value_parser!(u32)), false, ParamType::Integer);
        check::<Option<i64>>(one(clap::value_parser!(i64)), false, ParamType::Integer);
        check::<Vec<u8>>(many(clap::value_parser!(u8)), true, ParamType::Integer);
        check::<Vec<Vec<u16>>>(many(clap::value_parser!(u16)), true, ParamType::Integer);
        check::<f64>(one(clap::value_parser!(f64)), false, ParamType::Number);
        check::<Option<f32>>(one(clap::value_parser!(f32)), false, ParamType::Number);
        check::<bool>(one(clap::value_parser!(bool)), false, ParamType::Boolean);
        check::<String>(one(clap::value_parser!(String)), false, ParamType::String);
        check::<Option<Vec<String>>>(many(clap::value_parser!(String)), true, ParamType::String);
        check::<PathBuf>(one(clap::value_parser!(PathBuf)), false, ParamType::String);
        check::<Vec<PathBuf>>(many(clap::value_parser!(PathBuf)), true, ParamType::String);
        check::<OsString>(one(clap::value_parser!(OsString)), false, ParamType::String);
    }

    /// Styled text keeps its words and loses its escapes, as clap's `Display` gives it.
    #[test]
    fn plain_text_is_what_display_gives() {
        use clap::builder::StyledStr;
        for text in [
            "Count words.",
            "Tabs\tand\nlines\r\x0cfeed",
            "caf\u{e9} \u{85}",
        ] {
            let styled = StyledStr::from(text);
            assert_eq!(super::plain_text(&styled), styled.to_string());
        }
        let styled = StyledStr::from("\x1b[1mbold\x1b[0m, a bell\x07, a tab\x0b, del\x7f");
        assert_eq!(super::plain_text(&styled), styled.to_string());
        assert_eq!(super::plain_text(&styled), "bold, a bell, a tab, del");
    }

    /// Any other type is left to its schema (a `char`, an enum, a newtype).
    #[test]
    fn other_types_ask_the_schema() {
        let arg = Arg::new("x")
            .long("x")
            .value_parser(clap::value_parser!(char));
        assert_eq!(known_parser_type(&arg), None);
    }
}
