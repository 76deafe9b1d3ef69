//! The robot contract's part of the registry: the roles of its named exit codes, its sessions
//! (states, transitions, expiry), its safety gates and its limits.
//!
//! These are spec format v1 types like the rest of [`crate::model`]; the runtime reads them to
//! keep the contract (a handler never does), and the faces print them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{ExitCode, Registry};

fn is_false(value: &bool) -> bool {
    !*value
}

/// What the runtime itself uses an exit code for. Each role names at most one code.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum ExitRole {
    /// The call itself is wrong: parse errors, a missing command, a wrong type, `--fields`.
    Arguments,
    /// A bug in the tool (a panic).
    Internal,
    /// SIGINT or SIGTERM ended the call (the session, if any, is left resumable).
    Interrupted,
    /// A session is unknown, expired, corrupt, newer than the tool, or in a state the command
    /// cannot continue from.
    Session,
    /// Another call holds the session's writer lock.
    Lock,
    /// A safety gate blocked the action.
    Blocked,
    /// A command that needs confirmation ran without `--yes` (defaults to `arguments`).
    Confirmation,
    /// Some of the actions failed (the envelope's `status` is `partial`).
    Partial,
    /// A capability the call needs is missing.
    Capability,
    /// An I/O error (writing a session, reading the system).
    Io,
}

impl ExitRole {
    /// Every role, in the order the documentation lists them.
    pub const ALL: [ExitRole; 10] = [
        ExitRole::Arguments,
        ExitRole::Internal,
        ExitRole::Interrupted,
        ExitRole::Session,
        ExitRole::Lock,
        ExitRole::Blocked,
        ExitRole::Confirmation,
        ExitRole::Partial,
        ExitRole::Capability,
        ExitRole::Io,
    ];

    /// The spelling used in specs.
    pub fn as_str(self) -> &'static str {
        match self {
            ExitRole::Arguments => "arguments",
            ExitRole::Internal => "internal",
            ExitRole::Interrupted => "interrupted",
            ExitRole::Session => "session",
            ExitRole::Lock => "lock",
            ExitRole::Blocked => "blocked",
            ExitRole::Confirmation => "confirmation",
            ExitRole::Partial => "partial",
            ExitRole::Capability => "capability",
            ExitRole::Io => "io",
        }
    }

    /// The built-in constant and exit status the runtime uses when no code has this role.
    pub fn fallback(self) -> (&'static str, u16) {
        match self {
            ExitRole::Arguments | ExitRole::Confirmation => ("ERR_ARGS", 2),
            ExitRole::Internal => ("ERR_INTERNAL", 1),
            ExitRole::Interrupted => ("ERR_INTERRUPTED", 130),
            ExitRole::Session => ("ERR_SESSION", 1),
            ExitRole::Lock => ("ERR_LOCK", 1),
            ExitRole::Blocked => ("ERR_BLOCKED", 1),
            ExitRole::Partial => ("ERR_PARTIAL", 1),
            ExitRole::Capability => ("ERR_CAPABILITY", 1),
            ExitRole::Io => ("ERR_IO", 1),
        }
    }
}

/// How a command takes part in a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SessionUse {
    /// Starts a new session (its id is in the envelope's `session_id`).
    Create,
    /// Continues the session named by `--session ID` (with `--resume` after an interruption);
    /// a command with effect write or destructive holds the session's writer lock.
    Continue,
    /// Reads the session named by `--session ID`, changing nothing.
    Read,
}

impl SessionUse {
    /// The spelling used in specs.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionUse::Create => "create",
            SessionUse::Continue => "continue",
            SessionUse::Read => "read",
        }
    }
}

/// The robot profile's settings beside the exit codes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RobotSettings {
    /// The envelope's `$schema` URL, when the tool publishes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema_url: Option<String>,
    /// `host_id` is a SHA-256 prefix of the host name instead of the name itself.
    #[serde(default, skip_serializing_if = "is_false")]
    pub privacy: bool,
    /// The base of each error's `documentation_url` (the error code is appended).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_docs: Option<String>,
    /// The sessions the runtime keeps for the tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions: Option<Sessions>,
    /// The safety gates handlers report on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gates: Vec<Gate>,
    /// The object field of a command's `data` that holds `safety_gates` (the seed's plan keeps
    /// them at `data.plan.safety_gates`, robot 5.2); `data` itself when absent, or when the
    /// command's data has no such object (an apply's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gates_at: Option<String>,
    /// The tool's limits, shown by `capabilities` (e.g. `max_kills_per_run: 5`).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[schemars(with = "Map<String, Value>")]
    pub limits: Map<String, Value>,
}

