//! `health`: whether the tool can work now. Handlers register checks with
//! [`App::health_check`](crate::run::app::App::health_check); the report's status is the worst check's:
//! `ready` (all ok), `degraded` (works, with something to fix) or `blocked` (a prerequisite is
//! missing: the commands that need it exit 2). Every check carries a `fix` command (null when
//! nothing needs fixing). The command itself succeeds whatever it finds: it reported.

use serde::Serialize;

use crate::handler::args::Args;
use crate::reply::Reply;

/// A health check: the call's arguments (global flags included) in, a verdict out.
pub type HealthCheck = dyn Fn(&Args) -> Check + Send + Sync;

/// A check registered under a name.
pub(crate) struct Registered {
    pub(crate) name: String,
    pub(crate) check: Box<HealthCheck>,
}

/// One check's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckStatus {
    /// Nothing to do.
    Ok,
    /// The tool works, but something should be fixed.
    Degraded,
    /// A prerequisite is missing: commands that need it fail with a blocking code (exit 2).
    Blocked,
}

/// What a check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The verdict; the worst verdict of all checks is `health`'s overall `status` (`ready`,
    /// `degraded` or `blocked`).
    pub status: CheckStatus,
    /// What was found, in one sentence.
    pub message: String,
    /// A command that fixes it (for degraded and blocked checks).
    pub fix: Option<String>,
}

impl Check {
    /// A check that passed; `message` says what was checked (`store reachable at ~/.todo.db`).
    pub fn ok(message: impl Into<String>) -> Check {
        Check {
            status: CheckStatus::Ok,
            message: message.into(),
            fix: None,
        }
    }

    /// Works, but `fix` should be run.
    pub fn degraded(message: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            status: CheckStatus::Degraded,
            message: message.into(),
            fix: Some(fix.into()),
        }
    }

    /// Cannot work until `fix` is run.
    pub fn blocked(message: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            status: CheckStatus::Blocked,
            message: message.into(),
            fix: Some(fix.into()),
        }
    }
}

#[derive(Serialize)]
struct Report<'a> {
    status: &'static str,
    checks: Vec<Entry<'a>>,
}

#[derive(Serialize)]
struct Entry<'a> {
    name: std::borrow::Cow<'a, str>,
    status: CheckStatus,
    message: String,
    fix: Option<String>,
}

/// The report; `declared` lists the declared requirements and credentials (absent in a binary
/// built for a tool known to declare none, `crate::run::rooms`).
pub(crate) fn run(
    registry: &pas_spec::Registry,
    checks: &[Registered],
    args: &Args,
    declared: Option<crate::builtins::health::HealthEntries>,
) -> Reply {
    // The spec's requirements and credentials first: the runtime checks them for every tool
    // that declares them, without a check of its own.
    let declared = declared.map_or_else(Vec::new, |health| health(registry));
    let mut entries: Vec<Entry<'_>> = declared
        .into_iter()
        .map(|(name, ok, message, fix)| Entry {
            name: std::borrow::Cow::Owned(name),
            status: if ok {
                CheckStatus::Ok
            } else {
                CheckStatus::Blocked
            },
            message,
            fix,
        })
        .collect();
    entries.extend(checks.iter().map(|registered| {
        let check = (registered.check)(args);
        Entry {
            name: std::borrow::Cow::Borrowed(registered.name.as_str()),
            status: check.status,
            message: check.message,
            fix: check.fix,
        }
    }));
    let worst = entries.iter().map(|e| e.status).max();
    let status = match worst {
        None | Some(CheckStatus::Ok) => "ready",
        Some(CheckStatus::Degraded) => "degraded",
        Some(CheckStatus::Blocked) => "blocked",
    };
    Reply::object(&Report {
        status,
        checks: entries,
    })
}

/// [`health_entries`]' signature: (name, ok, message, fix) for each declared requirement and
/// for the credentials.
pub(crate) type HealthEntries =
    fn(&pas_spec::Registry) -> Vec<(String, bool, String, Option<String>)>;
