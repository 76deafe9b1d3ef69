//! Every error constant the runtime raises by itself, beside the built-ins of
//! [`crate::builtin_codes`]: the one list the runtime's constants are defined in (the runtime
//! re-exports them), that the validator and the derive refuse as a tool's own exit code, and
//! that `pas-gen conform` knows as the runtime's.
//!
//! A tool that declared one of these names would make a face lie: its meaning (and, for a
//! built-in, its exit code) is the runtime's, so an agent reading `TIMEOUT (103)` in the help
//! would meet a `TIMEOUT` that exits 124, or a handler's own `TIMEOUT` that a `--timeout` one
//! cannot be told from. The constants a tool *may* declare to give them a number of its own
//! ([`crate::declare::DECLARED_CODES`], [`HANDLER_CODES`], and `LOCK_HELD`, which a tool with
//! locks must declare) are not refused.

use crate::builtin_codes;

/// A destructive command was called without its confirmation flag (`--force`, `--yes`).
pub const FORCE_REQUIRED: &str = crate::surface::FORCE_REQUIRED;
/// A built-in face the tool was built without (its cargo feature is off).
pub const FEATURE_NOT_BUILT: &str = "FEATURE_NOT_BUILT";
/// `TOOL mcp` in a tool built without the `mcp` feature.
pub const MCP_NOT_BUILT: &str = "MCP_NOT_BUILT";
/// `TOOL mcp --http ADDR` could not listen on ADDR (taken, or not this machine's).
pub const MCP_LISTEN_FAILED: &str = "MCP_LISTEN_FAILED";
/// The MCP client left before the session began.
pub const MCP_SESSION_ENDED: &str = "MCP_SESSION_ENDED";
/// An MCP call the client cancelled, or that the session's end left unrun.
pub const CANCELLED: &str = "CANCELLED";
/// An MCP call made against an older schema than the server's.
pub const SCHEMA_STALE: &str = "SCHEMA_STALE";
/// An MCP call of a tool the server does not serve (`TOOL mcp --group`/`--tools` left it out),
/// or a discovery tool's name or group that is not served.
pub const TOOL_NOT_SERVED: &str = "TOOL_NOT_SERVED";
/// `tools NAME` for a name the registry does not have.
pub const UNKNOWN_TOOL: &str = "UNKNOWN_TOOL";
/// A verb the registry offers that the handler does not implement (a scaffold's stubs too).
pub const NOT_IMPLEMENTED: &str = "NOT_IMPLEMENTED";
/// The constants of pas's libraries that a handler returns (`pas::store`, the resource verbs'
/// sync). Like [`crate::declare::DECLARED_CODES`], a tool may declare them to give them an exit
/// code of its own (else they exit 1), and its own store may use the same words: they are not
/// the runtime's own.
pub static HANDLER_CODES: &[&str] = &[
    PATH_ESCAPES_ROOT,
    STORE_PATH_INVALID,
    STORE_FILE_INVALID,
    SYMLINK_LOOP,
];

/// A store path leads outside the store's root.
pub const PATH_ESCAPES_ROOT: &str = "PATH_ESCAPES_ROOT";
/// The store's own path is empty or not a directory.
pub const STORE_PATH_INVALID: &str = "STORE_PATH_INVALID";
/// A file of the store is not a regular file, or is too large to read.
pub const STORE_FILE_INVALID: &str = "STORE_FILE_INVALID";
/// A synced tree links back into itself.
pub const SYMLINK_LOOP: &str = "SYMLINK_LOOP";

/// The runtime's own error constants that are not in [`builtin_codes::BUILTINS`] or
/// [`builtin_codes::JOB_CODES`], in no particular order: no tool may declare them.
pub static RUNTIME_CODES: &[&str] = &[
    FORCE_REQUIRED,
    FEATURE_NOT_BUILT,
    MCP_NOT_BUILT,
    MCP_LISTEN_FAILED,
    MCP_SESSION_ENDED,
    CANCELLED,
    SCHEMA_STALE,
    TOOL_NOT_SERVED,
    UNKNOWN_TOOL,
    NOT_IMPLEMENTED,
    builtin_codes::JOB_LOST,
];

/// Whether the runtime raises `name` itself, with a meaning (and for the built-ins an exit code)
/// of its own: a tool may not declare it.
pub fn owned_by_runtime(name: &str) -> bool {
    builtin_codes::builtin(name).is_some() || RUNTIME_CODES.contains(&name)
}

/// The exit status the `pas` profile gives a runtime constant inside the tools' own range
/// 100-125 (`TIMEOUT`, 124, as coreutils' `timeout`): a tool's own code with that number could
/// not be told from it.
pub fn runtime_exit_in_tool_range(code: u16) -> Option<&'static str> {
    builtin_codes::BUILTINS
        .iter()
        .find(|b| u16::from(b.exit) == code && (100..=125).contains(&code))
        .map(|b| b.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_owns_its_built_ins_and_its_own_constants_but_not_the_declarable_ones() {
        for name in ["TIMEOUT", "INTERRUPTED", "TERMINATED", "INVALID_ARGUMENT"] {
            assert!(owned_by_runtime(name), "{name}");
        }
        for name in [
            "FORCE_REQUIRED",
            "JOB_LOST",
            "JOB_RUNNING",
            "NOT_IMPLEMENTED",
        ] {
            assert!(owned_by_runtime(name), "{name}");
        }
        for (name, _) in crate::declare::DECLARED_CODES {
            assert!(!owned_by_runtime(name), "{name} may be declared");
        }
        assert!(!owned_by_runtime("LOCK_HELD"));
        for name in HANDLER_CODES {
            assert!(!owned_by_runtime(name), "{name} may be declared");
        }
        assert!(!owned_by_runtime("UPSTREAM_TIMEOUT"));
    }

    #[test]
    fn only_timeout_s_exit_falls_in_the_tools_range() {
        assert_eq!(runtime_exit_in_tool_range(124), Some("TIMEOUT"));
        assert_eq!(runtime_exit_in_tool_range(103), None);
        assert_eq!(runtime_exit_in_tool_range(130), None);
    }
}
