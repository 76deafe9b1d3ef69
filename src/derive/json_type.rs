//! The JSON type a schemars schema gives a field: `Option<T>` is `T` (`["integer", "null"]`),
//! a named type is looked up in `$defs`, a string enum is a string, and `Vec<T>` is an array of
//! `T`. Anything a command line cannot carry as one value (objects) gives no answer, and the
//! caller falls back on clap's value parser.

use pas_spec::ParamType;
use serde_json::Value;

/// What a field's schema says about its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// One value of this type.
    Scalar(ParamType),
    /// Many values, of this type when known.
    Array(Option<ParamType>),
}

/// The shape of `schema`, a root schema (its `$defs` resolve its `$ref`s).
pub(crate) fn shape(schema: &Value) -> Option<Shape> {
    shape_in(schema, schema, 0)
}

/// `depth` bounds `$ref` chains, which a recursive type could make endless.
fn shape_in(schema: &Value, root: &Value, depth: u8) -> Option<Shape> {
    if depth > 8 {
        return None;
    }
    let object = schema.as_object()?;
    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        let name = reference.strip_prefix("#/$defs/")?;
        let target = root.get("$defs")?.get(name)?;
        return shape_in(target, root, depth + 1);
    }
    match object.get("type") {
        Some(Value::String(ty)) => of_name(ty, object, root, depth),
        // `["integer", "null"]`: an optional value.
        Some(Value::Array(types)) => {
            let ty = types
                .iter()
                .filter_map(Value::as_str)
                .find(|ty| *ty != "null")?;
            of_name(ty, object, root, depth)
        }
        _ => {
            // `Option<Named>` is `anyOf: [{$ref}, {type: null}]`; a unit enum may be `oneOf`
            // of constants.
            let branches = object
                .get("anyOf")
                .or_else(|| object.get("oneOf"))?
                .as_array()?;
            let shapes: Vec<Shape> = branches
                .iter()
                .filter(|branch| branch.get("type").and_then(Value::as_str) != Some("null"))
                .filter_map(|branch| shape_in(branch, root, depth + 1))
                .collect();
            match shapes.split_first() {
                Some((first, rest)) if rest.iter().all(|s| s == first) => Some(*first),
                _ => None,
            }
        }
    }
}

fn of_name(
    ty: &str,
    object: &serde_json::Map<String, Value>,
    root: &Value,
    depth: u8,
) -> Option<Shape> {
    let scalar = match ty {
        "string" => ParamType::String,
        "integer" => ParamType::Integer,
        "number" => ParamType::Number,
        "boolean" => ParamType::Boolean,
        "array" => {
            let items =
                object
                    .get("items")
                    .and_then(|items| match shape_in(items, root, depth + 1) {
                        Some(Shape::Scalar(ty)) => Some(ty),
                        _ => None,
                    });
            return Some(Shape::Array(items));
        }
        _ => return None,
    };
    Some(Shape::Scalar(scalar))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn options_refs_and_arrays() {
        assert_eq!(
            shape(&json!({"type": ["integer", "null"]})),
            Some(Shape::Scalar(ParamType::Integer))
        );
        assert_eq!(
            shape(&json!({"type": "array", "items": {"type": "string"}})),
            Some(Shape::Array(Some(ParamType::String)))
        );
        let named = json!({
            "anyOf": [{"$ref": "#/$defs/Color"}, {"type": "null"}],
            "$defs": {"Color": {"type": "string", "enum": ["red", "blue"]}}
        });
        assert_eq!(shape(&named), Some(Shape::Scalar(ParamType::String)));
        assert_eq!(shape(&json!({"type": "object"})), None);
        let endless = json!({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}});
        assert_eq!(shape(&endless), None);
    }
}
