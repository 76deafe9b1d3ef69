//! The profiles beyond `pas`, async jobs, idempotency keys and the runtime parts only some
//! declarations need (value checks, input schemas, `cleanup` and kept children, locks, the
//! confirm guard, the TOML reader of configuration files), each
//! reached only through its table here, so that a tool whose declarations are known when it is
//! compiled links only what it uses (issue 15: a tool pays on disk only for what it uses).
//!
//! Everything the runtime calls of the robot profile (its profile, flags, built-ins, sessions
//! and the preparation of a call) and of the compose profile (its profile, with TOON) goes
//! through a [`Rooms`] value: [`Rooms::ALL`] for a tool whose registry is only known at run time
//! ([`crate::run::app::App::new`], [`crate::run::app::App::with_command`]), and [`Rooms::for_profile`] evaluated at
//! compile time for a derive-built tool ([`crate::run::app::App::from_tool`]). A table left out is never
//! named by the code the binary runs, so the linker drops all of it.

use std::ffi::OsString;
use std::sync::Arc;

use pas_spec::{Command, Profile, Registry};

use crate::builtins::Builtin;
use crate::builtins::robot::Hooks;
use crate::error::Error;
use crate::handler::args::Args;
use crate::parse::robot_flags::Builtin as RobotBuiltin;
use crate::profile::Profile as CallProfile;
use crate::profile::robot_state::CallState;
use crate::reply::Reply;

/// Makes the robot profile of a call (registry, `--agent`, argv).
type MakeRobotProfile = fn(Arc<Registry>, bool, &[OsString]) -> Box<dyn CallProfile>;

/// The robot steps before a handler (registry, call state, command, its matches, argv,
/// `--validate-only`).
type Prepare =
    fn(&Registry, &CallState, &Command, &clap::ArgMatches, &[OsString], bool) -> Result<(), Error>;

/// What the runtime calls of the robot profile.
pub(crate) struct RobotRoom {
    /// The call's profile.
    pub(crate) profile: MakeRobotProfile,
    /// Adds the robot flags and built-in words to the clap command.
    pub(crate) augment: fn(clap::Command, &Registry) -> clap::Command,
    /// The robot built-in that an argv path names, if any.
    pub(crate) builtin: fn(&Registry, &[String]) -> Option<RobotBuiltin>,
    /// Runs a robot built-in (`sessions`, `capabilities`).
    pub(crate) run: fn(RobotBuiltin, &Registry, &Hooks, &Args) -> Result<Reply, Error>,
    /// The token controls of a built-in's call.
    pub(crate) options: fn(&clap::ArgMatches) -> crate::parse::robot_flags::Options,
    /// The steps before a command's handler (options, warnings, sessions, gates).
    pub(crate) prepare: Prepare,
}

/// Starts a job (registry, command, the call's stdin body, the call's redactor for the argv
/// its manifest keeps) and answers its descriptor.
type StartJob = fn(
    &Registry,
    &Command,
    Option<&[u8]>,
    Option<&[std::ffi::OsString]>,
    &crate::guards::redact::Redactor,
) -> Result<serde_json::Value, Error>;

/// Records a detached run's outcome (registry, job id, the handler's outcome) and passes it on.
type FinishRun = fn(&Registry, &str, Result<Reply, Error>) -> Result<Reply, Error>;

