//! Async job commands (`output: job`, CLI Agent Spec failure mode 49): the `job` block belongs
//! to a job command, its numbers are positive and consistent, the job's time limit is the
//! block's (not `timeout`, which bounds one foreground call), and the runtime's `job` word is
//! reachable (no root command, no command of the tool's own named `job`).

use super::context::Context;
use super::report::{self, Pointer, Report};

pub fn check(context: &Context, report: &mut Report) {
    let registry = context.registry;
    let any_job = registry.commands.iter().any(|c| c.is_job());
    for (index, command) in registry.commands.iter().enumerate() {
        let at = report::command(index);
        let name = &command.name;
        if command.job.is_some() && !command.is_job() {
            report.error(
                "E094",
                &at.at("job"),
                format!(
                    "The command `{name}` has a `job` block, but its output is `{}`.",
                    command.output.as_str()
                ),
                "Set `output: job` to run it as an async job, or remove the `job` block.",
            );
        }
        if !command.is_job() {
            continue;
        }
        let job = command.job.clone().unwrap_or_default();
        for (key, value) in [
            ("pollIntervalMs", job.poll_interval_ms),
            ("timeoutMs", job.timeout_ms),
        ] {
            if value == Some(0) {
                report.error(
                    "E094",
                    &at.at("job").at(key),
                    format!("The job command `{name}` declares `{key}: 0`."),
                    "Give a positive number of milliseconds, or leave it out for the default (pollIntervalMs 1000, timeoutMs 3600000).",
                );
            }
        }
        if command.job_poll_interval_ms() > command.job_timeout_ms() {
            report.error(
                "E094",
                &at.at("job").at("pollIntervalMs"),
                format!(
                    "The job command `{name}` polls every {} ms, longer than its time limit of {} ms.",
                    command.job_poll_interval_ms(),
                    command.job_timeout_ms()
                ),
                "Make pollIntervalMs at most timeoutMs.",
            );
        }
        if command.timeout.is_some() {
            report.error(
                "E094",
                &at.at("timeout"),
                format!("The job command `{name}` declares `timeout`; a job's time limit is `job.timeoutMs`."),
                "Move the limit to `job: {timeoutMs: MILLISECONDS}` and remove `timeout`.",
            );
        }
        if command.argv_path().is_empty() {
            report.error(
                "E094",
                &context.path_pointer(index),
                format!("The job command `{name}` runs at the root, where its arguments would take the runtime's `job` word."),
                "Give the command a path of its own (e.g. `path: [deploy]`), so `TOOL job status ID` is reachable.",
            );
        }
    }
    // `job status` says each state by its own exit code: none may be the tool's own too
    // (compose keeps 0/1/2, so only its code names matter there).
    if any_job && registry.profile == crate::Profile::Pas {
        for (index, code) in registry.exit_codes.iter().enumerate() {
            let clash = crate::builtin_codes::JOB_CODES
                .iter()
                .find(|job| u16::from(job.exit) == code.code && job.name != code.name);
            if let Some(job) = clash {
                report.error(
                    "E094",
                    &Pointer::root().at("exitCodes").at(index).at("code"),
                    format!(
                        "The exit code {} ({}) is the one `job status` ends with for {}, and the tool has job commands.",
                        code.code, code.name, job.name
                    ),
                    "Give the tool's code another number (74-78 are the job states').",
                );
            }
        }
    }
    // robot's exit codes are the spec's named table (robot 11): a robot tool names the states.
    if any_job && registry.profile == crate::Profile::Robot {
        let missing: Vec<&str> = crate::builtin_codes::JOB_CODES
            .iter()
            .map(|b| b.name)
            .filter(|name| !registry.exit_codes.iter().any(|c| c.name == *name))
            .collect();
        if !missing.is_empty() {
            report.error(
                "E094",
                &Pointer::root().at("exitCodes"),
                format!(
                    "The robot tool has job commands, and its exit-code table does not name {}, which `job status` ends with.",
                    missing.join(", ")
                ),
                "Add each under exitCodes with a code of its own, e.g. `{code: 75, name: JOB_RUNNING, meaning: Still running; poll again}` (74-78 as in the pas profile).",
            );
        }
    }
    if any_job
        && let Some(index) = registry
            .commands
            .iter()
            .position(|c| c.argv_path().first().map(String::as_str) == Some(crate::job::JOB_WORD))
    {
        report.error(
            "E094",
            &context.path_pointer(index),
            format!(
                "The command `{}` takes the word `job`, which the runtime answers for the tool's job commands (`job status ID`).",
                registry.commands[index].name
            ),
            "Rename the command.",
        );
    }
}
