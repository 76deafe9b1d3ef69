//! The runtime's `job` word (CLI Agent Spec failure mode 49), in every tool with a job
//! command: `job status ID`, `job cancel ID` and `job list`, answered through the profile.
//!
//! `job status` says the job's state by its exit code as well as its data: 0 once it
//! succeeded (data: the descriptor with `result`); otherwise an error whose code is the state
//! (`JOB_RUNNING` 75, retryable with `retry_after_ms` = the poll interval, not a failure;
//! `JOB_FAILED` 76 with the handler's `error`; `JOB_CANCELLED` 77; `JOB_TIMED_OUT` 78;
//! `JOB_NOT_FOUND` 74), its `details` the descriptor.

use pas_spec::Registry;
use pas_spec::builtin_codes::{JOB_CANCELLED, JOB_FAILED, JOB_RUNNING, JOB_TIMED_OUT};
use serde_json::{Value, json};

use crate::error::Error;
use crate::reply::Reply;
pub(crate) use crate::services::jobs::run::descriptor;
use crate::services::jobs::store::{self, Manifest, Status};

/// The clap id of a job's id argument.
const ID_ARG: &str = "pas_job_id";
/// The clap id of `--wait` on a job command.
pub(crate) const WAIT_ID: &str = "pas_job_wait";

/// Adds `job status|cancel|list` and each job command's `--wait` to the clap command.
pub(crate) fn augment(mut cmd: clap::Command, registry: &Registry) -> clap::Command {
    if !registry.offers_jobs() {
        return cmd;
    }
    for command in registry.commands.iter().filter(|c| c.is_job()) {
        // From the row the faces list for the command.
        let wait = crate::parse::flag_args::command_arg(
            WAIT_ID,
            registry,
            command,
            pas_spec::job::WAIT_FLAG,
        );
        cmd = crate::parse::clap_augment::at_path(cmd, &command.argv_path(), &mut |sub| {
            sub.args(wait.clone())
        });
    }
    let id = || {
        clap::Arg::new(ID_ARG)
            .value_name("ID")
            .required(true)
            .help("The job's id (job_id of the descriptor)")
    };
    cmd.subcommand(
        clap::Command::new(pas_spec::job::JOB_WORD)
            .about("Async jobs: status, cancel, list")
            .subcommand_required(true)
            .subcommand(
                clap::Command::new("status")
                    .about("The job's state: exit 0 once it succeeded, else its JOB_* code")
                    .arg(id()),
            )
            .subcommand(
                clap::Command::new("cancel")
                    .about("End a running job (SIGTERM, then SIGKILL)")
                    .arg(id()),
            )
            .subcommand(clap::Command::new("list").about("Every job with its status")),
    )
}

/// Runs `job status|cancel|list` (the matched subcommand is `action`).
pub(crate) fn run(
    registry: &Registry,
    action: &str,
    leaf: &clap::ArgMatches,
) -> Result<Reply, Error> {
    let id = leaf
        .try_get_one::<String>(ID_ARG)
        .ok()
        .flatten()
        .cloned()
        .unwrap_or_default();
    match action {
        "status" => status(registry, &id),
        "cancel" => cancel(registry, &id),
        _ => list(registry),
    }
}

fn status(registry: &Registry, id: &str) -> Result<Reply, Error> {
    let (_, manifest) = crate::services::jobs::follow::load(registry, id)?;
    let mut data = descriptor(&manifest);
    let id = &manifest.id;
    let (code, message) = match manifest.status {
        Status::Succeeded => {
            data["result"] = manifest.result.clone().unwrap_or(Value::Null);
            let text = format!("job {id} succeeded");
            return Ok(Reply::object_with_text(&data, text));
        }
        Status::Queued | Status::Running => {
            let error = Error::new(
                JOB_RUNNING,
                format!(
                    "job {id} is still {}; poll again",
                    status_word(manifest.status)
                ),
            )
            .with_suggestion(manifest.status_command.clone())
            .with_details(data)
            .with_retryable(true)
            .with_retry_after_ms(manifest.poll_interval_ms)
            // Poll at the same pace until the job's time limit, not a few times.
            .with_retry_strategy(crate::retry::RetryStrategy::LinearBackoff)
            .with_max_retries(polls_left(&manifest));
            return Err(error);
        }
        Status::Failed => (JOB_FAILED, format!("job {id} failed")),
        Status::Cancelled => (JOB_CANCELLED, format!("job {id} was cancelled")),
        Status::TimedOut => (
            JOB_TIMED_OUT,
            format!(
                "job {id} ran past its time limit of {} ms",
                manifest.timeout_ms
            ),
        ),
    };
    if let Some(error) = &manifest.error {
        data["error"] = error.clone();
    }
    let message = match manifest.error.as_ref().and_then(|e| e["message"].as_str()) {
        Some(why) if manifest.status == Status::Failed => format!("{message}: {why}"),
        _ => message,
    };
    Err(Error::new(code, message)
        .with_details(data)
        .with_retryable(false))
}

/// How many polls the job's time limit leaves (at least one).
fn polls_left(manifest: &Manifest) -> u32 {
    let left = (manifest.started_ms + manifest.timeout_ms).saturating_sub(store::now_ms());
    u32::try_from(left.div_ceil(manifest.poll_interval_ms.max(1)).max(1)).unwrap_or(u32::MAX)
}

fn status_word(status: Status) -> &'static str {
    match status {
        Status::Queued => "queued",
        _ => "running",
    }
}

fn cancel(registry: &Registry, id: &str) -> Result<Reply, Error> {
    let done = crate::services::jobs::stop::cancel(registry, id, "`job cancel`")?;
    let manifest = done.manifest;
    let mut data = descriptor(&manifest);
    data["cancelled"] = json!(!done.ended_before && manifest.status == Status::Cancelled);
    let text = match done.ended_before {
        true => format!("job {id} had already ended"),
        false => format!("job {id}: {}", data["status"].as_str().unwrap_or("")),
    };
    Ok(Reply::object_with_text(&data, text))
}

fn list(registry: &Registry) -> Result<Reply, Error> {
    let Some(root) = store::root(&registry.name, false)? else {
        return Ok(Reply::list(Vec::<Result<Value, Error>>::new()));
    };
    let mut jobs = Vec::new();
    for id in store::ids(&root)? {
        let item = match store::read(&root, &id) {
            Ok(Some(manifest)) => {
                crate::services::jobs::follow::refresh(&root, manifest).map(|m| descriptor(&m))
            }
            Ok(None) => continue,
            Err(error) => Err(error),
        };
        jobs.push(item);
    }
    Ok(Reply::list(jobs))
}
