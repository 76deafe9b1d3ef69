//! A command's declared limits (`timeout`, `maxOutputBytes`): read, written back, and refused
//! when they bound nothing (E099).

use pas_spec::{Format, Source, load, validate::validate, write};

const SPEC: &str = r#"
specVersion: 1
name: lim
version: 0.1.0
summary: Limits.
commands:
  - name: slow
    description: Slow.
    timeout: TIMEOUT
  - name: big
    description: Big.
    maxOutputBytes: BYTES
"#;

fn registry(timeout: &str, bytes: &str) -> pas_spec::Registry {
    let text = SPEC.replace("TIMEOUT", timeout).replace("BYTES", bytes);
    load::parse(&Source::new("lim.yaml", text, Format::Yaml)).expect("the spec loads")
}

#[test]
fn declared_limits_round_trip_through_the_spec() {
    let registry = registry("2.5", "4096");
    assert_eq!(registry.commands[0].timeout, Some(2.5));
    assert_eq!(registry.commands[1].max_output_bytes, Some(4096));
    assert!(validate(&registry).is_empty(), "{:?}", validate(&registry));
    let json = write::to_json(&registry);
    assert!(json.contains("\"timeout\": 2.5"), "{json}");
    assert!(json.contains("\"maxOutputBytes\": 4096"), "{json}");
    let again = load::parse(&Source::new("lim.json", json, Format::Json)).unwrap();
    assert_eq!(again, registry);
}

#[test]
fn a_limit_that_bounds_nothing_is_e099_at_its_key() {
    for timeout in ["0", "-1"] {
        let found = validate(&registry(timeout, "0"));
        let e099: Vec<(&str, &str)> = found.iter().map(|d| (d.code, d.pointer.as_str())).collect();
        assert_eq!(
            e099,
            [
                ("E099", "/commands/0/timeout"),
                ("E099", "/commands/1/maxOutputBytes")
            ],
            "timeout {timeout}: {found:?}"
        );
    }
}

#[test]
fn a_lock_needs_a_safe_name_and_a_lock_held_exit_code() {
    let spec = |lock: &str, exit_codes: &str| {
        format!(
            "specVersion: 1\nname: lim\nversion: 0.1.0\nsummary: Locks.\ncommands:\n  - name: deploy\n    description: Deploy.\n    lock: \"{lock}\"\n{exit_codes}"
        )
    };
    let declared = "exitCodes:\n  - {code: 100, name: LOCK_HELD, meaning: Held.}\n";
    let found = |text: String| -> Vec<(&'static str, String)> {
        let registry = load::parse(&Source::new("lock.yaml", text, Format::Yaml)).unwrap();
        validate(&registry)
            .into_iter()
            .map(|d| (d.code, d.pointer))
            .collect()
    };
    assert_eq!(found(spec("deploy", declared)), []);
    assert_eq!(
        found(spec("../etc", declared)),
        [("E098", "/commands/0/lock".to_owned())]
    );
    assert_eq!(
        found(spec("deploy", "")),
        [("E098", "/commands/0/lock".to_owned())]
    );
}
