//! `App`: a registry, a clap command and handlers, run as one CLI call.

use std::collections::HashMap;
use std::sync::Arc;

use pas_spec::Registry;

use crate::builtins::{self, health};
use crate::error::Error;
use crate::handler::args::Args;
use crate::handler::context::Context;
use crate::parse::clap_augment::{self};
use crate::parse::clap_face;
use crate::reply::Reply;
use crate::resources::{self, Resources, dispatch::VerbHandler};

/// A command's handler: parsed arguments and the call's context in, a reply or an error out.
/// It never prints. `Send + Sync` because `TOOL mcp` runs concurrent calls on threads of their
/// own, sharing the app: state a handler keeps goes in an `Arc<Mutex<..>>`, not an `Rc<RefCell<..>>`.
pub type Handler = dyn Fn(&Args, &Context) -> Result<Reply, Error> + Send + Sync;

/// A tool: its registry, its clap parser and its handlers by dotted command name.
pub struct App {
    pub(crate) registry: Arc<Registry>,
    /// The tool's clap command before the runtime's additions (see [`full_command`]).
    pub(crate) base: clap::Command,
    /// The command a call parses with: without what only the documented one shows
    /// (`crate::parse::clap_augment`).
    pub(crate) parser: clap::Command,
    /// The documented command (help, errors, completions, man, MCP), made from `base` when first
    /// needed.
    pub(crate) documented: std::sync::OnceLock<clap::Command>,
    pub(crate) handlers: HashMap<String, Box<Handler>>,
    pub(crate) health_checks: Vec<health::Registered>,
    /// The level 3/4 verb commands the resources offer (none for most tools).
    pub(crate) verbs: Vec<Arc<pas_spec::Command>>,
    /// The handler of every verb, once [`App::resources`] gave one.
    pub(crate) resources: Option<Box<VerbHandler>>,
    /// Output and input schemas the registry was built without (a derive-built tool): made
    /// only for a call that may show them.
    pub(crate) schemas: crate::derive::PendingSchemas,
    /// robot: the probes and actions `capabilities` reports.
    pub(crate) robot_hooks: crate::builtins::robot::Hooks,
    /// The profiles beyond `pas` this binary carries (`crate::run::rooms`).
    pub(crate) rooms: crate::run::rooms::Rooms,
    /// `--validate-only`: calls stop after the checks, before the handler.
    pub(crate) validate_only: bool,
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
    pub(crate) fn take_command(&mut self) -> clap::Command {
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
