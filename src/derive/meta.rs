//! What `#[derive(AgentTool)]` knows about a type: the values its `#[agent(...)]` attributes
//! hold and the JSON Schemas of its fields, as the derive emits them. Nothing here is final
//! registry data: [`crate::registry_of`] pairs it with clap's `Command` and fills the rest.

use pas_spec::{
    AntiPattern, Deprecation, Effect, Example, ExitCode, OutputKind, Paging, Profile, Resource,
    StdinMode,
};
use serde_json::Value;

/// The tool's keys, from the root type's `#[agent(...)]`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolMeta {
    /// The Cargo package the type is in (fallbacks for a version and summary clap lacks).
    pub package: Package,
    /// `level = N`.
    pub level: Option<u8>,
    /// `profile = "..."`.
    pub profile: Option<Profile>,
    /// `schema_version = "..."`.
    pub schema_version: Option<String>,
    /// Every `exit_code(...)`.
    pub exit_codes: Vec<ExitCode>,
    /// Every tool-level `example(...)`.
    pub examples: Vec<Example>,
    /// Every tool-level `anti_pattern(...)`.
    pub anti_patterns: Vec<AntiPattern>,
    /// Every `resource(...)` (levels 3 and 4).
    pub resources: Vec<Resource>,
    /// `robot = "{...}"`: the robot profile's sessions, gates and limits (as the spec's JSON).
    pub robot: Option<pas_spec::robot::RobotSettings>,
    /// `changelog = "[...]"`: the releases `changelog` prints (as the spec's JSON).
    pub changelog: Vec<pas_spec::ChangelogEntry>,
    /// `declared = "{...}"`: the tool's `auth` and `requirements` (as the spec's JSON).
    pub declared: Option<pas_spec::derive_declared::ToolDeclared>,
    /// `mask_high_entropy`: high-entropy strings in output masked (the spec's
    /// `maskHighEntropy`, failure mode 59).
    pub mask_high_entropy: bool,
}

/// `CARGO_PKG_*` of the crate that derived the tool.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Package {
    /// `CARGO_PKG_NAME`.
    pub name: &'static str,
    /// `CARGO_PKG_VERSION`.
    pub version: &'static str,
    /// `CARGO_PKG_DESCRIPTION` (empty when the manifest has none).
    pub description: &'static str,
}

/// One command's keys. Unset keys keep the registry's defaults.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CommandMeta {
    /// `name = "group.action"`; default: the argv words joined by `.`.
    pub name: Option<String>,
    /// `category = "..."`.
    pub category: Option<String>,
    /// `description = "..."` (a struct's own command); default: clap's `about`.
    pub description: Option<String>,
    /// `effect = "..."`.
    pub effect: Effect,
    /// `idempotent`.
    pub idempotent: Option<bool>,
    /// `rate_limit = "..."`.
    pub rate_limit: Option<String>,
    /// `stdin = "..."`.
    pub stdin: StdinMode,
    /// `kind = "..."`.
    pub output: OutputKind,
    /// The output's JSON Schema, given as a value (a hand-written impl).
    pub output_schema: Option<Value>,
    /// The input's JSON Schema, given as a value (a hand-written impl).
    pub input_schema: Option<Value>,
    /// The JSON Schema of `output = Type` (or `output_schema = "..."`), made when a face shows
    /// it; `output_schema` wins when both are set.
    pub output_schema_lazy: Option<LazySchema>,
    /// The JSON Schema of `input = Type` (or `input_schema = "..."`), made when a face shows it;
    /// `input_schema` wins when both are set.
    pub input_schema_lazy: Option<LazySchema>,
    /// `errors(...)`.
    pub errors: Vec<String>,
    /// Every command-level `example(...)`.
    pub examples: Vec<Example>,
    /// Every command-level `anti_pattern(...)`.
    pub anti_patterns: Vec<AntiPattern>,
    /// `deprecated(...)`.
    pub deprecated: Option<Deprecation>,
    /// `dry_run`.
    pub dry_run: bool,
    /// `paging(...)`.
    pub paging: Option<Paging>,
    /// `session = "create" | "continue" | "read"` (robot).
    pub session: Option<pas_spec::robot::SessionUse>,
    /// `confirm` (robot: acts only with `--yes`).
    pub confirm: bool,
    /// `stability = "beta" | "experimental"` (failure mode 22).
    pub stability: pas_spec::Stability,
    /// `list_field = "..."` (robot: the principal list).
    pub list_field: Option<String>,
    /// `compact_omit = "a,b"` (robot: fields `--compact` drops).
    pub compact_omit: Vec<String>,
    /// `timeout = SECONDS`: the most one call may run in machine mode.
    pub timeout: Option<f64>,
    /// `max_output_bytes = N`: the most output one call may print in machine mode.
    pub max_output_bytes: Option<u64>,
    /// `max_input_bytes = N`: the most the command reads from stdin.
    pub max_input_bytes: Option<u64>,
    /// `lock = "name"`: the lock the runtime takes for every call.
    pub lock: Option<String>,
    /// `poll_interval_ms`, `job_timeout_ms`: a `kind = "job"` command's settings.
    pub job: Option<pas_spec::job::JobSettings>,
    /// `declared = "{...}"`: the command's credentials, requirements, side effects, untrusted
    /// fields and parameter constraints (as the spec's JSON).
    pub declared: Option<pas_spec::derive_declared::CommandDeclared>,
}

