//! JSON pointer to file position, for both YAML and JSON sources.
//!
//! The validator works on the registry alone and names each problem by a JSON pointer; this map
//! turns the pointer back into a line and column. It is built from the YAML event stream
//! (granit-parser, which serde-saphyr re-exports), which also reads JSON, so one walk serves both
//! formats. The walk itself is in `walk`; this file holds the map and its lookups.

mod walk;

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crate::{Diagnostic, Location, Source};

pub(crate) use walk::{Indexed, WalkError, index};

/// How a node is reached from its parent: a sequence index or a mapping key.
///
/// Indices are kept apart from names so a sequence item costs no allocation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    /// The n-th item of a sequence.
    Index(u32),
    /// The value of a mapping key.
    Name(Box<str>),
}

/// Where each node of a spec document starts.
///
/// Stored as a tree (node id to position, and (parent, key) to child) rather than as a map from
/// pointer strings: pointer strings repeat every ancestor key, so a hostile document with long keys
/// nested deep would make them quadratic in size, while the tree stays linear in the input.
#[derive(Debug, Default)]
pub struct SourceMap {
    /// 1-based (line, column) of each node (a mapping entry's key); node 0 is the root. Empty
    /// when the source did not parse.
    positions: Vec<(u32, u32)>,
    /// Where each node's value starts (after its key, for a mapping entry): shape errors, such
    /// as a wrong type, are shown there.
    values: Vec<(u32, u32)>,
    /// The child of a node under a key.
    children: HashMap<(u32, Key), u32>,
}

/// The root's position: the document as a whole is reported at its first character.
const ROOT: (u32, u32) = (1, 1);

impl SourceMap {
    /// Index a source's nodes by JSON pointer: a mapping entry at its key, a sequence item at the
    /// item. A source that does not parse gives an empty map (lookups then fall back to 1:1).
    pub fn build(source: &Source) -> SourceMap {
        match index(&source.text) {
            Ok(indexed) => indexed.map,
            Err(_) => SourceMap::default(),
        }
    }

    /// The position of the node at `pointer` (RFC 6901), when the document has that node.
    pub fn position(&self, pointer: &str) -> Option<(u32, u32)> {
        let (node, exact) = self.deepest(pointer)?;
        exact.then(|| self.positions[node as usize])
    }

    /// Where the value of the node at `pointer` starts (for a mapping entry, after its key).
    pub(crate) fn value_position(&self, pointer: &str) -> Option<(u32, u32)> {
        let (node, exact) = self.deepest(pointer)?;
        exact.then(|| self.values[node as usize])
    }

    /// The position of the node at `pointer`, or of its deepest ancestor in the document,
    /// or 1:1 when not even the root is known.
    pub fn nearest(&self, pointer: &str) -> (u32, u32) {
        match self.deepest(pointer) {
            Some((node, _)) => self.positions[node as usize],
            None => ROOT,
        }
    }

    /// Fill in the location of each diagnostic that has none, from its pointer (falling back to
    /// the longest ancestor pointer the document has).
    pub fn locate(&self, file: &str, diagnostics: &mut [Diagnostic]) {
        for diagnostic in diagnostics.iter_mut().filter(|d| d.location.is_none()) {
            let (line, column) = self.nearest(&diagnostic.pointer);
            diagnostic.location = Some(Location {
                file: file.to_owned(),
                line,
                column,
            });
        }
    }

    /// Number of nodes indexed (the root included); 0 when the source did not parse.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether nothing was indexed (the source did not parse).
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Follow `pointer` from the root as far as the document goes: the last node reached and
    /// whether it is the pointer's own node. `None` when the map is empty or the pointer is not
    /// a JSON pointer.
    fn deepest(&self, pointer: &str) -> Option<(u32, bool)> {
        if self.positions.is_empty() {
            return None;
        }
        if pointer.is_empty() {
            return Some((0, true));
        }
        let rest = pointer.strip_prefix('/')?;
        let mut node = 0u32;
        for token in rest.split('/') {
            match self.child(node, &unescape(token)) {
                Some(child) => node = child,
                None => return Some((node, false)),
            }
        }
        Some((node, true))
    }

    /// The child of `node` under a pointer token: a mapping key, or a sequence index.
    fn child(&self, node: u32, token: &str) -> Option<u32> {
        let by_name = self.children.get(&(node, Key::Name(token.into())));
        by_name.copied().or_else(|| {
            let index = array_index(token)?;
            self.children.get(&(node, Key::Index(index))).copied()
        })
    }

    /// Add a node at `position` whose value is at `value`. When its parent already has a child
    /// under that key (a duplicate key), nothing is added and the error holds that child and
    /// the key.
    fn insert(
        &mut self,
        parent: u32,
        key: Key,
        position: (u32, u32),
        value: (u32, u32),
    ) -> Result<u32, (u32, Key)> {
        // The walk stops at `MAX_NODES`, far below `u32::MAX`.
        let id = u32::try_from(self.positions.len()).unwrap_or(u32::MAX);
        match self.children.entry((parent, key)) {
            Entry::Occupied(first) => Err((*first.get(), first.key().1.clone())),
            Entry::Vacant(slot) => {
                slot.insert(id);
                self.positions.push(position);
                self.values.push(value);
                Ok(id)
            }
        }
    }

    /// Start the map with its root node.
    fn with_root() -> SourceMap {
        SourceMap {
            positions: vec![ROOT],
            values: vec![ROOT],
            children: HashMap::new(),
        }
    }

    /// The position a node was recorded at.
    fn position_of(&self, node: u32) -> (u32, u32) {
        self.positions[node as usize]
    }
}

/// Undo RFC 6901 escaping of one token (`~1` is `/`, `~0` is `~`, in that order).
fn unescape(token: &str) -> String {
    if token.contains('~') {
        token.replace("~1", "/").replace("~0", "~")
    } else {
        token.to_owned()
    }
}

/// A pointer token read as an array index: digits only, no leading zero (RFC 6901).
fn array_index(token: &str) -> Option<u32> {
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if !digits || (token.len() > 1 && token.starts_with('0')) {
        return None;
    }
    token.parse().ok()
}
