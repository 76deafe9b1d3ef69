//! The words after `TOOL mcp`: the server's own flags (`--call-timeout`, `--print-config`,
//! `--install`, `--group`, `--tools`, `--discovery`), parsed by clap from the `mcp` row of the surface table
//! (`pas_spec::surface::BUILTIN_WORDS`), so `TOOL mcp --help` and every face say the same.

use std::ffi::OsString;
use std::time::Duration;

use pas_spec::Registry;
use pas_spec::faces::mcp_clients::McpClient;
use pas_spec::faces::mcp_discovery::{self as discovery, Discovery};
use pas_spec::surface::{
    MCP_ALLOW_ORIGIN, MCP_CALL_TIMEOUT, MCP_DISCOVERY, MCP_GROUP, MCP_HTTP, MCP_INSTALL,
    MCP_PRINT_CONFIG, MCP_TOOLS, MCP_WORD,
};
use serde_json::json;

use crate::codes;
use crate::error::Error;
use crate::parse::flag_args;

/// What the words after `mcp` ask for.
#[derive(Debug)]
pub(crate) enum Asked {
    /// Serve (or, with `--print-config`, print or install a client's entry): the flags read.
    Run(clap::ArgMatches),
    /// `--help`: this text, on stdout.
    Help(String),
}

/// The clap id of a row: its long name with `_` for `-`, as `Args` reads it.
fn id(long: &str) -> String {
    long.replace('-', "_")
}

/// The clap command of the `mcp` word, its args from the table's rows.
fn command(registry: &Registry) -> clap::Command {
    let row = pas_spec::surface::BUILTIN_WORDS
        .iter()
        .find(|b| b.word == MCP_WORD);
    let mut cmd = clap::Command::new(format!("{} {MCP_WORD}", registry.name))
        .no_binary_name(true)
        .disable_version_flag(true)
        .color(clap::ColorChoice::Never)
        .about(row.map_or("", |b| b.meaning));
    for flag in row.map_or(&[][..], |b| b.flags) {
        let meaning = pas_spec::surface::meaning_in(flag, registry);
        let mut arg = flag_args::arg(id(flag.long), flag, meaning);
        if flag.long == MCP_PRINT_CONFIG.long {
            arg = arg.value_parser(McpClient::ALL.map(McpClient::name));
        }
        if flag.long == MCP_INSTALL.long {
            arg = arg.requires(id(MCP_PRINT_CONFIG.long));
        }
        if flag.long == MCP_ALLOW_ORIGIN.long {
            arg = arg
                .action(clap::ArgAction::Append)
                .requires(id(MCP_HTTP.long));
        }
        // Repeatable: `--group a --group b` is `--group a,b`.
        if flag.long == MCP_GROUP.long || flag.long == MCP_TOOLS.long {
            arg = arg.action(clap::ArgAction::Append);
        }
        cmd = cmd.arg(arg);
    }
    cmd
}

/// Reads `words`, the argv words after `mcp`. A word clap refuses is an `INVALID_ARGUMENT`
/// error with clap's own sentence.
pub(crate) fn read(registry: &Registry, words: &[OsString]) -> Result<Asked, Error> {
    let mut cmd = command(registry);
    match cmd.try_get_matches_from_mut(words) {
        Ok(matches) => Ok(Asked::Run(matches)),
        Err(error) if error.kind() == clap::error::ErrorKind::DisplayHelp => {
            Ok(Asked::Help(cmd.render_help().to_string()))
        }
        Err(error) => {
            // clap's sentence, on one line: what it says before its usage block.
            let rendered = error.render().to_string();
            let said = rendered.split("\n\n").next().unwrap_or_default();
            let said = said.strip_prefix("error: ").unwrap_or(said);
            let message = said.split_whitespace().collect::<Vec<_>>().join(" ");
            Err(
                Error::new(codes::INVALID_ARGUMENT, message).with_suggestion(format!(
                    "`{} {MCP_WORD} --help` lists the server's flags",
                    registry.name
                )),
            )
        }
    }
}

