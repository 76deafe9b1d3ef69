//! What a handler returns: one object, a stream of items or events, a document, or nothing.
//!
//! A reply is profile-neutral. Streams are type-erased behind one boxed closure that is generic
//! inside: it pulls the next item and serialises it straight into the runtime's reusable line
//! buffer (`serde_json::to_writer`), so the only dynamic call per item is the closure itself and
//! nothing is buffered beyond one line. The profile picks the encoding (JSON for machines, text
//! for people) before the first item, so items are serialised once.

use serde::Serialize;

use crate::error::{Error, serialise_error};
use crate::render::human;

/// How the profile wants stream items encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// Compact JSON, no newline.
    Json,
    /// One line of text for people (the handler's formatter, else a generic rendering).
    Human,
}

/// Whether a stream is a list of results or a sequence of progress-style events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StreamKind {
    List,
    Events,
}

/// Pulls the next item into the buffer: `None` at the end, `Some(Err)` when the producer (or
/// serialisation) failed. On `Some(Err)` the buffer's content is unspecified and is discarded.
pub(crate) type NextItem = Box<dyn FnMut(Encoding, &mut Vec<u8>) -> Option<Result<(), Error>>>;

/// A type-erased stream of items.
pub(crate) struct Stream {
    pub(crate) kind: StreamKind,
    pub(crate) next: NextItem,
    /// Where this page sits in the whole list (a paged list command), if the handler said.
    pub(crate) page: Option<Page>,
}

/// Where one page of a list sits in the whole list. Known before the items are written (a
/// handler asks its store for one more row than the page size to learn `has_more`), so a
/// profile that needs it up front gets it, and the `pas` profile still streams NDJSON.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Page {
    /// How many items the whole list has, when the handler knows.
    pub total: Option<u64>,
    /// More items follow this page.
    pub has_more: bool,
    /// What to pass as the cursor parameter to get the next page.
    pub next_cursor: Option<String>,
}

/// One object, serialised when the reply is built (it borrows the value).
pub(crate) struct Object {
    pub(crate) json: Result<Vec<u8>, Error>,
    pub(crate) human: Option<String>,
}

pub(crate) enum Body {
    Object(Object),
    Stream(Stream),
    Document(String),
    Nothing,
}

/// A handler's successful result. Build it with [`Reply::object`], [`Reply::list`],
/// [`Reply::events`], [`Reply::document`] or [`Reply::none`].
pub struct Reply {
    pub(crate) body: Body,
}

impl Reply {
    /// One result. In agent mode it is printed as one JSON object (field order kept).
    pub fn object<T: Serialize + ?Sized>(value: &T) -> Reply {
        let json = serde_json::to_vec(value).map_err(serialise_error);
        Reply {
            body: Body::Object(Object { json, human: None }),
        }
    }

    /// One result with the text people see without `--agent` (agents still get the JSON).
    pub fn object_with_text<T: Serialize + ?Sized>(value: &T, text: impl Into<String>) -> Reply {
        let mut reply = Reply::object(value);
        if let Body::Object(object) = &mut reply.body {
            object.human = Some(text.into());
        }
        reply
    }

    /// A stream of results, written as produced (NDJSON in agent mode). An `Err` item ends the
    /// stream: the items already written stay, then the error is reported with its exit code.
    pub fn list<T, I>(items: I) -> Reply
    where
        T: Serialize + 'static,
        I: IntoIterator<Item = Result<T, Error>>,
        I::IntoIter: 'static,
    {
        Reply {
            body: Body::Stream(erase(StreamKind::List, items, None::<fn(&T) -> String>)),
        }
    }

    /// One page of a paged list: the items, streamed like [`Reply::list`], and where the page
    /// sits (the compose profile prints `meta.total`, `meta.hasMore` and `meta.cursor`).
    pub fn page<T, I>(items: I, page: Page) -> Reply
    where
        T: Serialize + 'static,
        I: IntoIterator<Item = Result<T, Error>>,
        I::IntoIter: 'static,
    {
        let mut stream = erase(StreamKind::List, items, None::<fn(&T) -> String>);
        stream.page = Some(page);
        Reply {
            body: Body::Stream(stream),
        }
    }

    /// Like [`Reply::list`], with the one line of text people see for each item.
    pub fn list_with_text<T, I, F>(items: I, text: F) -> Reply
    where
        T: Serialize + 'static,
        I: IntoIterator<Item = Result<T, Error>>,
        I::IntoIter: 'static,
        F: Fn(&T) -> String + 'static,
    {
        Reply {
            body: Body::Stream(erase(StreamKind::List, items, Some(text))),
        }
    }

    /// A stream of progress-style events (NDJSON in agent mode, whatever `--format` says).
    pub fn events<T, I>(events: I) -> Reply
    where
        T: Serialize + 'static,
        I: IntoIterator<Item = Result<T, Error>>,
        I::IntoIter: 'static,
    {
        Reply {
            body: Body::Stream(erase(StreamKind::Events, events, None::<fn(&T) -> String>)),
        }
    }

    /// A Markdown document, printed as is (a final newline is added when missing).
    pub fn document(markdown: impl Into<String>) -> Reply {
        Reply {
            body: Body::Document(markdown.into()),
        }
    }

    /// Nothing on stdout; success is the exit code.
    pub fn none() -> Reply {
        Reply {
            body: Body::Nothing,
        }
    }
}

/// Monomorphises the per-item work for `T` and hides it behind one boxed closure.
fn erase<T, I, F>(kind: StreamKind, items: I, text: Option<F>) -> Stream
where
    T: Serialize + 'static,
    I: IntoIterator<Item = Result<T, Error>>,
    I::IntoIter: 'static,
    F: Fn(&T) -> String + 'static,
{
    let mut items = items.into_iter();
    let next = move |encoding: Encoding, buf: &mut Vec<u8>| {
        let item = match items.next()? {
            Ok(item) => item,
            Err(err) => return Some(Err(err)),
        };
        let written = match (encoding, &text) {
            (Encoding::Json, _) => serde_json::to_writer(&mut *buf, &item).map_err(serialise_error),
            (Encoding::Human, Some(text)) => {
                buf.extend_from_slice(text(&item).as_bytes());
                Ok(())
            }
            (Encoding::Human, None) => human::item_line(&item, buf),
        };
        Some(written)
    };
    Stream {
        kind,
        next: Box::new(next),
        page: None,
    }
}
