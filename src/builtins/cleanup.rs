//! `TOOL cleanup` (CLI Agent Spec failure mode 30): the built-in word that lists what the
//! tool's declared filesystem side effects left, and removes it when confirmed.
//!
//! Every tool whose spec (or derive) declares a `filesystem` side effect gets the word, in
//! every profile. Without a flag it is an inventory, changing nothing: each declared target
//! (`~` and `$VAR` expanded) with whether it exists, its size and file count, and the
//! commands that declare it; the runtime's own `--idempotency-key` records are listed too (and
//! removed record by record: only finished ones, see `crate::services::idempotency::forget_finished`).
//! `--dry-run` says what a removal would take; the profile's confirm flag (`--force`, robot's
//! `--yes`) removes it. Only paths inside the tool's own homes are ever removed (its directory
//! under `$XDG_CACHE_HOME`, `$XDG_STATE_HOME`, `$XDG_DATA_HOME`, or the temp directory): a
//! declared target elsewhere (`~/`, `/etc/...`) is listed as `refused`, never touched, and
//! removal goes through the confined store ([`crate::services::store::Root`]), which follows no link out.
//!
//! It also lists the processes commands kept running on purpose (failure mode 17, recorded by
//! [`crate::services::children::kept_children`]) and, when confirmed, ends each one whose pid and start time still
//! match the record (SIGTERM, then SIGKILL); a tool that declares a `background` side effect
//! has the word for that alone.

use std::path::{Component, Path, PathBuf};

use pas_spec::{Registry, declare::SideEffectKind};
use serde::Serialize;

use crate::error::Error;
use crate::reply::Reply;
use crate::services::store::Root;

/// The built-in word.
pub(crate) const WORD: &str = pas_spec::surface::CLEANUP_WORD;
const DRY_RUN_ID: &str = "pas_cleanup_dry_run";
const CONFIRM_ID: &str = "pas_cleanup_confirm";

/// Whether the tool has the word: it declares a filesystem side effect, names no command
/// `cleanup` itself, and has no root command that takes words of its own.
pub(crate) fn offered(registry: &Registry) -> bool {
    pas_spec::faces::offers_cleanup(registry)
}

/// Adds `cleanup [--dry-run] [--force]` to the tool's clap command when it has the word.
pub(crate) fn augment(cmd: clap::Command, registry: &Registry) -> clap::Command {
    if !offered(registry) {
        return cmd;
    }
    // Its flags are the surface table's rows (`Surface::cleanup_flags`): `--dry-run`, and the
    // profile's confirm flag.
    let [dry_run, confirm] = pas_spec::surface::of(registry.profile).cleanup_flags();
    let flag_arg = |id: &'static str, row: &pas_spec::surface::RuntimeFlag| {
        crate::parse::flag_args::arg(id, row, row.meaning)
    };
    cmd.subcommand(
        clap::Command::new(WORD)
            .about("List what the declared filesystem side effects left; remove it when confirmed")
            .arg(flag_arg(DRY_RUN_ID, &dry_run))
            .arg(flag_arg(CONFIRM_ID, &confirm)),
    )
}

/// One path the inventory lists.
#[derive(Serialize)]
struct Found {
    path: String,
    /// `declared` (a command's side effect) or `runtime` (the runtime's own records).
    source: &'static str,
    /// The commands that declare it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    commands: Vec<String>,
    exists: bool,
    bytes: u64,
    files: u64,
    /// Why it is never removed (outside the tool's homes, or not a path).
    #[serde(skip_serializing_if = "Option::is_none")]
    refused: Option<String>,
    removed: bool,
    /// The runtime's idempotency records, record by record: only finished ones go (see
    /// [`crate::services::idempotency::Forgotten`]); absent in a plain listing.
    #[serde(skip_serializing_if = "Option::is_none")]
    records: Option<crate::services::idempotency::Forgotten>,
}

/// One process a command kept running on purpose (failure mode 17), from the PID file.
#[derive(Serialize)]
struct Child {
    pid: i32,
    command_line: String,
    /// The tool's command whose call kept it.
    command: String,
    recorded_at: u64,
    /// Still the process recorded (same pid and start time); a gone one is never signalled.
    alive: bool,
    ended: bool,
}

#[derive(Serialize)]
struct Inventory {
    /// `list`, `dry-run` or `remove`.
    mode: &'static str,
    paths: Vec<Found>,
    /// The processes commands kept running (absent when none was recorded).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    children: Vec<Child>,
    /// Bytes removed (or that a removal would free, in a dry run).
    freed_bytes: u64,
}

