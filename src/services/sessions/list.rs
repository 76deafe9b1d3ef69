//! The `sessions` built-in: every session in one pass over the directory, memory bounded by the
//! page shown (`--limit`), not by how many sessions are stored.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::SystemTime;

use pas_spec::Registry;
use pas_spec::robot::ExitRole;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use super::Store;
use crate::error::Error;

/// What the listing reads of each manifest (serde skips the rest without building it).
#[derive(Deserialize)]
struct Head {
    #[serde(default)]
    format: u32,
    session_id: String,
    state: String,
    created_at: String,
    updated_at: String,
    #[serde(default)]
    updated_ms: u64,
    #[serde(default)]
    summary: Map<String, Value>,
}

/// The listing: the newest `limit` sessions, `total` and `resumable_count` of all.
pub(crate) fn list(registry: &Registry, limit: usize) -> Result<Value, Error> {
    let Some(spec) = registry.sessions() else {
        return Ok(json!({ "sessions": [], "total": 0, "resumable_count": 0 }));
    };
    let Some(store) = Store::for_tool(&registry.name) else {
        return Ok(json!({ "sessions": [], "total": 0, "resumable_count": 0 }));
    };
    let entries = match std::fs::read_dir(store.root()) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Ok(json!({ "sessions": [], "total": 0, "resumable_count": 0 }));
        }
        Err(err) => {
            let (code, _) = registry.role_code(ExitRole::Io);
            return Err(Error::new(
                code,
                format!("cannot list {}: {err}", store.root().display()),
            ));
        }
    };
    let now = SystemTime::now();
    let (mut total, mut resumable_count, mut unreadable) = (0u64, 0u64, Vec::new());
    // The newest `limit` by id (ids start with their UTC creation time): a min-heap.
    let mut newest: BinaryHeap<Reverse<(String, String)>> = BinaryHeap::new();
    for entry in entries.flatten() {
        let id = entry.file_name().to_string_lossy().into_owned();
        if !super::store::is_session_id(&id, &spec.prefix) {
            continue;
        }
        let path = store.manifest_path(&id);
        // A regular file within the manifest's limit, or listed as unreadable. A directory
        // with no manifest at all is no session (one being created this instant, or left by a
        // crash before its first write): neither counted nor listed.
        let bytes = match super::store::read_manifest(&path) {
            Err(crate::stdio::state_file::Refusal::Missing) => continue,
            read => read.ok(),
        };
        total += 1;
        let head = bytes
            .and_then(|bytes| serde_json::from_slice::<Head>(&bytes).ok())
            .filter(|h| h.format <= super::manifest::FORMAT && h.session_id == id);
        let Some(head) = head else {
            unreadable.push(path.display().to_string());
            continue;
        };
        let expired = spec.expire_after.is_some_and(|secs| {
            let age = (now
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap_or_default()
                .as_millis() as u64)
                .saturating_sub(head.updated_ms);
            age > secs.saturating_mul(1000)
        });
        let final_state = spec.state(&head.state).is_none_or(|s| s.next.is_empty());
        let state = if expired && !final_state {
            spec.expired.clone()
        } else {
            head.state
        };
        let resumable = spec.state(&state).is_some_and(|s| s.resumable);
        if resumable {
            resumable_count += 1;
        }
        if limit == 0 {
            continue;
        }
        let mut item = Map::new();
        item.insert("session_id".into(), Value::from(id.clone()));
        item.insert("state".into(), Value::from(state));
        item.insert("created_at".into(), Value::from(head.created_at));
        item.insert("updated_at".into(), Value::from(head.updated_at));
        for (key, value) in head.summary {
            item.insert(key, value);
        }
        item.insert("resumable".into(), Value::from(resumable));
        let line = serde_json::to_string(&item).unwrap_or_default();
        newest.push(Reverse((id, line)));
        if newest.len() > limit {
            newest.pop();
        }
    }
    let mut page: Vec<(String, String)> = newest.into_iter().map(|Reverse(p)| p).collect();
    page.sort_by(|a, b| b.0.cmp(&a.0));
    let sessions: Vec<Value> = page
        .into_iter()
        .filter_map(|(_, line)| serde_json::from_str(&line).ok())
        .collect();
    let mut data = json!({
        "sessions": sessions,
        "total": total,
        "resumable_count": resumable_count,
    });
    if !unreadable.is_empty() {
        data["unreadable"] = Value::from(unreadable);
    }
    Ok(data)
}

/// One session in detail (`sessions --session ID`).
pub(crate) fn detail(registry: &Registry, id: &str, full: bool) -> Result<Value, Error> {
    let (code, _) = registry.role_code(ExitRole::Session);
    let not_found = || {
        Error::new(code.clone(), format!("no session `{id}`"))
            .with_suggestion(format!("`{} sessions` lists the sessions", registry.name))
            .with_details(json!({ "session_id": id }))
    };
    let (Some(spec), Some(store)) = (registry.sessions(), Store::for_tool(&registry.name)) else {
        return Err(not_found());
    };
    if !super::store::is_session_id(id, &spec.prefix) || !store.has_dir(id) {
        return Err(not_found());
    }
    let manifest = store.load(id, &code)?;
    let resumable = spec.state(&manifest.state).is_some_and(|s| s.resumable);
    let mut session = json!({
        "session_id": manifest.session_id,
        "state": manifest.state,
        "created_at": manifest.created_at,
        "updated_at": manifest.updated_at,
        "created_by": manifest.created_by,
        "resumable": resumable,
        "history": manifest.history.iter().map(|t| json!({"state": t.state, "at": t.at})).collect::<Vec<_>>(),
        "completed": manifest.completed,
    });
    for (key, value) in manifest.summary {
        session[key] = value;
    }
    if full {
        session["data"] = Value::Object(manifest.data);
        let mut artifacts: Vec<String> = std::fs::read_dir(store.dir(id))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n != "manifest.json" && n != "lock" && !n.starts_with('.'))
            .collect();
        artifacts.sort();
        session["artifacts"] = Value::from(artifacts);
    }
    Ok(json!({ "session": session }))
}
