//! The pre-scan of argv: the runtime's own flags are found and removed before clap sees argv.
//!
//! `--agent` must work anywhere (before or after subcommands and values), which clap's global
//! flags cannot promise for every position and every derive-built command; and `--audit-log`
//! must be known even when clap then rejects the call, so that failed calls are audited too;
//! `--config` must be known before clap parses, because the file's values become clap defaults.
//! Scanning stops at `--`: what follows is data, never a flag. argv is `OsString` because it may
//! not be UTF-8; only the runtime's own flags are compared, byte for byte.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

/// The agent-mode flag: machine output (JSON, JSON errors) for this call, accepted anywhere
/// before `--`.
pub const AGENT_FLAG: &str = "--agent";
/// The environment variable that turns agent mode on (`1`, `true`, `yes` or `on`).
pub const AGENT_ENV: &str = "PAS_AGENT";
/// The audit-log flag (`--audit-log FILE` or `--audit-log=FILE`).
pub const AUDIT_LOG_FLAG: &str = "--audit-log";
/// The configuration-file flag (`--config FILE` or `--config=FILE`).
pub const CONFIG_FLAG: &str = "--config";
/// The flag that checks a call and stops before its handler (`pas_spec::surface::VALIDATE_ONLY`).
pub const VALIDATE_ONLY_FLAG: &str = "--validate-only";
/// The hidden flag that prints the registry back as a JSON spec.
pub const SPEC_FLAG: &str = "--pas-spec";
/// The name other tools give the same request (CLI Agent Spec failure mode 21): an alias.
pub const PRINT_SCHEMA_FLAG: &str = "--print-schema";
/// The flag that runs the conformance checks on the tool itself (PAS 9.2).
pub const VALIDATE_FLAG: &str = "--validate-pas";

/// What the pre-scan found.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Prescan {
    /// argv without the runtime's flags (`argv[0]` kept).
    pub argv: Vec<OsString>,
    /// argv as given, the runtime's flags included (a hint that repeats the call quotes it).
    pub given: Vec<OsString>,
    /// `--agent` was given, or the environment variable is set.
    pub agent: bool,
    /// `--agent` itself was in argv (a profile without it refuses the flag, not the variable).
    pub agent_flag: bool,
    /// Where to append the audit record.
    pub audit_log: Option<PathBuf>,
    /// `--audit-log` was the last word, with no file after it.
    pub audit_log_missing: bool,
    /// The configuration file `--config` named.
    pub config: Option<PathBuf>,
    /// `--config` was the last word, with no file after it.
    pub config_missing: bool,
    /// `--pas-spec` was given.
    pub print_spec: bool,
    /// `--validate-pas` was given.
    pub validate: bool,
    /// `--validate-only` was given: check the call, run no handler.
    pub validate_only: bool,
    /// `--output-id`: the results' ids, one per line (see `crate::render::output_id`).
    pub output_id: bool,
    /// `--stable-output`: deterministic output (see `crate::stable`).
    pub stable_output: bool,
    /// `--max-output BYTES`: the call's output bound (see `crate::guards::output_limit`); `Some("")`
    /// when the flag came last, with no value.
    pub max_output: Option<String>,
    /// `--unmask`: values the tool masks come back raw (see `crate::guards::entropy`).
    pub unmask: bool,
    /// `--cwd DIR`: the directory the call runs in (see `crate::parse::cwd`).
    pub cwd: Option<PathBuf>,
    /// `--cwd` was the last word, with no directory after it.
    pub cwd_missing: bool,
    /// `--schema-version VERSION`: the output schema version the caller expects (see
    /// `crate::builtins::versions`); `Some("")` when the flag came last, with no value.
    pub schema_version: Option<String>,
    /// `--show-config`: the settings' values and sources instead of the command.
    pub show_config: bool,
    /// `--no-config`: no configuration file is read.
    pub no_config: bool,
    /// `--help` or `-h` was given before `--`.
    pub help: bool,
    /// `--toon` was given before `--` (compose encodes its envelope as TOON, parse errors too;
    /// clap validates the flag itself later).
    pub toon: bool,
    /// The index in `argv` of the word that selects a command ([`command_word`]), once the
    /// registry is known ([`Prescan::locate_command`]).
    pub command_word: Option<usize>,
    /// The word at [`Prescan::command_word`] may be a built-in (`docs`, `mcp`, ...): the tool
    /// has no root positional that could take it, or the caller wrote `--builtin WORD`
    /// (`crate::parse::builtin_flag`).
    pub builtin_words: bool,
    /// argv holds a bare `-` before `--`: an id may come from stdin
    /// (`crate::parse::stdin_ids`), once the registry is known.
    pub dash: bool,
    /// argv asks for the MCP server (`TOOL mcp`, see [`wants_mcp`]), once the registry is
    /// known; only where the word may be a built-in.
    pub mcp: bool,
    /// The built-in word argv asks for, answered before clap parses (`doctor`, `changelog`):
    /// the word at [`Prescan::command_word`] where built-in words may stand, with no `--help`
    /// after it, that the tool reaches (no command of its own takes it).
    pub builtin_asked: Option<String>,
}

