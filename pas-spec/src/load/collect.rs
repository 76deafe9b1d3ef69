//! Every shape problem of a spec in one run, not just the first.
//!
//! serde stops at the first problem, so after the exact first diagnostic the spec is read a
//! second way: as a generic JSON value (which any well-formed document is), then deserialized
//! into the registry again and again. Each failure is reported and repaired in the value before
//! the next try: a misspelt key is renamed to the key it was meant to be, an unknown key or a
//! value of the wrong type is dropped, a mapping missing a required key is dropped whole. The
//! repairs are generic (they follow whatever serde says about the model), so keys added to the
//! model later are covered without a change here.
//!
//! When every repair was a rename, the repaired registry is what the author meant, and the
//! validator can check it in the same run.

use std::collections::HashMap;

use serde_json::Value;

use super::report::{self, Problem};
use super::{Format, Source, json, yaml};
use crate::{Diagnostic, Location, Registry, SourceMap};

/// At most this many tries (each a full deserialization) after the first diagnostic: bounds the
/// work on a hostile spec with thousands of mistakes.
const MAX_TRIES: usize = 64;

/// The tries a text of `len` bytes gets: all of them for a spec of a normal size, fewer for a
/// huge one, so the whole collection costs about as much as reading 4 MiB of spec 64 times.
fn tries(len: usize) -> usize {
    (64 * 64 * 1024 / len.max(1)).clamp(4, MAX_TRIES)
}

/// What a second reading found.
pub(super) struct Collected {
    /// The first diagnostic, then every further one, in document order.
    pub diagnostics: Vec<Diagnostic>,
    /// The registry, when every repair was a rename of a misspelt key (so it is what the author
    /// meant, and worth validating).
    pub repaired: Option<Registry>,
}

/// Every shape problem of `source`, given the first one the exact parser reported.
pub(super) fn collect(source: &Source, first: Diagnostic) -> Collected {
    let single = |first| Collected {
        diagnostics: vec![first],
        repaired: None,
    };
    // Only shape problems (wrong types, unknown keys, missing keys, unknown values) leave a
    // readable document; syntax errors, budgets and duplicate keys end the reading.
    if !matches!(first.code, "E006" | "E007") {
        return single(first);
    }
    let Some(mut value) = generic_value(source) else {
        return single(first);
    };
    let map = SourceMap::build(source);
    let document = value.clone();
    let mut first = first;
    name_owner(&mut first, &document);
    let mut state = State {
        source,
        map: &map,
        diagnostics: vec![first],
        dropped: Vec::new(),
        removed: HashMap::new(),
        lossless: true,
    };
    let mut repaired = None;
    for _ in 0..tries(source.text.len()) {
        match serde_path_to_error::deserialize::<_, Registry>(&value) {
            Ok(registry) => {
                repaired = Some(registry);
                break;
            }
            Err(error) => {
                let pointer = report::pointer(error.path());
                let message = error.inner().to_string();
                let (problem, pointer) = json::data_problem(&message, pointer);
                let original = state.original(&value, &pointer);
                if !state.repair(&mut value, problem, pointer, original) {
                    break;
                }
            }
        }
    }
    let lossless = state.lossless;
    let mut diagnostics = state.diagnostics;
    for diagnostic in &mut diagnostics[1..] {
        name_owner(diagnostic, &document);
    }
    diagnostics.sort_by_key(|d| d.location.as_ref().map(|l| (l.line, l.column)));
    Collected {
        diagnostics,
        repaired: repaired.filter(|_| lossless),
    }
}

/// The document as a generic value, read with the same parser options as the registry.
fn generic_value(source: &Source) -> Option<Value> {
    match source.format {
        Format::Yaml => yaml::generic(&source.text),
        Format::Json => {
            let text = source.text.strip_prefix('\u{FEFF}').unwrap_or(&source.text);
            serde_json::from_str(text).ok()
        }
    }
}

struct State<'a> {
    source: &'a Source,
    map: &'a SourceMap,
    diagnostics: Vec<Diagnostic>,
    /// Pointers of values dropped for their type: a "missing key" there is a consequence.
    dropped: Vec<String>,
    /// The indexes (in the file) of the items removed from each list, by the list's pointer in
    /// the file: later pointers into that list are shifted back by them.
    removed: HashMap<String, Vec<usize>>,
    /// Whether every repair so far was a rename.
    lossless: bool,
}

