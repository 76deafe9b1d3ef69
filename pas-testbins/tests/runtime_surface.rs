//! The built-in surface of each profile, as the binary keeps it (`pas_spec::surface`): compose
//! accepts `--agent` as a no-op (its faces say so) and refuses `--format` (its faces never name
//! it), and its `--help` is the agent help; the built-in words work with or without `--agent` and after the global flags; the
//! confirm flag of a destructive command exists in every profile.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use pas::spec::Registry;
use serde_json::Value;

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn registry(spec: &str) -> Registry {
    pas::spec::load::load_path(&repo().join(spec)).unwrap().1
}

/// The runtime's CLI of a spec, with no handlers (tests/bin/spec_cli.rs).
fn cli(spec: &str, args: &[&str]) -> Output {
    let scratch = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_pas-spec-cli"))
        .args(args)
        .current_dir(scratch.path())
        .env("PAS_SPEC_CLI_SPEC", repo().join(spec))
        .env("XDG_DATA_HOME", scratch.path())
        .env("XDG_CONFIG_HOME", scratch.path())
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn envelope(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)))
}

#[test]
fn compose_accepts_agent_as_a_no_op_and_refuses_format() {
    // `--agent` anywhere changes nothing: the same bytes as without it.
    for args in [
        &["tools"][..],
        &["task", "list", "--stable-output"],
        &["task", "nope"],
    ] {
        let plain = cli("specs/todo.yaml", args);
        let mut first = vec!["--agent"];
        first.extend_from_slice(args);
        let mut last = args.to_vec();
        last.push("--agent");
        for with in [first, last] {
            let agent = cli("specs/todo.yaml", &with);
            assert_eq!(agent.status.code(), plain.status.code(), "{with:?}");
            let (a, b) = (envelope(&agent), envelope(&plain));
            // The meta block holds the call's timings and request id.
            assert_eq!(a["ok"], b["ok"], "{with:?}");
            assert_eq!(a["data"], b["data"], "{with:?}");
            assert_eq!(a["error"], b["error"], "{with:?}");
        }
    }

    let format = cli("specs/todo.yaml", &["task", "list", "--format", "array"]);
    assert_eq!(format.status.code(), Some(1));
    assert_eq!(envelope(&format)["error"]["code"], "UNKNOWN_ARGUMENT");
    let format = cli(
        "specs/todo.yaml",
        &["--agent", "task", "list", "--format", "array"],
    );
    assert_eq!(format.status.code(), Some(1));
    assert_eq!(envelope(&format)["error"]["code"], "UNKNOWN_ARGUMENT");

    // The faces agree: compose's agent help, .llm, catalog and SKILL.md name --agent as the
    // no-op it is; none mentions NDJSON, --format or an exit code above 2.
    let todo = registry("specs/todo.yaml");
    let skill = pas::spec::faces::skill::render(&todo);
    for (face, body) in [
        ("help", pas::faces::agent_help::render_tool(&todo)),
        ("llm", pas::faces::llm::render(&todo)),
        ("skill", skill),
    ] {
        assert!(body.contains("--agent"), "{face} does not name --agent");
        assert!(body.contains("changes nothing"), "{face}: {body}");
    }
    let catalog: Value = serde_json::from_str(&pas::spec::faces::catalog::to_json(&todo)).unwrap();
    assert!(
        catalog["globalFlags"]
            .as_array()
            .unwrap()
            .iter()
            .any(|flag| flag["name"] == "agent"
                && flag["description"].as_str().unwrap().contains("no-op")),
        "{catalog}"
    );
    let help = pas::faces::agent_help::render_tool(&todo);
    let llm = pas::faces::llm::render(&todo);
    let catalog = pas::spec::faces::catalog::to_json(&todo);
    let mcp = pas::faces::mcp::render(&todo);
    for (face, body) in [
        ("help", &help),
        ("llm", &llm),
        ("catalog", &catalog),
        ("mcp", &mcp),
    ] {
        assert!(!body.contains("NDJSON"), "{face} names NDJSON");
        assert!(!body.contains("--format"), "{face} names --format");
    }
    for line in help.lines().chain(llm.lines()) {
        let code = line
            .trim_start_matches(['-', ' '])
            .split([' ', ':'])
            .next()
            .and_then(|w| w.parse::<u16>().ok());
        assert!(code.is_none_or(|c| c <= 2), "{line}");
    }
}

