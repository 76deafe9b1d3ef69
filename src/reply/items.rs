//! `Items<T>`: the stream of typed items a spec-first handler returns for a `list` or `events`
//! command. It is a `Reply::list` (or `Reply::events`) not yet built: the generated `app` turns it
//! into one, so the handler's signature names the item type its spec promises.

use serde::Serialize;

use crate::error::Error;
use crate::reply::Reply;

/// The line of text people see for one item.
type Text<T> = Box<dyn Fn(&T) -> String>;

/// Items produced one by one (written as produced, never collected), with an optional line of
/// text per item for people.
pub struct Items<T> {
    items: Box<dyn Iterator<Item = Result<T, Error>>>,
    text: Option<Text<T>>,
}

impl<T: Serialize + 'static> Items<T> {
    /// Items that may fail one by one: an `Err` ends the stream after the items before it.
    pub fn new<I>(items: I) -> Self
    where
        I: IntoIterator<Item = Result<T, Error>>,
        I::IntoIter: 'static,
    {
        Items {
            items: Box::new(items.into_iter()),
            text: None,
        }
    }

    /// Items that cannot fail one by one (already in memory, or from an infallible iterator);
    /// [`Items::new`] takes `Result`s, so that one item's error ends the list after the lines
    /// already written.
    pub fn ok<I>(items: I) -> Self
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: 'static,
    {
        Items::new(items.into_iter().map(Ok))
    }

    /// The line people see for each item without `--agent` (agents still get JSON).
    pub fn with_text(mut self, text: impl Fn(&T) -> String + 'static) -> Self {
        self.text = Some(Box::new(text));
        self
    }

    /// The reply of a `list` command.
    pub fn into_list(self) -> Reply {
        match self.text {
            Some(text) => Reply::list_with_text(self.items, text),
            None => Reply::list(self.items),
        }
    }

    /// The reply of an `events` command.
    pub fn into_events(self) -> Reply {
        Reply::events(self.items)
    }
}

impl<T: Serialize + 'static> From<Vec<T>> for Items<T> {
    fn from(items: Vec<T>) -> Self {
        Items::ok(items)
    }
}

/// The items themselves, for code that consumes a handler's stream (the default `sync` walks
/// the tool's own `ls` this way).
impl<T> IntoIterator for Items<T> {
    type Item = Result<T, Error>;
    type IntoIter = Box<dyn Iterator<Item = Result<T, Error>>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items
    }
}