/// Answers `cleanup` through the profile, as the other built-ins are.
pub(crate) fn answer(
    shared: &std::sync::Arc<crate::end::call_state::Shared>,
    leaf: &clap::ArgMatches,
) -> crate::end::call_state::Outcome {
    use crate::end::call_state::Outcome;
    {
        let mut output = shared.lock();
        output.command = Some(WORD.to_owned());
        output.profile.configure(crate::profile::CallOptions {
            command: Some(WORD.to_owned()),
            ..Default::default()
        });
    }
    let registry = shared.registry.clone();
    let ran = crate::end::panics::catch(|| -> Result<(), crate::end::call_state::Stop> {
        let reply = run(&registry, leaf)?;
        crate::render::drive::reply(shared, reply)
    });
    match ran {
        Ok(Ok(())) => Outcome::Success,
        Ok(Err(stop)) => stop.into(),
        Err(error) => Outcome::Failed(error),
    }
}

/// Runs `cleanup` with its matched flags.
pub(crate) fn run(registry: &Registry, leaf: &clap::ArgMatches) -> Result<Reply, Error> {
    let flag = |id: &str| leaf.try_get_one::<bool>(id).ok().flatten() == Some(&true);
    let (dry_run, confirmed) = (flag(DRY_RUN_ID), flag(CONFIRM_ID));
    let mode = match (dry_run, confirmed) {
        (true, _) => "dry-run",
        (false, true) => "remove",
        (false, false) => "list",
    };
    let homes = homes(&registry.name);
    let mut paths: Vec<Found> = Vec::new();
    for (target, commands) in declared_targets(registry) {
        let path = expand(&target);
        let refused = match &path {
            None => Some(format!("`{target}` is not a path this machine can resolve")),
            Some(path) if !inside_homes(path, &homes) => Some(format!(
                "{} is outside the tool's own directories",
                path.display()
            )),
            Some(_) => None,
        };
        let shown = path
            .as_ref()
            .map_or(target.clone(), |p| p.display().to_string());
        paths.push(found(
            &shown,
            path.as_deref(),
            "declared",
            commands,
            refused,
        ));
    }
    if let Some(state) = crate::xdg::state_home() {
        let records = state.join(&registry.name).join("idempotency");
        let shown = records.display().to_string();
        paths.push(found(&shown, Some(&records), "runtime", Vec::new(), None));
    }
    let mut freed = 0;
    for entry in paths.iter_mut().filter(|p| p.exists && p.refused.is_none()) {
        if mode == "list" {
            continue;
        }
        if entry.source == "runtime" {
            // A record a running or interrupted call needs stays: see `forget_finished`.
            let records = crate::services::idempotency::forget_finished(
                Path::new(&entry.path),
                mode != "remove",
            )?;
            freed += records.bytes;
            entry.removed = mode == "remove" && records.removed > 0;
            entry.records = Some(records);
            continue;
        }
        freed += entry.bytes;
        if mode == "remove" {
            remove(Path::new(&entry.path), &homes)?;
            entry.removed = true;
        }
    }
    let children = kept_children(&registry.name, mode == "remove")?;
    Ok(Reply::object(&Inventory {
        mode,
        paths,
        children,
        freed_bytes: freed,
    }))
}

/// The recorded kept children; with `end`, each one still alive is ended and the PID file
/// keeps only those that could not be.
fn kept_children(tool: &str, end: bool) -> Result<Vec<Child>, Error> {
    let recorded = crate::services::children::kept_children::load(tool)?;
    if recorded.is_empty() {
        return Ok(Vec::new());
    }
    let mut listed = Vec::new();
    let mut left = Vec::new();
    for kept in recorded {
        let alive = crate::services::children::kept_children::alive(&kept);
        let ended = end && alive && crate::services::children::kept_children::end(&kept);
        if alive && !ended {
            left.push(kept.clone());
        }
        listed.push(Child {
            pid: kept.pid,
            command_line: kept.command_line,
            command: kept.command,
            recorded_at: kept.recorded_at,
            alive,
            ended,
        });
    }
    if end {
        crate::services::children::kept_children::save(tool, &left)?;
    }
    Ok(listed)
}

