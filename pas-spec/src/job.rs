//! Async jobs (CLI Agent Spec failure mode 49): a command whose output kind is `job` answers at
//! once with a job descriptor and runs its handler detached; the runtime's `job status ID`,
//! `job cancel ID` and `job list` follow it. What a spec may say of one job command is its
//! [`JobSettings`]; the runtime's exit-code contract for `job status` is in
//! [`crate::builtin_codes::JOB_CODES`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Command, OutputKind, Registry};

/// The built-in word of the job commands (`TOOL job status ID`).
pub const JOB_WORD: &str = "job";

/// The flag a job command takes to run in the foreground instead (`--wait`).
pub const WAIT_FLAG: &str = "wait";

/// How often a caller should poll a job when the spec says nothing, in milliseconds.
pub const DEFAULT_POLL_INTERVAL_MS: u64 = 1000;

/// How long a job may run when the spec says nothing, in milliseconds (one hour).
pub const DEFAULT_TIMEOUT_MS: u64 = 3_600_000;

/// The `job:` block of a command whose output is `job`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JobSettings {
    /// How long a caller should wait between two `job status` calls, in milliseconds
    /// (default 1000): the descriptor's `poll_interval_ms`, and the `retry_after_ms` of a
    /// status that is still running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub poll_interval_ms: Option<u64>,
    /// The most milliseconds the job may run (default 3600000): past it the runtime ends the
    /// job's process group and its status is `timed_out`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub timeout_ms: Option<u64>,
}

impl Command {
    /// Whether the command runs as an async job (`output: job`).
    pub fn is_job(&self) -> bool {
        self.output == OutputKind::Job
    }

    /// The job's poll interval in milliseconds (declared, else [`DEFAULT_POLL_INTERVAL_MS`]).
    pub fn job_poll_interval_ms(&self) -> u64 {
        self.job
            .as_ref()
            .and_then(|j| j.poll_interval_ms)
            .unwrap_or(DEFAULT_POLL_INTERVAL_MS)
    }

    /// The job's time limit in milliseconds (declared, else [`DEFAULT_TIMEOUT_MS`]).
    pub fn job_timeout_ms(&self) -> u64 {
        self.job
            .as_ref()
            .and_then(|j| j.timeout_ms)
            .unwrap_or(DEFAULT_TIMEOUT_MS)
    }
}

impl Registry {
    /// Whether the tool has the runtime's `job` word: a command's output is `job`, and no
    /// command of its own takes the word or runs at the root (a root command's positionals
    /// would take it).
    pub fn offers_jobs(&self) -> bool {
        self.commands.iter().any(Command::is_job)
            && self.commands.iter().all(|c| {
                let path = c.argv_path();
                !path.is_empty() && path.first().map(String::as_str) != Some(JOB_WORD)
            })
    }
}
