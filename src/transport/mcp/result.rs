//! A call's outcome as an MCP `tools/call` result.
//!
//! - One object: `structuredContent` is the object, and one text block holds it as JSON.
//! - A list or an event stream: `structuredContent` is `{"items": [...]}` (at most
//!   [`super::exec::MAX_ITEMS`]). A paged list adds what the handler said of the page:
//!   `"total"`, `"hasMore"` and `"nextCursor"` (pass it as the tool's cursor argument). A list
//!   longer than the limit adds `"continuation"`: call the same tool with
//!   `_meta: {"pas/continuation": TOKEN}` for the next items. An event stream longer than the
//!   limit keeps its first items and says `"truncated": true` (every event was sent as a
//!   progress notification).
//! - A document: one text block, the Markdown. Nothing: no content.
//! - A bound (the command's declared `maxOutputBytes`, or the caller's
//!   `_meta: {"pas-kit/maxOutputBytes": N}`, or `PAS_OUTPUT_LIMIT` in the server's environment;
//!   the caller's may only lower the declared one; see [`super::bound`]): a list's page stops
//!   at its last whole item under the bound and `"continuation"` returns the rest (a page holds
//!   at least one item, whole); one object or document past the bound is written whole to a
//!   file, and `structuredContent` is `{"output_file": {path, bytes, sha256, media_type,
//!   preview, read}}` (the tool's outputSchema admits it), with a `resource_link` content item
//!   to the resource when the call was a level 3/4 `cat`. Nothing is shortened.
//! - An error: `isError: true` and one text block holding `{"error": {code, message, hint,
//!   details, exitCode, retryable}}` as JSON (the exit code is the one the CLI would have ended
//!   with; `retryable` as the CLI's envelope says it). No
//!   `structuredContent`: clients check it against the tool's outputSchema, which describes
//!   success.
//!
//! The data is what the CLI's envelope holds as `data` in the compose and robot profiles, so a
//! tool means one thing whatever the transport.

use serde_json::{Map, Value, json};

use crate::error::Error;
use crate::guards::redact::Redactor;
use crate::reply::{Page, Stream};

/// A reply as data.
pub(crate) enum Collected {
    Object(Value),
    Items(Items),
    Document(String),
    Nothing,
}

/// Items of a list or an event stream, as far as one call goes.
pub(crate) struct Items {
    pub(crate) items: Vec<Value>,
    pub(crate) page: Option<Page>,
    /// An event stream had more events than the result holds.
    pub(crate) truncated: bool,
    /// The unread rest of a list longer than the limit.
    pub(crate) rest: Option<Stream>,
    /// The token that continues the list.
    pub(crate) continuation: Option<String>,
    /// The item read past the page's byte bound: the first of the next page.
    pub(crate) carried: Option<Value>,
}

/// The result of a call that succeeded.
pub(crate) fn success(collected: Collected, redactor: &Redactor) -> Value {
    match redactor.collected(collected) {
        Collected::Object(value) if value.is_object() => structured(value),
        Collected::Object(value) => json!({ "content": [text(value.to_string())] }),
        Collected::Items(items) => structured(items_content(items)),
        Collected::Document(markdown) => json!({ "content": [text(markdown)] }),
        Collected::Nothing => json!({ "content": [] }),
    }
}

/// The result of a call that failed with `error` (already redacted), which the CLI would
/// have ended with `exit`.
pub(crate) fn error(error: &Error, exit: u8) -> Value {
    let mut body = Map::new();
    body.insert("code".into(), error.code().into());
    body.insert("message".into(), error.message().into());
    if let Some(hint) = error.suggestion() {
        body.insert("hint".into(), hint.into());
    }
    if let Some(details) = error.details() {
        body.insert("details".into(), details.clone());
    }
    body.insert("exitCode".into(), exit.into());
    // Whether the same call may succeed if made again without duplicating anything.
    body.insert("retryable".into(), error.retryable().into());
    json!({
        "content": [text(json!({ "error": body }).to_string())],
        "isError": true,
    })
}

/// The result of an object or document past the call's bound: the pointer to the file that
/// holds it whole, as structured content and text, and a link to the resource it was read from
/// (`link`: its URI and name) when there is one.
pub(crate) fn pointer(
    pointer: &crate::guards::output_file::Pointer,
    link: Option<(String, String)>,
) -> Value {
    let answer = pointer.answer();
    let mut content = vec![text(answer.to_string())];
    if let Some((uri, name)) = link {
        content.push(json!({
            "type": "resource_link",
            "uri": uri,
            "name": name,
            "mimeType": pointer.media_type,
            "description": format!(
                "The resource whose content ({} bytes) is past the call's bound; resources/read returns it whole.",
                pointer.bytes
            ),
        }));
    }
    json!({ "content": content, "structuredContent": answer })
}

fn items_content(items: Items) -> Value {
    let mut content = Map::new();
    content.insert("items".into(), Value::Array(items.items));
    if let Some(page) = items.page {
        if let Some(total) = page.total {
            content.insert("total".into(), total.into());
        }
        content.insert("hasMore".into(), page.has_more.into());
        if let Some(cursor) = page.next_cursor {
            content.insert("nextCursor".into(), cursor.into());
        }
    }
    if items.truncated {
        content.insert("truncated".into(), true.into());
    }
    if let Some(token) = items.continuation {
        content.insert("continuation".into(), token.into());
    }
    Value::Object(content)
}

pub(crate) fn structured(value: Value) -> Value {
    json!({
        "content": [text(value.to_string())],
        "structuredContent": value,
    })
}

fn text(text: String) -> Value {
    json!({ "type": "text", "text": text })
}