impl State<'_> {
    /// The pointer in the file of the node at `pointer` in the repaired value.
    fn original(&self, value: &Value, pointer: &str) -> String {
        let mut original = String::new();
        let mut node = Some(value);
        for token in pointer.split('/').skip(1) {
            let token_text = token.replace("~1", "/").replace("~0", "~");
            let index = token.parse::<usize>().ok();
            match (node, index) {
                (Some(Value::Array(items)), Some(index)) => {
                    node = items.get(index);
                    let mut shifted = index;
                    for &gone in self.removed.get(&original).into_iter().flatten() {
                        if gone <= shifted {
                            shifted += 1;
                        }
                    }
                    original.push('/');
                    original.push_str(&shifted.to_string());
                }
                (Some(Value::Object(object)), _) => {
                    node = object.get(&token_text);
                    original.push('/');
                    original.push_str(token);
                }
                _ => {
                    node = None;
                    original.push('/');
                    original.push_str(token);
                }
            }
        }
        original
    }

    /// Report `problem` at `pointer` (unless already reported or a consequence of a repair),
    /// then repair the value so the next try gets further. False when nothing can be repaired.
    fn repair(
        &mut self,
        value: &mut Value,
        problem: Problem,
        pointer: String,
        original: String,
    ) -> bool {
        match problem {
            Problem::UnknownKey { key, expected } => {
                let meant = report::did_you_mean(&key, &expected).map(str::to_owned);
                self.report(Problem::UnknownKey { key, expected }, original);
                let Some((parent, key)) = split(&pointer) else {
                    return false;
                };
                let Some(Value::Object(object)) = value.pointer_mut(&parent) else {
                    return false;
                };
                let Some(found) = object.remove(&key) else {
                    return false;
                };
                match meant {
                    Some(meant) if !object.contains_key(&meant) => {
                        object.insert(meant, found);
                    }
                    _ => self.lossless = false,
                }
                true
            }
            Problem::MissingKey(key) => {
                let consequence = self.dropped.contains(&format!("{original}/{key}"));
                if !consequence {
                    self.report(Problem::MissingKey(key), original.clone());
                }
                self.drop(value, &pointer, original)
            }
            problem => {
                self.report(problem, original.clone());
                self.drop(value, &pointer, original)
            }
        }
    }

    /// Remove the node at `pointer` from its parent; false at the root or when it is gone.
    fn drop(&mut self, value: &mut Value, pointer: &str, original: String) -> bool {
        self.lossless = false;
        let Some((parent, last)) = split(pointer) else {
            return false;
        };
        let removed = match value.pointer_mut(&parent) {
            Some(Value::Object(object)) => object.remove(&last).is_some(),
            Some(Value::Array(items)) => match last.parse::<usize>() {
                Ok(index) if index < items.len() => {
                    items.remove(index);
                    if let Some((list, index)) = split(&original) {
                        let gone = self.removed.entry(list).or_default();
                        if let Ok(index) = index.parse::<usize>() {
                            let at = gone.partition_point(|&g| g < index);
                            gone.insert(at, index);
                        }
                    }
                    true
                }
                _ => false,
            },
            _ => false,
        };
        if removed {
            self.dropped.push(original);
        }
        removed
    }

    /// Word and locate `problem`, unless a diagnostic already names that node.
    fn report(&mut self, problem: Problem, pointer: String) {
        if self.diagnostics.iter().any(|d| d.pointer == pointer) {
            return;
        }
        let position = match &problem {
            Problem::WrongType { .. }
            | Problem::InvalidValue { .. }
            | Problem::UnknownValue { .. } => self.map.value_position(&pointer),
            _ => self.map.position(&pointer),
        }
        .unwrap_or_else(|| self.map.nearest(&pointer));
        let location = Location {
            file: self.source.name.clone(),
            line: position.0,
            column: position.1,
        };
        self.diagnostics
            .push(report::diagnostic(problem, pointer, location));
    }
}

/// Messages name things by their names: "in a command" becomes "in the command `add`" when the
/// command (parameter, exit code) at the diagnostic's pointer has a name in the document.
fn name_owner(diagnostic: &mut Diagnostic, document: &Value) {
    let tokens: Vec<&str> = diagnostic.pointer.split('/').skip(1).collect();
    let owners = [
        ("commands", "a command", "the command"),
        ("parameters", "a parameter", "the parameter"),
        ("globalFlags", "a parameter", "the global flag"),
        ("exitCodes", "an exit code", "the exit code"),
    ];
    // The innermost named item on the pointer's way is the one a message speaks of.
    for end in (1..tokens.len()).rev() {
        let Some(&(_, vague, named)) = owners.iter().find(|(list, ..)| *list == tokens[end - 1])
        else {
            continue;
        };
        let item = format!("/{}", tokens[..=end].join("/"));
        let Some(name) = document
            .pointer(&item)
            .and_then(|item| item.get("name"))
            .and_then(Value::as_str)
        else {
            return;
        };
        let phrase = format!("in {vague}");
        if diagnostic.message.contains(&phrase) {
            let name = report::quote(name);
            diagnostic.message =
                diagnostic
                    .message
                    .replacen(&phrase, &format!("in {named} `{name}`"), 1);
        }
        return;
    }
}

/// A pointer's parent pointer and its last token (unescaped); None for the root.
fn split(pointer: &str) -> Option<(String, String)> {
    let slash = pointer.rfind('/')?;
    let last = pointer[slash + 1..].replace("~1", "/").replace("~0", "~");
    Some((pointer[..slash].to_owned(), last))
}
