//! What a handler returns: one object, a stream of items or events, a document, or nothing.
//!
//! A reply is profile-neutral. Streams are type-erased behind one boxed closure that is generic
//! inside: it pulls the next item and serialises it straight into the runtime's reusable line
//! buffer (`serde_json::to_writer`), so the only dynamic call per item is the closure itself and
//! nothing is buffered beyond one line. The profile picks the encoding (JSON for machines, text
//! for people) before the first item, so items are serialised once.

pub(crate) mod human;
pub(crate) mod items;

use serde::Serialize;

use crate::error::{Error, serialise_error};

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

/// Pulls the next item and appends it to the buffer (after what it holds): `None` at the end,
/// `Some(Err)` when the producer (or serialisation) failed. On `Some(Err)` what was appended is
/// unspecified and is discarded.
pub(crate) type NextItem = Box<dyn FnMut(Encoding, &mut ItemOut<'_>) -> Option<Result<(), Error>>>;

/// Where a stream's next item is appended: a buffer that only grows at its end.
///
/// The render loop hands a batched stream the very buffer it has published for a signal
/// (`render::pending`), so an item is serialised straight into its place among the whole lines
/// with no copy. That buffer must never reallocate while published (a signal or the flusher
/// may be reading its first lines), so an item that outgrows its capacity moves the buffer into
/// a new, larger allocation and keeps the published one, untouched, in `kept` until the render
/// loop has published the new one under the output lock. A buffer owned by its caller (every
/// other reader of a stream) simply grows.
pub(crate) struct ItemOut<'a> {
    buf: &'a mut Vec<u8>,
    /// `Some` for a published buffer: where its allocation is kept when an item outgrows it.
    kept: Option<&'a mut Option<Vec<u8>>>,
}

impl<'a> ItemOut<'a> {
    /// A buffer of the caller's own, which may grow as it likes.
    pub(crate) fn new(buf: &'a mut Vec<u8>) -> Self {
        ItemOut { buf, kept: None }
    }

    /// A published buffer: it never reallocates; an item that does not fit moves it to a new
    /// allocation and leaves the published one in `kept` (which must be `None`).
    pub(crate) fn published(buf: &'a mut Vec<u8>, kept: &'a mut Option<Vec<u8>>) -> Self {
        ItemOut {
            buf,
            kept: Some(kept),
        }
    }

    /// The buffer's bytes: what it held before, then what the item appended so far.
    #[inline]
    pub(crate) fn bytes(&self) -> &[u8] {
        self.buf
    }

    /// Its length.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.buf.len()
    }

    /// Appends `bytes`.
    #[inline]
    pub(crate) fn extend_from_slice(&mut self, bytes: &[u8]) {
        // One test on the hot path: `Vec`'s own test for room is the same one, which the
        // compiler folds into this when nothing happens between them.
        if self.buf.capacity() - self.buf.len() >= bytes.len() {
            self.buf.extend_from_slice(bytes);
        } else {
            self.make_room_for(bytes);
        }
    }

    /// Drops what was appended after `len` (a wrapper rewriting an item in place).
    #[inline]
    pub(crate) fn truncate(&mut self, len: usize) {
        self.buf.truncate(len);
    }

    /// Appends `bytes` where the buffer has no room for them: a published buffer moves to a
    /// new allocation (the old one kept for the render loop), any other grows as a `Vec` does.
    #[cold]
    #[inline(never)]
    fn make_room_for(&mut self, bytes: &[u8]) {
        if let Some(kept) = &mut self.kept
            && kept.is_none()
        {
            let need = self.buf.len() + bytes.len();
            let mut grown = Vec::with_capacity(need.max(self.buf.capacity() * 2));
            grown.extend_from_slice(self.buf);
            **kept = Some(std::mem::replace(self.buf, grown));
        }
        self.buf.extend_from_slice(bytes);
    }
}

impl std::io::Write for ItemOut<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

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
    let next = move |encoding: Encoding, buf: &mut ItemOut<'_>| {
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
