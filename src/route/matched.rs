//! Routing after the parse: the matched command path goes to a built-in word (cleanup, jobs, the
//! compose and robot built-ins) or, for the tool's own commands, to the one pipeline
//! (`crate::run::invoke`).
use std::ffi::OsString;
use std::sync::Arc;

use crate::builtins::{self};
use crate::end::call_state::{Outcome, Shared, Stop};
use crate::parse::config_file::ConfigFile;
use crate::profile::CallOptions;
use crate::{end::panics, parse::command_path, render};

use crate::run::app::App;

impl App {
    pub(crate) fn run_matched(
        &self,
        shared: &Arc<Shared>,
        matches: &clap::ArgMatches,
        config: Option<&ConfigFile>,
        argv: &[OsString],
    ) -> Outcome {
        let (path, leaf) = command_path::matched(matches);
        if path == [crate::builtins::cleanup::WORD]
            && let Some(cleanup) = self.rooms.cleanup(&self.registry)
        {
            return (cleanup.answer)(shared, leaf);
        }
        if let Some(jobs) = self.rooms.jobs
            && (jobs.asked)(&self.registry, &path)
        {
            return (jobs.answer)(shared, &path, leaf);
        }
        if let Some(compose) = self.rooms.compose
            && let Some(builtin) = (compose.builtin)(&self.registry, &path)
        {
            return self.run_builtin(shared, builtin, matches, leaf, config);
        }
        if let Some(robot) = self.rooms.robot(&self.registry)
            && let Some(builtin) = (robot.builtin)(&self.registry, &path)
        {
            return self.run_robot_builtin(shared, robot, builtin, matches, leaf);
        }
        // A deprecated command whose replacement is a robot built-in (`status` -> `sessions`).
        if let Some(outcome) = self.builtin_replacement(shared, &path, matches, leaf, argv) {
            return outcome;
        }
        // A library's prints never reach stdout (failure mode 68): see `stdout_capture`.
        crate::stdio::stdout_capture::start();
        // Whatever the handler starts ends with the call (failure mode 17): see `descendants`.
        crate::services::children::descendants::prepare();
        crate::services::children::descendants::adopt();
        if let Some(cleanup) = self.rooms.cleanup {
            (cleanup.keep_record)(&self.registry.name);
        }
        let ran = self.invoke_matched(shared, matches, (&path, leaf), argv, |reply| {
            crate::end::third_party_stdout::drain(shared);
            // `--output-id`: the ids alone, one per line, in every profile (failure mode 6).
            if crate::render::output_id::on() && !self.validate_only {
                return crate::render::output_id::write(shared, reply);
            }
            render::drive::reply(shared, reply)
        });
        crate::end::third_party_stdout::end(shared);
        match ran {
            Ok(()) => Outcome::Success,
            Err(stop) => stop.into(),
        }
    }

    pub(crate) fn run_builtin(
        &self,
        shared: &Arc<Shared>,
        builtin: builtins::Builtin,
        matches: &clap::ArgMatches,
        leaf: &clap::ArgMatches,
        config: Option<&ConfigFile>,
    ) -> Outcome {
        {
            let mut output = shared.lock();
            output.command = Some(builtin.name().to_owned());
            let command = Some(builtin.name().to_owned());
            output.profile.configure(CallOptions {
                command,
                ..CallOptions::default()
            });
        }
        let args = crate::handler::args::args_of(matches, leaf);
        let ran = panics::catch(|| -> Result<(), Stop> {
            let declared = self.rooms.declared.map(|declared| declared.health);
            let reply = match self.rooms.compose {
                Some(compose) => (compose.run)(
                    builtin,
                    &self.registry,
                    &self.health_checks,
                    &args,
                    config,
                    declared,
                ),
                None => builtins::run(builtin, &self.registry, &args, config, declared),
            }?;
            render::drive::reply(shared, reply)
        });
        match ran {
            Ok(Ok(())) => Outcome::Success,
            Ok(Err(stop)) => stop.into(),
            Err(error) => Outcome::Failed(error),
        }
    }

    pub(crate) fn run_robot_builtin(
        &self,
        shared: &Arc<Shared>,
        robot: &crate::run::rooms::RobotRoom,
        builtin: crate::parse::robot_flags::Builtin,
        matches: &clap::ArgMatches,
        leaf: &clap::ArgMatches,
    ) -> Outcome {
        {
            let mut output = shared.lock();
            output.command = Some(builtin.name().to_owned());
            output.profile.configure(CallOptions {
                command: Some(builtin.name().to_owned()),
                ..CallOptions::default()
            });
        }
        if let Some(state) = &shared.robot {
            state.lock().options = (robot.options)(leaf);
        }
        let args = crate::handler::args::args_of(matches, leaf);
        let ran = panics::catch(|| -> Result<(), Stop> {
            let reply = (robot.run)(builtin, &self.registry, &self.robot_hooks, &args)?;
            render::drive::reply(shared, reply)
        });
        match ran {
            Ok(Ok(())) => Outcome::Success,
            Ok(Err(stop)) => stop.into(),
            Err(error) => Outcome::Failed(error),
        }
    }

    /// A deprecated command whose replacement is a robot built-in runs that built-in, after the
    /// robot profile's preparation (which records the deprecation warning).
    pub(crate) fn builtin_replacement(
        &self,
        shared: &Arc<Shared>,
        path: &[String],
        matches: &clap::ArgMatches,
        leaf: &clap::ArgMatches,
        argv: &[OsString],
    ) -> Option<Outcome> {
        let command = self
            .registry
            .commands
            .iter()
            .find(|c| c.argv_path() == path)?;
        if self.handlers.contains_key(&command.name) {
            return None;
        }
        let name = command.deprecated.as_ref()?.replacement.as_deref()?;
        let words: Vec<String> = name.split('.').map(str::to_owned).collect();
        let robot = self.rooms.robot(&self.registry)?;
        let builtin = (robot.builtin)(&self.registry, &words)?;
        if let Some(state) = &shared.robot
            && let Err(error) = (robot.prepare)(
                &self.registry,
                state,
                command,
                leaf,
                argv,
                self.validate_only,
            )
        {
            return Some(Outcome::Failed(error));
        }
        Some(self.run_robot_builtin(shared, robot, builtin, matches, leaf))
    }
}
