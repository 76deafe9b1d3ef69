//! The CLI transport: one process's argv in, its exit code out. `App::run_from` reads as the
//! call's sequence: argv read once (the prescan), the process-wide settings it asks for, the
//! call's secrets, audit log and configuration file, then either the MCP server or one
//! command dispatched by `crate::route`, and the call's end.
use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Arc;

use pas_spec::Registry;

use crate::derive::SchemaFill;
use crate::end::audit::Audit;
use crate::end::call_state::{Outcome, Output, Shared};
use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::parse::argv::{self, Prescan};
use crate::parse::config_file::{self, ConfigFile};
use crate::{
    codes,
    end::{panics, signals},
};

use crate::run::app::App;

impl App {
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
        let raw: Vec<OsString> = args.into_iter().map(Into::into).collect();
        // argv read once: every later question is asked of the prescan.
        let (mut pre, call_error) = self.prescan(&raw);
        // The process-wide settings the call asks for, `--cwd` first.
        let (entered, schemas) = self.enter(&raw, &mut pre);
        let mut early: Option<Error> = entered.or(call_error);
        // The call's secrets, audit log and configuration file; each may stop it early.
        let (redactor, audit, config) = self.setup(&raw, &pre, &mut early);
        // `TOOL mcp`: the same registry and handlers served over MCP on stdio.
        if early.is_none() && pre.mcp {
            #[cfg(feature = "mcp")]
            return self.serve_mcp(config.as_ref(), redactor, &pre.argv);
            #[cfg(not(feature = "mcp"))]
            {
                early = Some(crate::parse::mcp_options::not_built(&self.registry));
            }
        }
        let shared = self.call_state(&pre, redactor, audit, schemas);
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
        ExitCode::from(shared.lock().finish(outcome))
    }

    /// argv read once, and the values the runtime takes from it before anything else: the
    /// caller's `--timeout` (when the flag is the runtime's), `--builtin WORD`, and every
    /// `PAS_*` value (an unusable one fails the call before anything acts on it).
    fn prescan(&mut self, raw: &[OsString]) -> (Prescan, Option<Error>) {
        let env_agent = argv::env_enables(std::env::var_os(argv::AGENT_ENV).as_deref());
        let mut pre = argv::prescan(raw.iter().cloned(), env_agent);
        // The caller's `--timeout` (when the flag is the runtime's), then every `PAS_*` value:
        // an unusable one fails the call before anything acts on it.
        let call_error = crate::guards::deadline::take_flag(&self.registry, &mut pre.argv)
            .or_else(|| crate::parse::builtin_flag::apply(&self.registry, &mut pre))
            .or_else(|| crate::parse::env_values::check(&self.registry.name));
        (pre, call_error)
    }

    /// The process-wide settings the prescan asks for (`--cwd` first, before anything reads a
    /// relative path), the bare call's answer, and the schemas a call may show. Returns the
    /// `--cwd` error, if any, and the schemas still to make.
    fn enter(
        &mut self,
        raw: &[OsString],
        pre: &mut Prescan,
    ) -> (Option<Error>, Option<SchemaFill>) {
        self.validate_only = pre.validate_only;
        // `--cwd` first, before anything reads a relative path (failure mode 29).
        let entered = crate::parse::cwd::enter(pre);
        crate::render::output_id::set(pre.output_id);
        crate::stable::set(pre.stable_output);
        crate::guards::entropy::set_unmask(pre.unmask);
        // A bare invocation in machine mode is a first-contact probe: it answers the root help
        // and exits 0 (failure mode 21), whatever the tool requires of a real call. The robot
        // profile, whose every call answers one envelope, answers it as `capabilities` (robot
        // 5.8). A person's bare call is the tool's own (clap's: a usage error when a command
        // or argument is required), as it was before the tool adopted pas.
        if raw.len() == 1
            && crate::parse::argv::machine_mode(&self.registry, pre)
            && !root_runs_bare(&self.registry)
        {
            crate::parse::bare_call::answer(&self.registry, pre);
        }
        pre.locate_command(&self.registry);
        // A derive-built tool's output and input schemas (schemars: a visible share of
        // start-up) are made now only for a call that may show them; a handler asking its
        // context for the registry still gets them.
        let mut schemas = self.schemas.take();
        if let Some(fill) =
            schemas.take_if(|_| crate::parse::argv::call_may_show_schemas(&self.registry, pre))
        {
            fill.apply(Arc::make_mut(&mut self.registry));
        }
        if pre.agent {
            // Anything in the process that colours through anstream (clap included) stops.
            colorchoice::ColorChoice::Never.write_global();
        }
        panics::install(pre.agent);

        (entered, schemas)
    }

    /// The call's redactor (argv's secrets, and the configuration file's), its audit log and
    /// its configuration file; an error of any of them goes to `early`.
    fn setup(
        &self,
        raw: &[OsString],
        pre: &Prescan,
        early: &mut Option<Error>,
    ) -> (Redactor, Option<Audit>, Option<ConfigFile>) {
        let mut redactor = Redactor::new(&self.registry);
        // High-entropy tokens are masked where the tool declares it (59), in every mode: the
        // same call means the same data for a person and an agent.
        redactor.set_masking(self.registry.mask_high_entropy);
        // argv as given: a runtime flag may have taken a secret flag for its value
        // (`--config --token X`), and X must still be known as a secret.
        redactor.scan_argv(raw);
        // The caller's output bound (failure mode 43, asked for).
        if let Some(value) = &pre.max_output
            && let Err(error) = crate::guards::output_limit::set_flag(value)
        {
            *early = Some(error);
        }
        let audit = match &pre.audit_log {
            Some(path) => {
                match Audit::open(path, &self.registry.name, pre.argv.clone(), pre.agent) {
                    Ok(audit) => Some(audit),
                    Err(err) => {
                        *early = Some(
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
            *early = Some(
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
            *early = Some(
                Error::new(codes::MISSING_ARGUMENT, "--audit-log needs a file")
                    .with_suggestion("--audit-log FILE"),
            );
        }
        // `--schema-version` (failure mode 22): an incompatible output fails before any handler.
        if let Some(error) = crate::builtins::versions::refusal(&self.registry, pre) {
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

        (redactor, audit, config)
    }

    /// The call's state: its profile (with the robot state), output and machine mode.
    fn call_state(
        &self,
        pre: &Prescan,
        redactor: Redactor,
        audit: Option<Audit>,
        schemas: Option<SchemaFill>,
    ) -> Arc<Shared> {
        let profile = crate::run::rooms::profile_for_call(&self.rooms, self.registry.clone(), pre);
        let robot = profile.robot_state();
        let output = Output::new(profile, redactor, audit);
        // compose and robot are machine output always: handlers see agent mode without `--agent`.
        let machine = pre.agent
            || matches!(
                self.registry.profile,
                pas_spec::Profile::Compose | pas_spec::Profile::Robot
            );

        Arc::new(
            Shared::new(self.registry.clone(), machine, output)
                .with_schemas(schemas)
                .with_robot(robot),
        )
    }
}

pub(crate) fn root_runs_bare(registry: &Registry) -> bool {
    registry
        .commands
        .iter()
        .any(|c| c.argv_path().is_empty() && !c.parameters.iter().any(|p| p.required))
}
