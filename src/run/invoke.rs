//! The one pipeline both transports run for a command of the tool: select it, pass the checks
//! it declares (`crate::run`'s pre-handler checks), call its handler under the panic catcher,
//! and hand the reply to `finish` (the CLI renders it; the MCP server collects it).
use std::ffi::OsString;
use std::io::{self, IsTerminal};
use std::sync::Arc;

use pas_spec::StdinMode;

use crate::end::call_state::{Shared, Stop};
use crate::error::Error;
use crate::handler::args::Args;
use crate::handler::context::{self, Context, Selected};
use crate::parse::clap_augment::FORMAT_ID;
use crate::profile::CallOptions;
use crate::reply::Reply;
use crate::resources::{self};
use crate::run::undeclared;
use crate::{
    end::{panics, signals},
    parse::command_path,
};

use crate::run::app::{App, Handler};

impl App {
    /// Runs the command argv matched: selects it, applies the guards, calls its handler and
    /// hands the reply to `finish` (the CLI renders it; the MCP server collects it), both
    /// under the panic catcher. What the two transports share.
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) fn invoke<T>(
        &self,
        shared: &Arc<Shared>,
        matches: &clap::ArgMatches,
        argv: &[OsString],
        finish: impl FnOnce(Reply) -> Result<T, Stop>,
    ) -> Result<T, Stop> {
        let (path, leaf) = command_path::matched(matches);
        self.invoke_matched(shared, matches, (&path, leaf), argv, finish)
    }

    /// [`App::invoke`] with the command path and leaf matches routing already found (argv is
    /// matched once per call).
    pub(crate) fn invoke_matched<T>(
        &self,
        shared: &Arc<Shared>,
        matches: &clap::ArgMatches,
        (path, leaf): (&[String], &clap::ArgMatches),
        argv: &[OsString],
        finish: impl FnOnce(Reply) -> Result<T, Stop>,
    ) -> Result<T, Stop> {
        let registry = &self.registry;
        let selected = match registry.commands.iter().position(|c| c.argv_path() == path) {
            Some(index) => Selected::Declared(index),
            None => match self.verbs.iter().find(|c| c.argv_path() == path) {
                Some(verb) => Selected::Verb(verb.clone()),
                None => {
                    return Err(Stop::Failed(Error::internal(format!(
                        "argv selected `{}`, which the registry has no command for",
                        path.join(" ")
                    ))));
                }
            },
        };
        let command = match &selected {
            Selected::Declared(index) => &registry.commands[*index],
            Selected::Verb(command) => &**command,
        };
        {
            let mut output = shared.lock();
            output.command = Some(command.name.clone());
            output.redactor.scan_matches(
                command.parameters.iter().chain(&registry.global_flags),
                leaf,
            );
            if let Some(error) = output.redactor.refusal() {
                return Err(Stop::Failed(error));
            }
            let format = leaf
                .try_get_one::<String>(FORMAT_ID)
                .ok()
                .flatten()
                .cloned();
            let fields =
                crate::parse::fields::selected(registry, command, leaf).map_err(Stop::Failed)?;
            crate::render::output_id::check(command).map_err(Stop::Failed)?;
            let list_field = command.list_field.clone();
            let command = Some(command.name.clone());
            output.profile.configure(CallOptions {
                format,
                command,
                fields,
                list_field,
            });
        }
        // What the command declares of its time and output limits (failure modes 11 and 43).
        crate::run::command_limits::apply(shared, command);
        // The synthesised `rm` needs --force for a wildcard or a container, checked on its route.
        if let Selected::Declared(_) = selected
            && let Some(guard) = self.rooms.guard
        {
            (guard.check)(registry, command, leaf, shared.agent)?;
        }
        if let Some(state) = &shared.robot
            && let Some(robot) = self.rooms.robot(registry)
        {
            (robot.prepare)(registry, state, command, leaf, argv, self.validate_only)?;
        } else if command.deprecated.is_some()
            || !command.stability.is_stable()
            || command
                .parameters
                .iter()
                .any(|p| !p.deprecated_aliases.is_empty())
        {
            // A deprecated or unstable command (or flag alias) still runs, and says so (22).
            let mut output = shared.lock();
            let output = &mut *output;
            for warning in crate::run::robot_prepare::deprecations(command, argv) {
                let _ = output.profile.warning(&mut output.sinks, &warning);
            }
        }
        // Declared formats: resource paths in every mode, what an agent hallucinates in a
        // declared identifier in machine mode (34, 35).
        crate::run::declared::harden(registry, command, leaf, shared.agent)
            .map_err(Stop::Failed)?;
        // What the spec declares (value constraints, requirements, credentials), before the handler.
        if let Some(declared) = self.rooms.declared {
            (declared.check)(registry, command, leaf).map_err(Stop::Failed)?;
        }
        // Credentials granting more than the command's declared scopes are warned about (74).
        let declared = self.rooms.declared;
        if let Some(declared) = declared {
            (declared.warn_scopes)(shared, registry, command);
        }
        // Zero interactivity: fail before the handler runs rather than wait on a terminal.
        if command.stdin == StdinMode::Required
            && shared.agent
            && shared.mcp.is_none()
            && crate::parse::input_file::given(leaf).is_none()
            && io::stdin().is_terminal()
        {
            return Err(Stop::Failed(context::missing_input(&registry.name)));
        }
        let verb = match &selected {
            Selected::Verb(_) => resources::dispatch::verb_named(registry, &command.name),
            Selected::Declared(_) => None,
        };
        let handler: &dyn Fn(&Args, &Context) -> Result<Reply, Error> = match verb {
            Some(verb) => match &self.resources {
                Some(resources) => &move |args, ctx| resources(verb, args, ctx),
                None => {
                    return Err(Stop::Failed(Error::internal(format!(
                        "no resource handlers are registered for {} (App::resources)",
                        command.name
                    ))));
                }
            },
            None => match self.handlers.get(&command.name) {
                Some(handler) => handler.as_ref(),
                // A deprecated command without a handler of its own runs its replacement's.
                None if command.deprecated.is_some() => match self.replacement_handler(command) {
                    Some(handler) => handler,
                    None => {
                        return Err(Stop::Failed(Error::internal(format!(
                            "no handler is registered for {}",
                            command.name
                        ))));
                    }
                },
                None => {
                    return Err(Stop::Failed(Error::internal(format!(
                        "no handler is registered for {}",
                        command.name
                    ))));
                }
            },
        };
        // Stdin checked against the declared inputSchema, corrections warned (46, 67).
        let body = crate::run::stdin_body::body_for_call(
            shared,
            &selected,
            command,
            leaf,
            self.rooms.input,
        )
        .map_err(Stop::Failed)?;
        let args = crate::handler::args::args_of(matches, leaf);
        let dry_run = crate::run::guard::dry_run(command, leaf);
        let context = Context::new(shared.clone(), selected.clone())
            .with_dry_run(dry_run)
            .with_stdin_body(body.as_ref().map(|b| b.bytes.clone()));
        body.iter()
            .flat_map(|b| b.warnings())
            .for_each(|w| context.warn(w));
        if self.validate_only {
            return finish(crate::run::validate_only::reply(command));
        }
        // An async job (failure mode 49): started detached, answered with its descriptor.
        let jobs = self.rooms.jobs;
        let job = jobs.map_or(crate::run::jobs::Call::Plain, |jobs| {
            (jobs.call)(shared, command, leaf)
        });
        if let (crate::run::jobs::Call::Start, Some(jobs)) = (&job, jobs) {
            let redactor = shared.lock().redactor.clone();
            // Over MCP (a task): the call's own words and `input`, not this process's.
            let (stdin, words) = match shared.mcp.as_ref() {
                Some(hooks) => (
                    hooks.input.as_deref(),
                    Some(argv.get(1..).unwrap_or_default()),
                ),
                None => (body.as_ref().map(|b| &b.bytes[..]), None),
            };
            let descriptor =
                (jobs.start)(registry, command, stdin, words, &redactor).map_err(Stop::Failed)?;
            if let Some(task) = shared.mcp.as_ref().and_then(|hooks| hooks.task.as_ref()) {
                *task
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(descriptor.clone());
            }
            return finish(Reply::object(&descriptor));
        }
        // One call at a time, when the command declares a lock (15, 58): held until the end.
        let _held = match self.rooms.locks {
            Some(locks) => (locks.take)(command, &context).map_err(Stop::Failed)?,
            None => None,
        };
        // `--idempotency-key`: reserved before the handler; a repeat replays the first success
        // instead of running (12). The key covers stdin, so a keyed command that reads stdin has
        // it read now (bounded, as the handler would), and the handler reads the same bytes.
        let keys = self.rooms.keys;
        let mut context = context;
        let mut stdin = body.as_ref().map(|b| b.bytes.clone());
        let keyed_call = !dry_run
            && leaf
                .try_get_one::<String>(crate::services::idempotency::KEY_ID)
                .is_ok_and(|key| key.is_some());
        if keys.is_some() && keyed_call && stdin.is_none() && command.stdin != StdinMode::None {
            match shared.mcp.as_ref() {
                Some(hooks) => stdin = hooks.input.as_deref().map(Arc::from),
                None => {
                    stdin = read_whole(&context).map_err(Stop::Failed)?;
                    context = context.with_stdin_body(stdin.clone());
                }
            }
        }
        let begun = match keys {
            Some(keys) => (keys.begin)(registry, command, matches, leaf, stdin.as_deref(), dry_run)
                .map_err(Stop::Failed)?,
            None => crate::services::idempotency::Begin::Unkeyed,
        };
        let mut keyed = match begun {
            crate::services::idempotency::Begin::Replay(reply) => {
                let replayed = crate::effect::Reported {
                    change: crate::effect::Change::Noop,
                    replayed: true,
                };
                shared.lock().profile.effect(replayed);
                return finish(crate::guards::sensitive::apply(
                    command,
                    || shared.lock().redactor.arguments().to_vec(),
                    crate::run::data_pass::apply(command, reply),
                ));
            }
            crate::services::idempotency::Begin::Fresh(keyed) => Some(keyed),
            crate::services::idempotency::Begin::Unkeyed => None,
        };
        // Outcomes follow effects: a signal from now on says what is known of the effect, and
        // once the handler returned a whole result, that result is the call's outcome.
        let running = crate::end::outcome::Running::cli(
            registry,
            command,
            keyed.is_some(),
            context.effect_cell(),
        );
        signals::handler_starts(shared, running);
        let ran = panics::catch(|| -> Result<T, Stop> {
            // The tool's own commands answer the tool's own codes (verbs answer the runtime's).
            let reply = handler(&args, &context);
            // A handler that failed gives its key back: a retry runs again.
            if let (Err(_), Some(keys)) = (&reply, keys)
                && let Some(keyed) = keyed.take()
            {
                (keys.abandon)(keyed);
            }
            shared.handler_returned(&reply);
            let reply = reply.map_err(|error| match selected {
                Selected::Declared(_) => {
                    let error = match declared {
                        Some(declared) => (declared.decorate_error)(registry, error),
                        None => error,
                    };
                    undeclared::check(registry, error)
                }
                Selected::Verb(_) => error,
            });
            // A job's detached run records its outcome in the job's manifest.
            let reply = match (&job, jobs) {
                (crate::run::jobs::Call::Run(id), Some(jobs)) => {
                    (jobs.finish_run)(registry, id, reply)
                }
                _ => reply,
            }?;
            let reply = match declared {
                Some(declared) => (declared.separate_untrusted)(command, reply),
                None => reply,
            };
            let reply = match (keyed.take(), keys) {
                (Some(keyed), Some(keys)) => {
                    let redactor = {
                        let output = shared.lock();
                        output
                            .redactor
                            .has_values()
                            .then(|| output.redactor.clone())
                    };
                    let (reply, warning) =
                        (keys.record)(keyed, redactor, reply, context.reported_effect());
                    warning.into_iter().for_each(|w| context.warn(w));
                    reply
                }
                _ => reply,
            };
            // Declared paths absolute, `--stable-output` (failure modes 29 and 7).
            finish(crate::guards::sensitive::apply(
                command,
                || shared.lock().redactor.arguments().to_vec(),
                crate::run::data_pass::apply(command, reply),
            ))
        });
        match ran {
            Ok(result) => result,
            Err(error) => {
                // A handler that panicked in a job's detached run: its manifest says so
                // (INTERNAL_ERROR, the panic's message), not that the process vanished. A panic
                // after the outcome was recorded changes nothing (a manifest ends once).
                if let (crate::run::jobs::Call::Run(id), Some(jobs)) = (&job, jobs) {
                    let _ = (jobs.finish_run)(registry, id, Err(error.clone()));
                }
                Err(Stop::Failed(error))
            }
        }
    }

    /// The handler of a deprecated command's replacement, when it has one.
    pub(crate) fn replacement_handler(&self, command: &pas_spec::Command) -> Option<&Handler> {
        let name = command.deprecated.as_ref()?.replacement.as_deref()?;
        self.handlers.get(name).map(|handler| handler.as_ref())
    }
}

/// The whole of what a command's handler would read as stdin (bounded, and absent where the
/// handler would find it absent: a terminal, an idle pipe in agent mode).
pub(crate) fn read_whole(context: &Context) -> Result<Option<Arc<[u8]>>, Error> {
    let Some(mut reader) = context.stdin()? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    // Past the input limit: the structured error the handler's own read would have had.
    io::Read::read_to_end(&mut reader, &mut bytes)?;
    Ok(Some(bytes.into()))
}
