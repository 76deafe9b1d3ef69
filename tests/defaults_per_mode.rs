//! The runtime's defaults per mode (issue 27, "Done when", bullet 2): `pas::defaults::per_mode()`
//! lists what a call gets when nothing is declared or asked for, in a person's mode, `--agent`,
//! compose, robot and over MCP. No default differs between a person's mode and a machine mode
//! except in form, and every default is documented in the faces: a default added to the list
//! without face words that the agent help or `.llm` of an example says, or a new difference
//! between modes, fails here.

use std::path::Path;

use pas::defaults::{Difference, Mode, per_mode};

/// The defaults that differ between modes, each in form only (the same data reaches the
/// caller; see each entry's `why_form`). A new one must be argued for here.
const FORM_ONLY: &[&str] = &[
    "a command's declared maxOutputBytes",
    "stdin wait",
    "colour",
    "encoding",
];

/// The example specs, one per profile: the faces their tools print.
const SPECS: &[&str] = &[
    "specs/word-counter.yaml",
    "specs/todo.yaml",
    "examples/triage/triage.yaml",
];

/// The agent help and `.llm` of every example, one text.
fn faces() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut text = String::new();
    for spec in SPECS {
        let (_, registry) = pas::spec::load::load_path(&root.join(spec))
            .unwrap_or_else(|e| panic!("{spec}: {e:?}"));
        text.push_str(&pas::spec::faces::agent_help::render_tool(&registry));
        for command in registry.all_commands() {
            text.push_str(&pas::spec::faces::agent_help::render_command(
                &registry, &command,
            ));
        }
        text.push_str(&pas::spec::faces::llm::render(&registry));
    }
    text
}

/// The defaults as a table, one line a default and mode.
fn table() -> String {
    let mut out = String::new();
    for default in per_mode() {
        out.push_str(&format!("{} ({:?})\n", default.name, default.difference));
        for mode in Mode::ALL {
            out.push_str(&format!("  {mode:?}: {}\n", default.value(mode)));
        }
        if !default.why_form.is_empty() {
            out.push_str(&format!("  form only: {}\n", default.why_form));
        }
        out.push_str(&format!("  faces: {:?}\n", default.face));
    }
    out
}

#[test]
fn the_defaults_per_mode() {
    insta::assert_snapshot!(table());
}

#[test]
fn every_difference_between_modes_is_one_of_form() {
    for default in per_mode() {
        let differs = Mode::ALL
            .iter()
            .any(|m| default.value(*m) != default.value(Mode::Human));
        match default.difference {
            Difference::None => assert!(!differs, "{default:?}"),
            Difference::Form => {
                assert!(differs, "{default:?}");
                assert!(
                    FORM_ONLY.contains(&default.name),
                    "`{}` differs between modes: argue in FORM_ONLY why it keeps the data, or make it the same in every mode",
                    default.name
                );
                assert!(!default.why_form.is_empty(), "{default:?}");
            }
        }
    }
    // The bounds a call may not lose data to are the same in every mode.
    for name in ["time limit", "output bound", "masking", "input cap"] {
        let default = per_mode().into_iter().find(|d| d.name == name).unwrap();
        assert_eq!(default.difference, Difference::None, "{default:?}");
    }
    let time = per_mode()
        .into_iter()
        .find(|d| d.name == "time limit")
        .unwrap();
    assert_eq!(
        time.value(Mode::Agent),
        "none",
        "no default kill in machine mode"
    );
    let bound = per_mode()
        .into_iter()
        .find(|d| d.name == "output bound")
        .unwrap();
    assert_eq!(
        bound.value(Mode::Mcp),
        "none",
        "no default cap that shortens anything"
    );
}

#[test]
fn every_default_is_documented_in_the_faces() {
    let faces = faces();
    for default in per_mode() {
        assert!(
            faces.contains(&default.face),
            "the default `{}` is documented nowhere: the agent help and .llm of {SPECS:?} must say {:?}",
            default.name,
            default.face
        );
    }
}
