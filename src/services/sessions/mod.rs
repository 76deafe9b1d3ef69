//! Sessions of the robot profile: a runtime service, never handler code that writes a manifest.
//!
//! A session lives in `$XDG_DATA_HOME/<tool>/sessions/<id>/`: `manifest.json` (state, history,
//! completed actions, the handler's data) and the artifacts a handler writes through
//! [`Session::write_artifact`]. Every change of the manifest is atomic (write a temporary file,
//! fsync, rename, fsync the directory), so a reader never sees half a transition; one call at a
//! time holds a session's writer lock ([`lock`]); a manifest that cannot be read, or that a newer
//! format wrote, is an error naming the file, and is never rewritten or deleted.

pub(crate) mod id;
pub(crate) mod list;
pub(crate) mod lock;
pub(crate) mod manifest;
pub(crate) mod store;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

use pas_spec::Registry;
use pas_spec::robot::{ExitRole, Sessions};
use serde::Serialize;
use serde_json::{Value, json};

use crate::error::Error;

pub(crate) use manifest::Manifest;
pub(crate) use store::Store;

/// A session a call created or continues. Cheap to clone: every clone is the same session.
#[derive(Clone)]
pub struct Session {
    inner: Arc<Mutex<Inner>>,
}

struct Inner {
    store: Store,
    manifest: Manifest,
    spec: Sessions,
    /// The session error constant and exit code (for [`Session`] methods' errors).
    error_code: String,
    /// Held for the whole call by a writer (dropped with the process).
    _lock: Option<lock::Held>,
    /// What the call resumed from, for the envelope's `resume_context`.
    resumed: Option<Value>,
    /// This call created the session (see [`Session::discard_if_unused`]).
    created: bool,
}