/// Each declared filesystem target once, with the commands that declare it, in spec order.
fn declared_targets(registry: &Registry) -> Vec<(String, Vec<String>)> {
    let mut targets: Vec<(String, Vec<String>)> = Vec::new();
    for command in &registry.commands {
        for effect in &command.side_effects {
            if effect.kind != SideEffectKind::Filesystem {
                continue;
            }
            match targets.iter_mut().find(|(t, _)| *t == effect.target) {
                Some((_, commands)) => commands.push(command.name.clone()),
                None => targets.push((effect.target.clone(), vec![command.name.clone()])),
            }
        }
    }
    targets
}

/// The directories the tool owns: where cleanup may remove.
fn homes(tool: &str) -> Vec<PathBuf> {
    let env = |name: &str| std::env::var_os(name);
    [
        crate::xdg::base_with("XDG_CACHE_HOME", ".cache", env),
        crate::xdg::state_home(),
        crate::xdg::data_home(),
        Some(std::env::temp_dir()),
    ]
    .into_iter()
    .flatten()
    .map(|base| base.join(tool))
    .collect()
}

/// `~` and `$VAR`/`${VAR}` expanded; `None` when a variable is unset or the path is relative.
fn expand(target: &str) -> Option<PathBuf> {
    let mut text = String::new();
    let mut rest = target.trim();
    if let Some(after) = rest.strip_prefix('~') {
        text.push_str(&std::env::var("HOME").ok()?);
        rest = after;
    }
    while let Some(at) = rest.find('$') {
        text.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, tail) = match after.strip_prefix('{') {
            Some(braced) => {
                let end = braced.find('}')?;
                (&braced[..end], &braced[end + 1..])
            }
            None => {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                (&after[..end], &after[end..])
            }
        };
        text.push_str(&std::env::var(name).ok()?);
        rest = tail;
    }
    text.push_str(rest);
    // Rebuilt from its components: `~/.cache/t/` and `~/.cache/t` are one path.
    let path: PathBuf = Path::new(&text).components().collect();
    path.is_absolute().then_some(path)
}

/// Lexically inside (or equal to) one of the homes, with no `..` anywhere.
fn inside_homes(path: &Path, homes: &[PathBuf]) -> bool {
    !path.components().any(|c| c == Component::ParentDir)
        && homes.iter().any(|home| path.starts_with(home))
}

fn found(
    shown: &str,
    path: Option<&Path>,
    source: &'static str,
    commands: Vec<String>,
    refused: Option<String>,
) -> Found {
    let (exists, bytes, files) = match path {
        Some(path) => measure(path),
        None => (false, 0, 0),
    };
    Found {
        path: shown.to_owned(),
        source,
        commands,
        exists,
        bytes,
        files,
        refused,
        removed: false,
        records: None,
    }
}

/// Whether the path exists, and the bytes and files under it (links are not followed).
fn measure(path: &Path) -> (bool, u64, u64) {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return (false, 0, 0);
    };
    if !meta.is_dir() {
        return (true, meta.len(), 1);
    }
    let (mut bytes, mut files) = (0, 0);
    let mut stack = vec![path.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                bytes += meta.len();
                files += 1;
            }
        }
    }
    (true, bytes, files)
}

/// Removes a path inside one of the homes through the store confined to that home's parent,
/// so a link anywhere on the way never leads the removal out.
fn remove(path: &Path, homes: &[PathBuf]) -> Result<(), Error> {
    let Some(home) = homes.iter().find(|home| path.starts_with(home)) else {
        return Ok(());
    };
    let (Some(base), Some(name)) = (home.parent(), home.file_name()) else {
        return Ok(());
    };
    let Some(root) = Root::open_existing(base)? else {
        return Ok(());
    };
    let mut relative = PathBuf::from(name);
    relative.extend(
        path.strip_prefix(home)
            .into_iter()
            .flat_map(Path::components),
    );
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => root.remove_dir_all(&relative).map(|_| ()),
        Ok(_) => root.remove_file(&relative).map(|_| ()),
        Err(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_inside_the_homes_without_dot_dot_are_removable() {
        let homes = vec![PathBuf::from("/h/.cache/t"), PathBuf::from("/tmp/t")];
        assert!(inside_homes(Path::new("/h/.cache/t/index"), &homes));
        assert!(inside_homes(Path::new("/tmp/t"), &homes));
        assert!(!inside_homes(Path::new("/h/.cache/t/../other"), &homes));
        assert!(!inside_homes(Path::new("/h/.cache/tool-other"), &homes));
        assert!(!inside_homes(Path::new("/h"), &homes));
    }
}
