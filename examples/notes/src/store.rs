//! The store: one directory per notebook, one `<note>.json` file per note. `Notes` serves the
//! resource verbs over it; the runtime has already matched each path to its template, so a
//! method only asks which template and reads the placeholders.
//!
//! Every file is reached through [`pas::store::Root`], confined to the store's directory: a
//! symbolic link in the store that leads outside it (a note linked to `~/.ssh/config`, a
//! notebook linked to `/etc`) is never read, listed, written or deleted through; the call fails
//! with `PATH_ESCAPES_ROOT` instead.

use std::path::PathBuf;

use pas::resources::{Copied, CopySource, Entry, Removed, ResourcePath, Stat, wildcard_matches};
use pas::store::{EntryKind, Root};
use pas::{Context, Error, Items, Resources};
use serde_json::Value;

use crate::Globals;

const NOTEBOOKS: &str = "/notebooks";
const NOTEBOOK: &str = "/notebooks/{notebook}";
const NOTE: &str = "/notebooks/{notebook}/{note}";

/// The resource handlers.
pub struct Notes;

/// The store of one call.
pub struct Store {
    path: PathBuf,
}

impl Store {
    /// `--store`, else `$XDG_DATA_HOME/notes`, else `~/.local/share/notes`.
    pub fn at(globals: &Globals) -> Store {
        let path = globals.store.clone().unwrap_or_else(|| {
            pas::xdg::data_home()
                .unwrap_or_else(|| PathBuf::from("."))
                .join("notes")
        });
        Store { path }
    }

    /// The store to read: `None` while nobody has written one (it holds no notebooks).
    fn reading(&self) -> Result<Option<Root>, Error> {
        Root::open_existing(&self.path)
    }

    /// The store to write, created when missing.
    fn writing(&self) -> Result<Root, Error> {
        Root::open(&self.path).map_err(unwritable)
    }

    /// The notebooks, sorted (none when the store does not exist yet).
    fn notebooks(&self) -> Result<Vec<String>, Error> {
        let Some(root) = self.reading()? else {
            return Ok(Vec::new());
        };
        let entries = root.list("")?.unwrap_or_default();
        Ok(entries
            .into_iter()
            .filter(|e| e.kind == EntryKind::Dir && plain(&e.name).is_ok())
            .map(|e| e.name)
            .collect())
    }

    /// The notes of a notebook with their sizes, sorted.
    fn notes(&self, notebook: &str) -> Result<Vec<(String, u64)>, Error> {
        let missing = || not_found(&format!("/notebooks/{notebook}"));
        let root = self.reading()?.ok_or_else(missing)?;
        let entries = root.list(plain(notebook)?)?.ok_or_else(missing)?;
        Ok(entries
            .into_iter()
            .filter(|e| e.kind == EntryKind::File)
            .filter_map(|e| {
                let note = e.name.strip_suffix(".json")?;
                plain(note).ok()?;
                Some((note.to_owned(), e.size))
            })
            .collect())
    }

    /// A note's bytes, or `None` when it is not there.
    fn read_note(&self, notebook: &str, note: &str) -> Result<Option<Vec<u8>>, Error> {
        match self.reading()? {
            Some(root) => root.read(note_file(notebook, note)?),
            None => Ok(None),
        }
    }

    /// `(notebook, note)` of every note whose JSON text contains `query`, any case.
    pub fn search(&self, query: &str, only: Option<&str>) -> Result<Vec<(String, String)>, Error> {
        let query = query.to_lowercase();
        let notebooks = match only {
            Some(notebook) => vec![notebook.to_owned()],
            None => self.notebooks()?,
        };
        let mut found = Vec::new();
        for notebook in notebooks {
            for (note, _) in self.notes(&notebook)? {
                let bytes = self.read_note(&notebook, &note)?.unwrap_or_default();
                if String::from_utf8_lossy(&bytes)
                    .to_lowercase()
                    .contains(&query)
                {
                    found.push((notebook.clone(), note));
                }
            }
        }
        Ok(found)
    }
}

/// A note's file, relative to the store.
fn note_file(notebook: &str, note: &str) -> Result<String, Error> {
    Ok(format!("{}/{}.json", plain(notebook)?, plain(note)?))
}

/// A notebook or note name: letters, digits, `-`, `_` and `.`, not starting with `.`.
fn plain(name: &str) -> Result<&str, Error> {
    let ok = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(name)
    } else {
        Err(
            Error::invalid_argument(format!("{name:?} is not a notebook or note name"))
                .with_suggestion("use letters, digits, `-`, `_` and `.`, e.g. `shopping-list`"),
        )
    }
}

/// A store failure while writing is `STORE_UNWRITABLE` (an escape keeps its own code).
fn unwritable(error: Error) -> Error {
    if error.code() != pas::codes::GENERAL_ERROR {
        return error;
    }
    let mut mapped = Error::new("STORE_UNWRITABLE", error.message().to_owned())
        .with_suggestion("check that --store (or NOTES_STORE) names a writable directory");
    if let Some(details) = error.details() {
        mapped = mapped.with_details(details.clone());
    }
    mapped
}

fn not_found(path: &str) -> Error {
    Error::new("NOT_FOUND", format!("nothing at {path}"))
        .with_suggestion("notes --agent ls /notebooks lists what exists")
}

/// The placeholder a matched template always has.
fn param<'a>(path: &'a ResourcePath, name: &str) -> &'a str {
    path.param(name).unwrap_or_default()
}