impl Session {
    fn new(store: Store, manifest: Manifest, spec: Sessions, error_code: String) -> Session {
        Session {
            inner: Arc::new(Mutex::new(Inner {
                store,
                manifest,
                spec,
                error_code,
                _lock: None,
                resumed: None,
                created: false,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while the lock was held leaves the last written manifest on disk: the state
        // in memory is still the one written last (every change writes before it returns).
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The session id, e.g. `pt-20260115-143022-a7b3`.
    pub fn id(&self) -> String {
        self.lock().manifest.session_id.clone()
    }

    /// The session's current state, one of the spec's session states (`planned`, ...), as its
    /// manifest on disk holds it.
    pub fn state(&self) -> String {
        self.lock().manifest.state.clone()
    }

    /// Moves the session to `state`, atomically on disk. A transition the spec does not allow
    /// is an `INTERNAL_ERROR` (the handler and its contract disagree).
    pub fn transition(&self, state: &str) -> Result<(), Error> {
        let mut inner = self.lock();
        let from = inner.manifest.state.clone();
        if inner.spec.state(state).is_none() || !inner.spec.allows(&from, state) {
            return Err(Error::internal(format!(
                "the handler moved session {} from `{from}` to `{state}`, which the spec does not allow",
                inner.manifest.session_id
            )));
        }
        inner.manifest.set_state(state);
        inner.save()
    }

    /// Records one completed action (written at once): a resumed call gets it back from
    /// [`Session::completed`] and does not redo it.
    pub fn record_completed<T: Serialize>(&self, action: &T) -> Result<(), Error> {
        let value = serde_json::to_value(action).map_err(crate::error::serialise_error)?;
        let mut inner = self.lock();
        inner.manifest.completed.push(value);
        inner.manifest.touch();
        inner.save()
    }

    /// Records the actions this call means to take, in order (written at once, replacing any
    /// plan recorded before), before it takes the first. A call that resumes the session gets
    /// those no completed action has done yet in `resume_context.remaining` (robot 7.3): a
    /// completed record does a planned action when it equals it or, for objects, holds each of
    /// its fields with the same value, so plan in the terms [`Session::record_completed`]
    /// records (e.g. `{"pid": 42, "action": "kill"}`, recorded as that and its result).
    pub fn record_planned<T: Serialize>(&self, actions: &[T]) -> Result<(), Error> {
        let actions = actions
            .iter()
            .map(serde_json::to_value)
            .collect::<Result<Vec<Value>, _>>()
            .map_err(crate::error::serialise_error)?;
        let mut inner = self.lock();
        inner.manifest.planned = Some(actions);
        inner.manifest.touch();
        inner.save()
    }

    /// Every action recorded as completed, in order.
    pub fn completed(&self) -> Vec<Value> {
        self.lock().manifest.completed.clone()
    }

    /// Stores a value under `key` in the manifest's `data` (written at once).
    pub fn put<T: Serialize>(&self, key: &str, value: &T) -> Result<(), Error> {
        let value = serde_json::to_value(value).map_err(crate::error::serialise_error)?;
        let mut inner = self.lock();
        inner.manifest.data.insert(key.to_owned(), value);
        inner.manifest.touch();
        inner.save()
    }

    /// The value stored under `key`, if any.
    pub fn get(&self, key: &str) -> Option<Value> {
        self.lock().manifest.data.get(key).cloned()
    }

    /// Fields shown for this session by the `sessions` command (e.g. `candidates_found`).
    pub fn set_summary(&self, key: &str, value: Value) -> Result<(), Error> {
        let mut inner = self.lock();
        inner.manifest.summary.insert(key.to_owned(), value);
        inner.save()
    }

    /// Writes an artifact (e.g. `plan.json`) beside the manifest, atomically.
    pub fn write_artifact(&self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        let inner = self.lock();
        let path = inner.artifact_path(name)?;
        crate::services::atomic_file::write_atomic(&path, bytes)
            .map_err(|e| inner.io_error(&path, &e))
    }

    /// Reads an artifact the session has.
    pub fn read_artifact(&self, name: &str) -> Result<Vec<u8>, Error> {
        let inner = self.lock();
        let path = inner.artifact_path(name)?;
        let kind = crate::stdio::state_file::SESSION_ARTIFACT;
        crate::stdio::state_file::read(&path, kind, true).map_err(|refusal| {
            inner
                .session_error(&path, &refusal.describe(kind, &path))
                .with_details(refusal.details(kind, &path))
        })
    }

    /// Whether this call resumed the session (`--resume`).
    pub fn resumed(&self) -> bool {
        self.lock().resumed.is_some()
    }

    /// The envelope's `resume_context`, when the call resumed.
    pub(crate) fn resume_context(&self) -> Option<Value> {
        self.lock().resumed.clone()
    }

    /// The call that created the session failed: when the handler left nothing in it (no
    /// transition and no completed action on disk, or no manifest at all, as after a full disk),
    /// the session directory is removed, so a failed call leaves nothing behind and `sessions`
    /// never counts a session it cannot show. Whether it was removed (the envelope then names
    /// no session).
    pub(crate) fn discard_if_unused(&self) -> bool {
        let mut inner = self.lock();
        if !inner.created {
            return false;
        }
        let id = inner.manifest.session_id.clone();
        let unused = match inner.store.load(&id, &inner.error_code) {
            Ok(on_disk) => on_disk.history.len() <= 1 && on_disk.completed.is_empty(),
            Err(_) => true,
        };
        if !unused {
            return false;
        }
        let dir = inner.store.dir(&id);
        // The lock file is in the directory: release it with the rest.
        inner._lock = None;
        inner.created = false;
        std::fs::remove_dir_all(&dir).is_ok()
    }

    /// SIGINT/SIGTERM: the session is left in the spec's interrupted state, resumable, with
    /// every completed action recorded already. Called by whatever ends the call.
    pub(crate) fn interrupt(&self) {
        let mut inner = self.lock();
        let interrupted = inner.spec.interrupted.clone();
        let state = inner.manifest.state.clone();
        let resumable = inner.spec.state(&state).is_some_and(|s| s.resumable);
        // Only work in progress is interrupted: a finished or never-started session stays so.
        if state != interrupted && resumable {
            inner.manifest.set_state(&interrupted);
            let _ = inner.save();
        }
    }
}

impl Inner {
    fn save(&mut self) -> Result<(), Error> {
        let path = self.store.manifest_path(&self.manifest.session_id);
        let bytes = self.manifest.to_bytes();
        crate::services::atomic_file::write_atomic(&path, &bytes)
            .map_err(|e| self.io_error(&path, &e))
    }

    fn artifact_path(&self, name: &str) -> Result<PathBuf, Error> {
        let plain = !name.is_empty()
            && name != "manifest.json"
            && name != "lock"
            && !name.starts_with('.')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
        if !plain {
            return Err(Error::internal(format!(
                "`{name}` is not a plain artifact file name"
            )));
        }
        Ok(self.store.dir(&self.manifest.session_id).join(name))
    }

    fn io_error(&self, path: &std::path::Path, err: &std::io::Error) -> Error {
        self.session_error(path, &format!("cannot write it: {err}"))
    }

    fn session_error(&self, path: &std::path::Path, why: &str) -> Error {
        Error::new(
            self.error_code.clone(),
            format!("session file {}: {why}", path.display()),
        )
        .with_details(json!({ "path": path.display().to_string() }))
    }
}

/// How a call asks for its session (from the spec and argv).
pub(crate) struct Request<'a> {
    pub(crate) registry: &'a Registry,
    pub(crate) command: &'a pas_spec::Command,
    pub(crate) id: Option<String>,
    pub(crate) resume: bool,
    /// `--validate-only`: the session is checked as the call would find it, and nothing is
    /// created, locked or written.
    pub(crate) validate_only: bool,
}

/// Creates, or loads (and locks), the session of this call.
pub(crate) fn open(request: &Request<'_>) -> Result<Option<Session>, Error> {
    use pas_spec::robot::SessionUse;
    let Some(usage) = request.command.session else {
        return Ok(None);
    };
    let registry = request.registry;
    let Some(spec) = registry.sessions() else {
        return Ok(None);
    };
    let (code, _) = registry.role_code(ExitRole::Session);
    let store = Store::for_tool(&registry.name).ok_or_else(|| {
        Error::new(
            code.clone(),
            "no data directory: neither XDG_DATA_HOME nor HOME is an absolute path",
        )
        .with_suggestion("set XDG_DATA_HOME to a writable directory")
    })?;
    match usage {
        // A session this call would create is the call's effect, which validating leaves out.
        SessionUse::Create if request.validate_only => Ok(None),
        SessionUse::Create => {
            let initial = spec
                .initial()
                .map(|s| s.name.clone())
                .unwrap_or_else(|| "created".to_owned());
            let now = SystemTime::now();
            let (id, dir) = store
                .create(&spec.prefix, now)
                .map_err(|e| Error::new(code.clone(), format!("cannot create a session: {e}")))?;
            let manifest = Manifest::new(&id, &registry.name, &request.command.name, &initial, now);
            let session = Session::new(store, manifest, spec.clone(), code.clone());
            let started = (|| {
                let mut inner = session.lock();
                inner.created = true;
                inner.save()?;
                // A new session's writer is this call.
                let held = lock::acquire(&dir, &request.command.name)
                    .map_err(|holder| lock_error(registry, &id, &holder))?;
                inner._lock = Some(held);
                Ok(())
            })();
            if let Err(error) = started {
                // A session that could not be written (a full disk) is not left half made.
                let _ = std::fs::remove_dir_all(&dir);
                return Err(error);
            }
            Ok(Some(session))
        }
        SessionUse::Continue | SessionUse::Read => {
            let Some(id) = request.id.clone() else {
                let (args, _) = registry.role_code(ExitRole::Arguments);
                return Err(Error::new(args, "this command needs --session ID")
                    .with_suggestion(format!("`{} sessions` lists the sessions", registry.name)));
            };
            continue_session(
                request,
                store,
                spec,
                &code,
                &id,
                usage == SessionUse::Continue,
            )
        }
    }
}

fn continue_session(
    request: &Request<'_>,
    store: Store,
    spec: &Sessions,
    code: &str,
    id: &str,
    writer: bool,
) -> Result<Option<Session>, Error> {
    let registry = request.registry;
    let not_found = || {
        Error::new(code.to_owned(), format!("no session `{id}`"))
            .with_suggestion(format!("`{} sessions` lists the sessions", registry.name))
            .with_details(json!({ "session_id": id }))
    };
    if !store::is_session_id(id, &spec.prefix) {
        return Err(not_found());
    }
    if !store.has_dir(id) {
        return Err(not_found());
    }
    let dir = store.dir(id);
    // Whether the call would write the session; it does, unless it is only being validated.
    let would_write = writer && request.command.effect != pas_spec::Effect::Read;
    let writes = would_write && !request.validate_only;
    let held = if writes {
        Some(lock::acquire(&dir, &request.command.name).map_err(|h| lock_error(registry, id, &h))?)
    } else {
        None
    };
    // Read after the lock: the state another writer left is the one to continue from.
    let manifest = store.load(id, code)?;
    let session = Session::new(store, manifest, spec.clone(), code.to_owned());
    let mut inner = session.lock();
    inner._lock = held;
    if let Some(expire) = spec.expire_after
        && inner.manifest.state != spec.expired
        && inner.manifest.age_ms(SystemTime::now()) > expire.saturating_mul(1000)
        && (would_write || !inner.manifest.is_final(spec))
    {
        let expired = spec.expired.clone();
        inner.manifest.set_state(&expired);
        // Written only under the writer lock: a reader reports the expiry without writing.
        if writes {
            inner.save()?;
        }
    }
    let state = inner.manifest.state.clone();
    if state == spec.expired {
        return Err(
            Error::new(code.to_owned(), format!("session `{id}` has expired"))
                .with_suggestion("start a new session")
                .with_details(json!({ "session_id": id, "state": state })),
        );
    }
    let resumable = spec.state(&state).is_some_and(|s| s.resumable);
    if request.resume {
        if !resumable {
            return Err(Error::new(
                code.to_owned(),
                format!("session `{id}` is `{state}`, which cannot be resumed"),
            )
            .with_suggestion("start a new session")
            .with_details(json!({ "session_id": id, "state": state })));
        }
        let now = SystemTime::now();
        inner.resumed = Some(json!({
            "original_started_at": inner.manifest.created_at,
            "interrupted_at": inner.manifest.updated_at,
            "resumed_at": crate::time::rfc3339_millis(now),
            "previous_state": state,
            "already_completed": inner.manifest.completed,
            // null: the handler never recorded a plan, so what remains is not known.
            "remaining": inner.manifest.remaining(),
        }));
    } else if would_write && state == spec.interrupted {
        return Err(Error::new(
            code.to_owned(),
            format!("session `{id}` was interrupted; continue it with --resume"),
        )
        .with_suggestion(format!(
            "{} {} --session {id} --resume",
            registry.name,
            request.command.argv_path().join(" ")
        ))
        .with_details(json!({ "session_id": id, "state": state })));
    }
    drop(inner);
    Ok(Some(session))
}

fn lock_error(registry: &Registry, id: &str, holder: &lock::Holder) -> Error {
    let (code, _) = registry.role_code(ExitRole::Lock);
    Error::new(
        code,
        format!(
            "session `{id}` is held by {} (pid {}) since {}",
            holder.command, holder.pid, holder.since
        ),
    )
    .with_suggestion("wait for that call to finish, then try again")
    .with_details(json!({
        "session_id": id,
        "holder": { "pid": holder.pid, "command": holder.command, "since": holder.since },
    }))
}
