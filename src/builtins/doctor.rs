//! `doctor`, a built-in word of every profile (CLI Agent Spec failure modes 27 and 26): what the
//! tool finds on this machine, as structured pass/fail checks an agent reads before relying on
//! it, and the state a call depends on.
//!
//! - `platform` and the `os`/`shell` checks: the OS, family and architecture the binary runs on;
//!   a pas tool needs no shell (it never runs one), so `$SHELL` is reported, never required.
//! - the declared `requirements` and credentials (`auth.env`), as `health` checks them.
//! - `context`: the user, the working directory, the configuration file this call read, and
//!   whether the credentials are set; there is no current context to switch. `stateless` is
//!   what the tool declares: `false` when a command changes state (effect `write` or
//!   `destructive`), a resource offers a state verb, a command writes files outside its output
//!   (a `filesystem` side effect), or the tool keeps sessions or jobs.
//! - `state_files`: every place the runtime reads or keeps state, with its scope and whether the
//!   runtime ever writes it (it never writes configuration).
//!
//! It answers `ok` (every check passed) and exits 0 either way: the checks are the answer.

use std::path::PathBuf;

use pas_spec::Registry;
use serde::Serialize;

use crate::parse::config_file::ConfigFile;
use crate::reply::Reply;

/// The word, as typed (`pas_spec::surface::DOCTOR_WORD`).
pub(crate) const WORD: &str = pas_spec::surface::DOCTOR_WORD;

/// Whether argv asks for `doctor` (the prescan answers it: `Prescan::builtin_asked`).
pub(crate) fn wanted(pre: &crate::parse::argv::Prescan) -> bool {
    pre.builtin_asked.as_deref() == Some(WORD)
}

// The report is typed (not `json!`): each `json!` object is built key by key at run time, which
// made this the largest function of a default tool (issue 15); field order is the output's order.

#[derive(Serialize)]
struct Report<'a> {
    ok: bool,
    tool: &'a str,
    version: &'a str,
    profile: &'static str,
    platform: Platform,
    checks: Vec<Check>,
    context: Context<'a>,
    state_files: Vec<StateFile>,
}

#[derive(Serialize)]
struct Platform {
    os: &'static str,
    family: &'static str,
    arch: &'static str,
    shell: Option<String>,
}

#[derive(Serialize)]
struct Check {
    name: String,
    ok: bool,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<String>,
}

#[derive(Serialize)]
struct Context<'a> {
    stateless: bool,
    /// Always null: there is no current context to switch between calls.
    current_context: Option<&'static str>,
    user: Option<String>,
    cwd: Option<String>,
    config_file: Option<String>,
    credentials: Vec<Credential<'a>>,
}

#[derive(Serialize)]
struct Credential<'a> {
    env: &'a str,
    set: bool,
}

#[derive(Serialize)]
struct StateFile {
    kind: &'static str,
    path: Option<String>,
    scope: &'static str,
    exists: bool,
    written_by_runtime: bool,
    #[serde(rename = "override")]
    overridden_by: String,
}

/// Whether the tool declares no state: no command changes anything, no resource offers a state
/// verb, no command writes files outside its output, no sessions and no jobs.
fn stateless(registry: &Registry) -> bool {
    use pas_spec::{Effect, Verb};
    let changes = registry.commands.iter().any(|c| {
        c.effect != Effect::Read
            || c.side_effects
                .iter()
                .any(|e| e.kind == pas_spec::declare::SideEffectKind::Filesystem)
    });
    let state_verbs = [Verb::Cp, Verb::Rm, Verb::Sync, Verb::Feedback];
    let resources = registry
        .resources
        .iter()
        .any(|r| r.verbs.iter().any(|v| state_verbs.contains(v)));
    let jobs = registry
        .commands
        .iter()
        .any(|c| c.output == pas_spec::OutputKind::Job);
    !(changes || resources || jobs || registry.sessions().is_some())
}

/// `~/x` as the path it names, for `exists`.
fn expand_home(path: &str) -> String {
    match (path.strip_prefix("~/"), std::env::var("HOME")) {
        (Some(rest), Ok(home)) => format!("{home}/{rest}"),
        _ => path.to_owned(),
    }
}

fn check(name: &str, ok: bool, message: String, fix: Option<String>) -> Check {
    let name = name.to_owned();
    Check {
        name,
        ok,
        message,
        fix,
    }
}

