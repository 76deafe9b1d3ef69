//! The built-in surface of each contract profile: ONE table that says what a tool of that
//! profile offers beyond its own commands, and how its machine output looks.
//!
//! Every face (agent help, `.llm`, the catalog, man pages and completions through the clap
//! command, the MCP export) and the runtime's clap augmentation read this table, so a flag a face
//! omits is a flag the binary refuses, and a face cannot document another profile's behaviour.
//!
//! To add a profile, add one [`Surface`] constant and one arm to [`of`]. To add a built-in word
//! (e.g. `mcp`, `sessions`, `capabilities`), add one row to [`BUILTIN_WORDS`]: the validator
//! reserves it, the runtime routes it, and agent help lists it.

use crate::{Command, Effect, Profile, Registry};

/// A flag the runtime gives every command of a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuntimeFlag {
    /// The long name, without `--`.
    pub long: &'static str,
    /// The value's placeholder (`path`), or `None` for a switch.
    pub value: Option<&'static str>,
    /// What it does, one sentence.
    pub meaning: &'static str,
    /// It changes how machine output looks (`--agent`, `--toon`, ...): conform checks the
    /// binary refuses such a flag when the profile does not list it.
    pub machine_output: bool,
}

impl RuntimeFlag {
    /// `--long <value>` or `--long`.
    pub fn signature(&self) -> String {
        match self.value {
            Some(value) => format!("--{} <{value}>", self.long),
            None => format!("--{}", self.long),
        }
    }
}

/// A word the runtime answers itself, whatever the tool's commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuiltinWord {
    /// The word as typed.
    pub word: &'static str,
    /// What follows it, for the usage column (`[NAME]`, `<shell>`), or empty.
    pub args: &'static str,
    /// The flags the word takes after it (`sessions --limit N`): the runtime declares these on
    /// the word's clap command, and no others.
    pub flags: &'static [RuntimeFlag],
    /// What it prints.
    pub meaning: &'static str,
    /// The profiles that have it.
    pub profiles: &'static [Profile],
    /// What kind of answer it gives.
    pub kind: WordKind,
    /// The pas-kit cargo feature that builds it, if it is optional: faces list the word only in
    /// a tool built with it ([`crate::Features`]); without it the word answers
    /// `FEATURE_NOT_BUILT` (`MCP_NOT_BUILT` for `mcp`).
    pub feature: Option<&'static str>,
}

/// What a built-in word answers with: the runtime routes each kind to its own room, and a call
/// to a word that prints the commands' schemas needs them made first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordKind {
    /// A documentation face of the commands (the catalog, `.llm`, completions, man pages).
    Face,
    /// A server of the commands (MCP), whose tool list carries their schemas.
    Server,
    /// The tool's state or its environment (sessions, doctor, jobs, ...): no command schemas.
    State,
}

impl WordKind {
    /// Whether an answer of this kind prints the commands' input and output schemas.
    pub fn shows_schemas(self) -> bool {
        matches!(self, WordKind::Face | WordKind::Server)
    }
}

/// `sessions --session ID`: one session in detail (robot 5.7).
const SESSIONS_SESSION: RuntimeFlag = RuntimeFlag {
    long: "session",
    value: Some("id"),
    meaning: "One session in detail (also spelled --status ID or --show ID).",
    machine_output: false,
};
/// `sessions --detail`.
const SESSIONS_DETAIL: RuntimeFlag = RuntimeFlag {
    long: "detail",
    value: None,
    meaning: "With --session: include the session's data and artifacts.",
    machine_output: false,
};
/// `sessions --limit N`.
const SESSIONS_LIMIT: RuntimeFlag = RuntimeFlag {
    long: "limit",
    value: Some("n"),
    meaning: "How many sessions to list, newest first (default 50).",
    machine_output: false,
};
/// The flags of the `sessions` word.
static SESSIONS_FLAGS: &[RuntimeFlag] = &[SESSIONS_SESSION, SESSIONS_DETAIL, SESSIONS_LIMIT];
/// `capabilities --check-action ACTION` (robot 5.8).
const CHECK_ACTION: RuntimeFlag = RuntimeFlag {
    long: "check-action",
    value: Some("action"),
    meaning: "Check one action's availability.",
    machine_output: false,
};