/// The session declaration: ids, states and expiry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sessions {
    /// The id prefix: ids read `PREFIX-YYYYMMDD-HHMMSS-xxxx` (UTC, base32 suffix).
    pub prefix: String,
    /// Seconds after its last change when a session expires (none: never).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expire_after: Option<u64>,
    /// Every state, the first being the state a new session starts in.
    pub states: Vec<SessionState>,
    /// The state SIGINT/SIGTERM leaves a session in (must be resumable).
    #[serde(default = "default_interrupted")]
    pub interrupted: String,
    /// The state an expired session is marked with.
    #[serde(default = "default_expired")]
    pub expired: String,
}

fn default_interrupted() -> String {
    "interrupted".to_owned()
}

fn default_expired() -> String {
    "expired".to_owned()
}

/// One session state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionState {
    /// snake_case name, e.g. `planned`.
    pub name: String,
    /// What the state means.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// `--resume` may continue a session in this state.
    #[serde(default, skip_serializing_if = "is_false")]
    pub resumable: bool,
    /// The states a session may move to from this one (the interrupted and expired states are
    /// always allowed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<String>,
}

/// What happens when a gate fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum GateOnFail {
    /// The selection is made smaller.
    Reduce,
    /// The selection is cut to a limit.
    Truncate,
    /// The action is refused: the call ends with the blocked code.
    Block,
    /// The failing items are left out.
    Exclude,
    /// The failing action is skipped.
    Skip,
}

impl GateOnFail {
    /// The spelling used in specs.
    pub fn as_str(self) -> &'static str {
        match self {
            GateOnFail::Reduce => "reduce",
            GateOnFail::Truncate => "truncate",
            GateOnFail::Block => "block",
            GateOnFail::Exclude => "exclude",
            GateOnFail::Skip => "skip",
        }
    }
}

/// A safety gate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Gate {
    /// snake_case name, e.g. `max_kills`.
    pub name: String,
    /// What the gate checks.
    pub description: String,
    /// What a failure does.
    pub on_fail: GateOnFail,
}

impl Registry {
    /// The exit code the spec gives a role, if any.
    pub fn code_for_role(&self, role: ExitRole) -> Option<&ExitCode> {
        self.exit_codes.iter().find(|c| c.role == Some(role))
    }

    /// The constant and exit status of a role: the spec's code, else the built-in fallback
    /// (`confirmation` falls back to `arguments` first).
    pub fn role_code(&self, role: ExitRole) -> (String, u8) {
        let declared = self.code_for_role(role).or_else(|| match role {
            ExitRole::Confirmation => self.code_for_role(ExitRole::Arguments),
            _ => None,
        });
        match declared {
            Some(code) => (code.name.clone(), u8::try_from(code.code).unwrap_or(1)),
            None => {
                let (name, code) = role.fallback();
                (name.to_owned(), u8::try_from(code).unwrap_or(1))
            }
        }
    }

    /// The sessions the robot profile keeps, if the spec declares them.
    pub fn sessions(&self) -> Option<&Sessions> {
        self.robot.as_ref().and_then(|r| r.sessions.as_ref())
    }

    /// The declared safety gates.
    pub fn gates(&self) -> &[Gate] {
        self.robot.as_ref().map_or(&[], |r| &r.gates)
    }
}

impl Sessions {
    /// The state a new session starts in.
    pub fn initial(&self) -> Option<&SessionState> {
        self.states.first()
    }

    /// The state named so.
    pub fn state(&self, name: &str) -> Option<&SessionState> {
        self.states.iter().find(|s| s.name == name)
    }

    /// Whether a session may go from `from` to `to`.
    pub fn allows(&self, from: &str, to: &str) -> bool {
        from == to
            || to == self.interrupted
            || to == self.expired
            || self
                .state(from)
                .is_some_and(|s| s.next.iter().any(|n| n == to))
    }
}

/// The role a runtime error constant takes in the robot profile, where exit codes come from the
/// spec's roles: argument errors, signals, I/O and internal errors. `None` for a constant the
/// runtime does not raise itself (a handler's own, which exits with the internal code unless the
/// spec names it).
pub fn builtin_role(name: &str) -> Option<ExitRole> {
    Some(match name {
        "UNKNOWN_ARGUMENT"
        | "UNKNOWN_COMMAND"
        | "INVALID_VALUE"
        | "MISSING_ARGUMENT"
        | "MISSING_COMMAND"
        | "ARGUMENT_CONFLICT"
        | "INVALID_ARGUMENT"
        | "MISSING_INPUT"
        | "CONFIG_INVALID"
        | "SCHEMA_VERSION_UNSUPPORTED" => ExitRole::Arguments,
        "INTERRUPTED" | "TERMINATED" | "TIMEOUT" => ExitRole::Interrupted,
        "GENERAL_ERROR" => ExitRole::Io,
        "INTERNAL_ERROR" => ExitRole::Internal,
        "AUTH_REQUIRED" | "CREDENTIALS_EXPIRED" | "REQUIREMENT_MISSING" | "RUNTIME_VERSION" => {
            ExitRole::Capability
        }
        _ => return None,
    })
}
