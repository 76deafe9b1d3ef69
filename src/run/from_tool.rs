//! Running a derive-built tool with one typed handler: every command's parsed arguments arrive
//! as the clap-derived value itself (`Cli`, or an enum variant), rebuilt from clap's matches.

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;

use crate::derive::AgentTool;
use crate::derive::build;
use crate::error::Error;
use crate::handler::args::Args;
use crate::handler::context::Context;
use crate::reply::Reply;
use crate::run::app::App;

impl App {
    /// A derive-built tool: the registry from [`registry_of::<T>()`](crate::registry_of), the parser
    /// from `T::command()`, and `handler` for every command, called with the parsed `T`.
    ///
    /// `App::handler` may still replace the handler of one command by its dotted name.
    pub fn from_tool<T, F>(handler: F) -> App
    where
        T: AgentTool + Parser + 'static,
        F: Fn(T, &Context) -> Result<Reply, Error> + Send + Sync + 'static,
    {
        // One clap command serves both: the registry is read from it, then it parses.
        let command = T::command();
        // The output and input schemas are made only when a face shows them (see `App::run_from`);
        // a resource tool's verbs are built from the registry, so it gets them at once.
        let (mut registry, mut schemas, misdeclared) = build::registry(
            &command,
            T::agent_tool(),
            T::agent_node(),
            std::any::type_name::<T>(),
            const { build::declarations(T::DECLARES_CHECKS) },
        );
        if !registry.resources.is_empty() {
            std::mem::take(&mut schemas).apply(&mut registry);
        }
        let names: Vec<String> = registry
            .commands
            .iter()
            .map(|command| command.name.clone())
            .collect();
        let handler = Arc::new(handler);
        let misdeclared: Arc<[String]> = misdeclared.into();
        // Only the profile the derive named is linked in, jobs only for a tool with a job command
        // and idempotency keys only for one that changes state; likewise the declared checks,
        // input schema checks, `cleanup`, locks and the confirm guard only for a tool that
        // declares them, and the TOML reader of configuration files only for one that may have
        // global flags (`crate::run::rooms`).
        let rooms = const {
            crate::run::rooms::Rooms::for_profile(T::PROFILE)
                .with_jobs(T::OFFERS_JOBS)
                .with_keys(T::CHANGES_STATE)
                .with_declared(T::DECLARES_CHECKS)
                .with_input(T::CHECKS_INPUT)
                .with_cleanup(T::OFFERS_CLEANUP)
                .with_locks(T::TAKES_LOCKS)
                .with_guard(T::CONFIRMS)
                .with_config(T::HAS_GLOBAL_FLAGS)
        };
        let mut app = App::with_command_in(registry, command, rooms);
        app.schemas = build::PendingSchemas::new(Some(schemas));
        for name in names {
            let handler = Arc::clone(&handler);
            let misdeclared = Arc::clone(&misdeclared);
            app = app.handler(name, move |args: &Args, ctx: &Context| {
                // clap parsed argv with this very command, so this fails only on a bug.
                let value = T::from_arg_matches(args.root_matches()).map_err(|err| {
                    Error::internal(format!(
                        "the parsed arguments do not fit the tool's type: {err}"
                    ))
                })?;
                // A `declared` key naming a parameter its command lacks fails every call
                // rather than run a handler without the checks it was meant to have.
                if let Some(problem) = misdeclared.first() {
                    return Err(Error::internal(problem.clone()));
                }
                handler(value, ctx)
            });
        }
        app
    }
}

/// Runs the derive-built tool `T` on the process's argv with one handler for every command:
/// `fn main() -> ExitCode { pas::run::<Cli, _>(handle) }`.
pub fn run<T, F>(handler: F) -> ExitCode
where
    T: AgentTool + Parser + 'static,
    F: Fn(T, &Context) -> Result<Reply, Error> + Send + Sync + 'static,
{
    App::from_tool::<T, F>(handler).run()
}
