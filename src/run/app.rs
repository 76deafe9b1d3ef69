//! `App`: a registry, a clap command and handlers, run as one CLI call.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::sync::Arc;

use clap::error::ErrorKind;
use pas_spec::{Registry, StdinMode};

use crate::builtins::{self, health};
use crate::end::audit::Audit;
use crate::end::call_state::{Outcome, Output, Shared, Stop};
use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::handler::args::Args;
use crate::handler::context::{self, Context, Selected};
use crate::parse::argv::{self, Prescan};
use crate::parse::clap_augment::{self, FORMAT_ID};
use crate::parse::config_file::{self, ConfigFile};
use crate::profile::CallOptions;
use crate::reply::Reply;
use crate::resources::{self, Resources, dispatch::VerbHandler};
use crate::run::undeclared;
use crate::{
    builtins::doc_commands,
    codes,
    end::{panics, signals},
    parse::{clap_face, command_path, parse_error},
    render,
};

/// A command's handler: parsed arguments and the call's context in, a reply or an error out.
/// It never prints. `Send + Sync` because `TOOL mcp` runs concurrent calls on threads of their
/// own, sharing the app: state a handler keeps goes in an `Arc<Mutex<..>>`, not an `Rc<RefCell<..>>`.
pub type Handler = dyn Fn(&Args, &Context) -> Result<Reply, Error> + Send + Sync;

/// A tool: its registry, its clap parser and its handlers by dotted command name.
pub struct App {
    registry: Arc<Registry>,
    /// The tool's clap command before the runtime's additions (see [`full_command`]).
    base: clap::Command,
    /// The command a call parses with: without what only the documented one shows
    /// (`crate::parse::clap_augment`).
    parser: clap::Command,
    /// The documented command (help, errors, completions, man, MCP), made from `base` when first
    /// needed.
    documented: std::sync::OnceLock<clap::Command>,
    handlers: HashMap<String, Box<Handler>>,
    health_checks: Vec<health::Registered>,
    /// The level 3/4 verb commands the resources offer (none for most tools).
    verbs: Vec<Arc<pas_spec::Command>>,
    /// The handler of every verb, once [`App::resources`] gave one.
    resources: Option<Box<VerbHandler>>,
    /// Output and input schemas the registry was built without (a derive-built tool): made
    /// only for a call that may show them.
    pub(crate) schemas: crate::derive::PendingSchemas,
    /// robot: the probes and actions `capabilities` reports.
    robot_hooks: crate::builtins::robot::Hooks,
    /// The profiles beyond `pas` this binary carries (`crate::run::rooms`).
    rooms: crate::run::rooms::Rooms,
    /// `--validate-only`: calls stop after the checks, before the handler.
    validate_only: bool,
}

impl App {
    /// A spec-driven tool: the clap parser is built from the registry.
    pub fn new(mut registry: Registry) -> App {
        crate::parse::page_limit::apply(&mut registry);
        let command = clap_face::command_from_registry(&registry);
        App::with_command(registry, command)
    }

    /// A tool whose clap parser comes from elsewhere (clap derive). Its subcommand names must
    /// be the registry's argv words and its arg ids the parameters' snake_case names.
    pub fn with_command(registry: Registry, command: clap::Command) -> App {
        App::with_command_in(registry, command, crate::run::rooms::Rooms::ALL)
    }

    /// [`App::with_command`] carrying only the profiles in `rooms`.
    pub(crate) fn with_command_in(
        mut registry: Registry,
        command: clap::Command,
        rooms: crate::run::rooms::Rooms,
    ) -> App {
        let paged = crate::parse::page_limit::apply(&mut registry);
        // The faces list only the optional built-ins this binary has (issue 29, item 3).
        registry.built = crate::built::BUILT;
        let command = crate::parse::page_limit::apply_to_clap(command, &paged);
        let verbs: Vec<Arc<pas_spec::Command>> = pas_spec::verbs::verb_commands(&registry)
            .into_iter()
            .map(Arc::new)
            .collect();
        let base = clap_face::with_verbs(command, &verbs);
        let parser = full_command(base.clone(), &registry, &verbs, rooms, false);
        App {
            registry: Arc::new(registry),
            base,
            parser,
            documented: std::sync::OnceLock::new(),
            handlers: HashMap::new(),
            health_checks: Vec::new(),
            verbs,
            resources: None,
            schemas: Default::default(),
            robot_hooks: Default::default(),
            rooms,
            validate_only: false,
        }
    }

