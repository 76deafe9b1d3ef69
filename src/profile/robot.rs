//! The `robot` profile (the robot agent CLI contract, sections 3, 8 and 11).
//!
//! Every call, success or error, prints exactly one envelope on stdout, machine output always:
//! `{"$schema"?, "schema_version", "session_id"?, "generated_at", "host_id", "command",
//! "duration_ms", "status", "resumed"?, "resume_context"?, "warnings", "data" | "error"}`.
//! `status` is `success`, `partial` (the handler reported a non-success code such as
//! `ERR_PARTIAL` with data) or `error`, whose `error` is
//! `{code, message, details, recoverable, suggestion, documentation_url}`.
//!
//! Exit codes are the spec's named table: a handler picks the success it reached
//! ([`crate::handler::context::Context::outcome`]); argument errors (clap's, `--fields`), panics and signals exit
//! with the codes whose `role` is `arguments`, `internal` and `interrupted`, so a parse error
//! can never exit with a number the table gives to a success.
//!
//! A list streams into its envelope: the fields known at the start, then `"data":[` and each
//! item as it comes (`--fields`/`--compact` applied item by item), then the fields known only at
//! the end (`duration_ms`, `status`, `resume_context`, `warnings`): JSON objects are unordered
//! (the seed's 3.1 table names the fields, not their order), so one envelope per call costs no
//! buffer of the list. A list that fails half-way ends the same envelope with `status: error`
//! and `error`, `data` holding the whole items written before it. `--format md` needs the whole
//! value, so it buffers. An object's `data` is written as the handler's bytes unless a token
//! control (`--fields`, `--compact`, `--include-prose`) or a gate report needs it as a value.

pub(crate) mod gates;
pub(crate) mod markdown;

use std::ffi::OsString;
use std::io::{self, Write};
use std::sync::Arc;
use std::time::SystemTime;

use pas_spec::robot::ExitRole;
use pas_spec::{OutputKind, Registry};
use serde_json::{Map, Value};

use super::{CallOptions, Profile, ProgressStyle};
use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::profile::robot_state::CallState;
use crate::reply::{Encoding, Object, StreamKind};
use crate::stdio::streams::Sinks;

pub(crate) struct RobotProfile {
    registry: Arc<Registry>,
    agent: bool,
    state: CallState,
    /// The dotted command name, once argv parsed.
    command: Option<String>,
    /// `--format md` seen in argv before clap parsed (so parse errors honour it too).
    markdown_argv: bool,
    /// `--format md` only: the list, buffered (Markdown renders the whole value).
    items: Vec<u8>,
    count: u64,
    /// A list streams into an envelope whose head (and `"data":[`) is on stdout: its end (or
    /// the error) closes it.
    streaming: bool,
    /// The `--fields`/`--compact` filter of a streamed list's items (read once at its start).
    item_filter: Option<(Option<Vec<String>>, Vec<String>)>,
    /// An envelope is on stdout already: anything after it goes to stderr only.
    written: bool,
    /// What the call changed: the envelope's `effect` and `replayed` on success.
    effect: Option<crate::effect::Reported>,
}

/// Whether argv asks for Markdown (before `--`).
fn wants_markdown(argv: &[OsString]) -> bool {
    let words: Vec<&[u8]> = argv
        .iter()
        .skip(1)
        .map(|a| a.as_encoded_bytes())
        .take_while(|a| *a != b"--")
        .collect();
    words
        .windows(2)
        .any(|w| w[0] == b"--format" && w[1] == b"md")
        || words.contains(&b"--format=md".as_slice())
}

impl RobotProfile {
    pub(crate) fn new(registry: Arc<Registry>, agent: bool, argv: &[OsString]) -> Self {
        RobotProfile {
            registry,
            agent,
            state: CallState::new(),
            command: None,
            markdown_argv: wants_markdown(argv),
            items: Vec::new(),
            count: 0,
            streaming: false,
            item_filter: None,
            written: false,
            effect: None,
        }
    }

