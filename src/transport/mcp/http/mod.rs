//! `TOOL mcp --http ADDR`: the same server over MCP's streamable HTTP transport. rmcp's
//! `StreamableHttpService` speaks the protocol (stateless: every request stands alone, so
//! several servers behind one load balancer serve one client, the job store being the only
//! state they share); hyper serves it on the protocol thread's runtime, and the handlers run
//! where stdio's do ([`super::exec`]), under the same queue and limits.
//!
//! Bounds, so hostile input meets a refusal and memory stays bounded:
//! - at most [`MAX_CONNECTIONS`] connections at once; one more is answered 503 and closed;
//! - a request's headers within [`HEADER_TIME`] (slowloris), in hyper's read buffer of
//!   [`MAX_HEADER_BYTES`] (a head that does not fit is 431; hyper grows the buffer in steps,
//!   so a head a little past it may still fit);
//! - each body as [`gate`] says (size, time, a budget of bytes held at once, JSON-RPC shape);
//! - calls as on stdio: [`super::MAX_CALLS`] at once, [`super::MAX_WAITING`] waiting, then a
//!   retryable `-32000`.
//!
//! Every reply is scrubbed of secrets ([`scrub`]). SIGTERM (SIGINT) stops the listener, tells
//! the calls running to stop and lets the connections finish their replies for up to two
//! seconds; then the process ends with 143 (130), as on stdio.

pub(crate) mod gate;
mod listen;
pub(crate) mod scrub;

use std::sync::Arc;
use std::time::Duration;

use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio::sync::Semaphore;

pub(crate) use listen::Listen;

use super::ending::Ending;
use super::queue::Queue;
use super::runtime::protocol_runtime;
use super::wire::MAX_MESSAGE_BYTES;
use crate::guards::redact::Redactor;
use scrub::ReplyBody;

/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 512;

/// How long a request's headers may take to arrive.
pub const HEADER_TIME: Duration = Duration::from_secs(10);

/// hyper's read buffer for a request's head: a head that does not fit is answered 431.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

/// How long the connections may take to finish after a signal (the process ends then anyway).
const CLOSING_GRACE: Duration = Duration::from_secs(2);

/// How much of a refused request's body is read before the refusal is sent.
const REFUSAL_DRAIN: usize = 64 * 1024;

/// Exit status of a server that could not listen.
const LISTEN_FAILED_STATUS: i32 = 1;

/// What every request's task shares.
struct Shared<S: rmcp::ServerHandler> {
    gate: gate::Gate,
    service: StreamableHttpService<S, NeverSessionManager>,
    redactor: Arc<Redactor>,
}

/// Serves HTTP until a signal; returns once the connections finished (or the grace ran out).
/// `server` is the protocol's handler (`super::server::Server`), cloned for each request.
pub(crate) fn run<S: rmcp::ServerHandler + Clone + Send + Sync + 'static>(
    server: S,
    redactor: &Redactor,
    listen: &Listen,
    on_end: Arc<dyn Fn() + Send + Sync>,
    ending: &Arc<Ending>,
    queue: &Arc<Queue>,
) {
    let Some(runtime) = protocol_runtime() else {
        ending
            .status
            .store(LISTEN_FAILED_STATUS, std::sync::atomic::Ordering::SeqCst);
        return;
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(listen.addr).await {
            Ok(listener) => listener,
            Err(err) => {
                eprintln!(
                    "{}",
                    json!({
                        "error": pas_spec::runtime_codes::MCP_LISTEN_FAILED,
                        "message": format!("cannot listen on {}: {err}", listen.addr),
                        "suggestion": "give another port (0 takes a free one), or stop what listens there",
                    })
                );
                ending
                    .status
                    .store(LISTEN_FAILED_STATUS, std::sync::atomic::Ordering::SeqCst);
                return;
            }
        };
        let bound = listener.local_addr().unwrap_or(listen.addr);
        // The one line a launcher (or a test) reads to find the server: on stderr, since
        // stdout is a protocol's alone.
        eprintln!(
            "{}",
            json!({"listening": format!("http://{bound}{}", gate::ENDPOINT)})
        );
        let shared = Arc::new(Shared {
            gate: gate::Gate::new(listen.token.clone()),
            service: StreamableHttpService::new(
                move || Ok(server.clone()),
                Arc::new(NeverSessionManager::default()),
                config(listen),
            ),
            redactor: Arc::new(redactor.values_only()),
        });
        let open = accept(&listener, &shared, ending).await;
        // A signal: no more connections or calls; the calls running are told to stop, and
        // the connections open may finish the replies they are writing.
        drop(listener);
        on_end();
        queue.close();
        let _ = tokio::time::timeout(CLOSING_GRACE, open.shutdown()).await;
    });
}

/// rmcp's settings: stateless, JSON replies where no progress comes first, the same message
/// limit as stdio, loopback hosts on loopback, and Origin always checked.
fn config(listen: &Listen) -> StreamableHttpServerConfig {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_max_request_body_bytes(MAX_MESSAGE_BYTES)
        .with_allowed_origins(listen.origins.clone())
        .enforce_origin_validation();
    if listen.addr.ip().is_loopback() {
        config
    } else {
        // The address is the operator's choice and every request carries the token: a
        // `Host` list would only refuse the names the operator's clients use.
        config.disable_allowed_hosts()
    }
}

/// Accepts connections until a signal; returns the connections still open.
async fn accept<S: rmcp::ServerHandler + Send + 'static>(
    listener: &tokio::net::TcpListener,
    shared: &Arc<Shared<S>>,
    ending: &Arc<Ending>,
) -> GracefulShutdown {
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIME)
        .max_buf_size(MAX_HEADER_BYTES);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of descriptors, or a connection reset before it was taken: the
                // listener is fine; a moment later there may be room.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
            () = ending.signalled.notified() => break,
        };
        let io = TokioIo::new(stream);
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            let mut refuse = http1::Builder::new();
            refuse
                .keep_alive(false)
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIME);
            let connection = refuse.serve_connection(
                io,
                service_fn(|request: Request<Incoming>| async move {
                    // The body read first (a little of it, briefly): a socket closed with
                    // bytes unread is reset, and the client would lose the answer.
                    let body = http_body_util::Limited::new(request.into_body(), REFUSAL_DRAIN);
                    let _ = tokio::time::timeout(
                        Duration::from_secs(1),
                        http_body_util::BodyExt::collect(body),
                    )
                    .await;
                    Ok::<_, std::convert::Infallible>(too_many())
                }),
            );
            tokio::spawn(connection);
            continue;
        };
        let shared = shared.clone();
        let connection = builder.serve_connection(
            io,
            service_fn(move |request| {
                let shared = shared.clone();
                async move { Ok::<_, std::convert::Infallible>(answer(&shared, request).await) }
            }),
        );
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(slot);
        });
    }
    graceful
}

/// One request: checked, served by rmcp, scrubbed.
async fn answer<S: rmcp::ServerHandler + Send + 'static>(
    shared: &Shared<S>,
    request: Request<Incoming>,
) -> Response<ReplyBody> {
    match shared.gate.admit(request).await {
        Err(refusal) => refusal,
        Ok((request, _budget)) => {
            let reply = shared.service.handle(request).await;
            scrub::response(&shared.redactor, reply).await
        }
    }
}

fn too_many() -> Response<ReplyBody> {
    let mut refusal = gate::plain(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("the server has {MAX_CONNECTIONS} connections open: try again shortly"),
    );
    refusal.headers_mut().insert(
        hyper::header::RETRY_AFTER,
        hyper::header::HeaderValue::from_static("1"),
    );
    refusal
}
