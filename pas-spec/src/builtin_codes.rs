//! The error constants every `pas` tool has without declaring them, and their exit codes.
//!
//! This table is pure data, kept beside the registry so that the agent-help face (which documents
//! it, in `pas-gen help` as in the built CLI) and the runtime (which exits with it) cannot
//! disagree. Built-in names are reserved: a registry that declares one of them does not change
//! its exit code, because an agent must be able to rely on "parse errors exit 2" whatever the
//! tool.

/// The handler failed for a reason the registry has no constant for. Exit 1.
pub const GENERAL_ERROR: &str = "GENERAL_ERROR";
/// A bug in the tool (a panic, an undeclared stdin read). Exit 1.
pub const INTERNAL_ERROR: &str = "INTERNAL_ERROR";
/// The arguments are wrong in a way no more precise constant covers. Exit 2.
pub const INVALID_ARGUMENT: &str = "INVALID_ARGUMENT";
/// An unknown flag, or a value where none is expected. Exit 2.
pub const UNKNOWN_ARGUMENT: &str = "UNKNOWN_ARGUMENT";
/// An unknown command word. Exit 2.
pub const UNKNOWN_COMMAND: &str = "UNKNOWN_COMMAND";
/// A required flag or positional argument is missing. Exit 2.
pub const MISSING_ARGUMENT: &str = "MISSING_ARGUMENT";
/// The tool (or a group) needs a command word and none was given. Exit 2.
pub const MISSING_COMMAND: &str = "MISSING_COMMAND";
/// A value has the wrong type, is not one of the allowed values, or the wrong count. Exit 2.
pub const INVALID_VALUE: &str = "INVALID_VALUE";
/// Two arguments that exclude each other were both given. Exit 2.
pub const ARGUMENT_CONFLICT: &str = "ARGUMENT_CONFLICT";
/// The command needs data on stdin and stdin is a terminal (agent mode). Exit 2.
pub const MISSING_INPUT: &str = "MISSING_INPUT";
/// The tool's configuration file is missing (when named), unreadable or wrong: an unknown key
/// or a value of the wrong type; or a runtime variable (`PAS_*`, `<TOOL>_TRACE_ID`) holds a
/// value the runtime cannot use (`details.variable`, `details.accepted`). Exit 2; a blocking error in the compose profile, since no
/// retry helps until the file is fixed.
pub const CONFIG_INVALID: &str = "CONFIG_INVALID";
/// `--schema-version` asked for an output schema version the tool is not compatible with
/// (CLI Agent Spec failure mode 22). Exit 2; blocking in compose, as no retry helps.
pub const SCHEMA_VERSION_UNSUPPORTED: &str = "SCHEMA_VERSION_UNSUPPORTED";
/// Ended by SIGINT. Exit 130.
pub const INTERRUPTED: &str = "INTERRUPTED";
/// Ended by SIGTERM. Exit 143.
pub const TERMINATED: &str = "TERMINATED";
/// The call ran past its wall-clock limit (the command's declared `timeout`, or the caller's
/// `--timeout`/`PAS_TIMEOUT`; none by default). Exit 124, as coreutils' `timeout`.
pub const TIMEOUT: &str = "TIMEOUT";

/// One built-in constant: its name, exit code and meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Builtin {
    /// The constant, as it appears in the `error` field.
    pub name: &'static str,
    /// The process exit status.
    pub exit: u8,
    /// A few words for help texts.
    pub meaning: &'static str,
}

