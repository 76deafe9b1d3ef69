//! The store: one directory per notebook, one `<note>.json` file per note. `Notes` serves the
//! resource verbs over it; the runtime has already matched each path to its template, so a
//! method only asks which template and reads the placeholders.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use pas::resources::{Copied, CopySource, Entry, Removed, ResourcePath, Stat, wildcard_matches};
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
    root: PathBuf,
}

impl Store {
    /// `--store`, else `$XDG_DATA_HOME/notes`, else `~/.local/share/notes`.
    pub fn at(globals: &Globals) -> Store {
        let root = globals.store.clone().unwrap_or_else(|| {
            pas::xdg::data_home()
                .unwrap_or_else(|| PathBuf::from("."))
                .join("notes")
        });
        Store { root }
    }

    fn notebook_dir(&self, notebook: &str) -> Result<PathBuf, Error> {
        Ok(self.root.join(plain(notebook)?))
    }

    fn note_file(&self, notebook: &str, note: &str) -> Result<PathBuf, Error> {
        Ok(self
            .notebook_dir(notebook)?
            .join(format!("{}.json", plain(note)?)))
    }

    /// The notebooks, sorted (none when the store does not exist yet).
    fn notebooks(&self) -> Result<Vec<String>, Error> {
        sorted_names(
            &self.root,
            |path| path.is_dir(),
            |name| Some(name.to_owned()),
        )
    }

    /// The notes of a notebook, sorted.
    fn notes(&self, notebook: &str) -> Result<Vec<String>, Error> {
        let dir = self.notebook_dir(notebook)?;
        if !dir.is_dir() {
            return Err(not_found(&format!("/notebooks/{notebook}")));
        }
        sorted_names(
            &dir,
            |path| path.is_file(),
            |name| name.strip_suffix(".json").map(str::to_owned),
        )
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
            for note in self.notes(&notebook)? {
                let text = fs::read_to_string(self.note_file(&notebook, &note)?)?;
                if text.to_lowercase().contains(&query) {
                    found.push((notebook.clone(), note));
                }
            }
        }
        Ok(found)
    }
}

/// Names of the directory's entries that pass `keep`, mapped by `name`, sorted. A missing
/// directory has none.
fn sorted_names(
    dir: &Path,
    keep: impl Fn(&Path) -> bool,
    name: impl Fn(&str) -> Option<String>,
) -> Result<Vec<String>, Error> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(err.into()),
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry?;
        let path = entry.path();
        if !keep(&path) {
            continue;
        }
        // Names that are not UTF-8 or not plain are no notes of ours.
        if let Some(found) = entry.file_name().to_str().and_then(&name)
            && plain(&found).is_ok()
        {
            names.push(found);
        }
    }
    names.sort();
    Ok(names)
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

/// Writes through a temporary file, so a reader never sees half a note.
fn write_note(file: &Path, value: &Value) -> Result<u64, Error> {
    let unwritable = |err: std::io::Error| {
        Error::new(
            "STORE_UNWRITABLE",
            format!("cannot write {}: {err}", file.display()),
        )
        .with_suggestion("check that --store (or NOTES_STORE) names a writable directory")
    };
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| Error::internal(e.to_string()))?;
    bytes.push(b'\n');
    if let Some(dir) = file.parent() {
        fs::create_dir_all(dir).map_err(unwritable)?;
    }
    let partial = file.with_extension("json.partial");
    fs::write(&partial, &bytes).map_err(unwritable)?;
    fs::rename(&partial, file).map_err(unwritable)?;
    Ok(bytes.len() as u64)
}