impl Prescan {
    /// A call with no argv in agent mode (`TOOL mcp`: the call's words come from the client).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn agent_only() -> Self {
        Prescan {
            agent: true,
            builtin_words: true,
            ..Prescan::default()
        }
    }

    /// Finds the word that selects a command, once, for every reader after the pre-scan (the
    /// built-in words, the schemas a call may show).
    pub(crate) fn locate_command(&mut self, registry: &pas_spec::Registry) {
        self.command_word = command_word(registry, &self.argv);
        self.dash = crate::parse::stdin_ids::has_dash(&self.argv);
        self.mcp = self.builtin_words && wants_mcp(registry, &self.argv);
        self.builtin_asked = self.asked_word(registry);
    }

    /// See [`Prescan::builtin_asked`].
    fn asked_word(&self, registry: &pas_spec::Registry) -> Option<String> {
        let at = self.command_word.filter(|_| self.builtin_words)?;
        let mut words = self.argv.iter().skip(at);
        let word = words.next()?.to_str()?;
        // Most calls name a command of the tool: a look at the word list settles them before
        // the reachability test, which walks the commands once per word.
        let surface = pas_spec::surface::of(registry.profile);
        let reachable = || {
            surface.builtin_words().any(|b| b.word == word)
                && surface.reachable_words(registry).any(|b| b.word == word)
        };
        (!words.any(|w| w == "--help" || w == "-h") && reachable()).then(|| word.to_owned())
    }
}

/// The rows of the surface table (`pas_spec::surface`, by long name) that the pre-scan takes out
/// of argv before clap parses: [`prescan`] here, `--timeout` in `crate::guards::deadline`
/// (where the tool does not own the name). clap declares them on the documented command only
/// (`crate::parse::clap_augment`), for help, completions and man pages.
pub(crate) const TAKEN_OUT: [&str; 13] = [
    "agent",
    "audit-log",
    "config",
    "validate-only",
    "output-id",
    "stable-output",
    "unmask",
    "max-output",
    "show-config",
    "no-config",
    "schema-version",
    "cwd",
    "timeout",
];

/// The compose profile's flag for a TOON envelope.
pub(crate) const TOON_FLAG: &str = "--toon";

/// Whether an environment value turns agent mode on.
pub(crate) fn env_enables(value: Option<&OsStr>) -> bool {
    value.and_then(OsStr::to_str).is_some_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )
    })
}

