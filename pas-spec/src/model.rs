//! The registry: one description of a command-line tool from which every face is derived.
//!
//! These types are also the spec format v1: they are deserialised from YAML or JSON written by
//! people, serialised back (the round trip is the identity), and their JSON Schema
//! (`specs/pas-spec.schema.json`) is generated from them with schemars. Keys are camelCase so they
//! match the compose catalog's field names where the two overlap (`outputSchema`, `rateLimit`, ...).
//!
//! Optional fields are skipped when they hold their default, so a registry printed back as a
//! spec is as short as one a person would write.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The spec format version this crate reads and writes.
pub const SPEC_VERSION: u32 = 1;

/// A whole tool: its identity, its contract, its exit codes and its commands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(
    title = "pas spec",
    description = "A command-line tool described once for pas (spec format v1)."
)]
pub struct Registry {
    /// Spec format version. Always 1 for this format.
    pub spec_version: u32,
    /// The tool's binary name, e.g. `word-counter`.
    pub name: String,
    /// The tool's version (semver), printed by `--version`.
    pub version: String,
    /// One sentence saying what the tool is for.
    pub summary: String,
    /// A longer description for human help and documents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The PAS conformance level the tool claims (1 to 4); the validator checks the spec backs it.
    #[serde(default = "default_level", skip_serializing_if = "is_default_level")]
    #[schemars(range(min = 1, max = 4))]
    pub level: u8,
    /// The contract the built CLI keeps: how results, errors and exit codes become bytes.
    #[serde(default, skip_serializing_if = "is_default")]
    pub profile: Profile,
    /// Robot profile only: the `schema_version` its envelopes carry. Defaults to the tool version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema_version: Option<String>,
    /// Flags accepted by every command (besides the built-in `--agent`, `--help`, `--version`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub global_flags: Vec<Parameter>,
    /// The tool's own exit codes. 0, 1 and 2 are implicit in the `pas` and `compose` profiles.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exit_codes: Vec<ExitCode>,
    /// Mistakes agents make with this tool, shown in agent help and `.llm` documents.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub anti_patterns: Vec<AntiPattern>,
    /// Whole-tool usage patterns (COMMON PATTERNS in agent help).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
    /// Levels 3 and 4: the hierarchical resources the navigation and state verbs act on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<Resource>,
    /// Robot profile only: sessions, safety gates, limits, privacy and the envelope's `$schema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robot: Option<crate::robot::RobotSettings>,
    /// How the tool finds its credentials; commands marked `auth: true` fail with
    /// `AUTH_REQUIRED` before their handler when none is present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<crate::declare::Auth>,
    /// What the tool needs from the machine (programs, environment variables, files): `health`
    /// checks them all, and a command that `needs` one fails with `REQUIREMENT_MISSING` before its
    /// handler when it is absent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<crate::declare::Requirement>,
    /// The tool's releases, newest first: the `changelog` built-in prints them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changelog: Vec<crate::ChangelogEntry>,
    /// Mask high-entropy strings (JWTs, API keys, long base64 runs) in every output and error
    /// of the tool with a short summary (CLI Agent Spec failure mode 59). Off by default: a
    /// tool that declares nothing masks only what its outputSchemas mark `"x-sensitive": true`
    /// or `"format": "password"`. The caller's own arguments are never masked, and `--unmask`
    /// (or `PAS_UNMASK=1`) shows every value raw.
    #[serde(default, skip_serializing_if = "is_false")]
    pub mask_high_entropy: bool,
    /// The tool's commands. A tool with one command and an empty argv path is a single-command tool.
    pub commands: Vec<Command>,
    /// Which optional faces (pas-kit's cargo features) the tool is built with: not part of the
    /// spec. Faces list a feature's built-in only where the tool has it; a spec read from a file
    /// describes a tool with every one ([`crate::Features::ALL`]) until the runtime sets what it
    /// was built with.
    #[serde(skip)]
    #[schemars(skip)]
    pub built: crate::Features,
}

fn default_level() -> u8 {
    1
}

