//! One pass over the YAML event stream that records where every node starts.
//!
//! The walk is iterative (an explicit stack, never recursion), stops at the loader's depth and
//! node limits, and reads only the first document, so it is linear in the input and safe on
//! hostile text. It also notices the first duplicate mapping key: serde_json keeps the last value
//! of a repeated key inside free-form maps (e.g. `outputSchema`), so the JSON loader relies on
//! this pass to reject them.

use serde_saphyr::granit_parser::{ErrorKind, Event, Marker, Parser};

use super::{Key, SourceMap};
use crate::diagnostic::pointer_token;
use crate::load::{MAX_DEPTH, MAX_NODES};

/// A source map, and the first duplicate key met on the way.
pub(crate) struct Indexed {
    /// Every node's position.
    pub map: SourceMap,
    /// The first mapping key that repeats an earlier key of the same mapping.
    pub duplicate: Option<Duplicate>,
}

/// A repeated mapping key.
pub(crate) struct Duplicate {
    /// JSON pointer of the repeated entry.
    pub pointer: String,
    /// The key as written (after YAML/JSON unescaping).
    pub key: String,
    /// Where the repeat is.
    pub at: (u32, u32),
    /// Where the key first appears.
    pub first: (u32, u32),
}

/// Why the walk stopped before the end of the first document.
#[derive(Debug)]
pub(crate) enum WalkError {
    /// The text is not YAML (or JSON); the loader's own parsers say why.
    Syntax,
    /// Collections nest deeper than [`MAX_DEPTH`].
    TooDeep {
        /// The first collection past the limit.
        at: (u32, u32),
    },
    /// More than [`MAX_NODES`] nodes.
    TooManyNodes {
        /// The first node past the limit.
        at: (u32, u32),
    },
}

/// Index the first YAML (or JSON) document of `text`.
pub(crate) fn index(text: &str) -> Result<Indexed, WalkError> {
    let mut options = serde_saphyr::granit_parser::Options::default();
    options.set_emit_comments(false);
    // The parser's own limits sit just above ours, so our error (with its position) comes first
    // and the parser's state stays small on `[[[[...`.
    options.flow_nesting_limit = MAX_DEPTH + 2;
    options.block_nesting_limit = MAX_DEPTH + 2;
    let parser = Parser::new_from_str_with_options(text, options);

    let mut walker = Walker {
        map: SourceMap::with_root(),
        stack: Vec::new(),
        root_seen: false,
        nodes: 0,
        duplicate: None,
    };
    for item in parser {
        let (event, span) = item.map_err(|error| match error.kind() {
            // The scanner looks ahead, so on `[[[[...` its nesting limit can trip before ours.
            ErrorKind::RecursionLimitExceeded => WalkError::TooDeep {
                at: position(error.marker()),
            },
            _ => WalkError::Syntax,
        })?;
        let at = position(&span.start);
        match event {
            Event::Scalar(value, ..) => walker.node(Node::Scalar(&value), at)?,
            Event::Alias(_) => walker.node(Node::Alias, at)?,
            Event::SequenceStart(..) => walker.node(Node::Sequence, at)?,
            Event::MappingStart(..) => walker.node(Node::Mapping, at)?,
            Event::SequenceEnd | Event::MappingEnd => {
                walker.stack.pop();
            }
            // Only the first document is a spec; the loader rejects any other.
            Event::DocumentEnd if walker.root_seen => break,
            Event::StreamEnd => break,
            _ => {}
        }
    }
    Ok(Indexed {
        map: walker.map,
        duplicate: walker.duplicate,
    })
}

/// 1-based line and column of a parser marker (whose column is 0-based).
fn position(marker: &Marker) -> (u32, u32) {
    let line = u32::try_from(marker.line()).unwrap_or(u32::MAX).max(1);
    let column = u32::try_from(marker.col()).unwrap_or(u32::MAX - 1) + 1;
    (line, column)
}

/// The kind of node an event opens.
enum Node<'a> {
    Scalar(&'a str),
    Alias,
    Sequence,
    Mapping,
}