/// `mcp --call-timeout SECONDS`: the server's limit for a call whose command declares none.
pub const MCP_CALL_TIMEOUT: RuntimeFlag = RuntimeFlag {
    long: "call-timeout",
    value: Some("seconds"),
    meaning: "End a call whose command declares no time limit after this many seconds (a \
              positive number) with TIMEOUT; a call's own limit may only lower it.",
    machine_output: false,
};
/// `mcp --print-config CLIENT`: what an MCP client needs to start the server.
pub const MCP_PRINT_CONFIG: RuntimeFlag = RuntimeFlag {
    long: "print-config",
    value: Some("client"),
    meaning: "Print the configuration CLIENT (claude-code, codex, cursor or vscode) needs to \
              start this server, and serve nothing; nothing is written without --install.",
    machine_output: false,
};
/// `mcp --print-config CLIENT --install`: write that configuration, with a backup.
pub const MCP_INSTALL: RuntimeFlag = RuntimeFlag {
    long: "install",
    value: None,
    meaning: "With --print-config: add the server to CLIENT's configuration file (the \
              project's; Codex's own), its other entries kept and its earlier bytes copied to \
              a backup beside it first.",
    machine_output: false,
};
/// `mcp --http ADDR`: serve MCP's streamable HTTP instead of stdio.
pub const MCP_HTTP: RuntimeFlag = RuntimeFlag {
    long: "http",
    value: Some("addr"),
    // The sentence names the tool's own token variable: see `meaning_in`.
    meaning: "",
    machine_output: false,
};
/// `mcp --http ADDR --allow-origin ORIGIN`: a browser origin the HTTP server also accepts.
pub const MCP_ALLOW_ORIGIN: RuntimeFlag = RuntimeFlag {
    long: "allow-origin",
    value: Some("origin"),
    meaning: "With --http: also accept requests whose Origin header is ORIGIN (scheme://host, \
              :port or :*); repeatable. Loopback origins are always accepted, any other is \
              refused with 403.",
    machine_output: false,
};
/// `mcp --group NAME`: serve only the tools of these groups (their commands' categories).
pub const MCP_GROUP: RuntimeFlag = RuntimeFlag {
    long: "group",
    value: Some("name,..."),
    meaning: "Serve only the tools of this group (a command's category; the level 3/4 verbs' \
              are navigation and state); repeat it or give a comma list. With --tools, the \
              tools of both.",
    machine_output: false,
};
/// `mcp --tools a,b`: serve only these tools.
pub const MCP_TOOLS: RuntimeFlag = RuntimeFlag {
    long: "tools",
    value: Some("name,..."),
    meaning: "Serve only these tools (their names as tools/list gives them); repeat it or give \
              a comma list. A call of another tool is the tool error TOOL_NOT_SERVED.",
    machine_output: false,
};
/// `mcp --discovery MODE`: how tools/list lists the served tools.
pub const MCP_DISCOVERY: RuntimeFlag = RuntimeFlag {
    long: "discovery",
    value: Some("mode"),
    meaning: "auto (the default): past 30 tools served, tools/list gives three tools instead \
              (tools__search, tools__describe, tools__call); full: every tool; progressive: \
              the three at any size.",
    machine_output: false,
};
/// The flags of the `mcp` word.
static MCP_FLAGS: &[RuntimeFlag] = &[
    MCP_CALL_TIMEOUT,
    MCP_PRINT_CONFIG,
    MCP_INSTALL,
    MCP_HTTP,
    MCP_ALLOW_ORIGIN,
    MCP_GROUP,
    MCP_TOOLS,
    MCP_DISCOVERY,
];

/// `docs --skill`: the Agent Skill instead of the `.llm` document.
pub const DOCS_SKILL: RuntimeFlag = RuntimeFlag {
    long: "skill",
    value: None,
    meaning: "Print the Agent Skill's SKILL.md instead of the .llm document.",
    machine_output: false,
};
/// `docs --plugin DIR`: the Agent Plugins package written into `DIR/<name>/`.
pub const DOCS_PLUGIN: RuntimeFlag = RuntimeFlag {
    long: "plugin",
    value: Some("dir"),
    meaning: "Write the tool's Agent Plugins package (plugin.json, the skill, mcp.json) into \
              DIR/<name>/, replacing files of the same name and no other, and list them.",
    machine_output: false,
};
/// The flags of the `docs` word. It is answered before clap parses
/// (`builtins::doc_commands`), which reads them from here.
static DOCS_FLAGS: &[RuntimeFlag] = &[DOCS_SKILL, DOCS_PLUGIN];

/// The word that lists what a tool's declared filesystem side effects left and removes it when
/// confirmed (CLI Agent Spec failure mode 30). Not a row of [`BUILTIN_WORDS`]: a tool has it
/// only where `faces::offers_cleanup` says, and the faces name it in the side-effect note.
pub const CLEANUP_WORD: &str = "cleanup";

/// `cleanup --dry-run`: what a removal would take, removing nothing.
pub const CLEANUP_DRY_RUN: RuntimeFlag = RuntimeFlag {
    long: "dry-run",
    value: None,
    meaning: "Say what would be removed, removing nothing.",
    machine_output: false,
};

const ALL: &[Profile] = &[Profile::Pas, Profile::Compose, Profile::Robot];
const COMPOSE_ONLY: &[Profile] = &[Profile::Compose];
const ROBOT_ONLY: &[Profile] = &[Profile::Robot];

/// Every built-in word, in the order agent help lists them. One list: later built-ins (`mcp`,
/// `sessions`, `capabilities`) are one row each.
///
/// The tables of this module are `static`, not `const`: a `const` holding references is copied
/// into every codegen unit that uses it, each copy's pointers a relocation the dynamic loader
/// applies at every start of every tool (issue 15); a `static` is one copy.
pub static BUILTIN_WORDS: &[BuiltinWord] = &[
    BuiltinWord {
        word: "tools",
        args: "[NAME]",
        meaning: "The JSON catalog of every command (or one, by dotted name).",
        flags: &[],
        kind: WordKind::Face,
        feature: None,
        profiles: ALL,
    },
    BuiltinWord {
        word: "docs",
        args: "",
        meaning: "The .llm document: the whole contract in Markdown.",
        flags: DOCS_FLAGS,
        kind: WordKind::Face,
        feature: None,
        profiles: ALL,
    },
    BuiltinWord {
        word: "completions",
        args: "<shell>",
        meaning: "Shell completions: bash, zsh, fish, powershell or elvish.",
        flags: &[],
        kind: WordKind::Face,
        feature: Some("completions"),
        profiles: ALL,
    },
    BuiltinWord {
        word: "man",
        args: "[COMMAND...]",
        meaning: "The roff man page of the tool or of one command.",
        flags: &[],
        kind: WordKind::Face,
        feature: Some("man"),
        profiles: ALL,
    },
    BuiltinWord {
        word: "mcp",
        args: "",
        meaning: "Serve the same commands as an MCP server on stdio (until EOF).",
        flags: MCP_FLAGS,
        kind: WordKind::Server,
        feature: Some("mcp"),
        profiles: ALL,
    },
    BuiltinWord {
        word: SESSIONS_WORD,
        args: "[--session ID]",
        meaning: "The stored sessions (total, resumable_count), or one in detail with --session ID.",
        flags: SESSIONS_FLAGS,
        kind: WordKind::State,
        feature: None,
        profiles: ROBOT_ONLY,
    },
    BuiltinWord {
        word: CAPABILITIES_WORD,
        args: "[--check-action NAME]",
        meaning: "What the tool can do here: OS, privileges, storage, limits, probes and actions.",
        flags: &[CHECK_ACTION],
        kind: WordKind::State,
        feature: None,
        profiles: ROBOT_ONLY,
    },
    BuiltinWord {
        word: DOCTOR_WORD,
        args: "",
        meaning: "OS, shell and requirement checks; the call's context and state files.",
        flags: &[],
        kind: WordKind::State,
        feature: None,
        profiles: ALL,
    },
    BuiltinWord {
        word: CHANGELOG_WORD,
        args: "",
        meaning: "Releases as JSON.",
        flags: &[],
        kind: WordKind::State,
        feature: None,
        profiles: ALL,
    },
    BuiltinWord {
        word: crate::job::JOB_WORD,
        args: "status|cancel ID, list",
        meaning: "Async jobs: `status ID` is the job's state, exit 0 once it succeeded (the \
                  result in data), else its JOB_* code; `cancel ID` ends it; `list` lists them.",
        flags: &[],
        kind: WordKind::State,
        feature: None,
        profiles: ALL,
    },
    BuiltinWord {
        word: "health",
        args: "",
        meaning: "Whether the tool can work now: ready, degraded or blocked, with fixes.",
        flags: &[],
        kind: WordKind::State,
        feature: None,
        profiles: COMPOSE_ONLY,
    },
    BuiltinWord {
        word: "config",
        args: "show",
        meaning: "Each global flag's effective value and where it came from.",
        flags: &[],
        kind: WordKind::State,
        feature: None,
        profiles: COMPOSE_ONLY,
    },
];

