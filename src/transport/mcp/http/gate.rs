//! What a request must pass before rmcp sees it, so that hostile input gets a clean refusal
//! and memory stays bounded:
//!
//! - the path is [`ENDPOINT`] (else 404);
//! - the bearer token, where the server has one (else 401, compared in constant time);
//! - a POST body of at most [`MAX_MESSAGE_BYTES`] (else 413), read within [`BODY_TIME`]
//!   (else 408: a client sending a byte a minute holds nothing for long), and within the
//!   server's budget of body bytes held at once, [`BODY_BUDGET`] (else 503, retryable);
//! - JSON-RPC checked as stdio checks a line ([`crate::transport::mcp::wire::check`]): a body
//!   that is not JSON is -32700, not a request -32600 (HTTP 400), a method MCP names with
//!   params that do not fit -32602, a method MCP does not name -32601 (HTTP 200, the
//!   JSON-RPC error being the answer);
//! - a request at protocol 2026-07-28 for a method that version removed (`initialize`,
//!   `logging/setLevel`, `resources/subscribe`, `resources/unsubscribe`): 404 and -32601.
//!
//! Host and Origin are rmcp's to check (it answers 403), as are the media types (406, 415).

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode, header};
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::scrub::ReplyBody;
use crate::transport::mcp::wire::{
    Checked, INVALID_REQUEST, MAX_MESSAGE_BYTES, PARSE_ERROR, check, error_message,
};

/// The one path the server answers on.
pub const ENDPOINT: &str = "/mcp";

/// How long a request's body may take to arrive.
pub const BODY_TIME: Duration = Duration::from_secs(30);

/// Request body bytes the server holds at once, across its connections: 64 MiB, four of the
/// largest messages, whatever the number of clients.
pub const BODY_BUDGET: usize = 64 * 1024 * 1024;

/// The budget's unit: a permit is a KiB (a semaphore counts at most `u32::MAX >> 3` permits).
const UNIT: usize = 1024;

/// A request that passed, with its share of the body budget (held until it is answered).
pub(crate) type Admitted = (Request<Full<Bytes>>, Option<OwnedSemaphorePermit>);

/// The checks of one server.
pub(crate) struct Gate {
    token: Option<String>,
    budget: Arc<Semaphore>,
}

impl Gate {
    pub(crate) fn new(token: Option<String>) -> Gate {
        Gate {
            token,
            budget: Arc::new(Semaphore::new(BODY_BUDGET / UNIT)),
        }
    }

    /// The request rmcp may serve, or the answer that refuses it.
    pub(crate) async fn admit(
        &self,
        request: Request<Incoming>,
    ) -> Result<Admitted, Response<ReplyBody>> {
        if request.uri().path() != ENDPOINT {
            return Err(plain(
                StatusCode::NOT_FOUND,
                format!("this server answers MCP on {ENDPOINT} only"),
            ));
        }
        if let Some(token) = &self.token
            && !carries(&request, token)
        {
            let mut refusal = plain(
                StatusCode::UNAUTHORIZED,
                "this server needs `Authorization: Bearer <token>`, the token its operator set"
                    .to_owned(),
            );
            refusal.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Bearer"),
            );
            return Err(refusal);
        }
        let (parts, body) = request.into_parts();
        if parts.method != Method::POST {
            // rmcp answers the methods a stateless server does not take (405).
            return Ok((Request::from_parts(parts, Full::new(Bytes::new())), None));
        }
        let declared = parts
            .headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > MAX_MESSAGE_BYTES as u64) {
            return Err(too_large());
        }
        let (bytes, permit) = match tokio::time::timeout(BODY_TIME, self.read_body(body)).await {
            Ok(read) => read?,
            Err(_) => {
                return Err(rpc_error(
                    StatusCode::REQUEST_TIMEOUT,
                    Value::Null,
                    INVALID_REQUEST,
                    format!(
                        "the request's body did not arrive within {} s",
                        BODY_TIME.as_secs()
                    ),
                ));
            }
        };
        if let Some(refusal) = removed_in_2026(&parts.headers, &bytes) {
            return Err(refusal);
        }
        match check(&bytes) {
            Checked::Message(_) => Ok((Request::from_parts(parts, Full::new(bytes)), permit)),
            Checked::Answer(id, code, message) => {
                let status = if code == PARSE_ERROR || code == INVALID_REQUEST {
                    StatusCode::BAD_REQUEST
                } else {
                    StatusCode::OK
                };
                Err(rpc_error(status, id, code, message))
            }
            Checked::Skip if bytes.iter().all(u8::is_ascii_whitespace) => Err(rpc_error(
                StatusCode::BAD_REQUEST,
                Value::Null,
                PARSE_ERROR,
                "the request has no body: POST one JSON-RPC message".to_owned(),
            )),
            // A notification that does not fit: nothing to answer.
            Checked::Skip => Err(Response::builder()
                .status(StatusCode::ACCEPTED)
                .body(Full::new(Bytes::new()).boxed())
                .unwrap_or_default()),
        }
    }

    /// The body, at most [`MAX_MESSAGE_BYTES`], each frame paid for from the budget.
    async fn read_body(
        &self,
        mut body: Incoming,
    ) -> Result<(Bytes, Option<OwnedSemaphorePermit>), Response<ReplyBody>> {
        let mut bytes = Vec::new();
        let mut held: Option<OwnedSemaphorePermit> = None;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|err| {
                rpc_error(
                    StatusCode::BAD_REQUEST,
                    Value::Null,
                    INVALID_REQUEST,
                    format!("the request's body could not be read: {err}"),
                )
            })?;
            let Ok(data) = frame.into_data() else {
                continue;
            };
            if bytes.len() + data.len() > MAX_MESSAGE_BYTES {
                return Err(too_large());
            }
            let units = (bytes.len() + data.len()).div_ceil(UNIT)
                - held.as_ref().map_or(0, |p| p.num_permits());
            if units > 0 {
                let more = u32::try_from(units)
                    .ok()
                    .and_then(|n| self.budget.clone().try_acquire_many_owned(n).ok())
                    .ok_or_else(busy)?;
                match &mut held {
                    Some(permit) => permit.merge(more),
                    None => held = Some(more),
                }
            }
            bytes.extend_from_slice(&data);
        }
        Ok((Bytes::from(bytes), held))
    }
}