/// What the runtime calls of async jobs (failure mode 49, `crate::run::jobs`).
pub(crate) struct JobsRoom {
    /// Whether argv's matched path is the `job` word of a tool that has job commands.
    pub(crate) asked: fn(&Registry, &[String]) -> bool,
    /// Answers `job status|cancel|list`.
    pub(crate) answer: fn(
        &Arc<crate::end::call_state::Shared>,
        &[String],
        &clap::ArgMatches,
    ) -> crate::end::call_state::Outcome,
    /// How a call of a command runs: plainly, as a job's start, or as its detached run.
    pub(crate) call: fn(
        &crate::end::call_state::Shared,
        &Command,
        &clap::ArgMatches,
    ) -> crate::run::jobs::Call<'static>,
    /// Starts a job and answers its descriptor.
    pub(crate) start: StartJob,
    /// Records a detached run's outcome in its job's manifest.
    pub(crate) finish_run: FinishRun,
    /// Adds the `job` word and each job command's `--wait` to the clap command.
    pub(crate) augment: fn(clap::Command, &Registry) -> clap::Command,
    /// A job's manifest as it stands now (MCP's `tasks/get`).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) follow: FollowJob,
    /// Cancels a job (registry, id, who asks; MCP's `tasks/cancel`).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    pub(crate) cancel: CancelJob,
}

/// A job's manifest as it stands now, as the JSON of its file (registry, job id), or
/// `JOB_NOT_FOUND`. JSON, so that a tool without jobs links none of the store's types.
type FollowJob = fn(&Registry, &str) -> Result<serde_json::Value, Error>;
/// Cancels a job (registry, job id, who asks).
type CancelJob = fn(&Registry, &str, &str) -> Result<(), Error>;

static JOBS: JobsRoom = JobsRoom {
    asked: crate::run::jobs::asked,
    answer: crate::run::jobs::answer,
    call: crate::run::jobs::call,
    start: crate::services::jobs::run::start,
    finish_run: crate::services::jobs::run::finish_run,
    augment: crate::builtins::jobs::augment,
    follow: crate::services::jobs::follow::manifest_json,
    cancel: crate::services::jobs::stop::cancel_quietly,
};

/// Decides a call's `--idempotency-key` (registry, command, the whole call's matches, the
/// command's, stdin, dry run).
type BeginKeyed = fn(
    &Registry,
    &Command,
    &clap::ArgMatches,
    &clap::ArgMatches,
    Option<&[u8]>,
    bool,
) -> Result<crate::services::idempotency::Begin, Error>;

/// Records a keyed call's reply and returns it to render, with a warning if it could not.
type RecordKeyed = fn(
    crate::services::idempotency::Keyed,
    Option<crate::guards::redact::Redactor>,
    Reply,
    Option<crate::effect::Change>,
) -> (Reply, Option<crate::warning::Warning>);

/// What the runtime calls of idempotency keys (failure mode 12, `crate::services::idempotency`): only a
/// tool with a command that changes state (or state verbs) takes them.
pub(crate) struct KeysRoom {
    /// Adds `--idempotency-key` to every command that changes something.
    pub(crate) augment: fn(clap::Command, &Registry, &[Arc<Command>]) -> clap::Command,
    /// Run as usual, run and record, or replay.
    pub(crate) begin: BeginKeyed,
    /// Records a fresh keyed call's reply.
    pub(crate) record: RecordKeyed,
    /// Gives up a fresh keyed call's reservation when its handler failed.
    pub(crate) abandon: fn(crate::services::idempotency::Keyed),
}

static KEYS: KeysRoom = KeysRoom {
    augment: crate::services::idempotency::augment,
    begin: crate::services::idempotency::begin,
    record: crate::services::idempotency::Keyed::record,
    abandon: crate::services::idempotency::Keyed::abandon,
};

/// Checks what a command declares of its values, requirements and credentials before its
/// handler (`crate::run::declared::check`: `minimum`..`pattern`, `requires`, `conflicts`, `needs`,
/// `auth`), lists the requirements and credentials in `doctor`, and applies the declared
/// `scopes`, re-login hint and `untrusted` fields: the only way the runtime reaches a
/// parameter's `pattern` (regex-lite) and a requirement's version range (semver).
pub(crate) struct DeclaredRoom {
    /// Every declared check of one call (registry, command, its matches).
    pub(crate) check: fn(&Registry, &Command, &clap::ArgMatches) -> Result<(), Error>,
    /// `doctor`'s entries for the declared requirements and credentials.
    pub(crate) health: crate::builtins::health::HealthEntries,
    /// Warns when the credentials grant more than the command's declared scopes (74).
    pub(crate) warn_scopes: fn(&crate::end::call_state::Shared, &Registry, &Command),
    /// Adds the declared re-login hint to a handler's `CREDENTIALS_EXPIRED`.
    pub(crate) decorate_error: fn(&Registry, Error) -> Error,
    /// Moves the command's declared `untrusted` fields out of its data.
    pub(crate) separate_untrusted: fn(&Command, Reply) -> Reply,
}