    /// The constant, exit status and role an error is reported with.
    fn classify(&self, error: &Error) -> (String, u8, Option<ExitRole>) {
        let name = error.code();
        if let Some(declared) = self.registry.exit_codes.iter().find(|c| c.name == name) {
            return (
                declared.name.clone(),
                u8::try_from(declared.code).unwrap_or(1),
                declared.role,
            );
        }
        // `job status`'s states keep their own exit codes (failure mode 49).
        if let Some(job) = pas_spec::builtin_codes::JOB_CODES
            .iter()
            .find(|b| b.name == name)
        {
            return (name.to_owned(), job.exit, None);
        }
        let Some(role) = pas_spec::robot::builtin_role(name) else {
            // A constant the table does not name (a scaffold stub's NOT_IMPLEMENTED): the
            // handler's own word stays, and the call exits with the internal code.
            let (_, code) = self.registry.role_code(ExitRole::Internal);
            return (name.to_owned(), code, Some(ExitRole::Internal));
        };
        let (name, code) = self.registry.role_code(role);
        (name, code, Some(role))
    }

    /// A batch of lines (`batch[1..]`, see [`Profile::stream_lines`]) made, in place, into the
    /// next items of the envelope's `data` array: each newline becomes the comma before the
    /// next item (found with SIMD: on a long list this scan is most of what the envelope costs
    /// over plain lines), and the spare byte `batch[0]` the comma after the items already
    /// written. Returns the range to write, empty when the batch holds no item. An empty line
    /// is no item: the items after it move down over it (never in practice: the render loop
    /// only hands over whole lines of JSON, which are never empty). A last line without its
    /// newline is an item all the same.
    fn joined(&mut self, batch: &mut [u8]) -> std::ops::Range<usize> {
        // `end` is where the next byte of the joined items goes; with no empty line it trails
        // the scan by one byte at most, and nothing moves.
        let (mut items, mut end, mut line_start) = (0u64, 1usize, 1usize);
        while line_start < batch.len() {
            let line_end = memchr::memchr(b'\n', &batch[line_start..])
                .map_or(batch.len(), |at| line_start + at);
            if line_end > line_start {
                if items > 0 {
                    batch[end] = b',';
                    end += 1;
                }
                if end != line_start {
                    batch.copy_within(line_start..line_end, end);
                }
                end += line_end - line_start;
                items += 1;
            }
            line_start = line_end + 1;
        }
        if items == 0 {
            return 1..1;
        }
        let start = if self.count > 0 {
            batch[0] = b',';
            0
        } else {
            1
        };
        self.count += items;
        start..end
    }

    fn head(&self, status: &str) -> Map<String, Value> {
        let mut head = self.head_start();
        head.extend(self.head_end(status));
        head
    }

    /// The envelope's fields known when the call starts.
    fn head_start(&self) -> Map<String, Value> {
        let call = self.state.lock();
        let mut head = Map::new();
        let robot = self.registry.robot.as_ref();
        if let Some(url) = robot.and_then(|r| r.schema_url.as_ref()) {
            head.insert("$schema".into(), Value::from(url.clone()));
        }
        let version = self
            .registry
            .schema_version
            .clone()
            .unwrap_or_else(|| self.registry.version.clone());
        head.insert("schema_version".into(), Value::from(version));
        if let Some(session) = &call.session {
            head.insert("session_id".into(), Value::from(session.id()));
        }
        head.insert(
            "generated_at".into(),
            // `--stable-output` fixes it (`crate::stable`): the contract requires the key.
            Value::from(match crate::stable::on() {
                true => crate::stable::FIXED_TIME.to_owned(),
                false => crate::time::rfc3339_millis(SystemTime::now()),
            }),
        );
        head.insert(
            "host_id".into(),
            Value::from(host_id(robot.is_some_and(|r| r.privacy))),
        );
        head.insert(
            "command".into(),
            Value::from(
                self.command
                    .clone()
                    .unwrap_or_else(|| self.registry.name.clone()),
            ),
        );
        head
    }