fn is_default_level(level: &u8) -> bool {
    *level == default_level()
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// The contract profile: a rendering policy chosen per tool. Handlers never depend on it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// PAS: raw JSON with `--agent`, NDJSON for lists, JSON errors on stderr, exit 0/1/2/100-125.
    #[default]
    Pas,
    /// compose: one `{ok,data,meta}` envelope per call, exit 0/1/2, `tools`/`health`/`config show`.
    Compose,
    /// robot: a versioned envelope with `status`, named exit codes that may signal success.
    Robot,
}

impl Profile {
    /// The spelling used in specs and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Pas => "pas",
            Profile::Compose => "compose",
            Profile::Robot => "robot",
        }
    }
}

/// One exit code of the tool, with the constant an agent matches on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExitCode {
    /// The process exit status (0-255; 100-125 for tool errors in the `pas` profile).
    pub code: u16,
    /// The error constant, UPPER_SNAKE_CASE, e.g. `FILE_NOT_FOUND`.
    pub name: String,
    /// What the code means, in a few words.
    pub meaning: String,
    /// compose: a blocked prerequisite (environment, config, schema, dependency); exits 2.
    #[serde(default, skip_serializing_if = "is_false")]
    pub blocking: bool,
    /// robot: the code reports a kind of success (e.g. `OK_CANDIDATES`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub success: bool,
    /// A whole invocation that makes the tool fail with this code, written like an example's
    /// `command`, e.g. `word-counter --agent no-such-file.txt`; `pas-gen conform` runs it in a
    /// scratch directory, so it must need no network, credentials or prior setup.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// robot: what the runtime uses this code for (argument errors, panics, signals, sessions,
    /// locks, gates); each role is given to at most one code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<crate::robot::ExitRole>,
}

/// A mistake to avoid, and why or what to do instead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AntiPattern {
    /// The invocation or habit to avoid.
    pub pattern: String,
    /// Why it is wrong, or what to do instead.
    pub instead: String,
}

/// A usage example: an invocation line and what it does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Example {
    /// The whole invocation, starting with the tool's name, e.g. `word-counter --agent a.txt`.
    pub command: String,
    /// What it does, in a few words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A resource path template for the level 3 and 4 verbs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Resource {
    /// A path template such as `/users/{id}/orders`.
    pub path: String,
    /// What lives at this path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The verbs this path supports.
    pub verbs: Vec<Verb>,
}

/// The navigation (level 3) and state (level 4) verbs of PAS.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Verb {
    /// List children (NDJSON of `{path,type,...}`).
    Ls,
    /// Read a resource's content.
    Cat,
    /// Read a resource's metadata.
    Stat,
    /// Write or copy a resource.
    Cp,
    /// Delete a resource.
    Rm,
    /// One-way pull from remote to local disk.
    Sync,
    /// Report a problem with a resource to the maintainers.
    Feedback,
}

impl Verb {
    /// Every verb, in the order PAS lists them.
    pub const ALL: [Verb; 7] = [
        Verb::Ls,
        Verb::Cat,
        Verb::Stat,
        Verb::Cp,
        Verb::Rm,
        Verb::Sync,
        Verb::Feedback,
    ];

    /// The verb as typed on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Ls => "ls",
            Verb::Cat => "cat",
            Verb::Stat => "stat",
            Verb::Cp => "cp",
            Verb::Rm => "rm",
            Verb::Sync => "sync",
            Verb::Feedback => "feedback",
        }
    }
}