static DECLARED: DeclaredRoom = DeclaredRoom {
    check: crate::run::declared::check,
    health: crate::run::declared::health_entries,
    warn_scopes: crate::run::scope_check::warn,
    decorate_error: crate::run::declared::decorate_error,
    separate_untrusted: crate::run::declared::separate_untrusted,
};

static INPUT: crate::run::stdin_body::InputRoom = crate::run::stdin_body::InputRoom {
    check: crate::run::stdin_body::check,
};

/// The `cleanup` word and the record of children kept on purpose (failure modes 17 and 30):
/// only a tool that declares a `filesystem` or `background` side effect offers the word, and
/// only its word lists the kept children, so only such a tool records them.
pub(crate) struct CleanupRoom {
    /// Whether the tool has the word (its registry declares such a side effect).
    pub(crate) offered: fn(&Registry) -> bool,
    /// Answers `cleanup`.
    pub(crate) answer: fn(
        &Arc<crate::end::call_state::Shared>,
        &clap::ArgMatches,
    ) -> crate::end::call_state::Outcome,
    /// Adds the `cleanup` word to the clap command when the tool has it.
    pub(crate) augment: fn(clap::Command, &Registry) -> clap::Command,
    /// Arms the record of kept children at the call's end (the tool's name).
    pub(crate) keep_record: fn(&str),
}

static CLEANUP: CleanupRoom = CleanupRoom {
    offered: crate::builtins::cleanup::offered,
    answer: crate::builtins::cleanup::answer,
    augment: crate::builtins::cleanup::augment,
    keep_record: crate::services::children::kept_children::prepare,
};

/// Takes a command's declared `lock` for a call (failure modes 15 and 58, `crate::services::lock`).
pub(crate) struct LocksRoom {
    /// Takes the lock the command declares, if any, held until it is dropped.
    pub(crate) take: fn(
        &Command,
        &crate::handler::context::Context,
    ) -> Result<Option<crate::services::lock::Held>, Error>,
}

static LOCKS: LocksRoom = LocksRoom {
    take: crate::run::declared_lock::take,
};

/// Stops a destructive (or, in robot, a `confirm`) command run without its confirm flag
/// (`crate::run::guard`): only a tool with such a command needs it.
pub(crate) struct GuardRoom {
    /// The refusal, if the call must stop (registry, command, its matches, agent mode).
    pub(crate) check: fn(&Registry, &Command, &clap::ArgMatches, bool) -> Result<(), Error>,
}

static GUARD: GuardRoom = GuardRoom {
    check: crate::run::guard::check,
};

static CONFIG: crate::parse::config_file::ConfigRoom = crate::parse::config_file::ConfigRoom {
    load: crate::parse::config_file::load,
};

/// Runs a compose built-in (`tools`, `health`, `config show`): the built-in, the registry, the
/// checks the app registered for `health`, the call's args, its config file, the declared
/// requirements' health entries.
type RunComposeBuiltin = fn(
    Builtin,
    &Registry,
    &[crate::builtins::health::Registered],
    &Args,
    Option<&crate::parse::config_file::ConfigFile>,
    Option<crate::builtins::health::HealthEntries>,
) -> Result<Reply, Error>;