/// Every word a tool's command (or a one-command tool's positional) must not take, in every
/// profile: a built-in of any profile, so a spec can change profile without a rename.
///
/// `mcp` is the exception: a tool may have a command of that name (`pas-gen mcp` prints an MCP
/// export), which then wins over the built-in, as [`Surface::reachable_words`] says.
pub fn reserved_words() -> impl Iterator<Item = &'static str> {
    BUILTIN_WORDS
        .iter()
        .map(|b| b.word)
        .filter(|word| *word != MCP_WORD)
}

/// The built-in words of [`WordKind::Face`]: the documentation faces, answered before any
/// command is parsed.
pub fn face_words() -> impl Iterator<Item = &'static str> {
    BUILTIN_WORDS
        .iter()
        .filter(|b| b.kind == WordKind::Face)
        .map(|b| b.word)
}

/// Whether `word` is a built-in whose answer prints the commands' schemas.
pub fn word_shows_schemas(word: &str) -> bool {
    BUILTIN_WORDS
        .iter()
        .any(|b| b.word == word && b.kind.shows_schemas())
}

/// The runtime's flag that names a built-in word (`TOOL --builtin docs`).
///
/// **The rule** (issue 27, item 6: built-ins never shadow arguments), the one place it is
/// written; the runtime, the validator, conform and every face follow it:
///
/// - `TOOL --builtin WORD [ARGS]` reaches built-in `WORD` in every tool, whatever its commands
///   (the flag comes before any argument; global flags may precede it).
/// - In a tool whose root command takes positionals (a one-command tool such as
///   `word-counter FILE...`, [`builtins_need_flag`]), a bare word is always the positional's
///   value: a file named `docs`, `tools`, `doctor`, `changelog`, `man`, `completions` or `mcp` is
///   counted, and `TOOL --agent mcp` never starts the MCP server. There `--builtin WORD` is the
///   only way to a built-in, and every face writes it so ([`builtin_call`]).
/// - Everywhere else the bare word works too (`todo docs`, `todo mcp`): no positional could
///   take it, and a command of the tool's own with that word wins over the built-in.
pub const BUILTIN_FLAG: &str = "--builtin";

/// Whether a bare built-in word could be a positional's value in this tool: a command at the
/// root (a one-command tool) takes positionals. There the built-ins are reached only through
/// [`BUILTIN_FLAG`] (see its rule).
pub fn builtins_need_flag(registry: &Registry) -> bool {
    root_takes_positionals(registry)
}

/// Whether a command at the root (a one-command tool) takes positionals.
pub fn root_takes_positionals(registry: &Registry) -> bool {
    registry.commands.iter().any(|c| {
        c.argv_path().is_empty()
            && c.parameters
                .iter()
                .any(|p| p.kind != crate::ParamKind::Flag)
    })
}

/// The argv words (after the tool's name) that reach built-in `word` in this tool: `[word]`,
/// or `[--builtin, word]` where a root positional could take the word
/// ([`builtins_need_flag`]). Conform and the faces call built-ins with these.
pub fn builtin_argv(registry: &Registry, word: &str) -> Vec<String> {
    let mut words = Vec::with_capacity(2);
    if builtins_need_flag(registry) {
        words.push(BUILTIN_FLAG.to_owned());
    }
    words.push(word.to_owned());
    words
}

/// How a caller invokes built-in `word` in this tool: `TOOL word`, or `TOOL --builtin word`
/// where a root positional could take the word ([`builtins_need_flag`]).
pub fn builtin_call(registry: &Registry, word: &str) -> String {
    let mut words = vec![registry.name.clone()];
    words.extend(builtin_argv(registry, word));
    words.join(" ")
}

/// The built-in word that serves MCP (`TOOL mcp`).
pub const MCP_WORD: &str = "mcp";

/// The robot built-in that lists the stored sessions (robot 5.7); a tool has it when its spec
/// declares sessions.
pub const SESSIONS_WORD: &str = "sessions";