fn shown(path: Option<&PathBuf>) -> Option<String> {
    path.map(|p| p.display().to_string())
}

/// The report.
///
/// `declared` lists the declared requirements and credentials: absent in a binary built for a
/// tool known to declare none (`crate::run::rooms`), which then has no such entry to list.
pub(crate) fn run(
    registry: &Registry,
    file: Option<&ConfigFile>,
    declared: Option<crate::builtins::health::HealthEntries>,
) -> Reply {
    let name = &registry.name;
    let (os, family, arch) = (
        std::env::consts::OS,
        std::env::consts::FAMILY,
        std::env::consts::ARCH,
    );
    let shell = std::env::var("SHELL").ok().filter(|s| !s.is_empty());
    let cwd = std::env::current_dir();
    let config_home = crate::xdg::config_home();
    let mut checks = vec![
        check(
            "os",
            true,
            format!("{os} ({family}, {arch}): the runtime's own platform differences are handled"),
            None,
        ),
        check(
            "shell",
            true,
            match &shell {
                Some(shell) => format!("no shell needed ({name} runs none); $SHELL is {shell}"),
                None => format!("no shell needed ({name} runs none); $SHELL is not set"),
            },
            None,
        ),
        check(
            "working_directory",
            cwd.is_ok(),
            match &cwd {
                Ok(dir) => dir.display().to_string(),
                Err(err) => format!("the working directory cannot be read: {err}"),
            },
            cwd.is_err()
                .then(|| "run from an existing directory, or pass --cwd DIR".to_owned()),
        ),
        check(
            "config_home",
            config_home.is_some(),
            match &config_home {
                Some(home) => home.display().to_string(),
                None => "neither XDG_CONFIG_HOME nor HOME is set".to_owned(),
            },
            config_home
                .is_none()
                .then(|| "set HOME, or pass --config FILE".to_owned()),
        ),
    ];
    let entries = declared.map_or_else(Vec::new, |health| health(registry));
    for (name, ok, message, fix) in entries {
        checks.push(check(&name, ok, message, fix));
    }
    let ok = checks.iter().all(|c| c.ok);
    let credentials = registry
        .auth
        .iter()
        .flat_map(|auth| &auth.env)
        .map(|var| Credential {
            env: var,
            set: std::env::var_os(var).is_some_and(|v| !v.is_empty()),
        })
        .collect();
    let user = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .ok();
    let default_config = config_home.map(|home| home.join(name).join("config.toml"));
    let mut state_files = vec![StateFile {
        kind: "config",
        path: shown(default_config.as_ref()),
        scope: "global",
        exists: default_config.as_ref().is_some_and(|p| p.is_file()),
        written_by_runtime: false,
        overridden_by: format!(
            "--config FILE, ${}, or --no-config",
            crate::parse::config_file::env_var(name)
        ),
    }];
    // The files the tool declares it writes outside its output, as declared.
    for effect in registry
        .commands
        .iter()
        .flat_map(|c| &c.side_effects)
        .filter(|e| e.kind == pas_spec::declare::SideEffectKind::Filesystem)
    {
        if state_files
            .iter()
            .any(|f| f.path.as_deref() == Some(&effect.target))
        {
            continue;
        }
        let path = expand_home(&effect.target);
        state_files.push(StateFile {
            kind: "declared",
            exists: std::path::Path::new(&path).exists(),
            path: Some(effect.target.clone()),
            scope: "tool",
            written_by_runtime: false,
            overridden_by: effect.description.clone(),
        });
    }
    if registry.sessions().is_some() {
        let sessions = crate::xdg::data_home().map(|home| home.join(name).join("sessions"));
        state_files.push(StateFile {
            kind: "sessions",
            path: shown(sessions.as_ref()),
            scope: "global",
            exists: sessions.as_ref().is_some_and(|p| p.is_dir()),
            written_by_runtime: true,
            overridden_by: "XDG_DATA_HOME".to_owned(),
        });
    }
    Reply::object(&Report {
        ok,
        tool: name,
        version: &registry.version,
        profile: registry.profile.as_str(),
        platform: Platform {
            os,
            family,
            arch,
            shell,
        },
        checks,
        context: Context {
            stateless: stateless(registry),
            current_context: None,
            user,
            cwd: cwd.ok().map(|d| d.display().to_string()),
            config_file: file.map(|f| f.path().display().to_string()),
            credentials,
        },
        state_files,
    })
}