#[test]
fn compose_help_is_the_agent_help_face() {
    let todo = registry("specs/todo.yaml");
    let out = cli("specs/todo.yaml", &["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout).trim_end(),
        pas::faces::agent_help::render_tool(&todo).trim_end()
    );
    let command = cli("specs/todo.yaml", &["task", "delete", "--help"]);
    let text = text(&command.stdout);
    assert!(text.contains("--force"), "{text}");
    assert!(text.contains("FORCE_REQUIRED"), "{text}");
}

#[test]
fn builtin_words_work_with_or_without_agent_and_after_global_flags() {
    let docstore = registry("specs/docstore.yaml");
    let catalog = format!("{}\n", pas::spec::faces::catalog::to_json(&docstore));
    for args in [
        &["tools"][..],
        &["--agent", "tools"],
        &["--url", "http://x", "tools"],
        &["--agent", "--url=http://x", "tools"],
    ] {
        let out = cli("specs/docstore.yaml", args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stdout), catalog, "{args:?}");
    }
    let one = cli("specs/docstore.yaml", &["tools", "ls"]);
    let entry: Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(entry["name"], "ls");
    let unknown = cli("specs/docstore.yaml", &["--agent", "tools", "lss"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(unknown.stdout.is_empty());

    let docs = cli("specs/docstore.yaml", &["--url", "http://x", "docs"]);
    assert_eq!(text(&docs.stdout), pas::faces::llm::render(&docstore));
    // compose: its `tools` is a subcommand, after global flags too.
    let todo = cli("specs/todo.yaml", &["--db", "x.db", "tools"]);
    assert_eq!(envelope(&todo)["ok"], true, "{}", text(&todo.stdout));
    let docs = cli("specs/todo.yaml", &["--db", "x.db", "docs"]);
    assert_eq!(docs.status.code(), Some(0));
    // Agent help lists them.
    let help = pas::faces::agent_help::render_tool(&docstore);
    for word in ["tools", "docs", "completions", "man"] {
        assert!(help.contains(&format!("docstore {word}")), "{word}");
    }
}

#[test]
fn the_confirm_flag_exists_wherever_a_face_names_it() {
    // robot.yaml's `apply` is destructive: robot confirms it with --yes (robot 6.4), so the
    // faces show --yes, and clap takes it (the call then fails only for want of a handler or a
    // session, not as an unknown argument); --force is not robot's and is refused.
    let out = cli(
        "tests/fixtures/valid/robot.yaml",
        &["apply", "--session", "s", "--yes"],
    );
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["status"], "error", "{envelope}");
    assert_ne!(
        envelope["error"]["details"]["kind"], "UNKNOWN_ARGUMENT",
        "{envelope}"
    );
    let forced = cli(
        "tests/fixtures/valid/robot.yaml",
        &["apply", "--session", "s", "--force"],
    );
    let envelope: Value = serde_json::from_slice(&forced.stdout).unwrap();
    assert_eq!(
        envelope["error"]["details"]["kind"], "UNKNOWN_ARGUMENT",
        "{envelope}"
    );
    let robot = registry("tests/fixtures/valid/robot.yaml");
    let apply = pas::spec::faces::catalog::tool(&robot, "apply").unwrap();
    assert!(apply.parameters.iter().any(|p| p.name == "yes"));
    assert!(!apply.parameters.iter().any(|p| p.name == "force"));
    let help = pas::faces::agent_help::render(&robot, &["apply".to_owned()]).unwrap();
    assert!(help.contains("--yes"), "{help}");
    assert!(Path::new(env!("CARGO_BIN_EXE_pas-spec-cli")).exists());
}

/// A one-command compose tool whose command takes flags only keeps `tools` and `health`.
#[test]
fn a_one_command_compose_tool_keeps_its_built_ins() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("one.yaml");
    std::fs::write(
        &spec,
        "specVersion: 1\nname: one\nversion: 1.0.0\nsummary: One command.\nprofile: compose\n\
         commands:\n  - name: run\n    path: []\n    description: Run.\n    parameters:\n      \
         - {name: fast, type: boolean, description: Faster.}\n",
    )
    .unwrap();
    let spec = spec.to_str().unwrap();
    for args in [&["tools"][..], &["health"], &["--fast", "tools"]] {
        let out = cli(spec, args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stdout)
        );
        assert_eq!(envelope(&out)["ok"], true, "{args:?}");
    }
}