/// Every built-in constant, ordered by exit code then as documented.
pub static BUILTINS: &[Builtin] = &[
    Builtin {
        name: GENERAL_ERROR,
        exit: 1,
        meaning: "General error",
    },
    Builtin {
        name: INTERNAL_ERROR,
        exit: 1,
        meaning: "Internal error",
    },
    Builtin {
        name: INVALID_ARGUMENT,
        exit: 2,
        meaning: "Invalid arguments",
    },
    Builtin {
        name: UNKNOWN_ARGUMENT,
        exit: 2,
        meaning: "Unknown flag or argument",
    },
    Builtin {
        name: UNKNOWN_COMMAND,
        exit: 2,
        meaning: "Unknown command",
    },
    Builtin {
        name: MISSING_ARGUMENT,
        exit: 2,
        meaning: "Missing argument",
    },
    Builtin {
        name: MISSING_COMMAND,
        exit: 2,
        meaning: "Missing command",
    },
    Builtin {
        name: INVALID_VALUE,
        exit: 2,
        meaning: "Invalid value",
    },
    Builtin {
        name: ARGUMENT_CONFLICT,
        exit: 2,
        meaning: "Conflicting arguments",
    },
    Builtin {
        name: MISSING_INPUT,
        exit: 2,
        meaning: "Missing input on stdin",
    },
    Builtin {
        name: CONFIG_INVALID,
        exit: 2,
        meaning: "Configuration file or PAS_* variable missing or wrong",
    },
    Builtin {
        name: SCHEMA_VERSION_UNSUPPORTED,
        exit: 2,
        meaning: "Output schema version not supported",
    },
    Builtin {
        name: TIMEOUT,
        exit: 124,
        meaning: "Ran past its time limit",
    },
    Builtin {
        name: INTERRUPTED,
        exit: 130,
        meaning: "Interrupted by SIGINT",
    },
    Builtin {
        name: TERMINATED,
        exit: 143,
        meaning: "Terminated by SIGTERM",
    },
];

/// `job status ID`: the job is still queued or running (not a failure: poll again after
/// `retry_after_ms`). EX_TEMPFAIL's number.
pub const JOB_RUNNING: &str = "JOB_RUNNING";
/// `job status ID`: the job ended with an error (the handler's, under `error`).
pub const JOB_FAILED: &str = "JOB_FAILED";
/// `job status ID`: the job was cancelled (`job cancel ID`).
pub const JOB_CANCELLED: &str = "JOB_CANCELLED";
/// `job status ID`: the job ran past its time limit and was ended.
pub const JOB_TIMED_OUT: &str = "JOB_TIMED_OUT";
/// `job status|cancel ID`: no job has this id (unknown, malformed, or removed).
pub const JOB_NOT_FOUND: &str = "JOB_NOT_FOUND";
/// A job's process is gone without recording how it ended (killed from outside, machine
/// restarted): its status is `failed` with this error code.
pub const JOB_LOST: &str = "JOB_LOST";

/// The exit codes of the runtime's `job status` (CLI Agent Spec failure mode 49), in every
/// tool that has a job command (and only there: no other tool lists them). Numbers 74-78, in
/// PAS 3.3's 64-78 range (sysexits: 75 is EX_TEMPFAIL, "try again later"), outside the tool's
/// own 100-125 and the other built-ins, so each state has its own; 0 is a job that succeeded.
pub static JOB_CODES: &[Builtin] = &[
    Builtin {
        name: JOB_RUNNING,
        exit: 75,
        meaning: "job status: still running, poll again",
    },
    Builtin {
        name: JOB_FAILED,
        exit: 76,
        meaning: "job status: the job failed",
    },
    Builtin {
        name: JOB_CANCELLED,
        exit: 77,
        meaning: "job status: the job was cancelled",
    },
    Builtin {
        name: JOB_TIMED_OUT,
        exit: 78,
        meaning: "job status: the job ran past its time limit",
    },
    Builtin {
        name: JOB_NOT_FOUND,
        exit: 74,
        meaning: "job status or cancel: no job has this id",
    },
];

/// Whether the same call may succeed if made again, for a built-in constant: a call that ran
/// out of time or was stopped by a signal may; an argument or configuration error, or a bug,
/// fails the same way again. Errors a handler raises say so themselves, else are not.
pub fn transient(name: &str) -> bool {
    matches!(name, TIMEOUT | INTERRUPTED | TERMINATED)
}

/// The built-in entry for a constant, if it is one.
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().chain(JOB_CODES).find(|b| b.name == name)
}

/// The exit status of an error constant in the `pas` profile: built-ins first (they are
/// reserved), then the registry's table, else 1 (a constant the registry does not declare is
/// a contract bug in the tool, reported as a general failure rather than guessed at).
pub fn exit_code(registry: &crate::Registry, name: &str) -> u8 {
    if let Some(b) = builtin(name) {
        return b.exit;
    }
    registry
        .exit_codes
        .iter()
        .find(|c| c.name == name)
        .and_then(|c| u8::try_from(c.code).ok())
        .unwrap_or_else(|| {
            if crate::declare::DECLARED_CODES
                .iter()
                .any(|(n, _)| *n == name)
            {
                crate::declare::DECLARED_EXIT
            } else {
                1
            }
        })
}
