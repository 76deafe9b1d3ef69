//! The stdio transport of `TOOL mcp`: one JSON-RPC message a line, read and written here rather
//! than by rmcp's own stdio transport, so that every message the server can take an id from
//! gets an answer, and every byte it writes is scrubbed of secrets.
//!
//! - A line that is not JSON (a nesting deeper than serde_json's limit of 128 included) is
//!   `-32700` (parse error) with `id: null`.
//! - A line longer than [`MAX_MESSAGE_BYTES`] (16 MiB) is `-32600` with `id: null`; it is
//!   skipped without being held in memory, and the server goes on.
//! - JSON that is not a request: `-32600` (invalid request), with the id when it has one
//!   (`params` that are not an object, a `jsonrpc` other than `"2.0"`, a batch, no method).
//! - A method MCP names, with params that do not fit it (`tools/call` without params):
//!   `-32602` (invalid params) with the id. `-32601` (method not found) is for methods MCP does
//!   not name.
//! - A notification that does not fit (no id) cannot be answered, and is dropped.
//! - Every message written (rmcp's and these) has every known secret value replaced, in its
//!   strings and its object keys alike: a secret sent as an argument name, a method name or a
//!   tool name never comes back.
//!
//! At the end of input (or on SIGTERM, SIGINT) the calls running see a stop request, and rmcp
//! writes the replies of the calls in flight before the server exits.

use std::io;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};

use crate::guards::redact::Redactor;

/// The longest message the server reads; a longer line is answered with `-32600` and skipped.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// JSON-RPC's error codes.
pub(crate) const PARSE_ERROR: i32 = -32700;
pub(crate) const INVALID_REQUEST: i32 = -32600;
pub(crate) const METHOD_NOT_FOUND: i32 = -32601;
pub(crate) const INVALID_PARAMS: i32 = -32602;

/// The requests MCP names that a client sends a server: one of these that does not parse has
/// params that do not fit (`-32602`), any other method is not found (`-32601`).
const MCP_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
];

/// Lines handed to the one task that writes stdout, each with where to say it was written.
type Outbox =
    tokio::sync::mpsc::UnboundedSender<(Vec<u8>, tokio::sync::oneshot::Sender<io::Result<()>>)>;

/// The server's end of stdio.
pub(crate) struct Wire<R> {
    reader: R,
    /// The order of stdout is fixed when a message is handed over, not when a future is first
    /// polled: rmcp may poll the futures `send` returns in another order than it called `send`,
    /// and a progress notification written after its call's reply is dropped by the client.
    outbox: Outbox,
    redactor: Arc<Redactor>,
    /// Called when input ends (see the module docs).
    on_end: Arc<dyn Fn() + Send + Sync>,
    /// A signal (SIGTERM, SIGINT) ends input as its end does.
    ending: Arc<super::ending::Ending>,
    partial: Partial,
}

impl<R> Wire<R> {
    /// Must be called inside the server's runtime: it starts the task that writes.
    pub(crate) fn new<W: AsyncWrite + Unpin + Send + 'static>(
        reader: R,
        mut writer: W,
        redactor: Redactor,
        on_end: Arc<dyn Fn() + Send + Sync>,
        ending: Arc<super::ending::Ending>,
    ) -> Self {
        let (outbox, mut lines) = tokio::sync::mpsc::unbounded_channel::<(
            Vec<u8>,
            tokio::sync::oneshot::Sender<io::Result<()>>,
        )>();
        tokio::spawn(async move {
            while let Some((line, written)) = lines.recv().await {
                let result = match writer.write_all(&line).await {
                    Ok(()) => writer.flush().await,
                    Err(err) => Err(err),
                };
                let _ = written.send(result);
            }
        });
        Wire {
            reader,
            outbox,
            redactor: Arc::new(redactor.values_only()),
            on_end,
            ending,
            partial: Partial::default(),
        }
    }
}

/// One line of input.
enum Line {
    Message(Vec<u8>),
    TooLong,
    End,
}

/// What to do with a message (a line on stdio, a body on HTTP).
#[derive(Debug)]
pub(crate) enum Checked {
    Message(Box<ClientJsonRpcMessage>),
    /// Answer `id` with this error.
    Answer(Value, i32, String),
    /// Nothing can be answered (a blank line, a notification that does not fit).
    Skip,
}

/// A line being read: kept between reads, since rmcp drops a `receive` that another event
/// overtook (so reading must lose nothing when its future is dropped at an await).
#[derive(Default)]
struct Partial {
    line: Vec<u8>,
    too_long: bool,
}

/// Reads one line, holding at most `max` bytes of it: a longer one is read to its end and
/// dropped. A last line without its newline is a line. Cancel-safe: the only await is
/// `fill_buf` (which consumes nothing), and what was taken is in `partial`.
async fn read_message<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    partial: &mut Partial,
    max: usize,
) -> io::Result<Line> {
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            let Partial { line, too_long } = std::mem::take(partial);
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::End,
                (false, false) => Line::Message(line),
            });
        }
        let (take, ends) = match memchr::memchr(b'\n', buf) {
            Some(at) => (at, true),
            None => (buf.len(), false),
        };
        if !partial.too_long {
            if partial.line.len() + take > max {
                partial.too_long = true;
                partial.line = Vec::new();
            } else {
                partial.line.extend_from_slice(&buf[..take]);
            }
        }
        reader.consume(take + usize::from(ends));
        if ends {
            let Partial { line, too_long } = std::mem::take(partial);
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Message(line)
            });
        }
    }
}

