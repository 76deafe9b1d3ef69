//! The spec format's JSON Schema: the committed file is what the model generates, every example
//! spec validates against it, and it says what editors need (descriptions, defaults).

mod common;

use std::path::Path;

use pas_spec::schema::{spec_schema, spec_schema_json};
use pas_spec::{Command, ExitCode, Parameter, Registry};
use serde_json::{Value, json};

use common::{example_specs, readme_example, specs_dir, stem};

const REFRESH: &str = "UPDATE_SCHEMA=1 cargo test -p pas-spec --test schema";

#[test]
fn committed_schema_is_fresh() {
    let path = specs_dir().join("pas-spec.schema.json");
    let fresh = spec_schema_json();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &fresh).expect("specs/pas-spec.schema.json is writable");
        return;
    }
    let Ok(committed) = std::fs::read_to_string(&path) else {
        panic!("specs/pas-spec.schema.json is missing: create it with `{REFRESH}`.");
    };
    if committed != fresh {
        // The first differing line, rather than two whole files.
        let line = committed
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| committed.lines().count().min(fresh.lines().count()));
        panic!(
            "specs/pas-spec.schema.json is stale (first difference at line {}): the model or \
             pas-spec/src/schema.rs changed. Refresh it with `{REFRESH}` and commit the result.",
            line + 1
        );
    }
}

fn validator() -> jsonschema::Validator {
    jsonschema::draft202012::new(&spec_schema()).expect("the generated schema compiles")
}

/// Every error the schema finds in a document, one per line with its location.
fn schema_errors(validator: &jsonschema::Validator, document: &Value) -> Vec<String> {
    validator
        .iter_errors(document)
        .map(|error| format!("{}: {error}", error.instance_path()))
        .collect()
}

/// The document as written (YAML read into JSON values), not as the model would print it.
fn as_written(path: &Path) -> Value {
    yaml_to_json(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// YAML as an editor's schema check reads it: YAML 1.2, where `n` and `yes` are strings (an
/// untyped serde-saphyr read would take them for YAML 1.1 booleans).
fn yaml_to_json(text: &str) -> Result<Value, serde_saphyr::Error> {
    serde_saphyr::from_str_with_options(text, serde_saphyr::options! { strict_booleans: true })
}

#[test]
fn example_specs_validate_against_the_schema() {
    let validator = validator();
    for path in example_specs() {
        let errors = schema_errors(&validator, &as_written(&path));
        assert!(
            errors.is_empty(),
            "{}:\n{}",
            path.display(),
            errors.join("\n")
        );

        // And as the writer prints them (defaults left out).
        let printed = serde_json::to_value(common::load(&path)).unwrap();
        let errors = schema_errors(&validator, &printed);
        assert!(
            errors.is_empty(),
            "{} printed:\n{}",
            stem(&path),
            errors.join("\n")
        );
    }
}

#[test]
fn readme_example_validates_against_the_schema() {
    let document = yaml_to_json(&readme_example()).unwrap();
    let errors = schema_errors(&validator(), &document);
    assert!(
        errors.is_empty(),
        "specs/README.md example:\n{}",
        errors.join("\n")
    );
}

fn minimal_spec() -> Value {
    json!({
        "specVersion": 1,
        "name": "tool",
        "version": "1.0.0",
        "summary": "A tool.",
        "commands": [{"name": "run", "description": "Run it."}]
    })
}

/// What is wrong with a spec, and how to make a valid spec so.
type Breakage = (&'static str, fn(&mut Value));

#[test]
fn schema_rejects_what_the_loader_rejects() {
    let validator = validator();
    assert!(validator.is_valid(&minimal_spec()));
    let broken: &[Breakage] = &[
        ("unknown key", |s| s["colour"] = json!("red")),
        ("unknown command key", |s| {
            s["commands"][0]["efect"] = json!("write")
        }),
        ("missing summary", |s| {
            s.as_object_mut().unwrap().remove("summary");
        }),
        ("spec version 2", |s| s["specVersion"] = json!(2)),
        ("level 5", |s| s["level"] = json!(5)),
        ("unknown profile", |s| s["profile"] = json!("mcp")),
        ("unknown effect", |s| {
            s["commands"][0]["effect"] = json!("delete")
        }),
        // outputSchema must itself be a JSON Schema (checked against the 2020-12 meta-schema).
        ("output schema not a schema", |s| {
            s["commands"][0]["outputSchema"] = json!({"type": "objet"})
        }),
    ];
    for (what, breaks) in broken {
        let mut spec = minimal_spec();
        breaks(&mut spec);
        assert!(
            !validator.is_valid(&spec),
            "the schema accepts a spec with {what}"
        );
    }
}

/// Every key and every enum value carries its doc comment, so an editor can explain it.
#[test]
fn every_key_and_value_is_described() {
    let schema = spec_schema();
    let mut owners = vec![("the root".to_owned(), &schema)];
    for (name, definition) in schema["$defs"].as_object().unwrap() {
        owners.push((name.clone(), definition));
    }
    for (owner, definition) in owners {
        let described = |s: &Value| {
            s["description"]
                .as_str()
                .is_some_and(|d| !d.trim().is_empty())
        };
        assert!(described(definition), "{owner} has no description");
        for (key, property) in definition["properties"].as_object().into_iter().flatten() {
            assert!(described(property), "`{key}` of {owner} has no description");
        }
        for variant in definition["oneOf"].as_array().into_iter().flatten() {
            assert!(
                described(variant),
                "a value of {owner} has no description: {variant}"
            );
        }
    }
}

/// Each `default` the schema shows is what the loader fills in when the key is left out.
#[test]
fn defaults_are_the_models() {
    fn same_as_omitted<T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(
        minimal: Value,
        key: &str,
        default: &Value,
    ) {
        let mut explicit = minimal.clone();
        explicit[key] = default.clone();
        let omitted: T = serde_json::from_value(minimal).unwrap();
        let explicit: T = serde_json::from_value(explicit).unwrap();
        assert_eq!(omitted, explicit, "the schema's default of `{key}`");
    }
    let schema = spec_schema();
    let mut seen = 0;
    let mut owners = vec![("Registry", &schema)];
    owners.extend(
        schema["$defs"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(name, def)| (name.as_str(), def)),
    );
    for (owner, definition) in owners {
        for (key, property) in definition["properties"].as_object().into_iter().flatten() {
            let Some(default) = property.get("default") else {
                continue;
            };
            seen += 1;
            match owner {
                "Registry" => same_as_omitted::<Registry>(minimal_spec(), key, default),
                "Command" => same_as_omitted::<Command>(
                    json!({"name": "run", "description": "Run it."}),
                    key,
                    default,
                ),
                "Parameter" => same_as_omitted::<Parameter>(json!({"name": "p"}), key, default),
                "ExitCode" => same_as_omitted::<ExitCode>(
                    json!({"code": 100, "name": "X", "meaning": "x"}),
                    key,
                    default,
                ),
                "Sessions" => same_as_omitted::<pas_spec::robot::Sessions>(
                    json!({"prefix": "pt", "states": [{"name": "created"}]}),
                    key,
                    default,
                ),
                "SessionState" => same_as_omitted::<pas_spec::robot::SessionState>(
                    json!({"name": "created"}),
                    key,
                    default,
                ),
                "RobotSettings" => {
                    same_as_omitted::<pas_spec::robot::RobotSettings>(json!({}), key, default)
                }
                other => panic!("add a minimal {other} to this test"),
            }
        }
    }
    assert!(seen >= 10, "only {seen} defaults in the schema");
}