/// The one agent-help row of [`CALL_FLAGS`] (the agent help's token budget; `docs` says each
/// in full): the first flag's signature, and what each does, briefly; `--timeout` where the
/// runtime gives it ([`runtime_timeout_flag`]).
pub fn call_flags_row(registry: &Registry) -> (String, String) {
    // `--unmask` where the tool masks something (a tool that masks nothing has nothing to show).
    let unmask = match crate::faces::masking::tool_masks(registry) {
        true => format!(", {}", UNMASK.signature()),
        false => String::new(),
    };
    let timeout = match runtime_timeout_flag(registry) {
        true => format!(", {}", TIMEOUT.signature()),
        false => String::new(),
    };
    (
        OUTPUT_ID.signature(),
        format!(
            "Ids only, one a line (an id given as - reads stdin). Also {}, {}, {}, {}, {}, \
             {}{unmask}{timeout}.",
            STABLE_OUTPUT.signature(),
            CWD.signature(),
            SHOW_CONFIG.signature(),
            NO_CONFIG.signature(),
            SCHEMA_VERSION.signature(),
            MAX_OUTPUT.signature(),
        ),
    )
}

/// `--timeout SECONDS` (failure mode 11): the caller's time limit of one call. Not in a
/// profile's [`Surface::flags`], which a tool may not reuse: a tool that declares a flag named
/// `timeout` keeps it, and its callers use `PAS_TIMEOUT` (see [`runtime_timeout_flag`]).
pub const TIMEOUT: RuntimeFlag = RuntimeFlag {
    long: "timeout",
    value: Some("seconds"),
    meaning: "End the call after this many seconds (decimals allowed) with TIMEOUT, the output \
              so far kept whole; 0: no limit of the caller's. A command's declared limit may \
              only be lowered. Same as PAS_TIMEOUT. Without either, a call has no time limit \
              unless its command declares one.",
    machine_output: false,
};

/// Whether the runtime gives this tool's commands `--timeout` ([`TIMEOUT`]): the tool declares
/// no flag of its own named `timeout` (a global flag, or any command's; the tool's wins).
pub fn runtime_timeout_flag(registry: &Registry) -> bool {
    !registry
        .global_flags
        .iter()
        .chain(registry.commands.iter().flat_map(|c| c.parameters.iter()))
        .any(|p| p.kind == crate::ParamKind::Flag && p.name == TIMEOUT.long)
}

/// How a caller sets a time limit in this tool: `--timeout SECONDS (or PAS_TIMEOUT)`, or
/// `PAS_TIMEOUT=SECONDS` where the tool owns `--timeout`.
pub fn timeout_words(registry: &Registry) -> &'static str {
    match runtime_timeout_flag(registry) {
        true => "`--timeout SECONDS` (or PAS_TIMEOUT=SECONDS)",
        false => "PAS_TIMEOUT=SECONDS",
    }
}

/// The built-in of every profile that reports the platform, the call's context and its state
/// files as checks (CLI Agent Spec failure modes 27 and 26).
pub const DOCTOR_WORD: &str = "doctor";

/// The built-in of every profile that prints the tool's declared changelog (CLI Agent Spec
/// failure mode 22).
pub const CHANGELOG_WORD: &str = "changelog";

/// The robot built-in that reports what the tool can do here (robot 5.8).
pub const CAPABILITIES_WORD: &str = "capabilities";

/// How a list command's output looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListShape {
    /// One JSON value per line, streamed (`--format array` for one array).
    Ndjson,
    /// One envelope whose `data` is the array of items.
    EnvelopeArray,
    /// One robot envelope (robot 3.1) whose `data` is the array of items, or holds it at the
    /// command's `listField`; no `meta`.
    RobotEnvelope,
}

/// Where a failure goes and which exit code it ends with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorChannel {
    /// One JSON line on stderr, stdout empty; exit with the registry's table (PAS 7.1).
    StderrTable,
    /// One `{ok:false,error:{code,...}}` envelope on stdout; exit 1, or 2 for a blocking code.
    Envelope,
    /// One robot envelope with `status: error` on stdout; exit with the spec's named table
    /// (runtime errors take the code of their role, robot 11).
    RobotEnvelope,
}

/// One profile's built-in surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Surface {
    /// The profile.
    pub profile: Profile,
    /// The switch that turns machine output on, when output is not machine output always.
    pub machine_switch: Option<&'static str>,
    /// The flags every command accepts, as agent help lists them (machine switch first).
    pub flags: &'static [RuntimeFlag],
    /// List commands take `--format ndjson|array`.
    pub list_format_flag: bool,
    /// How a list looks.
    pub list_shape: ListShape,
    /// How errors are written and which exit code they take.
    pub errors: ErrorChannel,
    /// The flag that confirms a destructive command (the runtime refuses it without).
    pub confirm_flag: &'static str,
    /// A command the spec marks `confirm` needs [`Surface::confirm_flag`] too, destructive or
    /// not (robot 6.4).
    pub confirm_marked: bool,
    /// A command that continues or reads a session takes `--session <ID>`, and one that
    /// continues it `--resume` (robot 7).
    pub session_flags: bool,
    /// The error constant of a destructive command run without [`Surface::confirm_flag`].
    pub confirm_error: &'static str,
    /// The runtime's anti-pattern that applies to every tool of the profile, if any:
    /// (pattern after the tool's name, what to do instead).
    pub anti_pattern: Option<(&'static str, &'static str)>,
}

/// The error constant of a destructive command run without its confirmation flag.
pub const FORCE_REQUIRED: &str = "FORCE_REQUIRED";

