//! The robot built-ins: `sessions` (robot 5.7, 12.1) and `capabilities` (robot 5.8).

use pas_spec::Registry;
use pas_spec::robot::ExitRole;
use serde_json::{Map, Value, json};

use crate::error::Error;
use crate::handler::args::Args;
use crate::parse::robot_flags::{Builtin, CHECK_ACTION_ID, DETAIL_ID, LIMIT_ID, SESSION_ID};
use crate::reply::Reply;

pub(crate) fn run(
    builtin: Builtin,
    registry: &Registry,
    hooks: &Hooks,
    args: &Args,
) -> Result<Reply, Error> {
    match builtin {
        Builtin::Sessions => sessions(registry, args),
        Builtin::Capabilities => capabilities(registry, hooks, args),
    }
}

fn sessions(registry: &Registry, args: &Args) -> Result<Reply, Error> {
    let matches = args.matches();
    let id = matches
        .try_get_one::<String>(SESSION_ID)
        .ok()
        .flatten()
        .cloned();
    let detail = matches
        .try_get_one::<bool>(DETAIL_ID)
        .ok()
        .flatten()
        .copied()
        .unwrap_or(false);
    let data = match id {
        Some(id) => crate::services::sessions::list::detail(registry, &id, detail)?,
        None => {
            let limit = matches
                .try_get_one::<u64>(LIMIT_ID)
                .ok()
                .flatten()
                .copied()
                .unwrap_or(50);
            crate::services::sessions::list::list(
                registry,
                usize::try_from(limit).unwrap_or(usize::MAX),
            )?
        }
    };
    Ok(Reply::object(&data))
}

fn capabilities(registry: &Registry, hooks: &Hooks, args: &Args) -> Result<Reply, Error> {
    let actions: Map<String, Value> = hooks
        .actions
        .iter()
        .map(|(name, check)| (name.clone(), Value::from(check())))
        .collect();
    if let Some(action) = args
        .matches()
        .try_get_one::<String>(CHECK_ACTION_ID)
        .ok()
        .flatten()
    {
        return match actions.get(action) {
            Some(Value::Bool(true)) => Ok(Reply::object(
                &json!({ "action": action, "available": true }),
            )),
            Some(_) => {
                let (code, _) = registry.role_code(ExitRole::Capability);
                Err(
                    Error::new(code, format!("the action `{action}` is not available here"))
                        .with_details(json!({ "action": action, "available": false })),
                )
            }
            None => {
                let (code, _) = registry.role_code(ExitRole::Arguments);
                let known: Vec<&String> = actions.keys().collect();
                Err(Error::new(code, format!("no action `{action}`"))
                    .with_suggestion(format!(
                        "use one of: {}",
                        known
                            .iter()
                            .map(|s| s.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                    .with_details(json!({ "action": action, "known": known })))
            }
        };
    }
    let probes: Map<String, Value> = hooks
        .probes
        .iter()
        .map(|(name, check)| (name.clone(), Value::from(check())))
        .collect();
    let uid = effective_uid();
    let (os_name, os_version) = os_release();
    let data_dir = crate::xdg::data_home().map(|h| h.join(&registry.name));
    let sessions_dir = data_dir.as_ref().map(|d| d.join("sessions"));
    let (sessions_available, bytes) = sessions_dir.as_deref().map(usage).unwrap_or((0, 0));
    let limits = registry
        .robot
        .as_ref()
        .map(|r| Value::Object(r.limits.clone()))
        .unwrap_or_else(|| json!({}));
    Ok(Reply::object(&json!({
        "os": {
            "family": std::env::consts::OS,
            "name": os_name,
            "version": os_version,
        },
        "privileges": {
            "effective_uid": uid,
            "is_root": uid == Some(0),
        },
        "probes": probes,
        "actions": actions,
        "storage": {
            "data_dir": data_dir.map(|d| d.display().to_string()),
            "sessions_available": sessions_available,
            "disk_usage_mb": (bytes as f64 / (1024.0 * 1024.0) * 100.0).round() / 100.0,
        },
        "limits": limits,
    })))
}

#[cfg(unix)]
fn effective_uid() -> Option<u32> {
    // SAFETY: geteuid(2) has no preconditions, cannot fail and touches no memory of ours.
    Some(unsafe { libc::geteuid() })
}

#[cfg(not(unix))]
fn effective_uid() -> Option<u32> {
    None
}

/// NAME and VERSION_ID of /etc/os-release, when there is one.
fn os_release() -> (Option<String>, Option<String>) {
    let Ok(text) = std::fs::read_to_string("/etc/os-release") else {
        return (None, None);
    };
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
            .map(|v| v.trim_matches('"').to_owned())
    };
    (field("NAME"), field("VERSION_ID"))
}

/// How many sessions, and how many bytes their files take.
fn usage(dir: &std::path::Path) -> (u64, u64) {
    let (mut count, mut bytes) = (0, 0);
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        count += 1;
        for file in std::fs::read_dir(entry.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            bytes += file.metadata().map(|m| m.len()).unwrap_or(0);
        }
    }
    (count, bytes)
}

/// Probes and actions a tool adds to `capabilities` ([`crate::run::app::App::capability_probe`]).
#[derive(Default)]
pub(crate) struct Hooks {
    pub(crate) probes: Vec<(String, Box<dyn Fn() -> bool + Send + Sync>)>,
    pub(crate) actions: Vec<(String, Box<dyn Fn() -> bool + Send + Sync>)>,
}