/// Whether argv words after `mcp` ask for text rather than a server: `--print-config` or
/// `--help`/`-h` among them (before `--`). A call that asks for neither serves, and a word
/// the server does not take is its error ([`read`]).
pub(crate) fn answers_without_serving(words: &[OsString]) -> bool {
    let print_config = format!("--{}", MCP_PRINT_CONFIG.long);
    words
        .iter()
        .filter_map(|w| w.to_str())
        .take_while(|w| *w != "--")
        .any(|w| {
            w == "--help"
                || w == "-h"
                || w == print_config
                || w.strip_prefix(print_config.as_str())
                    .is_some_and(|rest| rest.starts_with('='))
        })
}

/// `--call-timeout`: the limit of a call whose command declares none; a value that is not a
/// positive number of seconds is an `INVALID_ARGUMENT` error naming the flag. (Read by the
/// server and by `--print-config`, both of the `mcp` feature.)
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) fn call_timeout(matches: &clap::ArgMatches) -> Result<Option<Duration>, Error> {
    let Some(value) = matches.get_one::<String>(&id(MCP_CALL_TIMEOUT.long)) else {
        return Ok(None);
    };
    value
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .map(Some)
        .ok_or_else(|| {
            let flag = MCP_CALL_TIMEOUT.long;
            Error::new(
                codes::INVALID_ARGUMENT,
                format!("--{flag} takes a positive number of seconds, not `{value}`"),
            )
            .with_suggestion(format!("e.g. `{MCP_WORD} --{flag} 30`"))
        })
}

/// `--http ADDR`, as given (read into an address by the HTTP transport, which knows the
/// forms it takes), with the `--allow-origin` values.
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) fn http(matches: &clap::ArgMatches) -> Option<(String, Vec<String>)> {
    let addr = matches.get_one::<String>(&id(MCP_HTTP.long))?;
    let origins = matches
        .get_many::<String>(&id(MCP_ALLOW_ORIGIN.long))
        .map(|values| values.cloned().collect())
        .unwrap_or_default();
    Some((addr.clone(), origins))
}

/// The error of `TOOL mcp --http` in a tool built with the server but without its HTTP
/// transport.
#[cfg_attr(any(not(feature = "mcp"), feature = "mcp-http"), allow(dead_code))]
pub(crate) fn http_not_built(registry: &Registry) -> Error {
    Error::new(
        pas_spec::runtime_codes::FEATURE_NOT_BUILT,
        format!(
            "{} was built without MCP's HTTP transport (`{MCP_WORD} --{}`)",
            registry.name, MCP_HTTP.long
        ),
    )
    .with_suggestion(
        "rebuild with the `mcp-http` feature of pas-kit: `pas-kit = { version = \"...\", features = [\"mcp-http\"] }`; without it the server speaks stdio",
    )
}

/// What `--group`, `--tools` and `--discovery` ask the server to serve, checked against the
/// registry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) struct Serving {
    /// The groups named, in the order given, each once.
    pub(crate) groups: Vec<String>,
    /// The tools named, in the order given, each once.
    pub(crate) tools: Vec<String>,
    /// How `tools/list` lists them.
    pub(crate) discovery: Discovery,
    /// `--discovery` as given (none: `auto` by default).
    pub(crate) discovery_given: bool,
}

impl Serving {
    /// The flags that ask for this again, for a client's entry (`--print-config`).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn words(&self) -> Vec<String> {
        let mut words = Vec::new();
        if !self.groups.is_empty() {
            words.extend([format!("--{}", MCP_GROUP.long), self.groups.join(",")]);
        }
        if !self.tools.is_empty() {
            words.extend([format!("--{}", MCP_TOOLS.long), self.tools.join(",")]);
        }
        if self.discovery_given {
            words.extend([
                format!("--{}", MCP_DISCOVERY.long),
                self.discovery.name().to_owned(),
            ]);
        }
        words
    }
}

