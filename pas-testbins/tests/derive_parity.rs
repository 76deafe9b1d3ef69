//! Every spec of `specs/` and `tests/fixtures/valid/` that pas-emit accepts (and
//! `tests/fixtures/declared-global.yaml`, global flags with constraints), compiled with
//! `pas::include_spec!`: the registry the derive-built tool prints back (`--pas-spec`,
//! `pas::registry_of`) is the spec's own, in the emitter's canonical form. The declarations the
//! runtime enforces (credentials, requirements, side effects, untrusted fields, parameter
//! constraints and relations) are compared first, one by one, so a key the emitter or the
//! derive drops in the future fails with its name. A new spec the emitter accepts must be added
//! to the list below (a test says so).

use std::path::{Path, PathBuf};

use pas::spec::Registry;
use serde_json::{Value, json};

macro_rules! compiled {
    ($($module:ident => $path:literal),* $(,)?) => {
        $(
            #[allow(dead_code, unused_imports)]
            mod $module {
                pas::include_spec!($path);
            }
        )*
        /// Each compiled spec's path (from the repository root) and its derive-built registry.
        fn compiled() -> Vec<(&'static str, Registry)> {
            vec![$(($path.trim_start_matches("../"), pas::registry_of::<$module::Cli>())),*]
        }
    };
}

compiled! {
    docstore => "../specs/docstore.yaml",
    pt_agent => "../specs/pt-agent.yaml",
    todo => "../specs/todo.yaml",
    weather => "../specs/weather.yaml",
    word_counter => "../specs/word-counter.yaml",
    declared => "../tests/fixtures/valid/declared.yaml",
    guard_only => "../tests/fixtures/valid/guard-only.yaml",
    hardening_compose => "../tests/fixtures/valid/hardening-compose.yaml",
    hardening_robot => "../tests/fixtures/valid/hardening-robot.yaml",
    hardening => "../tests/fixtures/valid/hardening.yaml",
    masking => "../tests/fixtures/valid/masking.yaml",
    masking_entropy => "../tests/fixtures/valid/masking-entropy.yaml",
    robot => "../tests/fixtures/valid/robot.yaml",
    stdin_input => "../tests/fixtures/valid/stdin-input.yaml",
    word_counter_fixture => "../tests/fixtures/valid/word-counter.yaml",
    compose => "../tests/fixtures/valid/compose.json",
    store_level4 => "../tests/fixtures/valid/store-level4.yaml",
    declared_global => "../tests/fixtures/declared-global.yaml",
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn loaded(path: &str) -> Registry {
    pas::spec::load::load_path(&repo().join(path))
        .unwrap_or_else(|d| panic!("{path}: {}", d.message))
        .1
}

/// What a registry declares for the runtime to enforce, by command and parameter name.
fn declarations(registry: &Registry) -> Value {
    let commands: Vec<Value> = registry
        .commands
        .iter()
        .map(|command| {
            let parameters: Vec<Value> = command
                .parameters
                .iter()
                .map(|p| {
                    json!({
                        "name": p.name, "minimum": p.minimum, "maximum": p.maximum,
                        "minLength": p.min_length, "maxLength": p.max_length,
                        "pattern": p.pattern, "requires": p.requires, "conflicts": p.conflicts,
                    })
                })
                .collect();
            json!({
                "name": command.name, "auth": command.auth, "scopes": command.scopes,
                "needs": command.needs, "sideEffects": command.side_effects,
                "untrusted": command.untrusted, "parameters": parameters,
            })
        })
        .collect();
    json!({
        "auth": registry.auth, "requirements": registry.requirements,
        "maskHighEntropy": registry.mask_high_entropy, "commands": commands,
    })
}

#[test]
fn every_spec_the_emitter_accepts_is_compiled_here() {
    let compiled: Vec<&str> = compiled().into_iter().map(|(path, _)| path).collect();
    for dir in ["specs", "tests/fixtures/valid"] {
        for entry in std::fs::read_dir(repo().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let file = path.file_name().unwrap().to_str().unwrap();
            // The spec format's JSON Schema sits beside the example specs.
            if !(file.ends_with(".yaml") || file.ends_with(".json"))
                || file.ends_with(".schema.json")
            {
                continue;
            }
            let name = format!("{dir}/{file}");
            if pas_emit::check(&loaded(&name)).is_ok() {
                assert!(
                    compiled.contains(&name.as_str()),
                    "{name} is accepted by pas-emit: add it to `compiled!` in this file"
                );
            }
        }
    }
}

#[test]
fn a_derive_built_tool_declares_what_its_spec_declares() {
    for (path, registry) in compiled() {
        let spec = pas_emit::canonical(&loaded(path));
        assert_eq!(
            declarations(&registry),
            declarations(&spec),
            "{path}: the derive-built registry's declarations differ from the spec's"
        );
    }
}

/// `value` with every number as a float: JSON does not tell `3600` from `3600.0`, and clap gives
/// a `type: number` parameter's default back as the latter.
fn numbers_as_floats(value: Value) -> Value {
    match value {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Number(n), Value::Number),
        Value::Array(items) => Value::Array(items.into_iter().map(numbers_as_floats).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, numbers_as_floats(v)))
                .collect(),
        ),
        other => other,
    }
}

#[test]
fn a_derive_built_tool_prints_back_its_specs_whole_registry() {
    for (path, registry) in compiled() {
        let spec = pas_emit::canonical(&loaded(path));
        assert_eq!(
            numbers_as_floats(serde_json::to_value(&registry).unwrap()),
            numbers_as_floats(serde_json::to_value(&spec).unwrap()),
            "{path}: the derive-built registry differs from the spec's"
        );
    }
}
