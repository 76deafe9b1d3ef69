//! The built-in words answered before clap parses: `docs` (the `.llm` document, PAS 4.2; `docs
//! --skill`, the Agent Skill's `SKILL.md`; `docs --plugin DIR`, the Agent Plugins package
//! written), `completions <shell>` (bash, zsh, fish, powershell,
//! elvish), `man [COMMAND...]` (a roff man page of the tool or of one command), and `tools [NAME]`
//! (the JSON catalog) outside the compose profile, whose `tools` is a clap subcommand rendered in
//! its envelope.
//!
//! They are answered from the word that selects a command (the first after the global flags, see
//! [`crate::parse::argv::command_word`]), with or without `--agent`, so that they work for every tool
//! (spec-driven or derive-built, one command or many) without becoming clap subcommands a
//! one-command tool could not have. The words come from the profile's surface table
//! (`pas_spec::surface`); the validator refuses a command named so; in a tool whose root command takes
//! positionals a bare word is the positional's, and the built-ins are `TOOL --builtin WORD`
//! (`crate::parse::builtin_flag`). The texts come from the renderers `pas-gen` uses,
//! so both print the same bytes.

#[cfg(feature = "completions")]
use std::str::FromStr;

#[cfg(feature = "completions")]
use clap_complete::Shell;
use pas_spec::Registry;
use pas_spec::faces::{llm, skill};
use pas_spec::surface::{DOCS_PLUGIN, DOCS_SKILL};

use crate::builtins::plugin_package;
use crate::codes;
use crate::end::call_state::{Outcome, Shared, Stop};
use crate::error::Error;
use crate::parse::argv::Prescan;

/// The shells `completions` writes for, as typed.
#[cfg(feature = "completions")]
const SHELLS: &str = "bash, zsh, fish, powershell, elvish";

/// Answers argv when its first word is a documentation built-in; `None` otherwise (including
/// when the tool has a command of its own at that word, or `--help` asks for help).
pub(crate) fn answer<'a>(
    registry: &Registry,
    cmd: &dyn Fn() -> &'a clap::Command,
    shared: &Shared,
    pre: &Prescan,
) -> Option<Outcome> {
    let at = pre.command_word.filter(|_| pre.builtin_words)?;
    let words: Vec<String> = pre
        .argv
        .iter()
        .skip(at)
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let (first, rest) = words.split_first()?;
    let surface = pas_spec::surface::of(registry.profile);
    let compose_tools = registry.profile == pas_spec::Profile::Compose && first == "tools";
    if !pas_spec::surface::face_words().any(|word| word == first)
        || compose_tools
        || rest.iter().any(|w| w == "--help" || w == "-h")
        || !surface.reachable_words(registry).any(|b| b.word == first)
    {
        return None;
    }
    let text = match first.as_str() {
        "docs" => docs(registry, pre, rest),
        "completions" => completions(registry, cmd(), rest),
        "tools" => tools(registry, rest),
        _ => man_page(registry, cmd(), rest),
    };
    Some(match text {
        Err(error) => Outcome::Failed(error),
        Ok(bytes) => {
            let mut output = shared.lock();
            match output.sinks.stdout.write(&bytes) {
                Ok(()) => Outcome::Success,
                Err(err) => Stop::from(err).into(),
            }
        }
    })
}

/// `docs` (the `.llm` document), `docs --skill` (the Agent Skill's SKILL.md, the bytes
/// `pas-gen skill` writes) and `docs --plugin DIR` (the Agent Plugins package, written), their
/// flags from the `docs` row of the surface table.
fn docs(registry: &Registry, pre: &Prescan, rest: &[String]) -> Result<Vec<u8>, Error> {
    let Some(first) = rest.first() else {
        return Ok(llm::render(registry).into_bytes());
    };
    let flag = first.strip_prefix("--").unwrap_or_default();
    let (long, glued) = match flag.split_once('=') {
        Some((long, value)) => (long, Some(value)),
        None => (flag, None),
    };
    if long == DOCS_SKILL.long && glued.is_none() {
        return no_more("docs --skill", &rest[1..]).map(|()| skill::render(registry).into_bytes());
    }
    if long == DOCS_PLUGIN.long {
        let machine = crate::parse::argv::machine_mode(registry, pre);
        return plugin_package::write(registry, machine, glued, &rest[1..]);
    }
    no_more("docs", rest).map(|()| llm::render(registry).into_bytes())
}