/// The names a repeatable, comma-listed flag holds: each once, in the order given.
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
fn listed(matches: &clap::ArgMatches, long: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for value in matches.get_many::<String>(&id(long)).into_iter().flatten() {
        for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// `--group`, `--tools` and `--discovery`: every name the registry does not have and a mode
/// that is not one, all in one `INVALID_ARGUMENT` error whose details list the known names.
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) fn serving(registry: &Registry, matches: &clap::ArgMatches) -> Result<Serving, Error> {
    let groups = listed(matches, MCP_GROUP.long);
    let tools = listed(matches, MCP_TOOLS.long);
    let mode = matches.get_one::<String>(&id(MCP_DISCOVERY.long));
    let mut problems = Vec::new();
    let discovery = match mode.map(|m| (m, Discovery::from_name(m))) {
        None => Discovery::default(),
        Some((_, Some(discovery))) => discovery,
        Some((given, None)) => {
            problems.push(json!({
                "flag": format!("--{}", MCP_DISCOVERY.long),
                "value": given,
                "message": format!("--{} takes auto, full or progressive, not `{given}`", MCP_DISCOVERY.long),
            }));
            Discovery::default()
        }
    };
    if let Err(unknown) = discovery::select(registry, &groups, &tools) {
        for discovery::Unknown { flag, name } in unknown {
            let what = if flag == MCP_GROUP.long {
                "group"
            } else {
                "tool"
            };
            problems.push(json!({
                "flag": format!("--{flag}"),
                "value": name,
                "message": format!("--{flag} {name}: {} has no {what} `{name}`", registry.name),
            }));
        }
    }
    if problems.is_empty() {
        return Ok(Serving {
            groups,
            tools,
            discovery,
            discovery_given: mode.is_some(),
        });
    }
    let known_groups: Vec<String> = discovery::groups(registry)
        .into_iter()
        .map(|(g, _)| g)
        .collect();
    let known_tools: Vec<String> = discovery::tool_groups(registry)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    let message = problems
        .iter()
        .filter_map(|p| p["message"].as_str())
        .collect::<Vec<_>>()
        .join("; ");
    Err(Error::new(codes::INVALID_ARGUMENT, message)
        .with_suggestion(format!(
            "groups: {}; tools: {}; --{} modes: auto, full, progressive",
            known_groups.join(", "),
            known_tools.join(", "),
            MCP_DISCOVERY.long
        ))
        .with_details(json!({
            "problems": problems,
            "groups": known_groups,
            "tools": known_tools,
            "modes": Discovery::ALL.map(Discovery::name),
        })))
}

/// The error of `TOOL mcp` in a tool built without the server.
#[cfg_attr(feature = "mcp", allow(dead_code))]
pub(crate) fn not_built(registry: &Registry) -> Error {
    Error::new(
        pas_spec::runtime_codes::MCP_NOT_BUILT,
        format!("{} was built without its MCP server", registry.name),
    )
    .with_suggestion(
        "rebuild with the `mcp` feature of pas-kit: `pas-kit = { version = \"...\", features = [\"mcp\"] }`",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> Registry {
        let spec = r#"{"specVersion": 1, "name": "t", "version": "1.0.0", "summary": "A tool.",
            "commands": [{"name": "get", "description": "Gets.", "output": "object"}]}"#;
        let source = pas_spec::load::read_reader("t.json", spec.as_bytes()).unwrap();
        pas_spec::load::parse(&source).unwrap()
    }

    fn words(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    fn run(given: &[&str]) -> Result<clap::ArgMatches, Error> {
        match read(&registry(), &words(given))? {
            Asked::Run(matches) => Ok(matches),
            Asked::Help(text) => panic!("help: {text}"),
        }
    }

    #[test]
    fn the_flags_are_the_rows_and_their_values_are_checked() {
        assert_eq!(call_timeout(&run(&[]).unwrap()).unwrap(), None);
        let limit = call_timeout(&run(&["--call-timeout", "2.5"]).unwrap()).unwrap();
        assert_eq!(limit, Some(Duration::from_millis(2500)));
        let zero = call_timeout(&run(&["--call-timeout=0"]).unwrap()).unwrap_err();
        assert_eq!(zero.code(), codes::INVALID_ARGUMENT);
        assert!(
            zero.message()
                .contains("positive number of seconds, not `0`")
        );
        let matches = run(&["--print-config", "vscode", "--install"]).unwrap();
        assert_eq!(
            matches
                .get_one::<String>("print_config")
                .map(String::as_str),
            Some("vscode")
        );
        assert!(matches.get_flag("install"));
    }

    #[test]
    fn a_word_the_server_does_not_take_is_an_argument_error_naming_it() {
        for given in [
            &["--bogus"][..],
            &["extra"],
            &["--print-config", "emacs"],
            &["--install"],
        ] {
            let error = run(given).unwrap_err();
            assert_eq!(error.code(), codes::INVALID_ARGUMENT, "{given:?}");
            assert!(!error.message().is_empty(), "{given:?}");
        }
        let error = run(&["--print-config", "emacs"]).unwrap_err();
        assert!(error.message().contains("emacs"), "{}", error.message());
    }

    #[test]
    fn groups_and_tools_repeat_or_list_and_read_once_each() {
        let matches = run(&["--group", "get,get", "--tools", "get", "--group=get"]).unwrap();
        let asked = serving(&registry(), &matches).unwrap();
        assert_eq!(asked.groups, ["get"]);
        assert_eq!(asked.tools, ["get"]);
        assert_eq!(asked.discovery, Discovery::Auto);
        assert_eq!(asked.words(), ["--group", "get", "--tools", "get"]);
        let matches = run(&["--discovery", "full"]).unwrap();
        let asked = serving(&registry(), &matches).unwrap();
        assert_eq!(asked.discovery, Discovery::Full);
        assert_eq!(asked.words(), ["--discovery", "full"]);
    }

    #[test]
    fn every_unknown_name_and_mode_is_one_error_listing_the_known_names() {
        let matches = run(&[
            "--group",
            "nope",
            "--tools",
            "get,task_get",
            "--discovery",
            "some",
        ])
        .unwrap();
        let error = serving(&registry(), &matches).unwrap_err();
        assert_eq!(error.code(), codes::INVALID_ARGUMENT);
        for said in ["`some`", "group `nope`", "tool `task_get`"] {
            assert!(error.message().contains(said), "{}", error.message());
        }
        let details = error.details().unwrap();
        assert_eq!(details["problems"].as_array().unwrap().len(), 3);
        assert_eq!(details["groups"], json!(["get"]));
        assert_eq!(details["tools"], json!(["get"]));
        assert!(error.suggestion().unwrap().contains("tools: get"));
    }

    #[test]
    fn help_is_the_rows_meanings() {
        let Asked::Help(text) = read(&registry(), &words(&["--help"])).unwrap() else {
            panic!("no help");
        };
        for flag in [
            MCP_CALL_TIMEOUT,
            MCP_PRINT_CONFIG,
            MCP_INSTALL,
            MCP_GROUP,
            MCP_TOOLS,
            MCP_DISCOVERY,
        ] {
            assert!(text.contains(&format!("--{}", flag.long)), "{text}");
        }
        assert!(text.contains("claude-code"), "{text}");
    }

    #[test]
    fn text_is_asked_by_print_config_or_help_only() {
        assert!(answers_without_serving(&words(&[
            "--print-config",
            "codex"
        ])));
        assert!(answers_without_serving(&words(&["--print-config=codex"])));
        assert!(answers_without_serving(&words(&["-h"])));
        assert!(!answers_without_serving(&words(&["--call-timeout", "3"])));
        assert!(!answers_without_serving(&words(&["--", "--help"])));
        assert!(!answers_without_serving(&words(&["--print-configx"])));
    }
}