/// What the runtime calls of the compose profile.
pub(crate) struct ComposeRoom {
    /// The call's profile; the flag says whether `--toon` was given.
    pub(crate) profile: fn(Arc<Registry>, bool) -> Box<dyn CallProfile>,
    /// Adds the compose built-ins (`tools`, `health`, `config show`, `--toon`) to the command.
    pub(crate) augment: fn(clap::Command, &Registry) -> clap::Command,
    /// The compose built-in that an argv path names, if any.
    pub(crate) builtin: fn(&Registry, &[String]) -> Option<Builtin>,
    /// Runs a compose built-in.
    pub(crate) run: RunComposeBuiltin,
}

static ROBOT: RobotRoom = RobotRoom {
    profile: |registry, agent, argv| {
        Box::new(crate::profile::robot::RobotProfile::new(
            registry, agent, argv,
        ))
    },
    augment: crate::parse::robot_flags::augment,
    builtin: crate::parse::robot_flags::builtin,
    run: crate::builtins::robot::run,
    options: |leaf| crate::parse::robot_flags::options(leaf).0,
    prepare: crate::run::robot_prepare::prepare,
};

static COMPOSE: ComposeRoom = ComposeRoom {
    // compose has no `--agent`: its help is the agent help, always.
    profile: |registry, toon| {
        Box::new(crate::profile::compose::ComposeProfile::new(
            registry, true, toon,
        ))
    },
    augment: crate::builtins::augment_compose,
    builtin: crate::builtins::matched,
    run: crate::builtins::run_compose,
};

/// The profiles a tool's binary carries besides `pas`.
#[derive(Clone, Copy)]
pub(crate) struct Rooms {
    pub(crate) robot: Option<&'static RobotRoom>,
    pub(crate) compose: Option<&'static ComposeRoom>,
    pub(crate) jobs: Option<&'static JobsRoom>,
    pub(crate) keys: Option<&'static KeysRoom>,
    pub(crate) declared: Option<&'static DeclaredRoom>,
    pub(crate) input: Option<&'static crate::run::stdin_body::InputRoom>,
    pub(crate) cleanup: Option<&'static CleanupRoom>,
    pub(crate) locks: Option<&'static LocksRoom>,
    pub(crate) guard: Option<&'static GuardRoom>,
    pub(crate) config: Option<&'static crate::parse::config_file::ConfigRoom>,
}

impl Rooms {
    /// Every profile: for a registry read at run time.
    pub(crate) const ALL: Rooms = Rooms {
        robot: Some(&ROBOT),
        compose: Some(&COMPOSE),
        jobs: Some(&JOBS),
        keys: Some(&KEYS),
        declared: Some(&DECLARED),
        input: Some(&INPUT),
        cleanup: Some(&CLEANUP),
        locks: Some(&LOCKS),
        guard: Some(&GUARD),
        config: Some(&CONFIG),
    };

    /// Only what `profile` needs (`None`: not known, so every profile). Meant to be evaluated
    /// at compile time (`const { Rooms::for_profile(..) }`): a call made at run time would name
    /// every table and link them all.
    pub(crate) const fn for_profile(profile: Option<Profile>) -> Rooms {
        match profile {
            None => Rooms::ALL,
            Some(Profile::Pas) => Rooms {
                robot: None,
                compose: None,
                ..Rooms::ALL
            },
            Some(Profile::Compose) => Rooms {
                robot: None,
                compose: Some(&COMPOSE),
                ..Rooms::ALL
            },
            Some(Profile::Robot) => Rooms {
                robot: Some(&ROBOT),
                compose: None,
                ..Rooms::ALL
            },
        }
    }

    /// The same rooms, without the jobs table when the tool is known to have no job command
    /// (`Some(false)`: the derive's `AgentTool::OFFERS_JOBS`). Compile time only, as above.
    pub(crate) const fn with_jobs(self, offers_jobs: Option<bool>) -> Rooms {
        match offers_jobs {
            Some(false) => Rooms { jobs: None, ..self },
            _ => self,
        }
    }

    /// The same rooms, without idempotency keys when the tool is known to change nothing
    /// (`Some(false)`: the derive's `AgentTool::CHANGES_STATE`). Compile time only, as above.
    pub(crate) const fn with_keys(self, changes_state: Option<bool>) -> Rooms {
        match changes_state {
            Some(false) => Rooms { keys: None, ..self },
            _ => self,
        }
    }

