//! The `pas` profile (PAS levels 1 and 2).
//!
//! Agent mode: raw data on stdout (one object; NDJSON for lists and events, or one JSON array
//! with `--format=array`; Markdown as is; a paged list's next cursor as one
//! `{"page":{"has_more","next_cursor","total"}}` line on stderr), and on failure one JSON line on stderr,
//! `{"error","message","code","suggestion","details","retryable","retry_after_ms"?,
//! "request_id"?,"trace_id"?}`, with the registry's exit code (`request_id` and `trace_id` on a
//! traced call only, so that an untraced error line is the same bytes for the same input).
//! Human mode: text for people, clap's own parse errors, and JSON only when `--format` asks.

use std::io::{self, IsTerminal, Write};
use std::sync::Arc;

use pas_spec::{OutputKind, Registry};
use serde::Serialize;
use serde_json::Value;

use super::{CallOptions, Profile, ProgressStyle};
use crate::codes;
use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::reply::human;
use crate::reply::{Encoding, Object, Page, StreamKind};
use crate::stdio::streams::Sinks;

pub(crate) struct PasProfile {
    registry: Arc<Registry>,
    agent: bool,
    options: CallOptions,
    /// Items written so far in `--format=array` (for the separators).
    array_items: u64,
    /// Where the list being written sits in the whole list (a paged command).
    page: Option<Page>,
    /// When the call started (the meta line's `duration_ms`).
    started: std::time::Instant,
    /// What the call changed, for the `{"effect"}` line at its end.
    effect: Option<crate::effect::Reported>,
}

/// The error line of PAS 7.1. `code` is the process exit status (as in the spec's Appendix A).
#[derive(Serialize)]
struct ErrorLine<'a> {
    error: &'a str,
    message: &'a str,
    code: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestion: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    details: Option<&'a Value>,
    /// Whether the same call may succeed if made again.
    retryable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_after_ms: Option<u64>,
    /// How to space retries and how many (retryable errors only; see `retry`).
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_strategy: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_retries: Option<u32>,
    /// When the caller gave a trace id (`PAS_TRACE_ID`): it, and this call's own id.
    #[serde(skip_serializing_if = "Option::is_none")]
    request_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace_id: Option<&'a str>,
}

impl PasProfile {
    pub(crate) fn new(registry: Arc<Registry>, agent: bool) -> Self {
        PasProfile {
            registry,
            agent,
            options: CallOptions::default(),
            array_items: 0,
            page: None,
            started: std::time::Instant::now(),
            effect: None,
        }
    }

    fn array(&self) -> bool {
        self.options.format.as_deref() == Some("array")
    }

    /// Machine encoding for data: agent mode, or a person who asked with `--format`.
    fn machine(&self) -> bool {
        self.agent || self.options.format.is_some()
    }
}

impl Profile for PasProfile {
    fn configure(&mut self, options: CallOptions) {
        self.options = options;
    }

    fn item_encoding(&self, kind: StreamKind) -> Encoding {
        match kind {
            StreamKind::List if self.machine() => Encoding::Json,
            StreamKind::Events if self.agent => Encoding::Json,
            _ => Encoding::Human,
        }
    }

    fn object(&mut self, sinks: &mut Sinks, object: &Object) -> io::Result<()> {
        let Ok(json) = &object.json else {
            return Ok(());
        };
        if self.machine() {
            let json = match &self.options.fields {
                Some(fields) => {
                    crate::parse::fields::object(json, self.options.list_field.as_deref(), fields)
                }
                None => json.as_slice().into(),
            };
            sinks.stdout.write(&json)?;
            sinks.stdout.write(b"\n")?;
        } else {
            let text = match &object.human {
                Some(text) => text.clone(),
                None => human::object_text(json)
                    .unwrap_or_else(|_| String::from_utf8_lossy(json).into_owned()),
            };
            sinks.stdout.write(text.as_bytes())?;
            if !text.ends_with('\n') {
                sinks.stdout.write(b"\n")?;
            }
        }
        sinks.stdout.end_line()
    }

    fn page(&mut self, page: &Page) {
        self.page = Some(page.clone());
    }

    fn stream_start(&mut self, sinks: &mut Sinks, kind: StreamKind) -> io::Result<()> {
        self.array_items = 0;
        if kind == StreamKind::List && self.array() {
            sinks.stdout.write(b"[")?;
            // An error or a signal that ends the call before `stream_end` still closes it.
            sinks.stdout.set_closing(b"]\n");
        }
        Ok(())
    }

    fn stream_item(&mut self, sinks: &mut Sinks, kind: StreamKind, item: &[u8]) -> io::Result<()> {
        let filtered;
        let item = match &self.options.fields {
            Some(fields) if kind == StreamKind::List && self.machine() => {
                filtered = crate::parse::fields::item(item, fields);
                &*filtered
            }
            _ => item,
        };
        if kind == StreamKind::List && self.array() {
            // The array is not streamable by its reader anyway: batch it, one flush at the end.
            if self.array_items > 0 {
                sinks.stdout.write(b",")?;
            }
            self.array_items += 1;
            return sinks.stdout.write(item);
        }
        sinks.stdout.write(item)?;
        sinks.stdout.write(b"\n")?;
        sinks.stdout.end_line()
    }

    fn plain_lines(&self, kind: StreamKind) -> bool {
        // Everything but an array is one line per item (see `stream_item`); `--fields` changes
        // each item, so it goes item by item.
        !(kind == StreamKind::List && (self.array() || self.options.fields.is_some()))
    }

