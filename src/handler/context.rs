//! What a handler may use besides its arguments: the mode, progress, and stdin when allowed.

use std::io::{self, BufRead, IsTerminal};
use std::sync::Arc;

use pas_spec::{Registry, StdinMode};

use crate::codes;
use crate::end::call_state::Shared;
use crate::error::Error;
use crate::guards::input::Bounded;
use crate::handler::progress::Progress;
use crate::profile::ProgressStyle;

/// The handler's view of the call. Cheap to clone, so a stream can keep one.
#[derive(Clone)]
pub struct Context {
    shared: Arc<Shared>,
    command: Selected,
    dry_run: bool,
    /// Stdin as the runtime read and checked it before the handler (see `stdin_body`).
    body: Option<Arc<[u8]>>,
    /// What the handler said the call changed ([`Context::set_effect`]).
    effect: Arc<std::sync::Mutex<Option<crate::effect::Change>>>,
}

/// The command being run: a declared one by its index in the registry, or a level 3/4 verb
/// the runtime synthesised from the resources.
#[derive(Clone)]
pub(crate) enum Selected {
    Declared(usize),
    Verb(Arc<pas_spec::Command>),
}

impl Context {
    pub(crate) fn new(shared: Arc<Shared>, command: Selected) -> Self {
        Context {
            shared,
            command,
            dry_run: false,
            body: None,
            effect: Arc::default(),
        }
    }

    /// Stdin was read and checked against the command's input schema: the handler reads this.
    pub(crate) fn with_stdin_body(mut self, body: Option<Arc<[u8]>>) -> Self {
        self.body = body;
        self
    }

    /// Marks the call as a dry run (`--dry-run` on a command whose spec says `dryRun`).
    pub(crate) fn with_dry_run(mut self, dry_run: bool) -> Self {
        self.dry_run = dry_run;
        self
    }

    /// `--dry-run` was given: validate and report what would change, and change nothing.
    /// Always false for a command whose spec does not say `dryRun`.
    pub fn dry_run(&self) -> bool {
        self.dry_run
    }

    /// Agent mode is on. Handlers rarely need this: the profile renders for the mode. It is
    /// here for choices that are not rendering, such as never opening a browser.
    pub fn agent(&self) -> bool {
        self.shared.agent
    }

    /// The tool's whole registry (its name, exit codes and every command), e.g. to name the
    /// tool in a message or read a declared limit.
    pub fn registry(&self) -> &Registry {
        &self.shared.registry
    }

    /// The registry entry of the command this call runs (a level 3/4 verb included): its name,
    /// parameters, effect and declared errors.
    pub fn command(&self) -> &pas_spec::Command {
        match &self.command {
            Selected::Declared(index) => &self.shared.registry.commands[*index],
            Selected::Verb(command) => command,
        }
    }

    /// A progress reporter: a bar for people at a terminal, NDJSON events for agents when the
    /// command is an event stream, silent otherwise.
    pub fn progress(&self, total: Option<u64>) -> Progress {
        // Over MCP progress is always reported: the client asked for it with a progress token
        // or not, and the server drops it when not.
        if self.shared.mcp.is_some() {
            return Progress::new(ProgressStyle::Events, self.shared.clone(), total);
        }
        let style = self
            .shared
            .lock()
            .profile
            .progress_style(self.command().output);
        Progress::new(style, self.shared.clone(), total)
    }

    /// SIGINT or SIGTERM arrived (or, served over MCP, the client cancelled the call): a long computation may stop early (the runtime ends the call
    /// with the right error either way).
    pub fn stop_requested(&self) -> bool {
        self.shared.stop_requested().is_some()
            || self
                .shared
                .mcp
                .as_ref()
                .is_some_and(|hooks| (hooks.cancelled)())
    }