/// What a line is: a message for rmcp, an error to answer, or nothing.
pub(crate) fn check(bytes: &[u8]) -> Checked {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Checked::Skip;
    }
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(value) => value,
        Err(err) => {
            return Checked::Answer(
                Value::Null,
                PARSE_ERROR,
                format!("the message is not JSON: {err}"),
            );
        }
    };
    let map = match &value {
        Value::Object(map) => map,
        Value::Array(_) => {
            return Checked::Answer(
                Value::Null,
                INVALID_REQUEST,
                "a batch is not a message MCP takes: send one message a line".to_owned(),
            );
        }
        _ => {
            return Checked::Answer(
                Value::Null,
                INVALID_REQUEST,
                "a JSON-RPC message is an object".to_owned(),
            );
        }
    };
    let id = match map.get("id") {
        None => None,
        Some(id @ (Value::String(_) | Value::Number(_))) if !id.is_f64() => Some(id.clone()),
        Some(_) => {
            return Checked::Answer(
                Value::Null,
                INVALID_REQUEST,
                "the id is a string or an integer".to_owned(),
            );
        }
    };
    let answer = |code: i32, message: String| match &id {
        Some(id) => Checked::Answer(id.clone(), code, message),
        None => Checked::Skip,
    };
    if map.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Checked::Answer(
            id.clone().unwrap_or(Value::Null),
            INVALID_REQUEST,
            "`jsonrpc` is \"2.0\"".to_owned(),
        );
    }
    let method = match map.get("method") {
        Some(Value::String(method)) => method.as_str(),
        Some(_) => {
            return Checked::Answer(
                id.clone().unwrap_or(Value::Null),
                INVALID_REQUEST,
                "the method is a string".to_owned(),
            );
        }
        None if map.contains_key("result") || map.contains_key("error") => {
            // A client's answer to a request of the server's: rmcp's, or nothing to answer.
            return match serde_json::from_value::<ClientJsonRpcMessage>(value) {
                Ok(message) => Checked::Message(Box::new(message)),
                Err(_) => Checked::Skip,
            };
        }
        None => {
            return Checked::Answer(
                id.clone().unwrap_or(Value::Null),
                INVALID_REQUEST,
                "a request has a method".to_owned(),
            );
        }
    };
    if map.get("params").is_some_and(|params| !params.is_object()) {
        return answer(
            INVALID_REQUEST,
            format!("the params of `{method}` are an object"),
        );
    }
    let named = MCP_METHODS.contains(&method);
    match serde_json::from_value::<ClientJsonRpcMessage>(value.clone()) {
        // rmcp takes a request it cannot type as a custom one: for a method MCP names, the
        // params did not fit it.
        Ok(JsonRpcMessage::Request(request))
            if named && matches!(request.request, ClientRequest::CustomRequest(_)) =>
        {
            answer(INVALID_PARAMS, params_problem(method, &value))
        }
        Ok(message) => Checked::Message(Box::new(message)),
        Err(_) if named => answer(INVALID_PARAMS, params_problem(method, &value)),
        Err(_) => answer(
            METHOD_NOT_FOUND,
            format!("`{method}` is not a method of this server"),
        ),
    }
}

/// Why the params of a method MCP names do not fit.
fn params_problem(method: &str, value: &Value) -> String {
    match value.get("params") {
        None | Some(Value::Null) => format!("`{method}` needs params"),
        Some(_) => format!("the params of `{method}` do not fit MCP's schema for it"),
    }
}

/// `value` with every known secret replaced in its strings and its object keys.
pub(crate) fn scrub(redactor: &Redactor, value: &mut Value) {
    match value {
        Value::String(text) if redactor.may_change(text.as_bytes()) => {
            *text = redactor.text(text);
        }
        Value::Array(items) => items.iter_mut().for_each(|v| scrub(redactor, v)),
        Value::Object(map) => {
            if map.keys().any(|k| redactor.may_change(k.as_bytes())) {
                let entries = std::mem::take(map);
                *map = entries
                    .into_iter()
                    .map(|(key, value)| (redactor.text(&key), value))
                    .collect::<Map<String, Value>>();
            }
            map.values_mut().for_each(|v| scrub(redactor, v));
        }
        _ => {}
    }
}