/// Scans argv (`argv[0]` included) once.
pub(crate) fn prescan(args: impl IntoIterator<Item = OsString>, env_agent: bool) -> Prescan {
    let mut found = Prescan {
        agent: env_agent,
        ..Prescan::default()
    };
    found.given = args.into_iter().collect();
    let mut args = found.given.clone().into_iter();
    found.argv.extend(args.next());
    let mut options_ended = false;
    while let Some(arg) = args.next() {
        if options_ended {
            found.argv.push(arg);
            continue;
        }
        let bytes = arg.as_encoded_bytes();
        if bytes == b"--" {
            options_ended = true;
        } else if bytes == AGENT_FLAG.as_bytes() {
            found.agent = true;
            found.agent_flag = true;
            continue;
        } else if let Some(value) = bytes.strip_prefix(b"--agent=") {
            // `--agent=true` and `--agent=1`, as agents write boolean flags; `--agent=false`
            // and `=0` turn it off. Any other value still asks for agent mode, and stays in argv
            // so the parser answers it as the JSON error it is.
            match value {
                b"true" | b"1" | b"yes" | b"on" => found.agent = true,
                b"false" | b"0" | b"no" | b"off" => found.agent = false,
                _ => {
                    found.agent = true;
                    found.argv.push(arg);
                }
            }
            continue;
        } else if bytes == SPEC_FLAG.as_bytes() || bytes == PRINT_SCHEMA_FLAG.as_bytes() {
            found.print_spec = true;
            continue;
        } else if bytes == VALIDATE_ONLY_FLAG.as_bytes() {
            found.validate_only = true;
            continue;
        } else if bytes == b"--output-id" {
            found.output_id = true;
            continue;
        } else if bytes == b"--stable-output" {
            found.stable_output = true;
            continue;
        } else if bytes == crate::parse::names::UNMASK_FLAG.as_bytes() {
            found.unmask = true;
            continue;
        } else if bytes == crate::parse::names::MAX_OUTPUT_FLAG.as_bytes() {
            let value = args.next().map(|v| v.to_string_lossy().into_owned());
            found.max_output = Some(value.unwrap_or_default());
            continue;
        } else if let Some(value) = bytes.strip_prefix(b"--max-output=") {
            found.max_output = Some(String::from_utf8_lossy(value).into_owned());
            continue;
        } else if bytes == b"--show-config" {
            found.show_config = true;
            continue;
        } else if bytes == b"--no-config" {
            found.no_config = true;
            continue;
        } else if bytes == b"--schema-version" {
            let value = args.next().map(|v| v.to_string_lossy().into_owned());
            found.schema_version = Some(value.unwrap_or_default());
            continue;
        } else if let Some(value) = bytes.strip_prefix(b"--schema-version=") {
            found.schema_version = Some(String::from_utf8_lossy(value).into_owned());
            continue;
        } else if bytes == b"--cwd" {
            match args.next() {
                Some(path) => found.cwd = Some(PathBuf::from(path)),
                None => found.cwd_missing = true,
            }
            continue;
        } else if let Some(path) = bytes.strip_prefix(b"--cwd=") {
            found.cwd = Some(path_from_bytes(&arg, path));
            continue;
        } else if bytes == VALIDATE_FLAG.as_bytes() {
            found.validate = true;
            continue;
        } else if bytes == AUDIT_LOG_FLAG.as_bytes() {
            match args.next() {
                Some(path) => found.audit_log = Some(PathBuf::from(path)),
                None => found.audit_log_missing = true,
            }
            continue;
        } else if let Some(path) = bytes.strip_prefix(b"--audit-log=") {
            found.audit_log = Some(path_from_bytes(&arg, path));
            continue;
        } else if bytes == CONFIG_FLAG.as_bytes() {
            match args.next() {
                Some(path) => found.config = Some(PathBuf::from(path)),
                None => found.config_missing = true,
            }
            continue;
        } else if let Some(path) = bytes.strip_prefix(b"--config=") {
            found.config = Some(path_from_bytes(&arg, path));
            continue;
        } else if bytes == b"--help" || bytes == b"-h" {
            found.help = true;
        } else if bytes == TOON_FLAG.as_bytes() {
            found.toon = true;
        }
        found.argv.push(arg);
    }
    found
}

/// The index in argv (after the pre-scan) of the word that selects a command: the first word
/// after the tool's global flags and their values (`todo --db x tools` selects `tools`), or
/// `None` when argv holds no such word before `--`. The built-in words are looked for there, so
/// they work after global flags as commands do.
pub(crate) fn command_word(registry: &pas_spec::Registry, argv: &[OsString]) -> Option<usize> {
    let surface = pas_spec::surface::of(registry.profile);
    let mut index = 1;
    while let Some(arg) = argv.get(index) {
        let word = arg.to_string_lossy();
        if word == "--" {
            return None;
        }
        if !word.starts_with('-') || word == "-" {
            return Some(index);
        }
        let (name, inline_value) = match word.split_once('=') {
            Some((name, _)) => (name, true),
            None => (word.as_ref(), false),
        };
        let global = registry.global_flags.iter().find(|p| {
            name.strip_prefix("--") == Some(p.name.as_str())
                || p.short.is_some_and(|short| name == format!("-{short}"))
        });
        let takes_value = match global {
            Some(param) => param.ty != pas_spec::ParamType::Boolean,
            // The profile's own flags, switches or valued (robot's `--fields a,b`).
            None if let Some(flag) =
                name.strip_prefix("--").and_then(|long| surface.flag(long)) =>
            {
                flag.value.is_some()
            }
            // Not a global flag: whatever follows belongs to clap's judgement.
            None => return None,
        };
        index += if takes_value && !inline_value { 2 } else { 1 };
    }
    None
}