    fn stream_end(
        &mut self,
        sinks: &mut Sinks,
        kind: StreamKind,
        complete: bool,
    ) -> io::Result<()> {
        // A page of a paged list: where the rest is, as one JSON line on stderr (stdout holds
        // the items only), so an agent can ask for the next page (failure mode 5).
        if let Some(page) = self.page.take().filter(|_| complete && self.agent) {
            let line = serde_json::json!({ "page": {
                "has_more": page.has_more,
                "next_cursor": page.next_cursor,
                "total": page.total,
            }});
            sinks.stderr.write_all(format!("{line}\n").as_bytes())?;
        }
        // A failed array is still closed: stdout stays valid JSON holding the partial results,
        // and the error on stderr (with a non-zero exit) says they are partial.
        if kind == StreamKind::List && self.array() {
            sinks.stdout.set_closing(b"");
            sinks.stdout.write(b"]\n")?;
            sinks.stdout.end_line()?;
        }
        Ok(())
    }

    fn document(&mut self, sinks: &mut Sinks, markdown: &str) -> io::Result<()> {
        sinks.stdout.write(markdown.as_bytes())?;
        if !markdown.is_empty() && !markdown.ends_with('\n') {
            sinks.stdout.write(b"\n")?;
        }
        sinks.stdout.end_line()
    }

    fn nothing(&mut self, _sinks: &mut Sinks) -> io::Result<()> {
        Ok(())
    }

    fn error(&mut self, sinks: &mut Sinks, error: &Error, exit: u8) -> io::Result<()> {
        let mut line = Vec::with_capacity(128);
        if self.agent {
            let trace_id = crate::profile::call_meta::trace(&self.registry.name);
            let record = ErrorLine {
                error: error.code(),
                message: error.message(),
                code: exit,
                suggestion: error.suggestion(),
                details: error.details(),
                retryable: error.retryable(),
                retry_after_ms: error.retry_after_ms(),
                retry_strategy: error.retry_strategy().map(|s| s.as_str()),
                max_retries: error.max_retries(),
                // Only a traced call: an untraced error line stays the same bytes for the
                // same input (the `pas` profile's determinism).
                request_id: trace_id.filter(|_| !crate::stable::on()).map(|_| {
                    crate::profile::call_meta::get(&self.registry.name)
                        .request_id
                        .as_str()
                }),
                trace_id,
            };
            serde_json::to_writer(&mut line, &record).map_err(io::Error::other)?;
            line.push(b'\n');
        } else {
            line.extend_from_slice(format!("error: {}\n", error.message()).as_bytes());
            if let Some(suggestion) = error.suggestion() {
                line.extend_from_slice(format!("hint: {suggestion}\n").as_bytes());
            }
        }
        // One write for the whole report, so it cannot interleave with another writer's bytes.
        sinks.stderr.write_all(&line)
    }

    fn parse_error(
        &mut self,
        sinks: &mut Sinks,
        clap_error: &clap::Error,
        error: &Error,
        redactor: &Redactor,
    ) -> io::Result<()> {
        if self.agent {
            let exit = self.exit_code(error);
            return self.error(sinks, error, exit);
        }
        // People keep clap's text; its colours only when nothing in it needs redacting.
        let plain = clap_error.to_string();
        let redacted = redactor.text(&plain);
        if redacted == plain {
            clap_error.print()
        } else {
            sinks.stderr.write_all(redacted.as_bytes())
        }
    }

    fn exit_code(&self, error: &Error) -> u8 {
        codes::exit_code(&self.registry, error.code())
    }

    fn help(&mut self, sinks: &mut Sinks, path: &[String]) -> io::Result<bool> {
        super::agent_help(self.agent, &self.registry, sinks, path)
    }

    fn progress_style(&self, output: OutputKind) -> ProgressStyle {
        if self.agent {
            if output == OutputKind::Events {
                ProgressStyle::Events
            } else {
                ProgressStyle::Silent
            }
        } else if io::stderr().is_terminal() {
            ProgressStyle::Bar
        } else {
            ProgressStyle::Silent
        }
    }

    fn warning(&mut self, sinks: &mut Sinks, warning: &crate::warning::Warning) -> io::Result<()> {
        let mut line = Vec::with_capacity(128);
        if self.agent {
            serde_json::to_writer(&mut line, &serde_json::json!({ "warning": warning }))
                .map_err(io::Error::other)?;
            line.push(b'\n');
        } else {
            line.extend_from_slice(format!("warning: {}\n", warning.message()).as_bytes());
        }
        sinks.stderr.write_all(&line)
    }

    fn effect(&mut self, effect: crate::effect::Reported) {
        self.effect = Some(effect);
    }

    fn call_end(&mut self, sinks: &mut Sinks, exit: u8) -> io::Result<()> {
        // What a successful call changed, one line on stderr (stdout keeps the data alone).
        if let Some(effect) = self.effect.filter(|_| self.agent && exit == 0) {
            let entries: serde_json::Map<String, Value> = effect
                .entries()
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect();
            let mut line = serde_json::to_vec(&entries).map_err(io::Error::other)?;
            line.push(b'\n');
            sinks.stderr.write_all(&line)?;
        }
        if !self.agent || !crate::profile::meta_line::wanted() {
            return Ok(());
        }
        let registry = &self.registry;
        let line =
            crate::profile::meta_line::line(&registry.name, &registry.version, self.started, exit);
        sinks.stderr.write_all(&line)
    }

    fn progress_event(&mut self, sinks: &mut Sinks, event: &[u8]) -> io::Result<()> {
        sinks.stdout.write(event)?;
        sinks.stdout.write(b"\n")?;
        sinks.stdout.end_line()
    }
}
