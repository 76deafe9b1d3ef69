//! The `compose` profile (the agent-native compose contract).
//!
//! Every call prints exactly one envelope line on stdout, machine output always on:
//!
//! - success: `{"ok":true,"data":...,"meta":{"tool","elapsed","count"?,"total"?,"hasMore"?,"cursor"?,
//!   "ok","exitCode","version","requestId","traceId"?,"cwd","warnings"?,"truncated"?,"totalBytes"?,"rest"?}}`
//! - failure: `{"ok":false,"error":{"code","message","hint","details"?,"retryable","retryAfterMs"?},
//!   "meta":{"tool","elapsed","ok","exitCode","version","requestId","traceId"?,"cwd"}}`
//!
//! `meta.requestId` is new on every call and `meta.traceId` echoes `PAS_TRACE_ID` (see
//! `call_meta`); with `elapsed` they are the fields that differ between two identical calls.
//!
//! `meta.tool` is the dotted command name (the tool's own name when argv named no command);
//! `meta.elapsed` is the wall time since start in whole milliseconds, so envelope bytes differ
//! between runs: compare envelopes with `elapsed` set aside. Lists carry `count`, `total` and
//! `hasMore`, and `cursor` when the handler gave the next page's cursor. Exit codes are 0, 1, or
//! 2 for the registry's `blocking` codes; argument errors are plain failures (1).
//!
//! Lists and events are buffered until their end: an envelope is one value, and a stream that
//! fails half-way must become an error envelope, not half a success. Compose lists are paged
//! (the spec's `paging`), so the buffer is one page.
//!
//! `--toon` (seen in argv before clap parses, so parse errors honour it too) encodes the same
//! envelope object as TOON with the `toon-format` crate.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Instant;

use pas_spec::{OutputKind, Registry};
use serde::Serialize;
use serde_json::Value;

use super::{CallOptions, Profile, ProgressStyle};
use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::reply::{Encoding, Object, Page, StreamKind};
use crate::stdio::streams::Sinks;

pub(crate) struct ComposeProfile {
    registry: Arc<Registry>,
    agent: bool,
    toon: bool,
    started: Instant,
    /// The dotted command name, once argv parsed.
    tool: Option<String>,
    page: Option<Page>,
    /// The stream's items so far, comma-separated compact JSON.
    items: Vec<u8>,
    count: u64,
    /// An envelope is on stdout already: anything after it goes to stderr only.
    written: bool,
    /// Warnings for `meta.warnings` (a deprecated command, a handler's).
    warnings: Vec<crate::warning::Warning>,
    /// The bytes of data kept when the output bound stopped a list, and the file holding the
    /// rest of its items.
    truncated: Option<(u64, Option<crate::guards::output_file::Pointer>)>,
    /// What the call changed (`meta.effect`, `meta.replayed`).
    effect: Option<crate::effect::Reported>,
    /// `--fields`, and the principal list of an object result (see `crate::parse::fields`).
    fields: Option<Vec<String>>,
    list_field: Option<String>,
}

/// `meta`, in the contract's key order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Meta<'a> {
    tool: &'a str,
    /// Left out with `--stable-output` (`crate::stable`), as `requestId` is.
    #[serde(skip_serializing_if = "Option::is_none")]
    elapsed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    has_more: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cursor: Option<&'a str>,
    /// Mirrors the envelope's `ok`, beside the exit status: a pipeline that loses the exit
    /// status (`tool | jq`) still sees the failure in the JSON.
    ok: bool,
    exit_code: u8,
    /// The tool's version.
    version: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    request_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace_id: Option<&'a str>,
    /// The absolute directory the call ran in (what relative paths in argv meant).
    #[serde(skip_serializing_if = "Option::is_none")]
    cwd: Option<&'a str>,
    /// The configuration files the call read (`crate::parse::config_sources`), when it read one.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    config_sources: &'a [String],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    warnings: &'a [crate::warning::Warning],
    /// The list stopped at the output bound, after `totalBytes` bytes of whole items; the
    /// rest of its items are in the file `rest` points at.
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rest: Option<&'a crate::guards::output_file::Pointer>,
    /// What a call that may change state changed: created, updated, deleted or noop.
    #[serde(skip_serializing_if = "Option::is_none")]
    effect: Option<&'static str>,
    /// The result is the replay of an earlier call with the same `--idempotency-key`.
    #[serde(skip_serializing_if = "Option::is_none")]
    replayed: Option<bool>,
    /// The caller's attempt number (`PAS_ATTEMPT`), echoed (failure mode 19).
    #[serde(skip_serializing_if = "Option::is_none")]
    attempt: Option<u32>,
    /// On a retryable error: how many attempts in all are worth making (`maxRetries` + 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    max_attempts: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ErrorBody<'a> {
    code: &'a str,
    message: &'a str,
    hint: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    details: Option<&'a Value>,
    retryable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_after_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_strategy: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_retries: Option<u32>,
}

