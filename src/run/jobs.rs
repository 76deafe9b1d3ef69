//! Async jobs (CLI Agent Spec failure mode 49): a command whose output is `job` answers a job
//! descriptor at once and runs its handler detached ([`run`]), kept in a store under the
//! tool's state directory ([`store`]); the runtime's `job status|cancel|list` follow it
//! ([`words`]). A tool without a job command pays one comparison per call.

use std::sync::Arc;

use pas_spec::{Command, Registry};

use crate::end::call_state::{Outcome, Shared};

/// What a job command's call does instead of (or around) its handler.
pub(crate) enum Call<'a> {
    /// Not a job (or `--wait`, or over MCP for a client that takes no tasks): the handler runs
    /// as any other.
    Plain,
    /// Start the job and answer its descriptor.
    Start,
    /// This process is the job's detached run.
    Run(&'a str),
}

/// How a call of `command` runs.
pub(crate) fn call(shared: &Shared, command: &Command, leaf: &clap::ArgMatches) -> Call<'static> {
    if !command.is_job() {
        return Call::Plain;
    }
    if let Some(id) = crate::services::jobs::run::running_job()
        && crate::services::jobs::run::claim(&shared.registry, id)
    {
        return Call::Run(id);
    }
    let wait = leaf
        .try_get_one::<bool>(crate::builtins::jobs::WAIT_ID)
        .ok()
        .flatten()
        == Some(&true);
    // Over MCP a job runs to its end (the client gets the result and MCP's own progress),
    // unless the client takes tasks: then it starts as on the command line, and the task is
    // the job.
    let takes_task = shared.mcp.as_ref().is_none_or(|hooks| hooks.task.is_some());
    match wait || !takes_task {
        true => Call::Plain,
        false => Call::Start,
    }
}

/// Whether argv's matched path is the `job` word.
pub(crate) fn asked(registry: &Registry, path: &[String]) -> bool {
    path.first().map(String::as_str) == Some(pas_spec::job::JOB_WORD) && registry.offers_jobs()
}

/// Answers `job status|cancel|list` through the profile, as the other built-ins are.
pub(crate) fn answer(shared: &Arc<Shared>, path: &[String], leaf: &clap::ArgMatches) -> Outcome {
    let action = path.get(1).cloned().unwrap_or_default();
    let name = format!("{}.{action}", pas_spec::job::JOB_WORD);
    {
        let mut output = shared.lock();
        output.command = Some(name.clone());
        output.profile.configure(crate::profile::CallOptions {
            command: Some(name),
            ..Default::default()
        });
    }
    let registry = shared.registry.clone();
    let ran = crate::end::panics::catch(|| -> Result<(), crate::end::call_state::Stop> {
        let reply = crate::builtins::jobs::run(&registry, &action, leaf)?;
        crate::render::drive::reply(shared, reply)
    });
    match ran {
        Ok(Ok(())) => Outcome::Success,
        Ok(Err(stop)) => stop.into(),
        Err(error) => Outcome::Failed(error),
    }
}