/// The path after `--audit-log=` or `--config=`, without lossy conversion where the platform allows it.
fn path_from_bytes(arg: &OsStr, tail: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        let _ = arg;
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(OsStr::from_bytes(tail))
    }
    #[cfg(not(unix))]
    {
        match arg.to_str() {
            Some(text) => PathBuf::from(&text[text.len() - tail.len()..]),
            None => PathBuf::from(String::from_utf8_lossy(tail).into_owned()),
        }
    }
}

/// A value as a shell word: as is when it is plain, else in single quotes.
pub(crate) fn quote(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_alphanumeric() || "-_./:@%+=,".contains(c));
    if plain {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', r"'\''"))
    }
}

/// Whether a call may show a command's output or input schema, judged from argv before it is
/// parsed: anything but a plain command call (the spec, validation, the catalog, the `docs`,
/// `completions` and `man` built-ins, a resource tool's verbs). It errs on the side of yes: a
/// value spelled like a built-in word only costs the schemas' making.
pub(crate) fn call_may_show_schemas(registry: &pas_spec::Registry, pre: &Prescan) -> bool {
    pre.print_spec
        || pre.validate
        // `--fields` is checked against the output schema (`crate::parse::fields`).
        || pre.argv.iter().any(|word| word.as_encoded_bytes().starts_with(b"--fields"))
        // `--output-id` and `--stable-output` read the output schema's `x-id`/`x-volatile`.
        || pre.output_id
        || pre.stable_output
        || !registry.resources.is_empty()
        || pre
            .argv
            .iter()
            .skip(1)
            .any(|word| word.to_str().is_some_and(pas_spec::surface::word_shows_schemas))
}

/// Whether the call's output is machine output: `--agent` (or `PAS_AGENT`), or a profile
/// without a machine switch (compose, robot: machine output always).
pub(crate) fn machine_mode(registry: &pas_spec::Registry, pre: &Prescan) -> bool {
    pre.agent
        || pas_spec::surface::of(registry.profile)
            .machine_switch
            .is_none()
}

/// Whether argv names the `mcp` word: `TOOL mcp ...` (runtime flags such as `--agent` and
/// `--config` aside) in a tool with no command of its own at that word. Like `docs`, the word
/// wins over a one-command tool's positional where built-in words are bare (else `--builtin
/// mcp`, see [`Prescan::builtin_words`]).
pub(crate) fn names_mcp_word(registry: &pas_spec::Registry, argv: &[OsString]) -> bool {
    use crate::parse::names::MCP_WORD as WORD;
    argv.get(1).is_some_and(|word| word == WORD)
        && registry
            .commands
            .iter()
            .all(|c| c.argv_path().first().is_none_or(|word| word != WORD))
}