#[derive(Serialize)]
struct ErrorEnvelope<'a> {
    ok: bool,
    error: ErrorBody<'a>,
    meta: Meta<'a>,
}

impl ComposeProfile {
    pub(crate) fn new(registry: Arc<Registry>, agent: bool, toon: bool) -> Self {
        ComposeProfile {
            registry,
            agent,
            toon,
            started: Instant::now(),
            tool: None,
            page: None,
            items: Vec::new(),
            count: 0,
            written: false,
            warnings: Vec::new(),
            truncated: None,
            effect: None,
            fields: None,
            list_field: None,
        }
    }

    /// `meta` of an envelope that ends the call with `exit_code` (0: success).
    fn meta(&self, exit_code: u8) -> Meta<'_> {
        let call = crate::profile::call_meta::get(&self.registry.name);
        Meta {
            ok: exit_code == 0,
            exit_code,
            version: &self.registry.version,
            request_id: (!crate::stable::on()).then_some(call.request_id.as_str()),
            trace_id: call.trace_id.as_deref(),
            cwd: call.cwd.as_deref(),
            config_sources: crate::parse::config_sources::get(),
            warnings: &self.warnings,
            truncated: self.truncated.as_ref().map(|_| true),
            total_bytes: self.truncated.as_ref().map(|(kept, _)| *kept),
            rest: self.truncated.as_ref().and_then(|(_, rest)| rest.as_ref()),
            effect: self
                .effect
                .filter(|_| exit_code == 0)
                .map(|e| e.change.as_str()),
            replayed: self
                .effect
                .filter(|e| e.replayed && exit_code == 0)
                .map(|_| true),
            attempt: call.attempt,
            max_attempts: None,
            tool: self.tool.as_deref().unwrap_or(&self.registry.name),
            elapsed: (!crate::stable::on())
                .then(|| u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)),
            count: None,
            total: None,
            has_more: None,
            cursor: None,
        }
    }

    /// A success envelope around `data` (compact JSON), with list fields when `list`.
    fn success(&mut self, sinks: &mut Sinks, data: &[u8], list: bool) -> io::Result<()> {
        let mut meta = self.meta(0);
        if list {
            let page = self.page.as_ref();
            meta.count = Some(self.count);
            meta.total = Some(page.and_then(|p| p.total).unwrap_or(self.count));
            meta.has_more = Some(page.is_some_and(|p| p.has_more));
            meta.cursor = page.and_then(|p| p.next_cursor.as_deref());
        }
        let mut line = Vec::with_capacity(data.len() + 96);
        line.extend_from_slice(b"{\"ok\":true,\"data\":");
        line.extend_from_slice(data);
        line.extend_from_slice(b",\"meta\":");
        serde_json::to_writer(&mut line, &meta).map_err(io::Error::other)?;
        line.push(b'}');
        self.emit(sinks, line)
    }

    /// Writes one envelope (compact JSON) as a line, re-encoded as TOON when asked.
    fn emit(&mut self, sinks: &mut Sinks, json: Vec<u8>) -> io::Result<()> {
        let mut line = if self.toon { to_toon(&json)? } else { json };
        line.push(b'\n');
        self.written = true;
        sinks.stdout.write(&line)?;
        sinks.stdout.end_line()
    }
}

/// The same envelope object as TOON.
fn to_toon(json: &[u8]) -> io::Result<Vec<u8>> {
    let value: Value = serde_json::from_slice(json).map_err(io::Error::other)?;
    toon_format::encode_default(&value)
        .map(String::into_bytes)
        .map_err(|e| io::Error::other(format!("cannot encode the envelope as TOON: {e}")))
}

impl Profile for ComposeProfile {
    fn configure(&mut self, options: CallOptions) {
        if let Some(command) = options.command {
            self.tool = Some(command);
        }
        self.fields = options.fields;
        self.list_field = options.list_field;
    }

    fn item_encoding(&self, _kind: StreamKind) -> Encoding {
        Encoding::Json
    }

    fn page(&mut self, page: &Page) {
        self.page = Some(page.clone());
    }

    fn object(&mut self, sinks: &mut Sinks, object: &Object) -> io::Result<()> {
        match &object.json {
            Ok(json) => match self.fields.take() {
                Some(fields) => {
                    let json =
                        crate::parse::fields::object(json, self.list_field.as_deref(), &fields);
                    self.success(sinks, &json, false)
                }
                None => self.success(sinks, json, false),
            },
            Err(_) => Ok(()),
        }
    }

    fn stream_start(&mut self, _sinks: &mut Sinks, _kind: StreamKind) -> io::Result<()> {
        self.items.clear();
        self.count = 0;
        Ok(())
    }

    fn stream_item(&mut self, _sinks: &mut Sinks, kind: StreamKind, item: &[u8]) -> io::Result<()> {
        if self.count > 0 {
            self.items.push(b',');
        }
        match &self.fields {
            Some(fields) if kind == StreamKind::List => {
                self.items
                    .extend_from_slice(&crate::parse::fields::item(item, fields));
            }
            _ => self.items.extend_from_slice(item),
        }
        self.count += 1;
        Ok(())
    }

