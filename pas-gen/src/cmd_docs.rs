//! The documentation commands: `help` (agent help), `llm`, `catalog` and `mcp`. Each loads one
//! spec and prints a face rendered by `pas_spec::faces`, the same renderers the built CLI uses, so
//! what pas-gen prints is byte for byte what the CLI built from that spec prints.

use std::ffi::OsString;
use std::path::Path;

use pas::codes;
use pas::{Args, Context, Error, Reply};
use pas_spec::faces::{agent_help, catalog, llm, mcp, mcp_discovery};
use pas_spec::{Registry, Severity, check_source, load};

/// pas-gen's exit-code constants (pas-gen.yaml) these commands end with.
const SPEC_INVALID: &str = "SPEC_INVALID";
const TEMPLATE_ERROR: &str = "TEMPLATE_ERROR";

/// The registry command behind `pas-gen help SPEC` (see [`route_help`]).
const AGENT_HELP: &str = "agent-help";

/// `help` is clap's word at every level (the validator reserves it), so pas-gen's spec names the
/// command `agent-help`; `pas-gen help SPEC [COMMAND...]` is routed to it when the word after
/// `help` is a spec file (ends in `.yaml`, `.yml` or `.json`, or is `-`), while `pas-gen help
/// check` keeps asking clap for help on `check`.
pub fn route_help(argv: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut argv: Vec<OsString> = argv.into_iter().collect();
    let first = argv
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, w)| !w.to_string_lossy().starts_with('-'))
        .map(|(i, _)| i);
    if let Some(index) = first
        && argv[index] == "help"
        && argv.get(index + 1).is_some_and(names_a_spec)
    {
        argv[index] = AGENT_HELP.into();
    }
    argv
}

fn names_a_spec(word: &OsString) -> bool {
    let word = word.to_string_lossy();
    word == "-" || [".yaml", ".yml", ".json"].iter().any(|e| word.ends_with(e))
}

/// `agent-help SPEC [COMMAND...]`: what the CLI built from SPEC prints for `--agent --help`
/// (with COMMAND, for `COMMAND --agent --help`).
pub fn agent_help(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let registry = load_spec(&args.require::<String>("spec")?)?;
    let words: Vec<String> = args.many("command")?;
    let path = command_path(&registry, &words);
    let text = agent_help::render(&registry, &path).ok_or_else(|| {
        Error::new(
            codes::INVALID_VALUE,
            format!("{} has no command `{}`", registry.name, words.join(" ")),
        )
        .with_suggestion(format!(
            "pas-gen help SPEC lists the commands of {}",
            registry.name
        ))
    })?;
    Ok(Reply::document(text))
}

/// The argv path named by COMMAND words: the words themselves, or one dotted name.
fn command_path(registry: &Registry, words: &[String]) -> Vec<String> {
    if let [one] = words
        && one.contains('.')
        && let Some(command) = registry.all_commands().iter().find(|c| &c.name == one)
    {
        return command.argv_path();
    }
    words.to_vec()
}

/// `llm SPEC [-o FILE] [--template FILE]`: the `.llm` document.
pub fn llm(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let registry = load_spec(&args.require::<String>("spec")?)?;
    let text = match args.get::<String>("template")? {
        None => llm::render(&registry),
        Some(path) => {
            let template = std::fs::read_to_string(&path).map_err(|e| {
                Error::new(
                    TEMPLATE_ERROR,
                    format!("cannot read the template {path}: {e}"),
                )
                .with_suggestion("give a readable minijinja template to --template")
            })?;
            llm::render_with(&registry, &path, &template).map_err(|e| {
                Error::new(TEMPLATE_ERROR, format!("the template failed: {e}")).with_suggestion(
                    "start from pas-spec/templates/llm.md.j2; its header lists the variables",
                )
            })?
        }
    };
    match args.get::<String>("output")? {
        None => Ok(Reply::document(text)),
        Some(out) => {
            write_file(Path::new(&out), &text)?;
            Ok(Reply::none())
        }
    }
}

/// `catalog SPEC`: the `tools` catalog, the bytes of `pas_spec::faces::catalog::to_json` (what
/// the built CLI's `tools` prints as its data) in both modes.
pub fn catalog(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let registry = load_spec(&args.require::<String>("spec")?)?;
    let value = catalog::catalog(&registry);
    Ok(Reply::object_with_text(&value, catalog::to_json(&registry)))
}

/// `mcp SPEC [--discovery full|progressive]`: an MCP `tools/list` result (pretty for people,
/// compact for agents); with `progressive`, the three discovery tools a server lists instead
/// (`pas_spec::faces::mcp_discovery`).
pub fn mcp(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let registry = load_spec(&args.require::<String>("spec")?)?;
    if args.get::<String>("discovery")?.as_deref() == Some("progressive") {
        let value = mcp_discovery::progressive_list(&registry, &mcp::tools_list(&registry));
        return Ok(Reply::object_with_text(
            &value,
            mcp_discovery::render(&registry).trim_end(),
        ));
    }
    let value = mcp::tools_list(&registry);
    Ok(Reply::object_with_text(
        &value,
        mcp::render(&registry).trim_end(),
    ))
}

fn write_file(path: &Path, text: &str) -> Result<(), Error> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::general(format!("cannot create {}: {e}", dir.display())))?;
    }
    std::fs::write(path, text)
        .map_err(|e| Error::general(format!("cannot write {}: {e}", path.display())))
}

/// Reads and validates a spec; a spec with errors is refused (its faces would be wrong).
pub fn load_spec(name: &str) -> Result<Registry, Error> {
    let read = if name == "-" {
        load::read_stdin()
    } else {
        load::read_path(Path::new(name))
    };
    let source = read.map_err(|d| {
        Error::new(SPEC_INVALID, d.message).with_suggestion("give a readable YAML or JSON spec")
    })?;
    let (registry, diagnostics) = check_source(&source);
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    match registry {
        Some(registry) if errors == 0 => Ok(registry),
        _ => Err(
            Error::general(format!("{name} has {errors} error(s)")).with_suggestion(format!(
                "pas-gen check {name} lists them with file:line:col"
            )),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(words: &[&str]) -> Vec<String> {
        route_help(words.iter().map(OsString::from))
            .into_iter()
            .map(|w| w.into_string().unwrap())
            .collect()
    }

    #[test]
    fn help_with_a_spec_is_agent_help_and_help_alone_stays_clap_s() {
        assert_eq!(
            route(&["pas-gen", "--agent", "help", "specs/todo.yaml", "task"]),
            [
                "pas-gen",
                "--agent",
                "agent-help",
                "specs/todo.yaml",
                "task"
            ]
        );
        assert_eq!(route(&["pas-gen", "help", "-"])[1], "agent-help");
        assert_eq!(route(&["pas-gen", "help", "check"])[1], "help");
        assert_eq!(route(&["pas-gen", "check", "help", "a.yaml"])[2], "help");
    }
}