/// Whether argv asks for the MCP server: the `mcp` word ([`names_mcp_word`]) with no
/// `--print-config` or `--help` after it (those answer with text,
/// `crate::parse::mcp_options::answers_without_serving`). Any other word after it is the
/// server's to read, and refuse (`crate::parse::mcp_options::read`).
pub(crate) fn wants_mcp(registry: &pas_spec::Registry, argv: &[OsString]) -> bool {
    names_mcp_word(registry, argv)
        && !crate::parse::mcp_options::answers_without_serving(argv.get(2..).unwrap_or(&[]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(words: &[&str]) -> Prescan {
        prescan(words.iter().map(OsString::from), false)
    }

    #[test]
    fn agent_anywhere_before_double_dash() {
        let a = scan(&["t", "--agent", "get", "1"]);
        let b = scan(&["t", "get", "1", "--agent"]);
        assert!(a.agent && b.agent);
        assert_eq!(a.argv, b.argv);
        let c = scan(&["t", "get", "--", "--agent"]);
        assert!(!c.agent);
        assert_eq!(c.argv.last().unwrap(), "--agent");
    }

    #[test]
    fn audit_log_both_spellings() {
        assert_eq!(
            scan(&["t", "--audit-log", "a.jsonl", "x"]).audit_log,
            Some("a.jsonl".into())
        );
        assert_eq!(
            scan(&["t", "x", "--audit-log=b.jsonl"]).audit_log,
            Some("b.jsonl".into())
        );
        assert!(scan(&["t", "--audit-log"]).audit_log_missing);
    }

    #[test]
    fn config_both_spellings() {
        let a = scan(&["t", "--config", "a.toml", "x"]);
        assert_eq!(a.config, Some("a.toml".into()));
        assert_eq!(a.argv, ["t", "x"]);
        assert_eq!(
            scan(&["t", "x", "--config=b.toml"]).config,
            Some("b.toml".into())
        );
        assert!(scan(&["t", "--config"]).config_missing);
        // The compose `config` command is a word, not the flag.
        assert_eq!(scan(&["t", "config", "show"]).argv, ["t", "config", "show"]);
    }

    #[test]
    fn the_command_word_comes_after_global_flags() {
        let spec = r#"
specVersion: 1
name: t
version: 1.0.0
summary: s
globalFlags:
  - {name: db, description: the file}
  - {name: quiet, type: boolean, description: less}
commands:
  - {name: get, description: one}
"#;
        let source = pas_spec::Source::new("t.yaml", spec, pas_spec::Format::Yaml);
        let registry = pas_spec::load::parse(&source).unwrap();
        let at = |words: &[&str]| {
            let argv: Vec<OsString> = words.iter().map(OsString::from).collect();
            command_word(&registry, &argv)
        };
        assert_eq!(at(&["t", "tools"]), Some(1));
        assert_eq!(at(&["t", "--db", "x", "tools"]), Some(3));
        assert_eq!(at(&["t", "--db=x", "--quiet", "docs"]), Some(3));
        assert_eq!(at(&["t", "--nope", "docs"]), None);
        assert_eq!(at(&["t", "--", "docs"]), None);
        assert_eq!(at(&["t", "--db"]), None);
    }

    #[test]
    fn toon_before_double_dash_only() {
        assert!(scan(&["t", "list", "--toon"]).toon);
        assert!(!scan(&["t", "list", "--", "--toon"]).toon);
        assert!(!scan(&["t", "list"]).toon);
        // The word stays in argv for clap, which knows whether the profile has the flag.
        assert_eq!(scan(&["t", "--toon"]).argv, ["t", "--toon"]);
    }

    #[test]
    fn env_values() {
        assert!(env_enables(Some(OsStr::new("1"))));
        assert!(env_enables(Some(OsStr::new("TRUE"))));
        assert!(!env_enables(Some(OsStr::new("0"))));
        assert!(!env_enables(None));
    }

    /// Every row the pre-scan is said to take out is a row of the table, and a call with it
    /// (and its value, where the row takes one) reaches clap without it.
    #[test]
    fn the_rows_taken_out_are_the_tables_and_leave_argv() {
        use pas_spec::surface;
        for long in TAKEN_OUT {
            let row = [&surface::PAS, &surface::COMPOSE, &surface::ROBOT]
                .into_iter()
                .find_map(|s| s.flag(long))
                .or((long == surface::TIMEOUT.long).then_some(&surface::TIMEOUT))
                .unwrap_or_else(|| panic!("--{long} is no row of the surface table"));
            if long == surface::TIMEOUT.long {
                continue; // taken out by `guards::deadline`, which has its own tests
            }
            let mut words = vec!["t".to_owned(), format!("--{long}")];
            words.extend(row.value.map(|_| "1".to_owned()));
            words.push("x".to_owned());
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            assert_eq!(scan(&words).argv, ["t", "x"], "--{long}");
        }
    }
}
