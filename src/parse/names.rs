//! The names the runtime itself answers to, beside the tool's own: its environment variables
//! and the flags the prescan of argv looks for. They live here, at the bottom of the call, so
//! that parsing reads them without importing the guards and services that act on them; each of
//! those re-exports its names from here (`pas::deadline::TIMEOUT_ENV` keeps its path).

/// The variable that turns masking off for a call (`PAS_UNMASK=1`), as `--unmask` does.
pub const UNMASK_ENV: &str = "PAS_UNMASK";

/// The flag that turns masking off for a call.
pub const UNMASK_FLAG: &str = "--unmask";

/// The environment variable that turns off the check for text addressed to an agent
/// (`PAS_NO_INJECTION_CHECK=1`).
pub const INJECTION_CHECK_OFF_ENV: &str = "PAS_NO_INJECTION_CHECK";

/// The environment variable that sets the caller's wall-clock limit of a call, in seconds
/// (decimals allowed; 0: no limit).
pub const TIMEOUT_ENV: &str = "PAS_TIMEOUT";

/// The environment variable that asks for an output bound, in bytes (0: none).
pub const OUTPUT_LIMIT_ENV: &str = "PAS_OUTPUT_LIMIT";

/// The flag that asks for an output bound, in bytes (`--max-output BYTES`, `--max-output=BYTES`).
pub const MAX_OUTPUT_FLAG: &str = "--max-output";

/// The environment variable that bounds what a call reads from a file or stdin, in bytes (0: no
/// limit).
pub const INPUT_LIMIT_ENV: &str = "PAS_INPUT_LIMIT";

/// The environment variable that sets how long a call waits for the first byte (or the end)
/// of a stdin that is not a terminal, in milliseconds (0: no limit, wait for ever).
pub const STDIN_WAIT_ENV: &str = "PAS_STDIN_WAIT";

/// The environment variable that makes a call wait for a held declared lock, in milliseconds.
pub const LOCK_WAIT_ENV: &str = "PAS_LOCK_WAIT";

/// The environment variable a caller sets to have its trace id echoed in every response
/// (`meta.traceId` in compose, `trace_id` in a `pas` error line). `<TOOL>_TRACE_ID` (the
/// tool's name in upper case, `-` as `_`) is read when it is unset.
pub const TRACE_ENV: &str = "PAS_TRACE_ID";

/// The environment variable that asks for the meta line (`1`, `true`, `yes` or `on`).
pub const META_ENV: &str = "PAS_META";

/// The environment variable that marks the detached run of a job, naming its id.
pub(crate) const JOB_RUN_ENV: &str = "PAS_JOB_RUN";

/// The server's own flag: the time limit of a call whose command declares none.
pub const CALL_TIMEOUT_FLAG: &str = "--call-timeout";

/// The built-in word, as typed.
pub const MCP_WORD: &str = "mcp";
