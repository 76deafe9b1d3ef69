//! Following a job from outside its run: its manifest read back, with a run that vanished
//! recorded as lost. `TOOL job status|list` and MCP's `tasks/get` read a job this way, so both
//! see one state.

use pas_spec::Registry;
use pas_spec::builtin_codes::{JOB_LOST, JOB_NOT_FOUND};
use serde_json::json;

use super::store::{self, Manifest, Status};
use crate::error::Error;
use crate::services::store::Root;

/// How long a job may stay queued (its process not started) before it counts as lost.
const QUEUED_GRACE_MS: u64 = 10_000;

/// The error of an id no job has (or that is not an id): `JOB_NOT_FOUND`.
pub(crate) fn not_found(registry: &Registry, id: &str) -> Error {
    let why = match store::is_id(id) {
        true => "no job has this id (it never existed here, or its directory was removed)",
        false => "this is not a job id (job- and twelve characters a-z, 2-7)",
    };
    let prefix = pas_spec::surface::of(registry.profile).invocation_prefix(registry);
    Error::new(JOB_NOT_FOUND, format!("job `{id}`: {why}"))
        .with_suggestion(format!("{} job list", prefix.join(" ")))
        .with_retryable(false)
}

/// The manifest of `id`, with a vanished process recorded as `failed` (`JOB_LOST`).
pub(crate) fn load(registry: &Registry, id: &str) -> Result<(Root, Manifest), Error> {
    let root = store::root(&registry.name, false)?.ok_or_else(|| not_found(registry, id))?;
    let manifest = store::read(&root, id)?.ok_or_else(|| not_found(registry, id))?;
    let manifest = refresh(&root, manifest)?;
    Ok((root, manifest))
}

/// [`load`]'s manifest alone, as the JSON of its file (MCP's `tasks/get` reads it).
pub(crate) fn manifest_json(registry: &Registry, id: &str) -> Result<serde_json::Value, Error> {
    let (_, manifest) = load(registry, id)?;
    serde_json::to_value(&manifest).map_err(crate::error::serialise_error)
}

/// Whether the job's recorded process still runs (same pid and start time).
pub(crate) fn alive(manifest: &Manifest) -> bool {
    match (manifest.pid, manifest.pid_start) {
        (Some(pid), Some(start)) => {
            crate::services::children::kept_children::start_time(pid) == Some(start)
        }
        _ => false,
    }
}

/// `manifest` as it stands now: a running job whose process is gone, or a job queued for
/// longer than its process takes to start, is recorded as failed with `JOB_LOST`.
pub(crate) fn refresh(root: &Root, manifest: Manifest) -> Result<Manifest, Error> {
    let lost = match manifest.status {
        Status::Running => !alive(&manifest),
        Status::Queued => store::now_ms().saturating_sub(manifest.started_ms) > QUEUED_GRACE_MS,
        _ => false,
    };
    if !lost {
        return Ok(manifest);
    }
    let error = json!({
        "code": JOB_LOST,
        "message": "the job's process ended without recording a result (killed from outside, or the machine restarted)",
    });
    super::run::end(root, &manifest.id, Status::Failed, None, Some(error))?;
    // Read again: the run may have recorded its end just before.
    store::read(root, &manifest.id)?.ok_or_else(|| Error::general("the job's manifest vanished"))
}