/// A JSON Schema made only when asked for. Building a type's schema (schemars) is a visible
/// share of a tool's start-up, and only the faces that show schemas need it (the spec, the
/// catalog, `docs`, validation), never a plain command call.
#[derive(Clone, Copy)]
pub struct LazySchema(pub fn() -> Value);

impl LazySchema {
    /// Builds the schema now (each call runs the function again; the runtime keeps the result).
    pub fn schema(&self) -> Value {
        (self.0)()
    }
}

impl PartialEq for LazySchema {
    fn eq(&self, other: &Self) -> bool {
        self.schema() == other.schema()
    }
}

impl std::fmt::Debug for LazySchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("LazySchema").field(&self.schema()).finish()
    }
}

/// The shape of a derived type, as clap sees it.
#[derive(Debug, Clone, PartialEq)]
// Built once per registry and walked once: the size of a variant does not matter, and the
// derive's expansion stays a plain value.
#[allow(clippy::large_enum_variant)]
pub enum Node {
    /// A struct: one command, or (with a `#[command(subcommand)]` field) the args above a group.
    Struct(StructNode),
    /// An enum: its variants in declaration order, which is the order clap adds subcommands in.
    Enum(Vec<VariantNode>),
}

impl Node {
    /// The field schemas of a struct (what a flattened struct or a variant payload adds).
    pub fn fields(&self) -> Vec<FieldSchema> {
        match self {
            Node::Struct(node) => node.fields.clone(),
            Node::Enum(_) => Vec::new(),
        }
    }
}

/// A struct deriving `AgentTool`.
#[derive(Debug, Clone, PartialEq)]
pub struct StructNode {
    /// `#[agent(command(...))]`.
    pub command: Option<CommandMeta>,
    /// Its fields' schemas, flattened structs included.
    pub fields: Vec<FieldSchema>,
    /// The node of its `#[command(subcommand)]` field.
    pub subcommands: Option<Box<Node>>,
}

/// One variant of an enum deriving `AgentTool`.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantNode {
    /// The variant's name (for messages).
    pub ident: &'static str,
    /// What clap makes of it.
    pub role: Role,
    /// Its `#[agent(...)]` keys.
    pub command: CommandMeta,
    /// Its fields' schemas (or its payload struct's).
    pub fields: Vec<FieldSchema>,
}

/// What clap makes of a variant.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// One subcommand, a command.
    Command,
    /// `#[command(subcommand)]`: one subcommand holding the inner enum's subcommands.
    Nested(Box<Node>),
    /// `#[command(flatten)]`: the inner enum's subcommands at this level.
    Flatten(Box<Node>),
    /// `#[command(skip)]` or `#[command(external_subcommand)]`: no subcommand.
    Skip,
}

/// A field's clap id and the JSON Schema of its Rust type, when the type has one.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSchema {
    /// The clap arg id (the field's name).
    pub id: &'static str,
    /// `schemars` schema of the field's type, made only when the registry needs it (a field
    /// whose type clap's value parser does not already say).
    pub schema: Option<LazySchema>,
    /// `#[agent(secret)]`: a secret even without `hide_env_values` (a flag-only secret).
    pub secret: bool,
    /// `#[agent(hardening = false)]` or `#[agent(hardening)]`: the parameter's declared
    /// `agentHardening` (absent: as its `format` says, see `pas::spec::hardening`).
    pub hardening: Option<bool>,
    /// `#[agent(format = "path")]` (`"resource-path"`, `"id"`): the parameter's declared
    /// `format`; absent, a string is free text.
    pub format: Option<pas_spec::StringFormat>,
}