/// One command of the tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Command {
    /// Dotted name, `group.action` (e.g. `task.create`); the catalog's `name`.
    pub name: String,
    /// The argv words that select the command. Defaults to the dotted name split on `.`;
    /// `[]` makes the tool a single-command tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<String>>,
    /// Catalog category (sorting key); defaults to the first segment of the name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// What the command does, in one or two sentences.
    pub description: String,
    /// What the command does to the world.
    #[serde(default, skip_serializing_if = "is_default")]
    pub effect: Effect,
    /// Running it twice has the same effect as once. Defaults to true for `read`, false otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    /// A rate limit in words, e.g. `60/minute`, or absent when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<String>,
    /// Flags and positional arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<Parameter>,
    /// Whether the command reads standard input. Only commands that say so ever read it.
    #[serde(default, skip_serializing_if = "is_default")]
    pub stdin: StdinMode,
    /// The shape of a successful result.
    #[serde(default, skip_serializing_if = "is_default")]
    pub output: OutputKind,
    /// JSON Schema of one result (of one item, for lists and events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// JSON Schema of the structured input a mutating command accepts (on stdin or a flag).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
    /// The exit codes (by constant name) this command may end with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
    /// Invocation examples; each must parse against this command.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
    /// Mistakes to avoid with this command.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub anti_patterns: Vec<AntiPattern>,
    /// Other argv words that select this command.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// Set when the command is kept only for compatibility.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<Deprecation>,
    /// How far callers may rely on its output (`stable` by default); running a `beta` or
    /// `experimental` command adds a warning.
    #[serde(default, skip_serializing_if = "crate::Stability::is_stable")]
    pub stability: crate::Stability,
    /// A mutating command that accepts `--dry-run` and then changes nothing.
    #[serde(default, skip_serializing_if = "is_false")]
    pub dry_run: bool,
    /// A list command that pages: the parameters that carry the page size and the cursor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paging: Option<Paging>,
    /// robot: how the command takes part in a session (creates one, continues one, reads one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<crate::robot::SessionUse>,
    /// robot: the command acts only with `--yes` (the runtime refuses it without).
    #[serde(default, skip_serializing_if = "is_false")]
    pub confirm: bool,
    /// robot: the key of `data` holding the command's principal list (what `--fields` selects
    /// from and `--compact` trims); a list command's items are its principal list already.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_field: Option<String>,
    /// robot: fields `--compact` drops from each item of the principal list (and from `data`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compact_omit: Vec<String>,
    /// What the command leaves behind outside its output (files, network calls, processes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub side_effects: Vec<crate::declare::SideEffect>,
    /// Names of the tool's `requirements` this command needs; checked before its handler runs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<String>,
    /// The command needs credentials (the tool's `auth` block says where they come from).
    #[serde(default, skip_serializing_if = "is_false")]
    pub auth: bool,
    /// The credential scopes (permissions) the command needs, for least-privilege credentials.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// Top-level output fields that carry external content (files, web pages, user text): the
    /// runtime moves them out of the data into a separate `untrusted` object, so an agent never
    /// mistakes them for the tool's own words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub untrusted: Vec<String>,
    /// The most seconds one call may run, in every mode (decimals allowed; the runtime has no
    /// default limit): the caller's `--timeout` or `PAS_TIMEOUT` may only lower it. A call past
    /// it ends as `TIMEOUT` (124), its whole lines kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("exclusiveMinimum" = 0))]
    pub timeout: Option<f64>,
    /// The output bound of one call in machine mode, in bytes (there is no default bound); the
    /// caller's `--max-output`/`PAS_OUTPUT_LIMIT` may only lower it. Nothing past it is lost: a
    /// list stops at a whole item and the rest of its items go to a file (`OUTPUT_IN_FILE`);
    /// one object or document past it is written whole to a file, the answer a pointer to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_output_bytes: Option<u64>,
    /// The most bytes the command reads from stdin (a pipe), in every mode: it replaces the
    /// runtime's input limit (256 MiB), and the caller's `PAS_INPUT_LIMIT` may only lower it.
    /// A larger input goes through the runtime's `--input-file PATH` (failure mode 61).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_input_bytes: Option<u64>,
    /// The name of a lock the runtime takes for every call of the command (failure modes 15
    /// and 58): one call at a time across processes and MCP calls; a second one fails at once
    /// with `LOCK_HELD` (robot: the `lock`-role code), `retry_after_ms` and the holder. Letters,
    /// digits, `-`, `_` and `.`; commands that share a name exclude each other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<String>,
    /// An async job's settings (`output: job`): poll interval and time limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<crate::job::JobSettings>,
}

