//! The documentation faces end to end: what `pas-gen help|llm|catalog|mcp` prints from a spec is
//! what the CLI built from that spec prints (`pas-spec-cli`, the runtime's `App::new(registry)`
//! with no handlers), byte for byte; the bash completion of a built CLI completes in a real bash;
//! the MCP export loads in the Python MCP SDK.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use pas_spec::Registry;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn pas_gen(args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_pas-gen"))
        .args(args)
        .current_dir(repo())
        .env_remove("PAS_AGENT")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "pas-gen {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The runtime's CLI for a spec, a binary of the root package: `cargo test --workspace` builds it
/// beside pas-gen. (Building it from here could wait forever on the lock the running cargo holds.)
fn spec_cli_binary() -> PathBuf {
    let exe = Path::new(env!("CARGO_BIN_EXE_pas-gen"))
        .with_file_name(format!("pas-spec-cli{}", std::env::consts::EXE_SUFFIX));
    assert!(
        exe.exists(),
        "{} is missing: run `cargo build -p pas-testbins` (or `cargo test --workspace`)",
        exe.display()
    );
    exe
}

fn spec_cli(spec: &str, args: &[&str]) -> Output {
    Command::new(spec_cli_binary())
        .args(args)
        .current_dir(repo())
        .env("PAS_SPEC_CLI_SPEC", spec)
        .env_remove("PAS_AGENT")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Every example spec and pas-gen's own, as paths relative to the repository.
fn specs() -> Vec<(String, Registry)> {
    let mut paths: Vec<String> = std::fs::read_dir(repo().join("specs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .map(|p| format!("specs/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    paths.sort();
    paths.push("pas-gen/pas-gen.yaml".to_owned());
    paths
        .into_iter()
        .map(|path| {
            let (_, registry) = pas_spec::load::load_path(&repo().join(&path)).unwrap();
            (path, registry)
        })
        .collect()
}

/// Every argv path help can be asked for: the tool, each group, each command.
fn help_paths(registry: &Registry) -> Vec<Vec<String>> {
    let mut paths: Vec<Vec<String>> = vec![Vec::new()];
    for command in registry.all_commands() {
        let path = command.argv_path();
        for end in 1..=path.len() {
            if !paths.contains(&path[..end].to_vec()) {
                paths.push(path[..end].to_vec());
            }
        }
    }
    paths
}

#[test]
fn help_is_byte_for_byte_the_built_cli_s_agent_help() {
    let mut compared = 0;
    for (spec, registry) in specs() {
        for path in help_paths(&registry) {
            let words: Vec<&str> = path.iter().map(String::as_str).collect();
            // The profile's surface says how agent help is asked for: `--agent --help` (pas),
            // plain `--help` where output is machine output always (compose).
            let surface = pas_spec::surface::of(registry.profile);
            let mut cli_args: Vec<&str> = surface.machine_switch.into_iter().collect();
            cli_args.extend(&words);
            cli_args.push("--help");
            let cli = spec_cli(&spec, &cli_args);
            assert!(cli.status.success(), "{spec} {cli_args:?}");
            let mut gen_args = vec!["help", spec.as_str()];
            gen_args.extend(&words);
            let generated = pas_gen(&gen_args);
            assert_eq!(
                String::from_utf8_lossy(&generated.stdout),
                String::from_utf8_lossy(&cli.stdout),
                "pas-gen {gen_args:?} vs the CLI's {cli_args:?}"
            );
            // The same bytes in agent mode, and through the command's dotted name.
            let mut agent_args = vec!["--agent"];
            agent_args.extend(&gen_args);
            assert_eq!(pas_gen(&agent_args).stdout, cli.stdout);
            compared += 1;
        }
        for command in registry
            .all_commands()
            .iter()
            .filter(|c| c.name.contains('.'))
        {
            let dotted = pas_gen(&["agent-help", &spec, &command.name]);
            let mut words: Vec<String> = vec!["help".into(), spec.clone()];
            words.extend(command.argv_path());
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            assert_eq!(dotted.stdout, pas_gen(&words).stdout, "{}", command.name);
        }
    }
    assert!(compared > 20, "every spec's tool, groups and commands");
}

#[test]
fn help_on_a_command_the_spec_lacks_is_an_error() {
    let output = Command::new(env!("CARGO_BIN_EXE_pas-gen"))
        .args(["--agent", "help", "specs/todo.yaml", "task", "nope"])
        .current_dir(repo())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let error: serde_json::Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(error["error"], "INVALID_VALUE");
}

#[test]
fn llm_is_byte_for_byte_the_built_cli_s_docs() {
    let dir = tempfile::tempdir().unwrap();
    for (spec, registry) in specs() {
        // `--builtin docs` reaches the built-in in every tool (word-counter's bare `docs` is a file).
        let cli = spec_cli(&spec, &["--builtin", "docs"]);
        assert!(cli.status.success(), "{spec} docs");
        let generated = pas_gen(&["llm", &spec]);
        assert_eq!(
            String::from_utf8_lossy(&generated.stdout),
            String::from_utf8_lossy(&cli.stdout),
            "{spec}"
        );
        if let Some(switch) = pas_spec::surface::of(registry.profile).machine_switch {
            assert_eq!(
                spec_cli(&spec, &[switch, "--builtin", "docs"]).stdout,
                cli.stdout
            );
        }
        // -o writes the same bytes, into a directory it creates.
        let file = dir.path().join(format!("docs/{}.llm", registry.name));
        let written = pas_gen(&["llm", &spec, "-o", file.to_str().unwrap()]);
        assert!(written.stdout.is_empty());
        assert_eq!(std::fs::read(&file).unwrap(), cli.stdout);
    }
}

#[test]
fn llm_renders_a_user_template() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("short.j2");
    std::fs::write(
        &template,
        "{{ name }} {{ version }}: {{ purpose }}\n{% for c in commands %}- {{ c.usage }}\n{% endfor %}",
    )
    .unwrap();
    let output = pas_gen(&[
        "llm",
        "specs/weather.yaml",
        "--template",
        template.to_str().unwrap(),
    ]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("weather "), "{text}");
    assert!(text.contains("- weather --agent "), "{text}");
}

#[test]
fn catalog_is_the_built_cli_s_tools() {
    for (spec, registry) in specs() {
        let generated = pas_gen(&["catalog", &spec]);
        let catalog: serde_json::Value = serde_json::from_slice(&generated.stdout).unwrap();
        assert_eq!(catalog["tool"], registry.name.as_str());
        assert_eq!(
            pas_gen(&["--agent", "catalog", &spec]).stdout,
            generated.stdout
        );
        // The built CLI's `tools`: the raw catalog in the pas profile (one-command tools through
        // `--builtin tools`: their bare word is a value), the envelope's data in compose.
        let cli = match registry.profile {
            pas_spec::Profile::Pas => spec_cli(&spec, &["--agent", "--builtin", "tools"]),
            pas_spec::Profile::Compose => spec_cli(&spec, &["tools"]),
            _ => continue,
        };
        if registry.profile == pas_spec::Profile::Pas {
            assert_eq!(
                spec_cli(&spec, &["--builtin", "tools"]).stdout,
                cli.stdout,
                "{spec}"
            );
        }
        assert!(cli.status.success(), "{spec} tools");
        let printed: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
        let data = if registry.profile == pas_spec::Profile::Compose {
            printed["data"].clone()
        } else {
            printed
        };
        assert_eq!(data, catalog, "{spec}");
        if registry.profile == pas_spec::Profile::Pas {
            assert_eq!(cli.stdout, generated.stdout, "{spec}: the same bytes");
        }
    }
}

#[test]
fn every_cli_has_completions_for_five_shells_and_a_man_page() {
    for (spec, registry) in specs() {
        for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
            let output = spec_cli(&spec, &["--builtin", "completions", shell]);
            assert!(output.status.success(), "{spec} {shell}");
            let script = String::from_utf8(output.stdout).unwrap();
            assert!(script.contains(&registry.name), "{spec} {shell}");
        }
        let man = spec_cli(&spec, &["--builtin", "man"]);
        assert!(man.status.success(), "{spec} man");
        let page = String::from_utf8(man.stdout).unwrap();
        assert!(page.contains(".TH"), "{spec}: a roff page");
        assert!(page.contains(&registry.name.replace('-', "\\-")), "{spec}");
        // One command's page.
        if let Some(command) = registry.commands.iter().find(|c| !c.argv_path().is_empty()) {
            let mut args = vec!["man"];
            let path = command.argv_path();
            args.extend(path.iter().map(String::as_str));
            let output = spec_cli(&spec, &args);
            assert!(output.status.success(), "{spec} {args:?}");
        }
    }
    let unknown = spec_cli("specs/weather.yaml", &["--agent", "completions", "tcsh"]);
    assert_eq!(unknown.status.code(), Some(2));
    let error: serde_json::Value = serde_json::from_slice(&unknown.stderr).unwrap();
    assert_eq!(error["error"], "INVALID_VALUE");
    let missing = spec_cli("specs/weather.yaml", &["--agent", "completions"]);
    assert_eq!(missing.status.code(), Some(2));
}

/// Sources the bash completion of the todo CLI in a real bash and completes a subcommand and a
/// flag the way bash's programmable completion calls the function.
#[test]
fn bash_completion_completes_a_subcommand_and_a_flag() {
    let script = spec_cli("specs/todo.yaml", &["completions", "bash"]).stdout;
    let script = String::from_utf8(script).unwrap();
    let function = script
        .lines()
        .find_map(|line| line.strip_suffix("() {"))
        .expect("the script defines its completion function")
        .to_owned();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("todo.bash");
    std::fs::write(&file, &script).unwrap();
    // COMP_WORDS/COMP_CWORD as bash sets them; the function takes (command, word, previous word).
    let probe = format!(
        r#"source {file}
complete_at() {{ COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${{#COMP_LINE}};
  COMPREPLY=(); {function} todo "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"; echo "${{COMPREPLY[*]}}"; }}
complete_at todo ta
complete_at todo task cr
complete_at todo task create --tit
complete -p todo
"#,
        file = file.display()
    );
    let mut bash = Command::new("bash")
        .arg("--noprofile")
        .arg("--norc")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash is installed");
    bash.stdin
        .take()
        .unwrap()
        .write_all(probe.as_bytes())
        .unwrap();
    let output = bash.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(lines[0], "task", "a subcommand: {stdout}");
    assert_eq!(lines[1], "create", "a nested subcommand: {stdout}");
    assert_eq!(lines[2], "--title", "a flag: {stdout}");
    assert!(
        lines[3].contains(&format!("-F {function}")) && lines[3].ends_with(" todo"),
        "sourcing registers the function for `todo`: {stdout}"
    );
}

/// The Python interpreter that has the MCP SDK: `PAS_MCP_PYTHON` (set by `.ci/run`), else the
/// venv `.ci/run` makes, else `python3`.
fn mcp_python() -> String {
    if let Ok(python) = std::env::var("PAS_MCP_PYTHON") {
        return python;
    }
    let venv = repo().join("target/mcp-venv/bin/python");
    if venv.exists() {
        return venv.display().to_string();
    }
    "python3".to_owned()
}

#[test]
fn mcp_export_loads_in_the_python_mcp_sdk() {
    let python = mcp_python();
    let has_sdk = Command::new(&python)
        .args(["-c", "import mcp.types, jsonschema"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_sdk {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must run this test: `{python}` cannot import the MCP SDK (.ci/run installs PyPI `mcp`)"
        );
        eprintln!(
            "\n!!!!!!!! SKIPPED mcp_export_loads_in_the_python_mcp_sdk: `{python}` has no MCP SDK.\n\
             !!!!!!!! Install it: python3 -m venv target/mcp-venv && target/mcp-venv/bin/pip install mcp==2.3.0\n"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (spec, registry) in specs() {
        let file = dir.path().join(format!("{}.json", registry.name));
        std::fs::write(&file, pas_gen(&["--agent", "mcp", &spec]).stdout).unwrap();
        files.push(file.display().to_string());
    }
    let checker = repo().join("pas-gen/tests/mcp_check.py");
    let output = Command::new(&python)
        .arg(&checker)
        .args(&files)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("ok ")).count(),
        files.len(),
        "{stdout}"
    );
}

/// `pas-gen mcp SPEC --discovery progressive` prints the three tools a server past the threshold
/// lists (`pas_spec::faces::mcp_discovery`), pretty for people and compact for agents.
#[test]
fn mcp_progressive_prints_the_discovery_face() {
    let spec = repo().join("specs/docstore.yaml");
    let (_, registry) = pas_spec::load::load_path(&spec).unwrap();
    let spec = spec.to_string_lossy().into_owned();
    let text = pas_gen(&["mcp", &spec, "--discovery", "progressive"]).stdout;
    assert_eq!(
        String::from_utf8(text).unwrap(),
        pas_spec::faces::mcp_discovery::render(&registry)
    );
    let compact = pas_gen(&["--agent", "mcp", &spec, "--discovery", "progressive"]).stdout;
    let value: serde_json::Value = serde_json::from_slice(&compact).unwrap();
    let full = pas_spec::faces::mcp::tools_list(&registry);
    assert_eq!(
        value,
        pas_spec::faces::mcp_discovery::progressive_list(&registry, &full)
    );
    let default = pas_gen(&["--agent", "mcp", &spec]).stdout;
    let value: serde_json::Value = serde_json::from_slice(&default).unwrap();
    assert_eq!(value, full);
}