    fn stream_end(
        &mut self,
        sinks: &mut Sinks,
        kind: StreamKind,
        complete: bool,
    ) -> io::Result<()> {
        if !complete {
            // The error envelope replaces the partial list.
            return Ok(());
        }
        let items = std::mem::take(&mut self.items);
        let mut data = Vec::with_capacity(items.len() + 2);
        data.push(b'[');
        data.extend_from_slice(&items);
        data.push(b']');
        self.success(sinks, &data, kind == StreamKind::List)
    }

    fn document(&mut self, sinks: &mut Sinks, markdown: &str) -> io::Result<()> {
        let data = serde_json::to_vec(markdown).map_err(io::Error::other)?;
        self.success(sinks, &data, false)
    }

    fn nothing(&mut self, sinks: &mut Sinks) -> io::Result<()> {
        self.success(sinks, b"null", false)
    }

    fn error(&mut self, sinks: &mut Sinks, error: &Error, exit: u8) -> io::Result<()> {
        if self.written {
            // stdout holds its one envelope already (e.g. the flush after it failed): log only.
            let line = format!("error: {}: {}\n", error.code(), error.message());
            return sinks.stderr.write_all(line.as_bytes());
        }
        let fallback;
        let hint = match error.suggestion() {
            Some(hint) => hint,
            None => {
                fallback = format!(
                    "run `{} tools` for every command and its parameters",
                    self.registry.name
                );
                &fallback
            }
        };
        let envelope = ErrorEnvelope {
            ok: false,
            error: ErrorBody {
                code: error.code(),
                message: error.message(),
                hint,
                details: error.details(),
                retryable: error.retryable(),
                retry_after_ms: error.retry_after_ms(),
                retry_strategy: error.retry_strategy().map(|s| s.as_str()),
                max_retries: error.max_retries(),
            },
            meta: Meta {
                max_attempts: error.max_retries().map(|n| n.saturating_add(1)),
                ..self.meta(exit)
            },
        };
        let json = serde_json::to_vec(&envelope).map_err(io::Error::other)?;
        match self.emit(sinks, json.clone()) {
            Err(err) if self.toon && err.kind() == io::ErrorKind::Other => {
                // TOON could not encode it: the JSON envelope is better than none.
                self.toon = false;
                self.emit(sinks, json)
            }
            other => other,
        }?;
        sinks.stdout.flush()
    }

    fn parse_error(
        &mut self,
        sinks: &mut Sinks,
        _clap_error: &clap::Error,
        error: &Error,
        _redactor: &Redactor,
    ) -> io::Result<()> {
        let exit = self.exit_code(error);
        // The runtime's generic hint points at `--agent --help`; in compose the catalog is the
        // contract's discovery surface, so point there (did-you-mean hints stay).
        if error.suggestion().is_some_and(|s| s.starts_with("see `")) {
            let hint = format!(
                "run `{} tools` for every command and its parameters",
                self.registry.name
            );
            let error = error.clone().with_suggestion(hint);
            return self.error(sinks, &error, exit);
        }
        self.error(sinks, error, exit)
    }

    fn exit_code(&self, error: &Error) -> u8 {
        // The surface table maps each constant to 1, or 2 when blocking (a broken configuration
        // file is a blocked prerequisite in every compose tool): the faces document that table.
        pas_spec::surface::COMPOSE.exit_of(&self.registry, error.code())
    }

    fn help(&mut self, sinks: &mut Sinks, path: &[String]) -> io::Result<bool> {
        super::agent_help(self.agent, &self.registry, sinks, path)
    }

    fn progress_style(&self, _output: OutputKind) -> ProgressStyle {
        // stdout is the envelope's alone, and a bar on stderr is noise to an agent.
        ProgressStyle::Silent
    }

    fn progress_event(&mut self, _sinks: &mut Sinks, _event: &[u8]) -> io::Result<()> {
        Ok(())
    }

    fn warning(&mut self, _sinks: &mut Sinks, warning: &crate::warning::Warning) -> io::Result<()> {
        self.warnings.push(warning.clone());
        Ok(())
    }

    fn truncated(&mut self, kept: u64, rest: Option<&crate::guards::output_file::Pointer>) {
        self.truncated = Some((kept, rest.cloned()));
    }

    fn effect(&mut self, effect: crate::effect::Reported) {
        self.effect = Some(effect);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toon_encodes_the_same_object() {
        let json = br#"{"ok":true,"data":[{"id":1,"title":"a"}],"meta":{"tool":"t","elapsed":0}}"#;
        let toon = String::from_utf8(to_toon(json).unwrap()).unwrap();
        let back: Value = toon_format::decode_default(&toon).unwrap();
        assert_eq!(back, serde_json::from_slice::<Value>(json).unwrap());
    }
}
