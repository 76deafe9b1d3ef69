//! Every reply the HTTP server sends, scrubbed of secrets as stdio's frames are
//! ([`super::super::wire::scrub`]: strings and object keys): a JSON body whole, an event
//! stream one event at a time, as each event is complete, so progress still flows.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use bytes::Bytes;
use http_body_util::BodyExt;
use http_body_util::combinators::BoxBody;
use hyper::body::{Body, Frame};
use hyper::{Response, header};
use serde_json::Value;

use crate::guards::redact::Redactor;

pub(crate) type ReplyBody = BoxBody<Bytes, Infallible>;

/// `response`, its body scrubbed (the same response when the tool has no secret values).
pub(crate) async fn response(
    redactor: &Arc<Redactor>,
    response: Response<ReplyBody>,
) -> Response<ReplyBody> {
    if !redactor.has_values() {
        return response;
    }
    let events = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    let (mut parts, body) = response.into_parts();
    // The length changes with the replacements; hyper computes it again from the body.
    parts.headers.remove(header::CONTENT_LENGTH);
    let body = if events {
        BoxBody::new(Events {
            inner: body,
            pending: Vec::new(),
            ended: false,
            redactor: redactor.clone(),
        })
    } else {
        let Ok(collected) = body.collect().await;
        let bytes = collected.to_bytes();
        http_body_util::Full::new(Bytes::from(whole(redactor, &bytes))).boxed()
    };
    Response::from_parts(parts, body)
}

/// A whole body: JSON scrubbed as a value, anything else as text.
fn whole(redactor: &Redactor, bytes: &[u8]) -> Vec<u8> {
    if !redactor.may_change(bytes) {
        return bytes.to_vec();
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(mut value) => {
            crate::transport::mcp::wire::scrub(redactor, &mut value);
            serde_json::to_vec(&value).unwrap_or_default()
        }
        Err(_) => redactor
            .output(bytes, false)
            .unwrap_or_else(|| bytes.to_vec()),
    }
}

/// An event stream, passed on one whole event at a time, each `data:` line scrubbed.
struct Events {
    inner: ReplyBody,
    /// Bytes of an event not yet complete.
    pending: Vec<u8>,
    ended: bool,
    redactor: Arc<Redactor>,
}

impl Events {
    /// The complete events in `pending`, scrubbed, if any.
    fn take_complete(&mut self) -> Option<Bytes> {
        let end = memchr::memmem::rfind(&self.pending, b"\n\n")? + 2;
        let rest = self.pending.split_off(end);
        let done = std::mem::replace(&mut self.pending, rest);
        Some(Bytes::from(event_lines(&self.redactor, &done)))
    }
}

/// Each line of `events`, its `data:` payload scrubbed (as JSON when it is JSON).
fn event_lines(redactor: &Redactor, events: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(events.len());
    for line in events.split_inclusive(|b| *b == b'\n') {
        match line.strip_prefix(b"data:") {
            Some(data) if redactor.may_change(data) => {
                let (payload, newline) = match data.strip_suffix(b"\n") {
                    Some(payload) => (payload, &b"\n"[..]),
                    None => (data, &b""[..]),
                };
                let payload = payload.strip_prefix(b" ").unwrap_or(payload);
                out.extend_from_slice(b"data: ");
                out.extend_from_slice(&whole(redactor, payload));
                out.extend_from_slice(newline);
            }
            _ => out.extend_from_slice(line),
        }
    }
    out
}

impl Body for Events {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        // Every field is `Unpin` (the inner body is a box), so the body is too.
        let this = &mut *self;
        loop {
            if let Some(events) = this.take_complete() {
                return Poll::Ready(Some(Ok(Frame::data(events))));
            }
            if this.ended {
                if this.pending.is_empty() {
                    return Poll::Ready(None);
                }
                let rest = std::mem::take(&mut this.pending);
                return Poll::Ready(Some(Ok(Frame::data(Bytes::from(event_lines(
                    &this.redactor,
                    &rest,
                ))))));
            }
            match ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => this.pending.extend_from_slice(&data),
                    Err(frame) => return Poll::Ready(Some(Ok(frame))),
                },
                None => this.ended = true,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redactor() -> Arc<Redactor> {
        let mut redactor = Redactor::default();
        redactor.add_secret("hunter2-secret", "$TOKEN");
        Arc::new(redactor.values_only())
    }

    #[tokio::test]
    async fn a_json_reply_loses_its_secrets_in_keys_and_strings() {
        let body = r#"{"jsonrpc":"2.0","id":1,"result":{"hunter2-secret":"say hunter2-secret"}}"#;
        let reply = Response::builder()
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::CONTENT_LENGTH, body.len())
            .body(http_body_util::Full::new(Bytes::from(body)).boxed())
            .unwrap();
        let scrubbed = response(&redactor(), reply).await;
        assert!(scrubbed.headers().get(header::CONTENT_LENGTH).is_none());
        let Ok(bytes) = scrubbed.into_body().collect().await;
        let text = String::from_utf8(bytes.to_bytes().to_vec()).unwrap();
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains("[REDACTED]"), "{text}");
    }

    #[tokio::test]
    async fn an_event_split_across_frames_is_scrubbed_whole() {
        let frames = [
            "id: 0\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"m\":\"hunt",
            "er2-secret\"}}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
        ];
        let stream = futures_stream(&frames);
        let reply = Response::builder()
            .header(header::CONTENT_TYPE, "text/event-stream")
            .body(stream)
            .unwrap();
        let scrubbed = response(&redactor(), reply).await;
        let Ok(bytes) = scrubbed.into_body().collect().await;
        let text = String::from_utf8(bytes.to_bytes().to_vec()).unwrap();
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains("\"m\":\"[REDACTED]\""), "{text}");
        assert!(text.starts_with("id: 0\ndata: "), "{text}");
        assert!(text.ends_with("\"result\":{}}\n\n"), "{text}");
    }

    /// A body made of these frames, in order.
    fn futures_stream(frames: &[&'static str]) -> ReplyBody {
        let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
        for frame in frames {
            sender
                .send(Ok::<_, Infallible>(Frame::data(Bytes::from_static(
                    frame.as_bytes(),
                ))))
                .unwrap();
        }
        drop(sender);
        BoxBody::new(Frames(receiver))
    }

    struct Frames(tokio::sync::mpsc::UnboundedReceiver<Result<Frame<Bytes>, Infallible>>);

    impl Body for Frames {
        type Data = Bytes;
        type Error = Infallible;
        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            self.0.poll_recv(cx)
        }
    }
}