/// Hands one message, scrubbed, to the writing task as a line (an empty line only flushes);
/// the future says when it was written.
fn write(
    outbox: &Outbox,
    redactor: &Redactor,
    value: Option<io::Result<Value>>,
) -> impl Future<Output = io::Result<()>> + Send + 'static {
    let line = match value {
        None => Ok(Vec::new()),
        Some(value) => value.and_then(|mut value| {
            if redactor.has_values() {
                scrub(redactor, &mut value);
            }
            let mut line = serde_json::to_vec(&value).map_err(io::Error::other)?;
            line.push(b'\n');
            Ok(line)
        }),
    };
    let (written, done) = tokio::sync::oneshot::channel();
    let queued = line.and_then(|line| {
        outbox
            .send((line, written))
            .map_err(|_| io::Error::other("stdout's writer has ended"))
    });
    async move {
        queued?;
        done.await
            .unwrap_or_else(|_| Err(io::Error::other("stdout's writer has ended")))
    }
}

/// The error answer to `id`.
pub(crate) fn error_message(id: Value, code: i32, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

impl<R> Transport<RoleServer> for Wire<R>
where
    R: AsyncBufRead + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let value = serde_json::to_value(&item).map_err(io::Error::other);
        write(&self.outbox, &self.redactor, Some(value))
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let line = tokio::select! {
                line = read_message(&mut self.reader, &mut self.partial, MAX_MESSAGE_BYTES) => {
                    line.unwrap_or(Line::End)
                }
                () = self.ending.signalled.notified() => Line::End,
            };
            let checked = match line {
                Line::End => {
                    (self.on_end)();
                    return None;
                }
                Line::TooLong => Checked::Answer(
                    Value::Null,
                    INVALID_REQUEST,
                    format!(
                        "the message is longer than the server's limit of {MAX_MESSAGE_BYTES} bytes (16 MiB); it was skipped"
                    ),
                ),
                Line::Message(bytes) => check(&bytes),
            };
            match checked {
                Checked::Message(message) => return Some(*message),
                Checked::Answer(id, code, message) => {
                    let answer = error_message(id, code, message);
                    // Handed to the writing task, so a `receive` dropped meanwhile never
                    // leaves half a line. A reply that cannot be written: the client is gone,
                    // and the next read ends the session.
                    drop(write(&self.outbox, &self.redactor, Some(Ok(answer))));
                }
                Checked::Skip => {}
            }
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), io::Error>> + Send {
        write(&self.outbox, &self.redactor, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> (Value, i32) {
        match check(line.as_bytes()) {
            Checked::Answer(id, code, _) => (id, code),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn every_message_with_an_id_gets_the_code_json_rpc_names() {
        assert_eq!(answer("{not json"), (Value::Null, PARSE_ERROR));
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(answer(&deep), (Value::Null, PARSE_ERROR));
        assert_eq!(answer("[1, 2]"), (Value::Null, INVALID_REQUEST));
        assert_eq!(answer("7"), (Value::Null, INVALID_REQUEST));
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[]}"#),
            (json!(4), INVALID_REQUEST)
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":"a","method":"tools/call"}"#),
            (json!("a"), INVALID_PARAMS)
        );
        // A method MCP does not name goes to rmcp, which answers -32601 (tests/mcp_outcomes.rs).
        let custom = check(br#"{"jsonrpc":"2.0","id":5,"method":"tools/explode","params":{}}"#);
        assert!(matches!(custom, Checked::Message(_)), "{custom:?}");
        assert_eq!(
            answer(r#"{"jsonrpc":"1.0","id":6,"method":"ping"}"#),
            (json!(6), INVALID_REQUEST)
        );
        assert_eq!(
            answer(r#"{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}"#),
            (Value::Null, INVALID_REQUEST)
        );
    }

    #[test]
    fn fitting_messages_pass_and_unfit_notifications_are_dropped() {
        let ping = check(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
        assert!(matches!(ping, Checked::Message(_)), "{ping:?}");
        let call = check(
            br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{}}}"#,
        );
        assert!(matches!(call, Checked::Message(_)), "{call:?}");
        assert!(matches!(check(b"  \r"), Checked::Skip));
        let note = check(br#"{"jsonrpc":"2.0","method":"notifications/x","params":[]}"#);
        assert!(matches!(note, Checked::Skip), "{note:?}");
    }

    #[test]
    fn scrubbing_replaces_secrets_in_keys_and_strings() {
        let mut redactor = Redactor::default();
        redactor.add_secret("hunter2-secret", "$TOKEN");
        let mut value = json!({"hunter2-secret": {"m": "unknown tool `hunter2-secret`"}});
        scrub(&redactor, &mut value);
        let text = value.to_string();
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains("[REDACTED]"), "{text}");
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_line_past_the_limit_is_skipped_and_the_next_is_read() {
        let mut input = vec![b'x'; 100];
        input.extend(b"\nnext\nlast");
        let mut reader = tokio::io::BufReader::with_capacity(8, &input[..]);
        let mut partial = Partial::default();
        let mut lines = Vec::new();
        loop {
            match read_message(&mut reader, &mut partial, 10).await.unwrap() {
                Line::End => break,
                Line::TooLong => lines.push(None),
                Line::Message(line) => lines.push(Some(line)),
            }
        }
        assert_eq!(
            lines,
            [None, Some(b"next".to_vec()), Some(b"last".to_vec())]
        );
    }
}