const AGENT: RuntimeFlag = RuntimeFlag {
    long: "agent",
    value: None,
    meaning: "Machine mode: JSON on stdout, JSON errors on stderr, no colour, no prompt. \
              Same as PAS_AGENT=1.",
    machine_output: true,
};
/// Compose's `--agent`: accepted and ignored, so that a harness that adds `--agent` to every
/// call of every pas tool works on compose tools too (every compose call is machine output).
pub const COMPOSE_AGENT: RuntimeFlag = RuntimeFlag {
    long: "agent",
    value: None,
    meaning: "Accepted and changes nothing (a no-op): every call already prints the JSON \
              envelope, so a harness may add it to every call. Same as PAS_AGENT=1.",
    machine_output: true,
};
const TOON: RuntimeFlag = RuntimeFlag {
    long: "toon",
    value: None,
    meaning: "Print the envelope as TOON instead of JSON.",
    machine_output: true,
};
const AUDIT_LOG: RuntimeFlag = RuntimeFlag {
    long: "audit-log",
    value: Some("path"),
    meaning: "Append one JSON line per call (time, command, redacted arguments, result).",
    machine_output: false,
};
/// `--config`; its meaning names the tool's variable and directory (see [`config_meaning`]).
const CONFIG: RuntimeFlag = RuntimeFlag {
    long: "config",
    value: Some("path"),
    meaning: "",
    machine_output: false,
};
const VERSION: RuntimeFlag = RuntimeFlag {
    long: "version",
    value: None,
    meaning: "Print the name, version and PAS level.",
    machine_output: false,
};
/// `--validate-only` (failure modes 14 and 54): every check the runtime makes before a
/// handler, and no handler.
pub const VALIDATE_ONLY: RuntimeFlag = RuntimeFlag {
    long: "validate-only",
    value: None,
    meaning: "Check the call (arguments, declared constraints and relations, confirmation, \
              requirements, credentials, stdin against the inputSchema) and answer \
              {\"valid\":true} without running the command; a problem is the error the call \
              would end with.",
    machine_output: false,
};

/// `--output-id` (CLI Agent Spec failure mode 6): the ids of the results, one per line, so they
/// pipe into the next command (whose id parameters read `-` from stdin).
pub const OUTPUT_ID: RuntimeFlag = RuntimeFlag {
    long: "output-id",
    value: None,
    meaning: "Print only the id of each result, one per line, to pipe into another command's \
              id given as - (read from stdin); the id is the field the outputSchema marks \
              \"x-id\": true, else `id`.",
    machine_output: false,
};
/// `--stable-output` (failure mode 7): the same input gives the same bytes.
pub const STABLE_OUTPUT: RuntimeFlag = RuntimeFlag {
    long: "stable-output",
    value: None,
    meaning: "Deterministic output: object keys sorted, fields the outputSchema marks \
              \"x-volatile\": true dropped, and the envelope's timings, request id and \
              timestamp left out or fixed; arrays keep their order unless the outputSchema \
              declares them a set (\"uniqueItems\": true).",
    machine_output: false,
};
/// `--cwd` (failure mode 29): the directory the call runs in, as `git -C` does.
pub const CWD: RuntimeFlag = RuntimeFlag {
    long: "cwd",
    value: Some("dir"),
    meaning: "Run the call in this directory: relative paths in arguments and the configuration \
              resolve against it; paths the outputSchema marks \"format\": \"path\" come back \
              absolute.",
    machine_output: false,
};
/// `--show-config` (failure mode 28): where each setting came from, in every profile.
pub const SHOW_CONFIG: RuntimeFlag = RuntimeFlag {
    long: "show-config",
    value: None,
    meaning: "Print each global flag's effective value and its source (flag, environment, \
              file, default; precedence in that order) and the configuration file read, \
              instead of running the command.",
    machine_output: false,
};
/// `--no-config` (failure mode 28): an isolated run that reads no configuration file.
pub const NO_CONFIG: RuntimeFlag = RuntimeFlag {
    long: "no-config",
    value: None,
    meaning: "Read no configuration file (flags, environment and defaults only).",
    machine_output: false,
};
/// `--schema-version` (failure mode 22): the output schema version the caller was built
/// against; the call runs only when the tool's is compatible with it.
pub const SCHEMA_VERSION: RuntimeFlag = RuntimeFlag {
    long: "schema-version",
    value: Some("v"),
    meaning: "Run only if the output schema version the caller expects is compatible (same \
              major; equal while the major is 0), else SCHEMA_VERSION_UNSUPPORTED (exit 2) \
              naming the supported one.",
    machine_output: false,
};
/// `--max-output` (failure mode 43, asked for): the call's output bound; nothing past it is
/// lost.
pub const MAX_OUTPUT: RuntimeFlag = RuntimeFlag {
    long: "max-output",
    value: Some("bytes"),
    meaning: "Bound the output (also PAS_OUTPUT_LIMIT=BYTES; a command's declared cap applies \
              in machine mode and this may only lower it): a list stops at its last whole item \
              under the bound and the rest of its items go to a file (an OUTPUT_IN_FILE \
              warning names it); one object or document past it is written whole to a file and \
              the answer is {\"output_file\":{path,bytes,sha256,preview,read}}. Files are 0600 \
              under $XDG_CACHE_HOME/TOOL/output, removed after 24 h. Nothing is shortened.",
    machine_output: false,
};
/// `--unmask` (failure mode 59): values the tool masks come back raw.
pub const UNMASK: RuntimeFlag = RuntimeFlag {
    long: "unmask",
    value: None,
    meaning: "Return the values the tool masks (output fields marked sensitive; high-entropy \
              strings where the tool declares it) raw; same as PAS_UNMASK=1.",
    machine_output: false,
};
/// The flags of failure modes 6, 7, 22, 28 and 29, in every profile: the `.llm` says them in its
/// machine-mode paragraph rather than a row each (PAS 4.2's 200 lines), agent help in one row,
/// the catalog among its global flags. They are not `machine_output` flags: they exist in every
/// profile, so no profile has to refuse them.
pub static CALL_FLAGS: &[RuntimeFlag] = &[
    OUTPUT_ID,
    STABLE_OUTPUT,
    CWD,
    SHOW_CONFIG,
    NO_CONFIG,
    SCHEMA_VERSION,
    MAX_OUTPUT,
    UNMASK,
];

