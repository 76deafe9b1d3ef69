//! Routing, before and at the parse: help, the spec, validation and built-in words answered
//! before clap runs; then clap's parse, whose refusal is the profile's error.
use std::ffi::OsString;
use std::sync::Arc;

use clap::error::ErrorKind;

use crate::builtins::{self};
use crate::end::call_state::{Outcome, Shared, Stop};
use crate::error::Error;
use crate::parse::argv::Prescan;
use crate::parse::clap_augment::{self};
use crate::parse::config_file::ConfigFile;
use crate::{
    builtins::doc_commands,
    end::signals,
    parse::{command_path, parse_error},
};

use crate::run::app::App;

impl App {
    /// `mcp --help` (the word's help, on stdout) and `mcp --print-config CLIENT [--install]`
    /// (a built-in's reply, in the profile's form).
    fn answer_mcp_word(
        &self,
        shared: &Arc<Shared>,
        pre: &Prescan,
        config: Option<&ConfigFile>,
    ) -> Outcome {
        use crate::parse::mcp_options::{Asked, read};
        match read(&self.registry, pre.argv.get(2..).unwrap_or(&[])) {
            Err(error) => Outcome::Failed(error),
            Ok(Asked::Help(text)) => {
                let mut output = shared.lock();
                match output.sinks.stdout.write(text.as_bytes()) {
                    Ok(()) => Outcome::Success,
                    Err(err) => Stop::from(err).into(),
                }
            }
            Ok(Asked::Run(matches)) => self.run_builtin(
                shared,
                builtins::Builtin::McpConfig,
                &matches,
                &matches,
                config,
            ),
        }
    }