/// An open collection.
struct Frame {
    /// Its node in the map; `None` for a collection nobody can point at (a complex key, the
    /// value of such a key, or the repeat of a duplicate key), whose children are skipped too.
    node: Option<u32>,
    /// The key this collection was reached by (for pointers in duplicate reports).
    via: Option<Key>,
    /// What comes next inside it.
    next: Next,
}

/// What the next node inside an open collection is.
enum Next {
    /// The item at this index of a sequence.
    Item(u32),
    /// A mapping key.
    Key,
    /// The value of the key just read, with the key's position (`None` if it cannot be named).
    Value(Option<(Key, (u32, u32))>),
}

/// Where a node goes: (parent, key, key position) in the map, or nowhere.
type Slot = Option<(u32, Key, (u32, u32))>;

struct Walker {
    map: SourceMap,
    stack: Vec<Frame>,
    root_seen: bool,
    nodes: usize,
    duplicate: Option<Duplicate>,
}

impl Walker {
    /// Record one node (scalar, alias or the start of a collection) at `at`.
    fn node(&mut self, node: Node<'_>, at: (u32, u32)) -> Result<(), WalkError> {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return Err(WalkError::TooManyNodes { at });
        }
        let is_collection = matches!(node, Node::Sequence | Node::Mapping);
        // Decide where the node goes while the innermost frame is borrowed, then place it.
        let (slot, via): (Slot, Option<Key>) = match self.stack.last_mut() {
            None if self.root_seen => return Ok(()),
            None => {
                self.root_seen = true;
                (None, None)
            }
            Some(frame) => match std::mem::replace(&mut frame.next, Next::Key) {
                Next::Item(index) => {
                    frame.next = Next::Item(index.saturating_add(1));
                    let slot = frame.node.map(|parent| (parent, Key::Index(index), at));
                    (slot, is_collection.then_some(Key::Index(index)))
                }
                Next::Key => {
                    // Only a plain scalar key in an addressable mapping can be pointed at.
                    frame.next = Next::Value(match (&node, frame.node) {
                        (Node::Scalar(key), Some(_)) => Some((Key::Name((*key).into()), at)),
                        _ => None,
                    });
                    (None, None)
                }
                Next::Value(entry) => {
                    // Only a collection needs its key later (for pointers to what it holds).
                    let via = match (&entry, is_collection) {
                        (Some((key, _)), true) => Some(key.clone()),
                        _ => None,
                    };
                    let parent = frame.node;
                    let slot = entry.and_then(|(key, key_at)| Some((parent?, key, key_at)));
                    (slot, via)
                }
            },
        };
        let id = if self.stack.is_empty() {
            self.map.values[0] = at;
            Some(0)
        } else {
            self.place(slot, at)
        };
        if is_collection {
            let next = match node {
                Node::Sequence => Next::Item(0),
                _ => Next::Key,
            };
            self.stack.push(Frame {
                node: id,
                via,
                next,
            });
            if self.stack.len() > MAX_DEPTH {
                return Err(WalkError::TooDeep { at });
            }
        }
        Ok(())
    }

    /// Add a node whose value starts at `value` to the map; on a repeated key, note the first
    /// duplicate and skip the node.
    fn place(&mut self, slot: Slot, value: (u32, u32)) -> Option<u32> {
        let (parent, key, at) = slot?;
        let (first, key) = match self.map.insert(parent, key, at, value) {
            Ok(id) => return Some(id),
            Err(duplicate) => duplicate,
        };
        if self.duplicate.is_none() {
            self.duplicate = Some(Duplicate {
                pointer: self.pointer_to(&key),
                key: match key {
                    Key::Name(name) => name.into(),
                    Key::Index(index) => index.to_string(),
                },
                at,
                first: self.map.position_of(first),
            });
        }
        None
    }

    /// The JSON pointer of `key` inside the innermost open collection.
    fn pointer_to(&self, key: &Key) -> String {
        let mut pointer = String::new();
        let keys = self.stack.iter().filter_map(|frame| frame.via.as_ref());
        for key in keys.chain(std::iter::once(key)) {
            pointer.push('/');
            match key {
                Key::Index(index) => pointer.push_str(&index.to_string()),
                Key::Name(name) => pointer.push_str(&pointer_token(name)),
            }
        }
        pointer
    }
}