    /// The envelope's fields known only when the call ends.
    fn head_end(&self, status: &str) -> Map<String, Value> {
        let call = self.state.lock();
        let mut head = Map::new();
        let elapsed = call
            .started
            .filter(|_| !crate::stable::on())
            .map(|s| s.elapsed().as_millis())
            .unwrap_or(0);
        head.insert(
            "duration_ms".into(),
            Value::from(u64::try_from(elapsed).unwrap_or(u64::MAX)),
        );
        head.insert("status".into(), Value::from(status));
        // A retrying caller's attempt number (`PAS_ATTEMPT`), echoed (failure mode 19).
        if let Some(attempt) = crate::parse::env_values::attempt(crate::retry::ATTEMPT_ENV) {
            head.insert("attempt".into(), Value::from(attempt));
        }
        if let Some(effect) = self.effect.filter(|_| status != "error") {
            for (key, value) in effect.entries() {
                head.insert(key.into(), value);
            }
        }
        if let Some(context) = call.session.as_ref().and_then(|s| s.resume_context()) {
            head.insert("resumed".into(), Value::Bool(true));
            head.insert("resume_context".into(), context);
        }
        let warnings = serde_json::to_value(&call.warnings).unwrap_or(Value::Array(Vec::new()));
        head.insert("warnings".into(), warnings);
        head
    }

    /// The status a success (or partial) ends with: what the handler's outcome says.
    fn success_status(&self) -> &'static str {
        let call = self.state.lock();
        match &call.outcome {
            Some(name) => match self.registry.exit_codes.iter().find(|c| &c.name == name) {
                Some(code) if code.success || u8::try_from(code.code) == Ok(0) => "success",
                Some(_) => "partial",
                None => "success",
            },
            None => "success",
        }
    }

    /// `,"k":v,...}` and a newline: the end of a streamed envelope, after its `data`.
    fn tail(fields: Map<String, Value>) -> io::Result<Vec<u8>> {
        let mut bytes = serde_json::to_vec(&fields).map_err(io::Error::other)?;
        // `{...}` becomes `,...}`: the object continues the envelope.
        if bytes.len() > 2 {
            bytes[0] = b',';
        } else {
            bytes.remove(0);
        }
        bytes.push(b'\n');
        Ok(bytes)
    }

    /// One item into a streamed envelope (`--fields`/`--compact` applied to it).
    fn write_item(&mut self, sinks: &mut Sinks, item: &[u8]) -> io::Result<()> {
        if self.count > 0 {
            sinks.stdout.write(b",")?;
        }
        self.count += 1;
        match &self.item_filter {
            None => sinks.stdout.write(item),
            Some((fields, omit)) => {
                let mut value: Value = serde_json::from_slice(item).map_err(io::Error::other)?;
                crate::parse::fields::filter_item(&mut value, fields.as_deref(), omit);
                let bytes = serde_json::to_vec(&value).map_err(io::Error::other)?;
                sinks.stdout.write(&bytes)
            }
        }
    }

    fn markdown(&self) -> bool {
        self.markdown_argv || self.state.lock().options.markdown
    }

    /// A success (or partial) envelope around `data` (compact JSON).
    fn success(&mut self, sinks: &mut Sinks, data: &[u8]) -> io::Result<()> {
        let status = self.success_status();
        let transformed = self.transform(data)?;
        let head = self.head(status);
        if self.markdown() {
            let mut envelope = head;
            let data = match transformed {
                Some(value) => value,
                None => serde_json::from_slice(data).map_err(io::Error::other)?,
            };
            envelope.insert("data".into(), data);
            let list_field = self.state.lock().options.list_field.clone();
            let text = markdown::render(&Value::Object(envelope), list_field.as_deref());
            return self.emit(sinks, text.into_bytes());
        }
        let mut line = serde_json::to_vec(&head).map_err(io::Error::other)?;
        line.pop();
        line.extend_from_slice(b",\"data\":");
        match transformed {
            Some(value) => serde_json::to_writer(&mut line, &value).map_err(io::Error::other)?,
            None => line.extend_from_slice(data),
        }
        line.extend_from_slice(b"}\n");
        self.emit(sinks, line)
    }

    /// `data` with the token controls, prose and gates applied, or `None` when nothing asks.
    fn transform(&self, data: &[u8]) -> io::Result<Option<Value>> {
        let call = self.state.lock();
        let options = &call.options;
        let prose = options.prose.and(call.prose.clone());
        let gates = gates::rendered(&call.gates);
        let filter = options.fields.is_some() || options.compact;
        if !filter && prose.is_none() && gates.is_none() {
            return Ok(None);
        }
        let mut value: Value = serde_json::from_slice(data).map_err(io::Error::other)?;
        if filter {
            let omit: &[String] = if options.compact {
                &options.compact_omit
            } else {
                &[]
            };
            let fields = options.fields.as_deref();
            let list = match (&mut value, &options.list_field) {
                (Value::Array(items), _) => Some(items),
                (Value::Object(map), Some(field)) => match map.get_mut(field) {
                    Some(Value::Array(items)) => Some(items),
                    _ => None,
                },
                _ => None,
            };
            if let Some(items) = list {
                for item in items {
                    crate::parse::fields::filter_item(item, fields, omit);
                }
            }
            if let Value::Object(map) = &mut value {
                for key in omit {
                    map.remove(key);
                }
            }
        }
        if let Value::Object(map) = &mut value {
            if let Some(gates) = gates {
                // Where the spec keeps them (`gatesAt: plan`: data.plan.safety_gates, robot
                // 5.2), else at data's top.
                let at = self
                    .registry
                    .robot
                    .as_ref()
                    .and_then(|r| r.gates_at.as_ref());
                match at.and_then(|field| map.get_mut(field)) {
                    Some(Value::Object(inner)) => {
                        inner.insert("safety_gates".into(), gates);
                    }
                    _ => {
                        map.insert("safety_gates".into(), gates);
                    }
                }
            }
            if let Some(prose) = prose {
                map.insert("prose_summary".into(), Value::from(prose));
            }
        }
        Ok(Some(value))
    }

    fn emit(&mut self, sinks: &mut Sinks, mut line: Vec<u8>) -> io::Result<()> {
        if !line.ends_with(b"\n") {
            line.push(b'\n');
        }
        self.written = true;
        sinks.stdout.write(&line)?;
        sinks.stdout.end_line()
    }
}