const ROBOT_AGENT: RuntimeFlag = RuntimeFlag {
    long: "agent",
    value: None,
    meaning: "Agent help: --help prints the short contract. Output is the envelope with or \
              without it. Same as PAS_AGENT=1.",
    machine_output: true,
};
const COMPACT: RuntimeFlag = RuntimeFlag {
    long: "compact",
    value: None,
    meaning: "Drop the fields the spec marks optional for compact output (robot 8.1).",
    machine_output: true,
};
const FIELDS: RuntimeFlag = RuntimeFlag {
    long: "fields",
    value: Some("a,b,..."),
    meaning: "Keep only these fields of the items of the command's principal list; an unknown \
              field is an argument error naming the known ones (robot 8.2).",
    machine_output: true,
};
/// `--fields` in the `pas` and `compose` profiles (CLI Agent Spec failure mode 4): the same
/// selection as robot's, on the JSON items (agent mode, `--format`, the compose envelope).
const LIST_FIELDS: RuntimeFlag = RuntimeFlag {
    long: "fields",
    value: Some("a,b,..."),
    meaning: "Keep only these fields of each item of the command's list in JSON output; an \
              unknown field is an argument error naming the known ones.",
    machine_output: true,
};
const ROBOT_FORMAT: RuntimeFlag = RuntimeFlag {
    long: "format",
    value: Some("json|md"),
    meaning: "json: the envelope (the default); md: the same envelope as Markdown for a person.",
    machine_output: true,
};
const INCLUDE_PROSE: RuntimeFlag = RuntimeFlag {
    long: "include-prose",
    value: None,
    meaning: "Add the handler's prose summary at data.prose_summary (robot 8.3).",
    machine_output: true,
};
const PROSE_STYLE: RuntimeFlag = RuntimeFlag {
    long: "prose-style",
    value: Some("terse|conversational|formal|technical"),
    meaning: "The prose summary's voice, with --include-prose (default terse).",
    machine_output: true,
};

/// The `pas` profile (PAS levels 1 to 4).
pub static PAS: Surface = Surface {
    profile: Profile::Pas,
    machine_switch: Some("--agent"),
    flags: &[
        AGENT,
        AUDIT_LOG,
        CONFIG,
        VERSION,
        LIST_FIELDS,
        VALIDATE_ONLY,
        OUTPUT_ID,
        STABLE_OUTPUT,
        CWD,
        SHOW_CONFIG,
        NO_CONFIG,
        SCHEMA_VERSION,
        MAX_OUTPUT,
        UNMASK,
    ],
    list_format_flag: true,
    list_shape: ListShape::Ndjson,
    errors: ErrorChannel::StderrTable,
    confirm_flag: "force",
    confirm_marked: false,
    session_flags: false,
    confirm_error: FORCE_REQUIRED,
    anti_pattern: Some((
        "... without --agent",
        "Text for people, not a contract; add --agent for JSON.",
    )),
};

/// The `compose` profile: JSON envelopes always, so no machine switch and no `--format`
/// (presentation flags are an anti-pattern of the compose contract; `--toon` is its one
/// alternate encoding); `--agent` is accepted as a no-op ([`COMPOSE_AGENT`]).
pub static COMPOSE: Surface = Surface {
    profile: Profile::Compose,
    machine_switch: None,
    flags: &[
        TOON,
        AUDIT_LOG,
        CONFIG,
        VERSION,
        LIST_FIELDS,
        VALIDATE_ONLY,
        OUTPUT_ID,
        STABLE_OUTPUT,
        CWD,
        SHOW_CONFIG,
        NO_CONFIG,
        SCHEMA_VERSION,
        MAX_OUTPUT,
        UNMASK,
        COMPOSE_AGENT,
    ],
    list_format_flag: false,
    list_shape: ListShape::EnvelopeArray,
    errors: ErrorChannel::Envelope,
    confirm_flag: "force",
    confirm_marked: false,
    session_flags: false,
    confirm_error: FORCE_REQUIRED,
    anti_pattern: None,
};

/// The `robot` profile: one envelope on stdout for every call, success or error (robot 3),
/// with or without `--agent` (which asks for agent help); the token controls `--compact`,
/// `--fields`, `--format json|md`, `--include-prose` and `--prose-style` (robot 8); sessions
/// (`--session`, `--resume`, the `sessions` built-in) and `capabilities`; and its confirmation:
/// a destructive command, or one marked `confirm`, acts only with `--yes` (robot 6.4), refused
/// with the spec's `confirmation` role code (see [`Surface::confirm_error_in`]).
pub static ROBOT: Surface = Surface {
    profile: Profile::Robot,
    machine_switch: Some("--agent"),
    flags: &[
        ROBOT_AGENT,
        AUDIT_LOG,
        CONFIG,
        VERSION,
        VALIDATE_ONLY,
        COMPACT,
        FIELDS,
        ROBOT_FORMAT,
        INCLUDE_PROSE,
        PROSE_STYLE,
        OUTPUT_ID,
        STABLE_OUTPUT,
        CWD,
        SHOW_CONFIG,
        NO_CONFIG,
        SCHEMA_VERSION,
        MAX_OUTPUT,
        UNMASK,
    ],
    list_format_flag: false,
    list_shape: ListShape::RobotEnvelope,
    errors: ErrorChannel::RobotEnvelope,
    confirm_flag: "yes",
    confirm_marked: true,
    session_flags: true,
    confirm_error: FORCE_REQUIRED,
    anti_pattern: None,
};

/// A flag the runtime adds to one command (where it applies), as every face lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandFlag {
    /// The long name, without `--`.
    pub long: &'static str,
    /// The value's placeholder (`ID`), or `None` for a switch.
    pub value: Option<&'static str>,
    /// What it does, for this command.
    pub meaning: String,
    /// The command refuses to run without it (`--session` where the command needs a session).
    pub required: bool,
}

/// The surface of a profile.
pub fn of(profile: Profile) -> &'static Surface {
    match profile {
        Profile::Pas => &PAS,
        Profile::Compose => &COMPOSE,
        Profile::Robot => &ROBOT,
    }
}