fn modified(path: &Path) -> Option<String> {
    let time = fs::metadata(path).ok()?.modified().ok()?;
    Some(pas::time::rfc3339(time))
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
            _ => {
                let notebook = param(path, "notebook");
                let mut entries = Vec::new();
                for note in store.notes(notebook)? {
                    let size = fs::metadata(store.note_file(notebook, &note)?)?.len();
                    entries.push(Entry::file(path.child(&note)).with_id(note).with_size(size));
                }
                entries
            }
        };
        Ok(Items::ok(entries))
    }

    fn cat(&self, globals: &Globals, path: &ResourcePath, _: &Context) -> Result<Value, Error> {
        let file = Store::at(globals).note_file(param(path, "notebook"), param(path, "note"))?;
        let bytes = match fs::read(&file) {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == ErrorKind::NotFound => return Err(not_found(path.as_str())),
            Err(err) => return Err(err.into()),
        };
        serde_json::from_slice(&bytes).map_err(|err| {
            Error::new("INVALID_NOTE", format!("{path} is not valid JSON: {err}")).with_suggestion(
                format!("notes --agent feedback {path} --level error --message \"invalid JSON\""),
            )
        })
    }

    fn stat(&self, globals: &Globals, path: &ResourcePath, _: &Context) -> Result<Stat, Error> {
        let store = Store::at(globals);
        match path.template() {
            Some(NOTEBOOKS) => Ok(Stat::dir(path.as_str())),
            Some(NOTEBOOK) => {
                let dir = store.notebook_dir(param(path, "notebook"))?;
                if !dir.is_dir() {
                    return Err(not_found(path.as_str()));
                }
                let stat = Stat::dir(path.as_str());
                Ok(match modified(&dir) {
                    Some(time) => stat.with_modified(time),
                    None => stat,
                })
            }
            _ => {
                let file = store.note_file(param(path, "notebook"), param(path, "note"))?;
                let metadata = fs::metadata(&file).map_err(|_| not_found(path.as_str()))?;
                let stat = Stat::file(path.as_str(), metadata.len());
                Ok(match modified(&file) {
                    Some(time) => stat.with_modified(time),
                    None => stat,
                })
            }
        }
    }

    fn cp(
        &self,
        globals: &Globals,
        source: &CopySource,
        dest: &ResourcePath,
        ctx: &Context,
    ) -> Result<Copied, Error> {
        let store = Store::at(globals);
        let target = store.note_file(param(dest, "notebook"), param(dest, "note"))?;
        let content = match source {
            CopySource::Local(file) => {
                let bytes = fs::read(file).map_err(|err| {
                    Error::new(
                        "SOURCE_UNREADABLE",
                        format!("cannot read {}: {err}", file.display()),
                    )
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
        let bytes = write_note(&target, &content)?;
        Ok(Copied::new(dest.as_str()).with_bytes(bytes))
    }

    fn rm(&self, globals: &Globals, path: &ResourcePath, _: &Context) -> Result<Removed, Error> {
        let store = Store::at(globals);
        let notebook = param(path, "notebook");
        match path.template() {
            Some(NOTE) if path.is_pattern() => {
                // `--force` was given (the runtime refuses a wildcard without it).
                let pattern = param(path, "note");
                let mut deleted = false;
                for note in store.notes(notebook)? {
                    if wildcard_matches(pattern, &note) {
                        fs::remove_file(store.note_file(notebook, &note)?)?;
                        deleted = true;
                    }
                }
                Ok(if deleted {
                    Removed::deleted(path.as_str())
                } else {
                    Removed::absent(path.as_str())
                })
            }
            Some(NOTE) => match fs::remove_file(store.note_file(notebook, param(path, "note"))?) {
                Ok(()) => Ok(Removed::deleted(path.as_str())),
                Err(err) if err.kind() == ErrorKind::NotFound => Ok(Removed::absent(path.as_str())),
                Err(err) => Err(err.into()),
            },
            _ => match fs::remove_dir_all(store.notebook_dir(notebook)?) {
                Ok(()) => Ok(Removed::deleted(path.as_str())),
                Err(err) if err.kind() == ErrorKind::NotFound => Ok(Removed::absent(path.as_str())),
                Err(err) => Err(err.into()),
            },
        }
    }
}