    /// The profiles beyond `pas` this binary carries.
    #[cfg(feature = "mcp")]
    pub(crate) fn rooms(&self) -> &crate::run::rooms::Rooms {
        &self.rooms
    }

    /// robot: a probe `capabilities` reports under `probes` (e.g. whether `lsof` is installed).
    pub fn capability_probe<F>(mut self, name: impl Into<String>, probe: F) -> App
    where
        F: Fn() -> bool + Send + Sync + 'static,
    {
        self.robot_hooks.probes.push((name.into(), Box::new(probe)));
        self
    }

    /// robot: an action `capabilities` reports under `actions`, and `--check-action` checks.
    pub fn capability_action<F>(mut self, name: impl Into<String>, available: F) -> App
    where
        F: Fn() -> bool + Send + Sync + 'static,
    {
        self.robot_hooks
            .actions
            .push((name.into(), Box::new(available)));
        self
    }

    /// Registers the handlers of the resources' verbs (`ls`, `cat`, ...; levels 3 and 4).
    pub fn resources<R: Resources + Send + Sync>(self, resources: R) -> App {
        self.shared_resources(Arc::new(resources))
    }

    /// [`App::resources`] for handlers the app shares with its commands' handlers.
    pub fn shared_resources<R: Resources + Send + Sync>(mut self, resources: Arc<R>) -> App {
        self.resources = Some(resources::dispatch::handler(resources));
        self
    }

    /// Registers the handler of the command with this dotted name.
    pub fn handler<F>(mut self, name: impl Into<String>, handler: F) -> App
    where
        F: Fn(&Args, &Context) -> Result<Reply, Error> + Send + Sync + 'static,
    {
        self.handlers.insert(name.into(), Box::new(handler));
        self
    }

    /// Registers a check that `health` runs (compose profile), in registration order.
    pub fn health_check<F>(mut self, name: impl Into<String>, check: F) -> App
    where
        F: Fn(&Args) -> health::Check + Send + Sync + 'static,
    {
        self.health_checks.push(health::Registered {
            name: name.into(),
            check: Box::new(check),
        });
        self
    }

    /// The tool's registry, as its faces show it: a derive-built tool's output and input
    /// schemas are made on this first call if no call needed them yet.
    pub fn registry(&self) -> &Registry {
        self.schemas.complete(&self.registry)
    }

    /// The clap command as the runtime documents it (runtime flags, version and examples
    /// included): what `--help`, parse errors, completions and man pages are made from.
    pub fn command(&self) -> &clap::Command {
        self.documented.get_or_init(|| {
            let base = self.base.clone();
            full_command(base, &self.registry, &self.verbs, self.rooms, true)
        })
    }

    /// The documented command, taken (a call parses once).
    fn take_command(&mut self) -> clap::Command {
        self.command();
        self.documented.take().unwrap_or_default()
    }

    /// Commands of the registry with no handler (a test should assert this is empty).
    pub fn missing_handlers(&self) -> Vec<&str> {
        let commands = self.registry.commands.iter().map(|c| c.name.as_str());
        let mut missing: Vec<&str> = commands
            .filter(|name| !self.handlers.contains_key(*name))
            .collect();
        if self.resources.is_none() {
            missing.extend(self.verbs.iter().map(|c| c.name.as_str()));
        }
        missing
    }

    /// Runs the process's own argv; agent mode also from `PAS_AGENT`. Use as
    /// `fn main() -> ExitCode { app.run() }`.
    pub fn run(self) -> ExitCode {
        self.run_from(std::env::args_os())
    }