    /// Standard input, only for commands whose registry entry says they read it.
    ///
    /// - `stdin: none`: an `INTERNAL_ERROR` (the handler and its contract disagree).
    /// - `stdin: optional`: `None` when stdin is a terminal (nothing was piped in).
    /// - `stdin: required`: in agent mode a terminal is a `MISSING_INPUT` error at once (the
    ///   runtime checks this before the handler runs, too); people may type the input.
    /// - A command that declares an `inputSchema` gets stdin as the runtime read and checked it
    ///   before the handler ran (JSON, corrected when it was loose; see the module
    ///   `stdin_body`).
    /// - In every mode, a stdin that is open but says nothing (no byte, no end) within
    ///   [`crate::guards::input::DEFAULT_STDIN_WAIT_MS`] (`PAS_STDIN_WAIT`) is absent (`optional`) or a
    ///   `MISSING_INPUT` error (`required`): the call never hangs on it. Input that has begun
    ///   is read to its end however slowly it comes.
    ///
    /// The reader is bounded ([`crate::guards::input::limit`]): past the limit a read fails, and `?`
    /// on that failure is a structured `INVALID_ARGUMENT` error (`< /dev/zero` ends, it does
    /// not fill memory). Served over MCP (`TOOL mcp`), stdin is the protocol's: the reader holds
    /// the call's `input` argument as JSON, and a call without one reads as a terminal would.
    pub fn stdin(&self) -> Result<Option<Box<dyn BufRead>>, Error> {
        let command = self.command();
        if let StdinMode::None = command.stdin {
            return Err(Error::internal(format!(
                "command {} read stdin, but its registry entry says it does not",
                command.name
            )));
        }
        if let Some(body) = &self.body {
            return Ok(Some(Box::new(io::Cursor::new(body.clone()))));
        }
        if let Some(hooks) = &self.shared.mcp {
            return match (&hooks.input, command.stdin) {
                (Some(input), _) => Ok(Some(Box::new(io::Cursor::new(input.clone())))),
                (None, StdinMode::Required) => Err(Error::new(
                    codes::MISSING_INPUT,
                    "this command reads its input, and the call gave none",
                )
                .with_suggestion("give the `input` argument")),
                (None, _) => Ok(None),
            };
        }
        let terminal = io::stdin().is_terminal();
        // An agent's stdin left open with nothing coming (failure mode 50): after a short wait
        // an optional input is absent and a required one is a structured error, not a hang.
        let idle = !terminal
            && crate::guards::input::stdin_wait()
                .is_some_and(|wait| !crate::guards::input::stdin_ready(wait));
        match command.stdin {
            StdinMode::Optional if terminal || idle => Ok(None),
            StdinMode::Required if idle => Err(idle_input(&self.shared.registry.name)),
            StdinMode::Required if terminal && self.agent() => {
                Err(missing_input(&self.shared.registry.name))
            }
            // `None` returned above.
            StdinMode::None | StdinMode::Optional | StdinMode::Required => {
                Ok(Some(Box::new(Bounded::new(
                    io::stdin().lock(),
                    "stdin",
                    crate::guards::input::stdin_limit(),
                ))))
            }
        }
    }
}

/// The robot contract: what a handler reports besides its result. In other profiles these are
/// accepted and change nothing (a handler does not know its contract).
impl Context {
    fn robot(&self) -> Option<&crate::profile::robot_state::CallState> {
        self.shared.robot.as_ref()
    }

    /// The exit code (by name) this call's success reached, e.g. `OK_CANDIDATES`: the process
    /// exits with its number, and the envelope's `status` is `success` for a `success: true`
    /// code (or 0), `partial` for another (e.g. `ERR_PARTIAL`). A name the registry does not
    /// declare is an `INTERNAL_ERROR`.
    pub fn outcome(&self, name: &str) -> Result<(), Error> {
        if !self.registry().exit_codes.iter().any(|c| c.name == name) {
            return Err(Error::internal(format!(
                "the handler reported the outcome `{name}`, which the registry does not declare"
            )));
        }
        if let Some(state) = self.robot() {
            state.lock().outcome = Some(name.to_owned());
        }
        Ok(())
    }

    /// Says what this call changed (CLI Agent Spec failure mode 12): `created`, `updated`,
    /// `deleted` or `noop` (the state already was what the call asked for). Every profile shows
    /// it (`meta.effect` in compose, `effect` in robot's envelope, a `{"effect"}` line on stderr
    /// in `pas`), and a call's `--idempotency-key` record keeps it. The last report wins.
    pub fn set_effect(&self, change: crate::effect::Change) {
        *self.effect.lock().unwrap_or_else(|p| p.into_inner()) = Some(change);
        if let Some(hooks) = &self.shared.mcp {
            *hooks.effect.lock().unwrap_or_else(|p| p.into_inner()) = Some(change);
        }
        self.shared.lock().profile.effect(crate::effect::Reported {
            change,
            replayed: false,
        });
    }