impl Command {
    /// The argv words that select this command (explicit `path`, else the dotted name's segments).
    pub fn argv_path(&self) -> Vec<String> {
        match &self.path {
            Some(path) => path.clone(),
            None => self.name.split('.').map(str::to_owned).collect(),
        }
    }

    /// The catalog category (explicit, else the first segment of the dotted name).
    pub fn category(&self) -> &str {
        match &self.category {
            Some(category) => category,
            None => self.name.split('.').next().unwrap_or(&self.name),
        }
    }

    /// Whether running the command twice equals running it once.
    pub fn is_idempotent(&self) -> bool {
        self.idempotent.unwrap_or(self.effect == Effect::Read)
    }
}

/// What a command does to the world.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Effect {
    /// Reads only.
    #[default]
    Read,
    /// Creates or changes state.
    Write,
    /// Deletes or irreversibly changes state; needs `--force`.
    Destructive,
}

impl Effect {
    /// The spelling used in specs.
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Write => "write",
            Effect::Destructive => "destructive",
        }
    }
}

/// Whether and how a command reads standard input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StdinMode {
    /// Never reads stdin.
    #[default]
    None,
    /// Reads stdin when it is not a terminal.
    Optional,
    /// Needs stdin; in agent mode a terminal on stdin is an immediate error.
    Required,
}

/// The shape of a successful result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum OutputKind {
    /// One JSON object.
    #[default]
    Object,
    /// A stream of items: NDJSON in the `pas` profile.
    List,
    /// A Markdown document.
    Document,
    /// A stream of progress events (NDJSON).
    Events,
    /// Nothing on success.
    None,
    /// An async job: the call answers at once with a job descriptor and the handler runs
    /// detached; its result (one object, of the `outputSchema`) is what `job status ID`
    /// returns once the job succeeded.
    Job,
}

impl OutputKind {
    /// The spelling used in specs.
    pub fn as_str(self) -> &'static str {
        match self {
            OutputKind::Object => "object",
            OutputKind::List => "list",
            OutputKind::Document => "document",
            OutputKind::Events => "events",
            OutputKind::None => "none",
            OutputKind::Job => "job",
        }
    }
}

/// A deprecated command and what replaces it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Deprecation {
    /// The dotted name of the command to use instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
    /// The version that deprecated it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// Anything else a caller should know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Which parameters a paged list command reads its page size and cursor from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Paging {
    /// Name of the page-size parameter.
    pub limit: String,
    /// Name of the cursor (or offset) parameter.
    pub cursor: String,
}

/// A flag or positional argument.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Parameter {
    /// kebab-case name: the long flag (`--dry-run`) or the positional's value name.
    pub name: String,
    /// How the parameter is given on the command line.
    #[serde(default, skip_serializing_if = "is_default")]
    pub kind: ParamKind,
    /// A one-character short flag, e.g. `v` for `-v`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short: Option<char>,
    /// The JSON type of the value.
    #[serde(rename = "type", default, skip_serializing_if = "is_default")]
    pub ty: ParamType,
    /// For `type: array` (and variadic parameters): the type of each element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<ParamType>,
    /// The only values allowed (string parameters).
    #[serde(rename = "enum", default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
    /// The caller must give it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    /// The value used when the caller gives none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// An environment variable that supplies the value when the flag is absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<String>,
    /// A credential: shown as `[REDACTED]` in every error, log and echo of argv.
    #[serde(default, skip_serializing_if = "is_false")]
    pub secret: bool,
    /// What the parameter means.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The Rust field name, when the kebab-case name does not map to one safely (e.g. `self`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rust_name: Option<String>,
    /// Other long names of the flag (without `--`) that still work.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// Long names (without `--`) that still work but are deprecated: using one adds a warning.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deprecated_aliases: Vec<String>,
    /// The smallest value allowed (integer and number parameters; each element of an array).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<serde_json::Number>,
    /// The largest value allowed (integer and number parameters; each element of an array).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<serde_json::Number>,
    /// The fewest characters a string value may have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    /// The most characters a string value may have: a longer value is refused, never truncated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    /// A regular expression a string value must match (anywhere, as in JSON Schema; anchor it
    /// with `^...$` to match the whole value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// Other parameters (by name) that must be given whenever this one is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<String>,
    /// Other parameters (by name) that must not be given together with this one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<String>,
    /// What a string value is, which decides what the runtime checks in it: `path` (a local
    /// file path, taken exactly as given), `resource-path` (a level 3/4 resource path, confined
    /// and normalised), `id` (an identifier: the spellings agents hallucinate are refused in
    /// machine mode). Absent: free text, nothing refused. A parameter's name never decides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<StringFormat>,
    /// Whether the runtime refuses the spellings agents hallucinate in this parameter's values
    /// (`..`, `%XX`, `?`, `#`, shell metacharacters, control characters, `null`; see
    /// [`crate::hardening`]) in machine mode. Absent: as its `format` says (on for `id`,
    /// off otherwise); `true` turns it on for any string parameter, `false` off for an `id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_hardening: Option<bool>,
}