fn no_more(word: &str, rest: &[String]) -> Result<(), Error> {
    match rest.first() {
        None => Ok(()),
        Some(extra) => Err(Error::new(
            codes::UNKNOWN_ARGUMENT,
            format!("`{word}` takes no argument, got `{extra}`"),
        )),
    }
}

/// `tools [NAME]`: the catalog (or one entry) as one line of JSON, with or without `--agent`.
fn tools(registry: &Registry, rest: &[String]) -> Result<Vec<u8>, Error> {
    let mut text = match rest.first() {
        None => pas_spec::faces::catalog::to_json(registry),
        Some(name) => {
            no_more("tools <name>", &rest[1..])?;
            let tool = pas_spec::faces::catalog::tool(registry, name).ok_or_else(|| {
                crate::builtins::tools::unknown(registry, name, codes::INVALID_VALUE)
            })?;
            serde_json::to_string(&tool).map_err(|e| Error::internal(e.to_string()))?
        }
    };
    text.push('\n');
    Ok(text.into_bytes())
}

/// `completions` in a tool built without the `completions` feature.
#[cfg(not(feature = "completions"))]
fn completions(registry: &Registry, _: &clap::Command, _: &[String]) -> Result<Vec<u8>, Error> {
    Err(crate::builtins::features::not_built(
        registry,
        "completions",
        "completions",
    ))
}

/// The completion script for one shell, generated by clap_complete from the tool's clap command.
#[cfg(feature = "completions")]
fn completions(
    registry: &Registry,
    cmd: &clap::Command,
    rest: &[String],
) -> Result<Vec<u8>, Error> {
    let name = &registry.name;
    let Some(word) = rest.first() else {
        return Err(
            Error::new(codes::MISSING_ARGUMENT, "completions needs a shell")
                .with_suggestion(format!("{name} completions bash (or: {SHELLS})")),
        );
    };
    no_more("completions <shell>", &rest[1..])?;
    let shell = Shell::from_str(word).map_err(|_| {
        Error::new(
            codes::INVALID_VALUE,
            format!("no completions for the shell `{word}`"),
        )
        .with_suggestion(format!("one of: {SHELLS}"))
    })?;
    // The runtime's flags, hidden from a person's `-h`, complete as before.
    let mut cmd = crate::builtins::person_help::with_runtime_flags(cmd.clone());
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, name.clone(), &mut script);
    Ok(script)
}

/// `man` in a tool built without the `man` feature.
#[cfg(not(feature = "man"))]
fn man_page(registry: &Registry, _: &clap::Command, _: &[String]) -> Result<Vec<u8>, Error> {
    Err(crate::builtins::features::not_built(registry, "man", "man"))
}

/// The man page of the tool, or of the command the words name.
#[cfg(feature = "man")]
fn man_page(registry: &Registry, cmd: &clap::Command, rest: &[String]) -> Result<Vec<u8>, Error> {
    // The runtime's flags, hidden from a person's `-h`, are on the page as before.
    let mut root = crate::builtins::person_help::with_runtime_flags(cmd.clone());
    // Built, every subcommand knows its full name (`todo-task-create`) for its page's title.
    root.build();
    let mut page = &root;
    for word in rest {
        page = page.find_subcommand(word).ok_or_else(|| {
            Error::new(
                codes::UNKNOWN_COMMAND,
                format!("{} has no command `{}`", registry.name, rest.join(" ")),
            )
            .with_suggestion(format!(
                "{}, for the tool's page",
                pas_spec::surface::builtin_call(registry, "man")
            ))
        })?;
    }
    let mut roff = Vec::new();
    clap_mangen::Man::new(page.clone())
        .render(&mut roff)
        .map_err(|e| Error::internal(format!("cannot render the man page: {e}")))?;
    Ok(roff)
}