/// A note's content from the bytes of a source: a JSON object as it is; text that is not JSON
/// (from a file not named `.json`) becomes `{"text": ...}`.
fn note_from(bytes: &[u8], json_name: bool) -> Result<Value, Error> {
    let invalid = |why: &str| {
        Error::new("INVALID_NOTE", format!("the source {why}"))
            .with_suggestion("a note is one JSON object, e.g. {\"title\": \"Milk\"}")
    };
    match serde_json::from_slice::<Value>(bytes) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(_) => Err(invalid("is JSON but not an object")),
        Err(_) if json_name => Err(invalid("is not valid JSON")),
        Err(_) => match std::str::from_utf8(bytes) {
            Ok(text) => Ok(serde_json::json!({ "text": text })),
            Err(_) => Err(invalid("is neither JSON nor UTF-8 text")),
        },
    }
}

/// A note's bytes as written: pretty JSON and a newline.
fn note_bytes(value: &Value) -> Result<Vec<u8>, Error> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| Error::internal(e.to_string()))?;
    bytes.push(b'\n');
    Ok(bytes)
}

impl Resources for Notes {
    type Globals = Globals;

    fn ls(
        &self,
        globals: &Globals,
        path: &ResourcePath,
        _: &Context,
    ) -> Result<Items<Entry>, Error> {
        let store = Store::at(globals);
        let entries: Vec<Entry> = match path.template() {
            Some(NOTEBOOKS) => store
                .notebooks()?
                .into_iter()
                .map(|name| Entry::dir(path.child(&name)).with_name(name))
                .collect(),
            _ => store
                .notes(param(path, "notebook"))?
                .into_iter()
                .map(|(note, size)| Entry::file(path.child(&note)).with_id(note).with_size(size))
                .collect(),
        };
        Ok(Items::ok(entries))
    }

    fn cat(&self, globals: &Globals, path: &ResourcePath, _: &Context) -> Result<Value, Error> {
        let store = Store::at(globals);
        let Some(bytes) = store.read_note(param(path, "notebook"), param(path, "note"))? else {
            return Err(not_found(path.as_str()));
        };
        serde_json::from_slice(&bytes).map_err(|err| {
            Error::new("INVALID_NOTE", format!("{path} is not valid JSON: {err}")).with_suggestion(
                format!("notes --agent feedback {path} --level error --message \"invalid JSON\""),
            )
        })
    }

    fn stat(&self, globals: &Globals, path: &ResourcePath, _: &Context) -> Result<Stat, Error> {
        let store = Store::at(globals);
        if path.template() == Some(NOTEBOOKS) {
            return Ok(Stat::dir(path.as_str()));
        }
        let notebook = param(path, "notebook");
        let (relative, want) = match path.template() {
            Some(NOTEBOOK) => (plain(notebook)?.to_owned(), EntryKind::Dir),
            _ => (note_file(notebook, param(path, "note"))?, EntryKind::File),
        };
        let found = match store.reading()? {
            Some(root) => root.metadata(&relative)?,
            None => None,
        };
        let meta = found
            .filter(|m| m.kind == want)
            .ok_or_else(|| not_found(path.as_str()))?;
        let stat = match want {
            EntryKind::Dir => Stat::dir(path.as_str()),
            _ => Stat::file(path.as_str(), meta.size),
        };
        Ok(match meta.modified {
            Some(time) => stat.with_modified(pas::time::rfc3339(time)),
            None => stat,
        })
    }

    fn cp(
        &self,
        globals: &Globals,
        source: &CopySource,
        dest: &ResourcePath,
        ctx: &Context,
    ) -> Result<Copied, Error> {
        let store = Store::at(globals);
        let target = note_file(param(dest, "notebook"), param(dest, "note"))?;
        let content = match source {
            CopySource::Local(file) => {
                // Bounded (a pipe or a huge file past the runtime's input limit is an
                // INVALID_ARGUMENT, never a read into all of memory).
                let bytes = pas::input::read_file(file).map_err(|err| {
                    if err.code() == pas::codes::INVALID_ARGUMENT {
                        return err;
                    }
                    Error::new("SOURCE_UNREADABLE", err.message().to_owned())
                        .with_suggestion("give a readable local file, or a note's path")
                })?;
                let json_name = file.extension().is_some_and(|ext| ext == "json");
                note_from(&bytes, json_name)?
            }
            CopySource::Resource(from) if from.template() == Some(NOTE) => {
                self.cat(globals, from, ctx)?
            }
            CopySource::Resource(from) => {
                return Err(Error::invalid_argument(format!(
                    "{from} is a notebook; cp copies one note"
                ))
                .with_suggestion("notes --agent sync copies a whole notebook to disk"));
            }
        };
        let bytes = store
            .writing()?
            .write(&target, &note_bytes(&content)?)
            .map_err(unwritable)?;
        Ok(Copied::new(dest.as_str()).with_bytes(bytes))
    }

    fn rm(&self, globals: &Globals, path: &ResourcePath, _: &Context) -> Result<Removed, Error> {
        let store = Store::at(globals);
        let notebook = param(path, "notebook");
        let Some(root) = store.reading()? else {
            return Ok(Removed::absent(path.as_str()));
        };
        let deleted = match path.template() {
            Some(NOTE) if path.is_pattern() => {
                // `--force` was given (the runtime refuses a wildcard without it).
                let pattern = param(path, "note");
                let mut deleted = false;
                for (note, _) in store.notes(notebook)? {
                    if wildcard_matches(pattern, &note) {
                        deleted |= root.remove_file(note_file(notebook, &note)?)?;
                    }
                }
                deleted
            }
            Some(NOTE) => root.remove_file(note_file(notebook, param(path, "note"))?)?,
            // A notebook that is a link is removed as a link; what it points at stays.
            _ => root.remove_dir_all(plain(notebook)?)?,
        };
        Ok(if deleted {
            Removed::deleted(path.as_str())
        } else {
            Removed::absent(path.as_str())
        })
    }
}