    /// Runs the given argv (`argv[0]`, the program name, first) as one call of the tool: output
    /// goes to the process's stdout and stderr as [`App::run`]'s does, and the call's exit code
    /// is returned instead of ending the process, so a test or a doctest can run a tool on an
    /// argv of its choosing and check the code. Agent mode also comes from `PAS_AGENT`.
    ///
    /// It installs the process's SIGINT/SIGTERM handlers and panic hook for the call, so run
    /// one call per process (a doctest, or a test binary of its own); a test that runs many
    /// calls should spawn the built binary instead.
    ///
    /// ```
    /// use std::process::ExitCode;
    /// use pas::{App, Args, Context, Error, Reply};
    ///
    /// let spec = r#"
    /// specVersion: 1
    /// name: hello
    /// version: 1.0.0
    /// summary: Say hello.
    /// level: 1
    /// commands:
    ///   - name: hello
    ///     path: []
    ///     description: Greet the world.
    ///     output: object
    /// "#;
    /// let source = pas::spec::Source::new("hello.yaml", spec, pas::spec::Format::Yaml);
    /// let registry = pas::spec::load::parse(&source).expect("a valid spec");
    /// let app = App::new(registry).handler("hello", |_: &Args, _: &Context| {
    ///     Ok::<_, Error>(Reply::object(&serde_json::json!({ "greeting": "hello" })))
    /// });
    /// // Prints {"greeting":"hello"} and returns instead of exiting.
    /// assert_eq!(app.run_from(["hello", "--agent"]), ExitCode::SUCCESS);
    /// ```
    pub fn run_from<I, T>(mut self, args: I) -> ExitCode
    where
        I: IntoIterator<Item = T>,
        T: Into<OsString>,
    {
        let env_agent = argv::env_enables(std::env::var_os(argv::AGENT_ENV).as_deref());
        let raw: Vec<OsString> = args.into_iter().map(Into::into).collect();
        let mut pre = argv::prescan(raw.iter().cloned(), env_agent);
        // The caller's `--timeout` (when the flag is the runtime's), then every `PAS_*` value:
        // an unusable one fails the call before anything acts on it.
        let call_error = crate::guards::deadline::take_flag(&self.registry, &mut pre.argv)
            .or_else(|| crate::parse::builtin_flag::apply(&self.registry, &mut pre))
            .or_else(|| crate::parse::env_values::check(&self.registry.name));
        self.validate_only = pre.validate_only;
        // `--cwd` first, before anything reads a relative path (failure mode 29).
        let entered = crate::parse::cwd::enter(&pre);
        crate::render::output_id::set(pre.output_id);
        crate::stable::set(pre.stable_output);
        crate::guards::entropy::set_unmask(pre.unmask);
        // A bare invocation in machine mode is a first-contact probe: it answers the root help
        // and exits 0 (failure mode 21), whatever the tool requires of a real call. The robot
        // profile, whose every call answers one envelope, answers it as `capabilities` (robot
        // 5.8). A person's bare call is the tool's own (clap's: a usage error when a command
        // or argument is required), as it was before the tool adopted pas.
        if raw.len() == 1 && machine_mode(&self.registry, &pre) && !root_runs_bare(&self.registry) {
            crate::parse::bare_call::answer(&self.registry, &mut pre);
        }
        pre.locate_command(&self.registry);
        // A derive-built tool's output and input schemas (schemars: a visible share of
        // start-up) are made now only for a call that may show them; a handler asking its
        // context for the registry still gets them.
        let mut schemas = self.schemas.take();
        if let Some(fill) =
            schemas.take_if(|_| crate::parse::argv::call_may_show_schemas(&self.registry, &pre))
        {
            fill.apply(Arc::make_mut(&mut self.registry));
        }
        if pre.agent {
            // Anything in the process that colours through anstream (clap included) stops.
            colorchoice::ColorChoice::Never.write_global();
        }
        panics::install(pre.agent);

        let mut redactor = Redactor::new(&self.registry);
        // High-entropy tokens are masked where the tool declares it (59), in every mode: the
        // same call means the same data for a person and an agent.
        redactor.set_masking(self.registry.mask_high_entropy);
        // argv as given: a runtime flag may have taken a secret flag for its value
        // (`--config --token X`), and X must still be known as a secret.
        redactor.scan_argv(&raw);
        let mut early: Option<Error> = entered.or(call_error);
        // The caller's output bound (failure mode 43, asked for).
        if let Some(value) = &pre.max_output
            && let Err(error) = crate::guards::output_limit::set_flag(value)
        {
            early = Some(error);
        }
        let audit = match &pre.audit_log {
            Some(path) => {
                match Audit::open(path, &self.registry.name, pre.argv.clone(), pre.agent) {
                    Ok(audit) => Some(audit),
                    Err(err) => {
                        early = Some(
                            Error::general(format!(
                                "cannot open the audit log {}: {err}",
                                path.display()
                            ))
                            .with_suggestion("give a writable file to --audit-log"),
                        );
                        None
                    }
                }
            }
            None => None,
        };
        // A profile whose output is machine output always has no machine switch; it accepts
        // `--agent` as the no-op its faces document (compose), or refuses it when they do not.
        let surface = pas_spec::surface::of(self.registry.profile);
        if surface.machine_switch.is_none() && !surface.has_flag("agent") && pre.agent_flag {
            early = Some(
                Error::new(
                    codes::UNKNOWN_ARGUMENT,
                    format!(
                        "unexpected argument '--agent': {} answers JSON on every call",
                        self.registry.name
                    ),
                )
                .with_suggestion(format!(
                    "drop --agent; `{} --help` prints the contract",
                    self.registry.name
                )),
            );
        }
        if pre.audit_log_missing {
            early = Some(
                Error::new(codes::MISSING_ARGUMENT, "--audit-log needs a file")
                    .with_suggestion("--audit-log FILE"),
            );
        }
        // `--schema-version` (failure mode 22): an incompatible output fails before any handler.
        if let Some(error) = crate::builtins::versions::refusal(&self.registry, &pre) {
            early.get_or_insert(error);
        }
        // Read before the profile owns the redactor, which must know the file's secrets.
        let config = if pre.config_missing {
            early.get_or_insert(
                Error::new(codes::MISSING_ARGUMENT, "--config needs a file")
                    .with_suggestion("--config FILE"),
            );
            None
        } else if pre.no_config {
            // `--no-config` (failure mode 28): an isolated run; with `--config` a contradiction.
            if pre.config.is_some() {
                early.get_or_insert(
                    Error::new(
                        codes::INVALID_ARGUMENT,
                        "--config and --no-config contradict",
                    )
                    .with_suggestion("give one of --config FILE and --no-config"),
                );
            }
            None
        } else {
            match config_file::load_with(
                self.rooms.config,
                &self.registry,
                pre.config.as_deref(),
                &mut |value, source| redactor.add_secret(value, source),
            ) {
                Ok(config) => config,
                Err(error) => {
                    early.get_or_insert(error);
                    None
                }
            }
        };

        crate::parse::config_sources::set(config.as_ref().map(ConfigFile::path));
        // A secret too short to redact safely stops a call that may print about it (help and
        // the spec never echo argv).
        if !(pre.help || pre.print_spec)
            && let Some(error) = redactor.refusal()
        {
            early.get_or_insert(error);
        }

        // `TOOL mcp`: the same registry and handlers served over MCP on stdio.
        if early.is_none()
            && (pre.builtin_words && crate::transport::mcp::wants(&self.registry, &pre.argv))
        {
            #[cfg(feature = "mcp")]
            {
                return self.serve_mcp(config.as_ref(), redactor, &pre.argv);
            }
            #[cfg(not(feature = "mcp"))]
            {
                early = Some(crate::transport::mcp::not_built(&self.registry));
            }
        }
        let profile = crate::run::rooms::profile_for_call(&self.rooms, self.registry.clone(), &pre);
        let robot = profile.robot_state();
        let output = Output::new(profile, redactor, audit);
        // compose and robot are machine output always: handlers see agent mode without `--agent`.
        let machine = pre.agent
            || matches!(
                self.registry.profile,
                pas_spec::Profile::Compose | pas_spec::Profile::Robot
            );
        let shared = Arc::new(
            Shared::new(self.registry.clone(), machine, output)
                .with_schemas(schemas)
                .with_robot(robot),
        );
        let mut watch = signals::install(shared.clone());
        // Help and the spec never block, so they skip `start` (rendering the signal reports
        // ahead of time, or the watcher thread of compose and audited calls). A call that may
        // reach a handler starts it at once, so that a signal ends it promptly.
        if !(pre.help || pre.print_spec) {
            watch.start();
        }

        let outcome = match early {
            Some(error) => Outcome::Failed(error),
            None => self.dispatch(&shared, &pre, config.as_ref(), &mut watch),
        };
        // A signal that landed before `start` (or did not end the call yet) still ends it.
        let outcome = match watch.pending() {
            Some(error) => Outcome::Failed(error),
            None => outcome,
        };
        let code = shared.lock().finish(outcome);
        ExitCode::from(code)
    }