    pub(crate) fn dispatch(
        &mut self,
        shared: &Arc<Shared>,
        pre: &Prescan,
        config: Option<&ConfigFile>,
        watch: &mut signals::Watch,
    ) -> Outcome {
        if pre.validate {
            watch.start();
            return crate::builtins::validate_pas::run(&self.registry, shared, pre.agent);
        }
        if pre.print_spec {
            let spec = pas_spec::write::to_json(&self.registry);
            let mut output = shared.lock();
            return match output.sinks.stdout.write(spec.as_bytes()) {
                Ok(()) => Outcome::Success,
                Err(err) => Stop::from(err).into(),
            };
        }
        // `docs`, `completions <shell>`, `man`, and `tools` outside compose: the built-in words
        // answered before clap, with or without `--agent`, after the global flags.
        if let Some(outcome) = doc_commands::answer(&self.registry, &|| self.command(), shared, pre)
        {
            return outcome;
        }
        // `changelog` (failure mode 22): every profile, like `doctor`.
        if crate::builtins::versions::wanted(pre) {
            let none = clap::ArgMatches::default();
            return self.run_builtin(shared, builtins::Builtin::Changelog, &none, &none, config);
        }
        // `doctor` (failure modes 27 and 26): every profile, whatever the tool's commands need.
        if crate::builtins::doctor::wanted(pre) {
            watch.start();
            let none = clap::ArgMatches::default();
            return self.run_builtin(shared, builtins::Builtin::Doctor, &none, &none, config);
        }
        // The `mcp` word's text answers: `mcp --print-config CLIENT [--install]` and
        // `mcp --help` (the server itself started before dispatch, in `crate::transport::cli`).
        if pre.builtin_words && crate::parse::argv::names_mcp_word(&self.registry, &pre.argv) {
            return self.answer_mcp_word(shared, pre, config);
        }
        // The call parses once, so it takes the command rather than cloning it (a deep copy of
        // every arg: a measurable share of start-up). It parses with the parsing command unless
        // what it does shows the documented one (`crate::parse::clap_augment`).
        let documented = pre.show_config || pre.dash || clap_augment::names_runtime_flag(&pre.argv);
        let command = match documented {
            true => self.take_command(),
            false => std::mem::take(&mut self.parser),
        };
        let mut cmd = match self.for_call(command, config, pre) {
            Ok(cmd) => cmd,
            Err(error) => return Outcome::Failed(error),
        };
        // Agent help: with `--agent`, or always where output is machine output always. A word
        // that names no command is the error a person's `nope --help` gets, not the root's help.
        let agent_help_wanted = crate::parse::argv::machine_mode(&self.registry, pre);
        if pre.help && agent_help_wanted && !names_unknown_command(&cmd, &pre.argv) {
            return agent_help(shared, &cmd, &pre.argv);
        }
        // `--show-config` (failure mode 28): the settings and their sources, whatever command
        // argv names (a lenient parse: a missing subcommand or argument does not matter here).
        if pre.show_config {
            let matches = match cmd
                .clone()
                .ignore_errors(true)
                .try_get_matches_from(&pre.argv)
            {
                Ok(matches) => matches,
                Err(err) => return Outcome::Failed(Error::general(err.to_string())),
            };
            let leaf = command_path::matched(&matches).1;
            return self.run_builtin(
                shared,
                builtins::Builtin::ConfigShow,
                &matches,
                leaf,
                config,
            );
        }
        // `-` for an id reads it from stdin (failure mode 6): argv with the ids in its place.
        let piped = match pre.dash {
            true => match crate::parse::stdin_ids::substitute(
                &self.registry,
                &cmd,
                &pre.argv,
                &pre.given,
                crate::parse::stdin_ids::read_stdin,
            ) {
                Ok(piped) => piped,
                Err(error) => return Outcome::Failed(error),
            },
            false => None,
        };
        let argv = piped.as_deref().unwrap_or(&pre.argv);
        let mut parsed = cmd.try_get_matches_from_mut(argv.iter());
        // Help, version and every error come from the documented command.
        if parsed.is_err() && !documented {
            let documented = self.take_command();
            cmd = match self.for_call(documented, config, pre) {
                Ok(cmd) => cmd,
                Err(error) => return Outcome::Failed(error),
            };
            parsed = cmd.try_get_matches_from_mut(argv.iter());
        }
        // A command's own flag before its subcommand word, read where it belongs.
        let placed = match &parsed {
            Err(err) => crate::parse::flag_place::moved(&cmd, argv, err),
            Ok(_) => None,
        };
        if let Some(words) = &placed
            && let Ok(matches) = cmd.try_get_matches_from_mut(words.iter())
        {
            parsed = Ok(matches);
        }
        let argv = match (&placed, &parsed) {
            (Some(words), Ok(_)) => &words[..],
            _ => argv,
        };
        match parsed {
            Ok(matches) => {
                // A handler or built-in may block: a signal must end it promptly.
                watch.start();
                self.run_matched(shared, &matches, config, argv)
            }
            Err(err) => match err.kind() {
                // `tool --agent help <command>`: clap's help subcommand, answered by the profile.
                ErrorKind::DisplayHelp if agent_help_wanted => agent_help(shared, &cmd, &pre.argv),
                // clap writes these itself: a stdout closed at start (`>&-`) would swallow them.
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
                    if crate::stdio::closed_stdout::stdout_was_closed() =>
                {
                    Outcome::Failed(crate::end::call_state::output_lost(
                        &crate::stdio::streams::closed_error(),
                    ))
                }
                // Machine mode's `--version` says the PAS level the tool backs; a person's is
                // the tool's own text.
                ErrorKind::DisplayVersion if agent_help_wanted => {
                    let line = clap_augment::version_line(&self.registry);
                    let mut output = shared.lock();
                    match output.sinks.stdout.write(line.as_bytes()) {
                        Ok(()) => Outcome::Success,
                        Err(err) => Stop::from(err).into(),
                    }
                }
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => match err.print() {
                    Ok(()) => Outcome::Success,
                    Err(err) => Stop::from(err).into(),
                },
                _ => {
                    let surface = pas_spec::surface::of(self.registry.profile);
                    let mut words = surface.invocation_prefix(&self.registry);
                    words.extend(command_path::help_path(&cmd, &pre.argv));
                    words.push("--help".to_owned());
                    let error = parse_error::map(&err, &words.join(" "));
                    Outcome::ParseFailed(Box::new(err), error)
                }
            },
        }
    }

    /// A command made ready for this call: the configuration file's values as defaults, no
    /// colour in agent mode.
    pub(crate) fn for_call(
        &self,
        command: clap::Command,
        config: Option<&ConfigFile>,
        pre: &Prescan,
    ) -> Result<clap::Command, Error> {
        let cmd = match config {
            Some(file) => file.apply(command)?,
            None => command,
        };
        Ok(match pre.agent {
            true => cmd.color(clap::ColorChoice::Never),
            false => cmd,
        })
    }
}

/// Whether argv names a word where a command is expected that is no command (`tool nope
/// --help`): clap refuses it even beside `--help`, so a person's call is an error, and so is
/// the agent's. The look parses once more, on the help path only.
pub(crate) fn names_unknown_command(cmd: &clap::Command, argv: &[OsString]) -> bool {
    if !cmd.has_subcommands() {
        return false;
    }
    cmd.clone()
        .try_get_matches_from(argv)
        .is_err_and(|err| err.kind() == ErrorKind::InvalidSubcommand)
}

pub(crate) fn agent_help(shared: &Shared, cmd: &clap::Command, argv: &[OsString]) -> Outcome {
    let path = command_path::help_path(cmd, argv);
    let mut output = shared.lock();
    let output = &mut *output;
    match output.profile.help(&mut output.sinks, &path) {
        Ok(_) => Outcome::Success,
        Err(err) => Stop::from(err).into(),
    }
}