/// Every machine-output flag any profile knows, so conform can try those a tool's own profile
/// omits.
pub fn all_machine_flags() -> Vec<&'static str> {
    let mut flags: Vec<&'static str> = Vec::new();
    for surface in [&PAS, &COMPOSE, &ROBOT] {
        for flag in surface.flags.iter().filter(|f| f.machine_output) {
            if !flags.contains(&flag.long) {
                flags.push(flag.long);
            }
        }
        if surface.list_format_flag && !flags.contains(&"format") {
            flags.push("format");
        }
    }
    flags
}

impl Surface {
    /// The error constant a destructive command run without [`Surface::confirm_flag`] answers
    /// with in this tool: the profile's constant, or in the robot profile the spec's
    /// `confirmation` role (falling back to its `arguments` role, then to the seed's name).
    pub fn confirm_error_in<'a>(&self, registry: &'a Registry) -> &'a str {
        if self.profile != Profile::Robot {
            return self.confirm_error;
        }
        use crate::robot::ExitRole;
        registry
            .code_for_role(ExitRole::Confirmation)
            .or_else(|| registry.code_for_role(ExitRole::Arguments))
            .map_or(ExitRole::Confirmation.fallback().0, |c| c.name.as_str())
    }

    /// Whether `command` acts only with [`Surface::confirm_flag`]: a destructive command, or in
    /// robot one the spec marks `confirm`. The runtime, the faces, the validator and the
    /// scaffold's calls all ask this.
    pub fn needs_confirm(&self, command: &Command) -> bool {
        command.effect == Effect::Destructive || (self.confirm_marked && command.confirm)
    }

    /// `--confirm_flag` (`--force`, `--yes`).
    pub fn confirm_long(&self) -> String {
        format!("--{}", self.confirm_flag)
    }

    /// The session flags the runtime gives `command`: `--session <ID>` when it continues or
    /// reads a session, `--resume` when it continues one (robot 7).
    pub fn session_flags_of(&self, registry: &Registry, command: &Command) -> Vec<CommandFlag> {
        use crate::robot::SessionUse;
        let mut flags = Vec::new();
        if !self.session_flags || registry.sessions().is_none() {
            return flags;
        }
        if matches!(
            command.session,
            Some(SessionUse::Continue | SessionUse::Read)
        ) {
            flags.push(CommandFlag {
                long: "session",
                value: Some("ID"),
                meaning: format!(
                    "Required. The session to {} (`{} sessions` lists them); an unknown or \
                     expired one is {}.",
                    if command.session == Some(SessionUse::Read) {
                        "read"
                    } else {
                        "continue"
                    },
                    registry.name,
                    registry.role_code(crate::robot::ExitRole::Session).0
                ),
                required: true,
            });
        }
        if command.session == Some(SessionUse::Continue) {
            flags.push(CommandFlag {
                long: "resume",
                value: None,
                meaning: "Resume an interrupted session: completed actions are not redone, and \
                          the envelope carries resumed and resume_context."
                    .to_owned(),
                required: false,
            });
        }
        flags
    }

    /// The built-in words of this profile.
    pub fn builtin_words(&self) -> impl Iterator<Item = &'static BuiltinWord> + '_ {
        BUILTIN_WORDS
            .iter()
            .filter(|b| b.profiles.contains(&self.profile))
    }

    /// The built-in words the faces list for this tool: those it answers
    /// ([`Surface::reachable_words`]) and is built with ([`Registry::built`]): a word behind a
    /// cargo feature the tool lacks answers `FEATURE_NOT_BUILT`, so no face names it.
    pub fn listed_words<'a>(
        &'a self,
        registry: &'a Registry,
    ) -> impl Iterator<Item = &'static BuiltinWord> + 'a {
        self.reachable_words(registry)
            .filter(|b| b.feature.is_none_or(|feature| registry.built.has(feature)))
    }

    /// The built-in words a tool of this profile answers: those no command of its own takes
    /// (built or not: a word the tool is built without answers `FEATURE_NOT_BUILT`).
    pub fn reachable_words<'a>(
        &'a self,
        registry: &'a Registry,
    ) -> impl Iterator<Item = &'static BuiltinWord> + 'a {
        // robot's built-ins are subcommands: a one-command tool keeps its root positionals,
        // and `sessions` exists where the spec declares sessions.
        let root_command = registry.commands.iter().any(|c| c.argv_path().is_empty());
        self.builtin_words().filter(move |b| {
            let robot_word = b.word == SESSIONS_WORD || b.word == CAPABILITIES_WORD;
            if robot_word && root_command {
                return false;
            }
            if b.word == SESSIONS_WORD && registry.sessions().is_none() {
                return false;
            }
            if b.word == crate::job::JOB_WORD {
                return registry.offers_jobs();
            }
            !registry
                .commands
                .iter()
                .any(|c| c.argv_path().first().map(String::as_str) == Some(b.word))
        })
    }

    /// The words an invocation starts with: the tool's name, then the machine switch.
    pub fn invocation_prefix(&self, registry: &Registry) -> Vec<String> {
        let mut words = vec![registry.name.clone()];
        words.extend(self.machine_switch.map(str::to_owned));
        words
    }

    /// The flags of every command, each as (signature, meaning) for this tool.
    pub fn flag_rows(&self, registry: &Registry) -> Vec<(String, String)> {
        self.flags
            .iter()
            .map(|flag| (flag.signature(), meaning_in(flag, registry)))
            .collect()
    }

    /// The flags of the `cleanup` word ([`CLEANUP_WORD`]) in this profile: `--dry-run`, and
    /// the profile's confirm flag, which removes.
    pub fn cleanup_flags(&self) -> [RuntimeFlag; 2] {
        [
            CLEANUP_DRY_RUN,
            RuntimeFlag {
                long: self.confirm_flag,
                value: None,
                meaning: "Remove what is listed (only inside the tool's own directories).",
                machine_output: false,
            },
        ]
    }

    /// Whether the runtime gives this flag (long name, without `--`) to every command.
    pub fn has_flag(&self, long: &str) -> bool {
        self.flags.iter().any(|f| f.long == long)
    }

    /// The flag of every command with this long name (without `--`), if the profile has it.
    pub fn flag(&self, long: &str) -> Option<&'static RuntimeFlag> {
        self.flags.iter().find(|f| f.long == long)
    }

    /// The exit status an error constant ends with in this profile.
    pub fn exit_of(&self, registry: &Registry, name: &str) -> u8 {
        // robot: the spec's table, then the role a runtime constant takes (robot 11).
        if self.errors == ErrorChannel::RobotEnvelope {
            if let Some(code) = registry.exit_codes.iter().find(|c| c.name == name) {
                return u8::try_from(code.code).unwrap_or(1);
            }
            // `job status`'s states keep their own codes (failure mode 49).
            if let Some(job) = crate::builtin_codes::JOB_CODES
                .iter()
                .find(|b| b.name == name)
            {
                return job.exit;
            }
            let role = crate::robot::builtin_role(name).unwrap_or(crate::robot::ExitRole::Internal);
            return registry.role_code(role).1;
        }
        match self.errors {
            ErrorChannel::StderrTable => crate::builtin_codes::exit_code(registry, name),
            ErrorChannel::RobotEnvelope => unreachable!("answered above"),
            ErrorChannel::Envelope => {
                let blocking = name == crate::builtin_codes::CONFIG_INVALID
                    || name == crate::builtin_codes::SCHEMA_VERSION_UNSUPPORTED
                    || crate::declare::DECLARED_CODES
                        .iter()
                        .any(|(n, _)| *n == name)
                        && !registry.exit_codes.iter().any(|c| c.name == name)
                    || registry
                        .exit_codes
                        .iter()
                        .any(|c| c.blocking && c.name == name);
                if blocking { 2 } else { 1 }
            }
        }
    }
}