/// The methods protocol 2026-07-28 removed (its requests stand alone: no handshake, no
/// subscriptions, a log level per request).
const REMOVED_IN_2026: &[&str] = &[
    "initialize",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// The first protocol version without [`REMOVED_IN_2026`].
const STATELESS_VERSION: &str = "2026-07-28";

/// A request at 2026-07-28 or later (its header, or its `_meta`, says so) for a method that
/// version removed: 404 and -32601, as the version says. The same method at an older version
/// is served (a legacy client's handshake).
fn removed_in_2026(headers: &hyper::HeaderMap, bytes: &[u8]) -> Option<Response<ReplyBody>> {
    let named = REMOVED_IN_2026
        .iter()
        .any(|m| memchr::memmem::find(bytes, m.as_bytes()).is_some());
    if !named {
        return None;
    }
    let message: Value = serde_json::from_slice(bytes).ok()?;
    let method = message.get("method")?.as_str()?;
    if !REMOVED_IN_2026.contains(&method) {
        return None;
    }
    let header = headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok());
    let meta = message
        .pointer("/params/_meta")
        .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"))
        .and_then(Value::as_str);
    // Dated versions compare as text.
    let stateless = [header, meta]
        .into_iter()
        .flatten()
        .any(|v| v >= STATELESS_VERSION);
    stateless.then(|| {
        rpc_error(
            StatusCode::NOT_FOUND,
            message.get("id").cloned().unwrap_or(Value::Null),
            crate::transport::mcp::wire::METHOD_NOT_FOUND,
            format!("`{method}` is not a method of protocol {STATELESS_VERSION} and later"),
        )
    })
}

/// Whether `request` carries `Authorization: Bearer TOKEN`; the comparison takes the same time
/// wherever the first difference is.
fn carries(request: &Request<Incoming>, token: &str) -> bool {
    let Some(given) = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
    else {
        return false;
    };
    let (given, token) = (given.trim().as_bytes(), token.as_bytes());
    given.len() == token.len() && given.iter().zip(token).fold(0u8, |d, (a, b)| d | (a ^ b)) == 0
}

fn too_large() -> Response<ReplyBody> {
    rpc_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        Value::Null,
        INVALID_REQUEST,
        format!(
            "the message is longer than the server's limit of {MAX_MESSAGE_BYTES} bytes (16 MiB)"
        ),
    )
}

fn busy() -> Response<ReplyBody> {
    let mut refusal = rpc_error(
        StatusCode::SERVICE_UNAVAILABLE,
        Value::Null,
        INVALID_REQUEST,
        "the server holds as many request bodies as it may: try again shortly".to_owned(),
    );
    refusal
        .headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
    refusal
}

/// A JSON-RPC error as the whole answer.
pub(crate) fn rpc_error(
    status: StatusCode,
    id: Value,
    code: i32,
    message: String,
) -> Response<ReplyBody> {
    let body = error_message(id, code, message).to_string();
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body)).boxed())
        .unwrap_or_default()
}

/// A refusal before JSON-RPC: the status and a sentence.
pub(crate) fn plain(status: StatusCode, message: String) -> Response<ReplyBody> {
    Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
        .body(Full::new(Bytes::from(message)).boxed())
        .unwrap_or_default()
}