/// What a string parameter's value is (the spec's `format`). The runtime relies on it, never on
/// the parameter's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StringFormat {
    /// A local file path: accepted exactly as the operating system accepts it (relative, `..`,
    /// spaces, `#`, `&`, `;`, `null`, any bytes a file name may hold).
    Path,
    /// A level 3/4 resource path (`/collections/books`): `.`/`..` segments, backslashes, NUL and
    /// URL spellings (`%XX`, `?key=value`, `#`) are refused; the resource verbs' paths are these.
    ResourcePath,
    /// An identifier: in machine mode the spellings agents hallucinate (`%XX`, `?`, `#`, `..`,
    /// shell metacharacters, control characters, `null`) are refused, never corrected.
    Id,
}

impl StringFormat {
    /// The spec's spelling (`path`, `resource-path`, `id`), also the JSON Schema `format`.
    pub fn as_str(self) -> &'static str {
        match self {
            StringFormat::Path => "path",
            StringFormat::ResourcePath => "resource-path",
            StringFormat::Id => "id",
        }
    }

    /// The format spelt `word`, if it is one.
    pub fn from_word(word: &str) -> Option<Self> {
        [
            StringFormat::Path,
            StringFormat::ResourcePath,
            StringFormat::Id,
        ]
        .into_iter()
        .find(|f| f.as_str() == word)
    }
}

/// How a parameter is given on the command line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ParamKind {
    /// `--name value`, or `--name` alone for booleans.
    #[default]
    Flag,
    /// One value by position.
    Positional,
    /// Every remaining value by position (an array).
    Variadic,
}

/// The JSON type of a parameter's value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ParamType {
    /// Text.
    #[default]
    String,
    /// A whole number.
    Integer,
    /// Any number.
    Number,
    /// true or false (a switch for flags).
    Boolean,
    /// Several values (repeat the flag); see `items`.
    Array,
}

impl ParamType {
    /// The JSON Schema type name.
    pub fn as_str(self) -> &'static str {
        match self {
            ParamType::String => "string",
            ParamType::Integer => "integer",
            ParamType::Number => "number",
            ParamType::Boolean => "boolean",
            ParamType::Array => "array",
        }
    }
}

impl Parameter {
    /// The type of one value as given on the command line: `items` for arrays (string when
    /// absent), else `type` itself (a variadic's `type` names its elements).
    pub fn element_type(&self) -> ParamType {
        if self.ty == ParamType::Array {
            self.items.unwrap_or(ParamType::String)
        } else {
            self.ty
        }
    }

    /// Whether the parameter takes many values.
    pub fn is_many(&self) -> bool {
        self.ty == ParamType::Array || self.kind == ParamKind::Variadic
    }

    /// Whether the parameter declares a constraint on its values (`minimum`, `maximum`,
    /// `minLength`, `maxLength`, `pattern`).
    pub fn has_constraints(&self) -> bool {
        self.minimum.is_some()
            || self.maximum.is_some()
            || self.min_length.is_some()
            || self.max_length.is_some()
            || self.pattern.is_some()
    }
}