    /// The same rooms, without the declared checks when the tool is known to declare no value
    /// constraint, requirement or credential (`Some(false)`: `AgentTool::DECLARES_CHECKS`).
    /// Compile time only, as above.
    pub(crate) const fn with_declared(self, declares_checks: Option<bool>) -> Rooms {
        match declares_checks {
            Some(false) => Rooms {
                declared: None,
                ..self
            },
            _ => self,
        }
    }

    /// The same rooms, without the input schema check when no command is known to declare an
    /// input schema (`Some(false)`: `AgentTool::CHECKS_INPUT`). Compile time only, as above.
    pub(crate) const fn with_input(self, checks_input: Option<bool>) -> Rooms {
        match checks_input {
            Some(false) => Rooms {
                input: None,
                ..self
            },
            _ => self,
        }
    }

    /// The same rooms, without `cleanup` and kept children when the tool is known to declare
    /// no `filesystem` or `background` side effect (`Some(false)`: `AgentTool::OFFERS_CLEANUP`).
    /// Compile time only, as above.
    pub(crate) const fn with_cleanup(self, offers_cleanup: Option<bool>) -> Rooms {
        match offers_cleanup {
            Some(false) => Rooms {
                cleanup: None,
                ..self
            },
            _ => self,
        }
    }

    /// The same rooms, without locks when no command is known to declare a `lock`
    /// (`Some(false)`: `AgentTool::TAKES_LOCKS`). Compile time only, as above.
    pub(crate) const fn with_locks(self, takes_locks: Option<bool>) -> Rooms {
        match takes_locks {
            Some(false) => Rooms {
                locks: None,
                ..self
            },
            _ => self,
        }
    }

    /// The same rooms, without the confirm guard when no command is known to need confirming
    /// (`Some(false)`: `AgentTool::CONFIRMS`). Compile time only, as above.
    pub(crate) const fn with_guard(self, confirms: Option<bool>) -> Rooms {
        match confirms {
            Some(false) => Rooms {
                guard: None,
                ..self
            },
            _ => self,
        }
    }

    /// The same rooms, without the TOML reader of configuration files when the tool is known
    /// to have no global flags (`Some(false)`: `AgentTool::HAS_GLOBAL_FLAGS`), the only keys a
    /// file can set. Compile time only, as above.
    pub(crate) const fn with_config(self, has_global_flags: Option<bool>) -> Rooms {
        match has_global_flags {
            Some(false) => Rooms {
                config: None,
                ..self
            },
            _ => self,
        }
    }

    /// Whether the tool has the `cleanup` word (only with the cleanup table).
    pub(crate) fn cleanup(&self, registry: &Registry) -> Option<&'static CleanupRoom> {
        self.cleanup.filter(|cleanup| (cleanup.offered)(registry))
    }

    /// The robot table, for a registry whose profile is robot.
    pub(crate) fn robot(&self, registry: &Registry) -> Option<&'static RobotRoom> {
        if registry.profile == Profile::Robot {
            self.robot
        } else {
            None
        }
    }
}

/// The profile for this call; a registry whose profile the binary was built without (a
/// hand-written `AgentTool` whose `PROFILE` disagrees with its `agent_tool()`) runs on `pas`.
pub(crate) fn profile_for_call(
    rooms: &Rooms,
    registry: Arc<Registry>,
    pre: &crate::parse::argv::Prescan,
) -> Box<dyn CallProfile> {
    match (registry.profile, rooms.compose, rooms.robot) {
        (Profile::Compose, Some(compose), _) => (compose.profile)(registry, pre.toon),
        (Profile::Robot, _, Some(robot)) => (robot.profile)(registry, pre.agent, &pre.argv),
        _ => Box::new(crate::profile::pas::PasProfile::new(registry, pre.agent)),
    }
}