/// The host name, or the first 16 hex digits of its SHA-256 in privacy mode.
fn host_id(privacy: bool) -> String {
    let name = host_name();
    if !privacy {
        return name;
    }
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(name.as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

#[cfg(unix)]
fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the pointer and length describe `buf`, which gethostname(2) writes at most
    // `len` bytes into; the result is read only up to its first NUL (or the whole buffer).
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return "unknown".to_owned();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

#[cfg(not(unix))]
fn host_name() -> String {
    std::env::var("COMPUTERNAME").unwrap_or_else(|_| "unknown".to_owned())
}

impl Profile for RobotProfile {
    fn effect(&mut self, effect: crate::effect::Reported) {
        self.effect = Some(effect);
    }

    fn configure(&mut self, options: CallOptions) {
        if let Some(command) = options.command {
            self.command = Some(command);
        }
    }

    fn robot_state(&self) -> Option<CallState> {
        Some(self.state.clone())
    }

    fn envelope_data(&self, data: Value) -> Value {
        let transformed = serde_json::to_vec(&data)
            .ok()
            .and_then(|bytes| self.transform(&bytes).ok().flatten());
        transformed.unwrap_or(data)
    }

    fn envelope_error(&self, error: Error) -> Error {
        let (name, _, _) = self.classify(&error);
        if name == error.code() {
            return error;
        }
        // As `error` writes it: the role's code, the precise constant in `details.kind`.
        let mut details = error.details().cloned().unwrap_or(Value::Null);
        match &mut details {
            Value::Object(map) => {
                map.insert("kind".into(), Value::from(error.code()));
            }
            _ => details = serde_json::json!({ "kind": error.code() }),
        }
        let mut reported = Error::new(name, error.message()).with_details(details);
        if let Some(suggestion) = error.suggestion() {
            reported = reported.with_suggestion(suggestion);
        }
        reported
    }

    fn success_exit(&self) -> u8 {
        let call = self.state.lock();
        call.outcome
            .as_ref()
            .and_then(|name| self.registry.exit_codes.iter().find(|c| &c.name == name))
            .and_then(|c| u8::try_from(c.code).ok())
            .unwrap_or(0)
    }

    fn item_encoding(&self, _kind: StreamKind) -> Encoding {
        Encoding::Json
    }

    fn object(&mut self, sinks: &mut Sinks, object: &Object) -> io::Result<()> {
        match &object.json {
            Ok(json) => self.success(sinks, json),
            Err(_) => Ok(()),
        }
    }

    fn stream_start(&mut self, sinks: &mut Sinks, _kind: StreamKind) -> io::Result<()> {
        self.items.clear();
        self.count = 0;
        if self.markdown() {
            // Markdown renders the whole value: buffered.
            self.items.push(b'[');
            return Ok(());
        }
        // The head now, the items as they come, the fields known at the end last.
        let mut head = serde_json::to_vec(&self.head_start()).map_err(io::Error::other)?;
        head.pop();
        head.extend_from_slice(b",\"data\":[");
        self.item_filter = {
            let call = self.state.lock();
            let options = &call.options;
            (options.fields.is_some() || options.compact).then(|| {
                let omit = if options.compact {
                    options.compact_omit.clone()
                } else {
                    Vec::new()
                };
                (options.fields.clone(), omit)
            })
        };
        self.streaming = true;
        self.written = true;
        sinks.stdout.write(&head)
    }

    fn stream_item(&mut self, sinks: &mut Sinks, _kind: StreamKind, item: &[u8]) -> io::Result<()> {
        if self.streaming {
            return self.write_item(sinks, item);
        }
        if self.count > 0 {
            self.items.push(b',');
        }
        self.items.extend_from_slice(item);
        self.count += 1;
        Ok(())
    }

    fn plain_lines(&self, _kind: StreamKind) -> bool {
        // Taking items a batch at a time saves a lock and a profile call per item.
        true
    }

    fn stream_lines(
        &mut self,
        sinks: &mut Sinks,
        kind: StreamKind,
        batch: &mut [u8],
    ) -> io::Result<()> {
        // Whole lines of compact JSON, which never holds a raw newline: each ends one item.
        if self.streaming && self.item_filter.is_none() {
            let joined = self.joined(batch);
            return sinks.stdout.write(&batch[joined]);
        }
        for item in batch[1..].split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            self.stream_item(sinks, kind, item)?;
        }
        Ok(())
    }

    fn stream_end(
        &mut self,
        sinks: &mut Sinks,
        _kind: StreamKind,
        complete: bool,
    ) -> io::Result<()> {
        if !complete {
            // `error` ends the envelope (streamed) or replaces the buffered list.
            return Ok(());
        }
        if self.streaming {
            self.streaming = false;
            let mut end = b"]".to_vec();
            end.extend(Self::tail(self.head_end(self.success_status()))?);
            sinks.stdout.write(&end)?;
            return sinks.stdout.end_line();
        }
        let mut items = std::mem::take(&mut self.items);
        items.push(b']');
        self.success(sinks, &items)
    }

    fn document(&mut self, sinks: &mut Sinks, markdown: &str) -> io::Result<()> {
        let data = serde_json::to_vec(markdown).map_err(io::Error::other)?;
        self.success(sinks, &data)
    }

    fn nothing(&mut self, sinks: &mut Sinks) -> io::Result<()> {
        self.success(sinks, b"null")
    }

    fn error(&mut self, sinks: &mut Sinks, error: &Error, _exit: u8) -> io::Result<()> {
        let (name, _, role) = self.classify(error);
        if role == Some(ExitRole::Interrupted) {
            // The session (if any) is left resumable with what completed so far.
            let session = self.state.lock().session.clone();
            if let Some(session) = session {
                session.interrupt();
            }
        } else if !self.written {
            // A call that created its session and failed before using it leaves nothing
            // behind, and its envelope names no session.
            let session = self.state.lock().session.clone();
            if session.is_some_and(|s| s.discard_if_unused()) {
                self.state.lock().session = None;
            }
        }
        if self.written && !self.streaming {
            let line = format!("error: {}: {}\n", error.code(), error.message());
            return sinks.stderr.write_all(line.as_bytes());
        }
        let recoverable = match error.details().and_then(|d| d.get("recoverable")) {
            Some(Value::Bool(b)) => *b,
            // A job still running is no failure: poll again.
            _ if error.code() == pas_spec::builtin_codes::JOB_RUNNING => true,
            _ => matches!(
                role,
                Some(
                    ExitRole::Arguments
                        | ExitRole::Confirmation
                        | ExitRole::Interrupted
                        | ExitRole::Lock
                        | ExitRole::Blocked
                        | ExitRole::Partial
                        | ExitRole::Io
                )
            ),
        };
        let mut details = error.details().cloned().unwrap_or(Value::Null);
        if name != error.code() {
            // The precise constant (e.g. clap's UNKNOWN_ARGUMENT) stays visible.
            match &mut details {
                Value::Object(map) => {
                    map.insert("kind".into(), Value::from(error.code()));
                }
                _ => details = serde_json::json!({ "kind": error.code() }),
            }
        }
        let docs = self
            .registry
            .robot
            .as_ref()
            .and_then(|r| r.error_docs.as_ref())
            .map(|base| format!("{base}{name}"));
        let body = serde_json::json!({
            "code": name,
            "message": error.message(),
            "details": details,
            "recoverable": recoverable,
            "suggestion": error.suggestion(),
            "documentation_url": docs,
        });
        let mut body = body;
        // Every error says whether the same call may succeed again, and when (issue 17).
        body["retryable"] = Value::Bool(error.retryable());
        if let Some(after) = error.retry_after_ms() {
            body["retry_after_ms"] = Value::from(after);
        }
        if let Some(strategy) = error.retry_strategy() {
            body["retry_strategy"] = Value::from(strategy.as_str());
        }
        if let Some(retries) = error.max_retries() {
            body["max_retries"] = Value::from(retries);
        }
        if self.streaming {
            // The list's envelope ends as an error: the whole items written stay in `data`.
            self.streaming = false;
            let mut end = self.head_end("error");
            end.insert("error".into(), body);
            let mut bytes = b"]".to_vec();
            bytes.extend(Self::tail(end)?);
            sinks.stdout.write(&bytes)?;
            sinks.stdout.end_line()?;
            return sinks.stdout.flush();
        }
        let mut envelope = self.head("error");
        envelope.insert("error".into(), body);
        let line = if self.markdown() {
            let list_field = self.state.lock().options.list_field.clone();
            markdown::render(&Value::Object(envelope), list_field.as_deref()).into_bytes()
        } else {
            let mut line = serde_json::to_vec(&envelope).map_err(io::Error::other)?;
            line.push(b'\n');
            line
        };
        self.emit(sinks, line)?;
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
        self.error(sinks, error, exit)
    }

    fn exit_code(&self, error: &Error) -> u8 {
        self.classify(error).1
    }

    fn help(&mut self, sinks: &mut Sinks, path: &[String]) -> io::Result<bool> {
        super::agent_help(self.agent, &self.registry, sinks, path)
    }

    fn progress_style(&self, _output: OutputKind) -> ProgressStyle {
        // stdout is the envelope's alone.
        ProgressStyle::Silent
    }

    fn progress_event(&mut self, _sinks: &mut Sinks, _event: &[u8]) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes;

    #[test]
    fn markdown_is_seen_in_argv_before_double_dash() {
        let argv = |w: &[&str]| w.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(wants_markdown(&argv(&["t", "plan", "--format", "md"])));
        assert!(wants_markdown(&argv(&["t", "--format=md", "plan"])));
        assert!(!wants_markdown(&argv(&["t", "--", "--format", "md"])));
        assert!(!wants_markdown(&argv(&["t", "--format", "json"])));
    }

    fn profile() -> RobotProfile {
        let registry: Registry = serde_json::from_value(serde_json::json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "s", "profile": "robot",
            "exitCodes": [
                {"code": 1, "name": "OK_CANDIDATES", "meaning": "m", "success": true},
                {"code": 2, "name": "OK_APPLIED", "meaning": "m", "success": true},
                {"code": 6, "name": "ERR_INTERRUPTED", "meaning": "m", "role": "interrupted"},
                {"code": 10, "name": "ERR_ARGS", "meaning": "m", "role": "arguments"},
                {"code": 20, "name": "ERR_INTERNAL", "meaning": "m", "role": "internal"}
            ],
            "commands": [{"name": "plan", "description": "d"}]
        }))
        .unwrap();
        RobotProfile::new(Arc::new(registry), false, &[])
    }

    /// Batches of lines join, in place, into one `data` array across batches: the spare first
    /// byte becomes the comma after the items already written, an empty line is no item, and a
    /// last line without its newline is an item.
    #[test]
    fn batches_of_lines_join_into_the_data_array() {
        let mut profile = profile();
        let mut join = |lines: &[u8]| {
            let mut batch = vec![b'\n'];
            batch.extend_from_slice(lines);
            let range = profile.joined(&mut batch);
            String::from_utf8(batch[range].to_vec()).unwrap()
        };
        assert_eq!(join(b"{\"a\":1}\n{\"a\":2}\n"), r#"{"a":1},{"a":2}"#);
        assert_eq!(join(b"{\"a\":3}\n"), r#",{"a":3}"#);
        assert_eq!(join(b"\n{\"a\":4}\n\n\n{\"a\":5}\n"), r#",{"a":4},{"a":5}"#);
        assert_eq!(join(b"{\"a\":6}\n{\"a\":7}"), r#",{"a":6},{"a":7}"#);
        assert_eq!(join(b""), "");
        assert_eq!(join(b"\n\n"), "");
        assert_eq!(profile.count, 7);
    }

    /// Parse errors, panics and signals exit with their roles' codes, never a success's.
    #[test]
    fn runtime_errors_take_their_roles_codes() {
        let profile = profile();
        let code = |constant: &'static str| {
            let (name, code, _) = profile.classify(&Error::new(constant, "m"));
            (name, code)
        };
        for parse in [
            codes::UNKNOWN_ARGUMENT,
            codes::MISSING_COMMAND,
            codes::INVALID_VALUE,
        ] {
            assert_eq!(code(parse), ("ERR_ARGS".to_owned(), 10));
        }
        // A panic is INTERNAL_ERROR (see panics.rs).
        assert_eq!(code(codes::INTERNAL_ERROR), ("ERR_INTERNAL".to_owned(), 20));
        assert_eq!(code(codes::INTERRUPTED), ("ERR_INTERRUPTED".to_owned(), 6));
        assert_eq!(code(codes::TERMINATED), ("ERR_INTERRUPTED".to_owned(), 6));
        assert_eq!(code("OK_APPLIED"), ("OK_APPLIED".to_owned(), 2));
        assert_eq!(code("NOT_IMPLEMENTED"), ("NOT_IMPLEMENTED".to_owned(), 20));
    }

    #[test]
    fn a_handler_picks_its_success_code() {
        let profile = profile();
        assert_eq!(profile.success_exit(), 0);
        profile.state.lock().outcome = Some("OK_CANDIDATES".to_owned());
        assert_eq!(profile.success_exit(), 1);
    }

    #[test]
    fn host_ids_hash_in_privacy_mode() {
        let hashed = host_id(true);
        assert_eq!(hashed.len(), 16);
        assert!(hashed.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(hashed, host_id(false));
    }
}
