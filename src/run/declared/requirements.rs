//! The tool's `requirements` (programs on `PATH`, environment variables, files): a command that
//! `needs` one fails with `REQUIREMENT_MISSING` and the declared fix before its handler runs, and
//! compose's `health` reports every one of them.

use std::path::Path;

use pas_spec::declare::{REQUIREMENT_MISSING, RUNTIME_VERSION, Requirement, RequirementKind};
use pas_spec::{Command, Registry};
use serde_json::json;

use crate::error::Error;
use crate::run::declared::home::expand_home;
use crate::run::declared::required_versions::{self as versions, VersionCheck};

pub(crate) fn check(registry: &Registry, command: &Command) -> Result<(), Error> {
    let missing: Vec<&Requirement> = command
        .needs
        .iter()
        .filter_map(|name| registry.requirements.iter().find(|r| &r.name == name))
        .filter(|r| !present(r))
        .collect();
    let Some(first) = missing.first() else {
        return check_versions(registry, command);
    };
    let names: Vec<&str> = missing.iter().map(|r| r.name.as_str()).collect();
    let fixes: Vec<&str> = missing.iter().map(|r| r.fix.as_str()).collect();
    Err(Error::new(
        REQUIREMENT_MISSING,
        format!(
            "{} needs {} ({} {}), which is missing",
            command.name,
            names.join(", "),
            first.kind.as_str(),
            first.target
        ),
    )
    .with_suggestion(fixes.join("; then "))
    .with_details(json!({
        "missing": missing.iter().map(|r| json!({
            "requirement": r.name,
            "kind": r.kind.as_str(),
            "target": r.target,
            "fix": r.fix,
        })).collect::<Vec<_>>(),
    })))
}

/// The needed programs whose declared version range the installed one misses: the first
/// fails the call with `RUNTIME_VERSION`, the range (`requirement`) and what is installed
/// (`actual`, null when the program printed no version).
fn check_versions(registry: &Registry, command: &Command) -> Result<(), Error> {
    let needed = command
        .needs
        .iter()
        .filter_map(|name| registry.requirements.iter().find(|r| &r.name == name));
    for requirement in needed {
        let VersionCheck::OutOfRange(actual) = versions::check(requirement) else {
            continue;
        };
        let range = requirement.version.clone().unwrap_or_default();
        let found = actual.as_deref().unwrap_or("no readable version");
        return Err(Error::new(
            RUNTIME_VERSION,
            format!(
                "{} needs {} {range}, and the installed one is {found}",
                command.name, requirement.target
            ),
        )
        .with_suggestion(requirement.fix.clone())
        .with_details(json!({
            "requirement": range,
            "actual": actual,
            "name": requirement.name,
            "target": requirement.target,
            "fix": requirement.fix,
        })));
    }
    Ok(())
}

/// Whether the machine meets a requirement now.
pub(crate) fn present(requirement: &Requirement) -> bool {
    match requirement.kind {
        RequirementKind::Env => {
            std::env::var_os(&requirement.target).is_some_and(|v| !v.is_empty())
        }
        RequirementKind::File => expand_home(&requirement.target).exists(),
        RequirementKind::Program => on_path(&requirement.target),
    }
}

/// A program name is looked up on `PATH`; a name with a `/` is a path.
fn on_path(program: &str) -> bool {
    if program.contains('/') {
        return is_executable(&expand_home(program));
    }
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| is_executable(&dir.join(program)))
    })
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// `health`'s entries for the declared requirements and credentials: (name, ok, message, fix).
pub(crate) fn health_entries(registry: &Registry) -> Vec<(String, bool, String, Option<String>)> {
    let mut entries: Vec<(String, bool, String, Option<String>)> = registry
        .requirements
        .iter()
        .map(|r| {
            let ok = present(r);
            let version = if ok {
                versions::check(r)
            } else {
                VersionCheck::Fits
            };
            let ok = ok && version == VersionCheck::Fits;
            let state = match (&version, present(r)) {
                (VersionCheck::OutOfRange(found), _) => format!(
                    "is {}, outside {}",
                    found.as_deref().unwrap_or("of no readable version"),
                    r.version.as_deref().unwrap_or_default()
                ),
                (VersionCheck::Fits, true) => "is present".to_owned(),
                (VersionCheck::Fits, false) => "is missing".to_owned(),
            };
            let message = format!("{} {} {state}", r.kind.as_str(), r.target);
            (
                format!("requirement:{}", r.name),
                ok,
                message,
                (!ok).then(|| r.fix.clone()),
            )
        })
        .collect();
    if let Some(auth) = &registry.auth {
        let ok = super::auth::credentials_present(auth);
        let message = if ok {
            "credentials are present".to_owned()
        } else {
            format!("no credentials: none of {} is set", auth.env.join(", "))
        };
        let fix = auth
            .login
            .clone()
            .unwrap_or_else(|| format!("export {}=...", auth.env.first().map_or("TOKEN", |e| e)));
        entries.push(("auth".to_owned(), ok, message, (!ok).then_some(fix)));
    }
    entries
}