/// What `flag` does in this tool: its meaning, or for `--config` the sentence that names the
/// tool's variable and directory. Every face and the runtime's clap help print this.
pub fn meaning_in(flag: &RuntimeFlag, registry: &Registry) -> String {
    if flag.long == CONFIG.long && flag.meaning.is_empty() {
        config_meaning(registry)
    } else if flag.long == MCP_HTTP.long && flag.meaning.is_empty() {
        format!(
            "Serve MCP over streamable HTTP at ADDR (a port, or IP:PORT; loopback unless the IP \
             says otherwise) on the path /mcp, statelessly, instead of stdio. Any other address \
             needs a bearer token in ${}, which every request must then carry.",
            crate::faces::mcp_token_env_var(&registry.name)
        )
    } else {
        flag.meaning.to_owned()
    }
}

fn config_meaning(registry: &Registry) -> String {
    format!(
        "Read global flags from this TOML file (else ${}, else ~/.config/{}/config.toml); flags \
         and environment win over it.",
        crate::faces::config_env_var(&registry.name),
        registry.name
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_has_no_machine_switch_and_no_format_and_takes_agent_as_a_no_op() {
        assert!(COMPOSE.machine_switch.is_none());
        assert_eq!(COMPOSE.flag("agent"), Some(&COMPOSE_AGENT));
        assert!(!COMPOSE.list_format_flag);
        assert!(COMPOSE.has_flag("toon"));
        assert!(PAS.has_flag("agent") && !PAS.has_flag("toon"));
    }

    #[test]
    fn machine_flags_of_every_profile() {
        assert_eq!(
            all_machine_flags(),
            [
                "agent",
                "fields",
                "format",
                "toon",
                "compact",
                "include-prose",
                "prose-style"
            ]
        );
    }

    /// robot's own flags and words are rows of the one table every face and the validator read.
    #[test]
    fn robot_row_has_its_flags_words_and_confirm_rule() {
        for long in [
            "agent",
            "compact",
            "fields",
            "format",
            "include-prose",
            "prose-style",
        ] {
            assert!(ROBOT.has_flag(long), "{long}");
        }
        for long in ["compact", "include-prose", "prose-style"] {
            assert!(!PAS.has_flag(long) && !COMPOSE.has_flag(long), "{long}");
        }
        // `--fields` is in every profile (CLI Agent Spec failure mode 4).
        assert!(PAS.has_flag("fields") && COMPOSE.has_flag("fields"));
        assert_eq!(ROBOT.flag("format").and_then(|f| f.value), Some("json|md"));
        assert!(!ROBOT.list_format_flag && ROBOT.confirm_marked && ROBOT.session_flags);
        let words: Vec<&str> = ROBOT.builtin_words().map(|b| b.word).collect();
        assert!(words.contains(&"sessions") && words.contains(&"capabilities"));
        let pas: Vec<&str> = PAS.builtin_words().map(|b| b.word).collect();
        assert!(!pas.contains(&"sessions") && !pas.contains(&"capabilities"));
        assert_eq!((ROBOT.confirm_flag, PAS.confirm_flag), ("yes", "force"));
    }

    #[test]
    fn every_profile_has_the_documentation_words() {
        for profile in [Profile::Pas, Profile::Compose, Profile::Robot] {
            let words: Vec<&str> = of(profile).builtin_words().map(|b| b.word).collect();
            for word in ["tools", "docs", "completions", "man"] {
                assert!(words.contains(&word), "{profile:?} {word}");
            }
        }
    }

    #[test]
    fn the_faces_are_the_words_that_document_and_they_show_schemas_as_mcp_does() {
        let faces: Vec<&str> = face_words().collect();
        assert_eq!(faces, ["tools", "docs", "completions", "man"]);
        for word in faces.iter().chain(&[MCP_WORD]) {
            assert!(word_shows_schemas(word), "{word}");
        }
        for word in [DOCTOR_WORD, SESSIONS_WORD, CHANGELOG_WORD, "health", "list"] {
            assert!(!word_shows_schemas(word), "{word}");
        }
    }
}