    /// Where the handler's reports of [`Context::set_effect`] are kept (for the error a signal
    /// ends the call with).
    pub(crate) fn effect_cell(&self) -> Arc<std::sync::Mutex<Option<crate::effect::Change>>> {
        self.effect.clone()
    }

    /// What the handler reported with [`Context::set_effect`], if anything.
    pub(crate) fn reported_effect(&self) -> Option<crate::effect::Change> {
        *self.effect.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds a warning: the envelope's `warnings` (robot), `meta.warnings` (compose), one
    /// `{"warning":{...}}` line on stderr (`pas`).
    pub fn warn(&self, warning: crate::warning::Warning) {
        match self.robot() {
            Some(state) => state.lock().warnings.push(warning),
            None => {
                let mut output = self.shared.lock();
                let output = &mut *output;
                let _ = output.profile.warning(&mut output.sinks, &warning);
            }
        }
    }

    /// Reports a safety gate's result (`details` are merged into its entry in
    /// `data.safety_gates`, or `data.<gatesAt>.safety_gates` where the spec says so). A failing
    /// gate whose spec says `onFail: block` returns the
    /// blocked error (with `details.gate`): return it with `?`.
    pub fn gate(&self, name: &str, passed: bool, details: serde_json::Value) -> Result<(), Error> {
        match self.robot() {
            Some(state) => {
                crate::profile::robot::gates::report(self.registry(), state, name, passed, details)
            }
            None => Ok(()),
        }
    }

    /// `--include-prose` was given: the style the prose summary should be written in.
    pub fn prose_style(&self) -> Option<crate::parse::robot_flags::ProseStyle> {
        self.robot().and_then(|s| s.lock().options.prose)
    }

    /// The prose summary for `data.prose_summary` (shown only with `--include-prose`).
    pub fn prose(&self, text: impl Into<String>) {
        if let Some(state) = self.robot() {
            state.lock().prose = Some(text.into());
        }
    }

    /// `--compact` was given (the runtime drops the spec's `compactOmit` fields itself).
    pub fn compact(&self) -> bool {
        self.robot().is_some_and(|s| s.lock().options.compact)
    }

    /// The session this call created or continues (commands whose spec says `session`).
    pub fn session(&self) -> Option<crate::services::sessions::Session> {
        self.robot().and_then(|s| s.lock().session.clone())
    }
}

/// The error for a required stdin left open with nothing on it.
pub(crate) fn idle_input(tool: &str) -> Error {
    let wait = crate::guards::input::stdin_wait().map_or(0, |w| w.as_millis());
    Error::new(
        codes::MISSING_INPUT,
        format!(
            "this command reads its input from stdin, and no input arrived on it within {wait} ms"
        ),
    )
    .with_suggestion(format!(
        "pipe the input in and close it (`... | {tool} ...`, `< file`), or wait longer with {}=MS",
        crate::guards::input::STDIN_WAIT_ENV
    ))
}

/// The error for a required stdin that is a terminal in agent mode.
pub(crate) fn missing_input(tool: &str) -> Error {
    Error::new(
        codes::MISSING_INPUT,
        "this command reads its input from stdin, and stdin is a terminal",
    )
    .with_suggestion(format!(
        "pipe the input in: `... | {tool} --agent ...`, or `< file`"
    ))
}

/// Taking a declared or handler-made lock needs the call (its tool, command and profile), so
/// this part of [`Lock`](crate::services::lock::Lock) lives with the handler's side: the lock
/// service itself takes plain values.
impl crate::services::lock::Lock {
    /// Takes the lock for this call, or fails with the held-lock error (see the module docs).
    pub fn acquire(&self, ctx: &Context) -> Result<crate::services::lock::Held, Error> {
        let registry = ctx.registry();
        let path = self.path(&registry.name)?;
        let command = ctx.command().argv_path().join(" ");
        let robot = registry.profile == pas_spec::Profile::Robot;
        let code = match robot {
            true => registry.role_code(pas_spec::robot::ExitRole::Lock).0,
            false => crate::services::lock::LOCK_HELD.to_owned(),
        };
        self.take(&path, &command, &code)
            .map_err(|error| match robot {
                // Recoverable by waiting, whatever role the tool's table gives the code.
                true => {
                    let mut details = error.details().cloned().unwrap_or_default();
                    details["recoverable"] = serde_json::json!(true);
                    error.with_details(details)
                }
                false => error,
            })
    }
}
