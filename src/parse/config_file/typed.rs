//! A TOML value as the text clap parses, checked against the parameter's registry type.
//!
//! The check happens here rather than in clap so that a wrong value is reported against the
//! file and key (clap would blame a flag the caller never typed). Values never appear in the
//! problem: a secret's wrong value must not leak through its error.

use pas_spec::{ParamType, Parameter};
use toml::de::DeValue as Value;

/// Why a value does not fit its parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mismatch {
    /// Expected this (`an integer`), found a TOML value of this type (`string`).
    Type {
        expected: String,
        found: &'static str,
    },
    /// Not one of the parameter's allowed values.
    NotAllowed(Vec<String>),
}

/// The texts clap receives as the arg's default values (one, or one per array element).
pub(crate) fn texts(param: &Parameter, value: &Value) -> Result<Vec<String>, Mismatch> {
    let element = param.element_type();
    if !param.is_many() {
        return one(param, element, value).map(|text| vec![text]);
    }
    let Value::Array(items) = value else {
        return Err(Mismatch::Type {
            expected: format!("an array of {}", plural(element)),
            found: value.type_str(),
        });
    };
    items
        .iter()
        .map(|item| one(param, element, item.get_ref()))
        .collect()
}

fn one(param: &Parameter, ty: ParamType, value: &Value) -> Result<String, Mismatch> {
    let mismatch = || Mismatch::Type {
        expected: singular(ty).to_owned(),
        found: value.type_str(),
    };
    // The parse tree keeps numbers as their digits (and radix): read them here, as toml's own
    // conversion would, so `0x1F` is 31 and an integer past 64 bits is refused.
    let integer = |n: &toml::de::DeInteger<'_>| {
        i64::from_str_radix(n.as_str(), n.radix()).map_err(|_| Mismatch::Type {
            expected: singular(ty).to_owned(),
            found: "integer outside 64 bits",
        })
    };
    let text = match (ty, value) {
        (ParamType::String | ParamType::Array, Value::String(text)) => text.to_string(),
        // TOML writes `2` for a whole number; a `number` parameter takes it too.
        (ParamType::Integer | ParamType::Number, Value::Integer(n)) => integer(n)?.to_string(),
        (ParamType::Number, Value::Float(x)) => float(x.as_str()).ok_or_else(mismatch)?.to_string(),
        (ParamType::Boolean, Value::Boolean(b)) => b.to_string(),
        _ => return Err(mismatch()),
    };
    match &param.values {
        Some(allowed) if !allowed.contains(&text) => Err(Mismatch::NotAllowed(allowed.clone())),
        _ => Ok(text),
    }
}

/// A TOML float's value: its digits as Rust reads them (`inf`, `nan` and their signs included;
/// TOML's grammar has already refused what Rust would read that TOML does not allow).
fn float(digits: &str) -> Option<f64> {
    digits.parse().ok()
}

fn singular(ty: ParamType) -> &'static str {
    match ty {
        ParamType::String | ParamType::Array => "a string",
        ParamType::Integer => "an integer",
        ParamType::Number => "a number",
        ParamType::Boolean => "true or false",
    }
}

fn plural(ty: ParamType) -> &'static str {
    match ty {
        ParamType::String | ParamType::Array => "strings",
        ParamType::Integer => "integers",
        ParamType::Number => "numbers",
        ParamType::Boolean => "booleans",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(json: serde_json::Value) -> Parameter {
        serde_json::from_value(json).unwrap()
    }

    fn value(toml: &str) -> Value<'_> {
        let mut table = toml::de::DeTable::parse(toml).unwrap().into_inner();
        table.remove("v").unwrap().into_inner()
    }

    #[test]
    fn scalars_and_arrays() {
        let int = param(serde_json::json!({"name": "n", "type": "integer"}));
        assert_eq!(texts(&int, &value("v = 3")), Ok(vec!["3".into()]));
        let num = param(serde_json::json!({"name": "n", "type": "number"}));
        assert_eq!(texts(&num, &value("v = 2")), Ok(vec!["2".into()]));
        assert_eq!(texts(&num, &value("v = 2.5")), Ok(vec!["2.5".into()]));
        assert_eq!(texts(&num, &value("v = 1e3")), Ok(vec!["1000".into()]));
        assert_eq!(texts(&int, &value("v = 0x1F")), Ok(vec!["31".into()]));
        assert_eq!(texts(&int, &value("v = 1_000")), Ok(vec!["1000".into()]));
        assert_eq!(
            texts(&int, &value("v = 99999999999999999999")),
            Err(Mismatch::Type {
                expected: "an integer".into(),
                found: "integer outside 64 bits"
            })
        );
        let tags = param(serde_json::json!({"name": "t", "type": "array", "items": "integer"}));
        assert_eq!(
            texts(&tags, &value("v = [1, 2]")),
            Ok(vec!["1".into(), "2".into()])
        );
    }

    #[test]
    fn mismatches_name_types_not_values() {
        let int = param(serde_json::json!({"name": "n", "type": "integer"}));
        assert_eq!(
            texts(&int, &value("v = \"three\"")),
            Err(Mismatch::Type {
                expected: "an integer".into(),
                found: "string"
            })
        );
        let tags = param(serde_json::json!({"name": "t", "type": "array"}));
        assert!(matches!(
            texts(&tags, &value("v = \"a\"")),
            Err(Mismatch::Type {
                found: "string",
                ..
            })
        ));
        let colour = param(serde_json::json!({"name": "c", "enum": ["red", "blue"]}));
        assert_eq!(
            texts(&colour, &value("v = \"green\"")),
            Err(Mismatch::NotAllowed(vec!["red".into(), "blue".into()]))
        );
    }
}