    fn dispatch(
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
        if crate::builtins::versions::wanted(&self.registry, pre) {
            let none = clap::ArgMatches::default();
            return self.run_builtin(shared, builtins::Builtin::Changelog, &none, &none, config);
        }
        // `doctor` (failure modes 27 and 26): every profile, whatever the tool's commands need.
        if crate::builtins::doctor::wanted(&self.registry, pre) {
            watch.start();
            let none = clap::ArgMatches::default();
            return self.run_builtin(shared, builtins::Builtin::Doctor, &none, &none, config);
        }
        // The call parses once, so it takes the command rather than cloning it (a deep copy of
        // every arg: a measurable share of start-up). It parses with the parsing command unless
        // what it does shows the documented one (`crate::parse::clap_augment`).
        let documented = pre.show_config
            || crate::parse::stdin_ids::has_dash(&pre.argv)
            || clap_augment::names_runtime_flag(&pre.argv);
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
        let agent_help_wanted = machine_mode(&self.registry, pre);
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
        let piped = match crate::parse::stdin_ids::has_dash(&pre.argv) {
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
    fn for_call(
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

    fn run_matched(
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
        let ran = self.invoke(shared, matches, argv, |reply| {
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

    /// Runs the command argv matched: selects it, applies the guards, calls its handler and
    /// hands the reply to `finish` (the CLI renders it; the MCP server collects it), both
    /// under the panic catcher. What the two transports share.
    pub(crate) fn invoke<T>(
        &self,
        shared: &Arc<Shared>,
        matches: &clap::ArgMatches,
        argv: &[OsString],
        finish: impl FnOnce(Reply) -> Result<T, Stop>,
    ) -> Result<T, Stop> {
        let (path, leaf) = command_path::matched(matches);
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
        let args = args_of(matches, leaf);
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
            let stdin = body.as_ref().map(|b| &b.bytes[..]);
            let redactor = shared.lock().redactor.clone();
            let reply = (jobs.start)(registry, command, stdin, &redactor).map_err(Stop::Failed)?;
            return finish(reply);
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
            Err(error) => Err(Stop::Failed(error)),
        }
    }
}

impl App {
    /// `TOOL mcp`: the configuration file's values become the parser's defaults, as for a
    /// command line, and the server runs until its client leaves.
    #[cfg(feature = "mcp")]
    fn serve_mcp(
        mut self,
        config: Option<&ConfigFile>,
        redactor: Redactor,
        argv: &[OsString],
    ) -> ExitCode {
        let call_timeout = match crate::transport::mcp::call_timeout(argv) {
            Ok(limit) => limit,
            Err(error) => {
                eprintln!(
                    "{}",
                    serde_json::json!({"error": error.code(), "message": error.message(), "suggestion": error.suggestion()})
                );
                return ExitCode::from(2);
            }
        };
        let command = self.take_command().color(clap::ColorChoice::Never);
        let command = match config {
            Some(file) => match file.apply(command) {
                Ok(command) => command,
                Err(mut error) => {
                    redactor.error(&mut error);
                    eprintln!(
                        "{}",
                        serde_json::json!({"error": error.code(), "message": error.message(), "suggestion": error.suggestion()})
                    );
                    return ExitCode::from(2);
                }
            },
            None => command,
        };
        let registry = self.registry.clone();
        crate::transport::mcp::serve(self, registry, command, redactor, call_timeout)
    }

    fn run_builtin(
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
        let args = args_of(matches, leaf);
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
}

impl App {
    fn run_robot_builtin(
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
        let args = args_of(matches, leaf);
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
    fn builtin_replacement(
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

    /// The handler of a deprecated command's replacement, when it has one.
    fn replacement_handler(&self, command: &pas_spec::Command) -> Option<&Handler> {
        let name = command.deprecated.as_ref()?.replacement.as_deref()?;
        self.handlers.get(name).map(|handler| handler.as_ref())
    }
}

/// Whether the tool's root is itself a command that needs no argument (a single-command tool
/// such as a filter reading stdin): its bare invocation runs it rather than print help.
/// The tool's command with the runtime's additions: the documented build or the parsing one
/// (`crate::parse::clap_augment`).
fn full_command(
    base: clap::Command,
    registry: &Registry,
    verbs: &[Arc<pas_spec::Command>],
    rooms: crate::run::rooms::Rooms,
    documented: bool,
) -> clap::Command {
    let command = clap_augment::augment(base, registry, verbs, documented);
    let command = builtins::augment(command, registry, verbs);
    let command = match rooms.compose {
        Some(compose) => (compose.augment)(command, registry),
        None => command,
    };
    let command = match rooms.keys {
        Some(keys) => (keys.augment)(command, registry, verbs),
        None => command,
    };
    let command = match rooms.cleanup {
        Some(cleanup) => (cleanup.augment)(command, registry),
        None => command,
    };
    let command = match rooms.jobs {
        Some(jobs) => (jobs.augment)(command, registry),
        None => command,
    };
    let command = match rooms.robot(registry) {
        Some(robot) => (robot.augment)(command, registry),
        None => command,
    };
    match documented {
        true => crate::builtins::person_help::apply(command, registry),
        false => command,
    }
}

/// Whether the call's output is machine output: `--agent` (or `PAS_AGENT`), or a profile
/// without a machine switch (compose, robot: machine output always).
fn machine_mode(registry: &Registry, pre: &Prescan) -> bool {
    pre.agent
        || pas_spec::surface::of(registry.profile)
            .machine_switch
            .is_none()
}

fn root_runs_bare(registry: &Registry) -> bool {
    registry
        .commands
        .iter()
        .any(|c| c.argv_path().is_empty() && !c.parameters.iter().any(|p| p.required))
}

/// Whether argv names a word where a command is expected that is no command (`tool nope
/// --help`): clap refuses it even beside `--help`, so a person's call is an error, and so is
/// the agent's. The look parses once more, on the help path only.
fn names_unknown_command(cmd: &clap::Command, argv: &[OsString]) -> bool {
    if !cmd.has_subcommands() {
        return false;
    }
    cmd.clone()
        .try_get_matches_from(argv)
        .is_err_and(|err| err.kind() == ErrorKind::InvalidSubcommand)
}

fn agent_help(shared: &Shared, cmd: &clap::Command, argv: &[OsString]) -> Outcome {
    let path = command_path::help_path(cmd, argv);
    let mut output = shared.lock();
    let output = &mut *output;
    match output.profile.help(&mut output.sinks, &path) {
        Ok(_) => Outcome::Success,
        Err(err) => Stop::from(err).into(),
    }
}

/// The handler's arguments. A single-command tool's leaf is the root itself, whose one copy
/// serves both (cloning clap's matches is a visible share of start-up).
fn args_of(matches: &clap::ArgMatches, leaf: &clap::ArgMatches) -> Args {
    if std::ptr::eq(matches, leaf) {
        Args::new(leaf.clone())
    } else {
        Args::new(leaf.clone()).with_root(matches)
    }
}

/// The whole of what a command's handler would read as stdin (bounded, and absent where the
/// handler would find it absent: a terminal, an idle pipe in agent mode).
fn read_whole(context: &Context) -> Result<Option<Arc<[u8]>>, Error> {
    let Some(mut reader) = context.stdin()? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    // Past the input limit: the structured error the handler's own read would have had.
    io::Read::read_to_end(&mut reader, &mut bytes)?;
    Ok(Some(bytes.into()))
}
