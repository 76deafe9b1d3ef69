//! The `pas` profile's call metadata, on request: with `PAS_META=1` (and agent mode), a call
//! ends with one `{"meta":{...}}` line on stderr, after any error line:
//! `{"meta":{"ok","exit_code","version","request_id","trace_id"?,"duration_ms","cwd"?}}`.
//!
//! PAS keeps stdout for the requested data alone (2.1.1), so what compose carries in its
//! envelope's `meta` (the exit code, the tool's version, the request and trace ids, the time
//! taken: CLI Agent Spec failure modes 56, 22 and 33) can only go to stderr here. It is opt-in:
//! without it a `pas` call's stderr stays empty on success and its error line the same bytes
//! for the same input (the profile's determinism), as PAS level 1-2 checkers expect.

use std::time::Instant;

pub use crate::parse::names::META_ENV;
use serde::Serialize;

#[derive(Serialize)]
struct Meta<'a> {
    ok: bool,
    exit_code: u8,
    version: &'a str,
    /// Left out with `--stable-output` (`crate::stable`), as `duration_ms` is.
    #[serde(skip_serializing_if = "Option::is_none")]
    request_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    duration_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cwd: Option<&'a str>,
    /// The configuration files the call read (`crate::parse::config_sources`), when it read one.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    config_sources: &'a [String],
    /// The caller's attempt number (`PAS_ATTEMPT`), echoed.
    #[serde(skip_serializing_if = "Option::is_none")]
    attempt: Option<u32>,
}

/// Whether the caller asked for the meta line.
pub(crate) fn wanted() -> bool {
    crate::parse::argv::env_enables(std::env::var_os(META_ENV).as_deref())
}

/// The meta line (with its newline) of a call of `tool` at `version` that started at
/// `started` and ends with `exit_code`.
pub(crate) fn line(tool: &str, version: &str, started: Instant, exit_code: u8) -> Vec<u8> {
    let call = crate::profile::call_meta::get(tool);
    let stable = crate::stable::on();
    let meta = Meta {
        ok: exit_code == 0,
        exit_code,
        version,
        request_id: (!stable).then_some(call.request_id.as_str()),
        trace_id: call.trace_id.as_deref(),
        duration_ms: (!stable)
            .then(|| u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)),
        cwd: call.cwd.as_deref(),
        config_sources: crate::parse::config_sources::get(),
        attempt: call.attempt,
    };
    let mut line = serde_json::to_vec(&serde_json::json!({ "meta": meta })).unwrap_or_default();
    line.push(b'\n');
    line
}
