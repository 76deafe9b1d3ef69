//! The default `sync` (PAS 6.2): list the remote tree with the tool's own `ls`, read each file
//! with its `cat`, and write it under the local directory only when the bytes differ from what
//! is there. Events go out as they happen: `start`, `scanning` once the tree is counted, one
//! `downloading` per file written, then `complete`. A file that fails is counted in `errors`,
//! the others still sync, and the call then ends with the first failure's error (so the exit
//! code never claims a clean sync).
//!
//! The local directory is a [`Root`]: every file is written beneath it through the confined
//! store, so a link planted in it (at a file's name, at its temporary name, or in place of a
//! directory) never leads a write outside, and concurrent syncs into one directory each write
//! through their own exclusive temporary file.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use pas_spec::Verb;

use super::Resources;
use super::dispatch;
use super::path::ResourcePath;
use super::types::{Kind, SyncEvent};
use crate::error::Error;
use crate::handler::context::Context;
use crate::reply::items::Items;
use crate::services::store::Root;

/// Where the walk stops: a handler that lists a directory inside itself must not loop forever.
const MAX_DIRECTORIES: usize = 100_000;

/// The deepest a walk goes below the directory being pulled.
const MAX_DEPTH: usize = 64;

/// The error constant of a tree that links back into itself (failure mode 66).
pub use pas_spec::runtime_codes::SYMLINK_LOOP;

/// The events of one sync, produced lazily.
pub(crate) fn pull<R: Resources>(
    resources: Arc<R>,
    globals: R::Globals,
    remote: ResourcePath,
    local: PathBuf,
    ctx: Context,
) -> Items<SyncEvent> {
    let mut run = Run {
        resources,
        globals,
        remote,
        local,
        root: None,
        ctx,
        stage: Stage::Start,
        files: Vec::new(),
        next: 0,
        downloaded: 0,
        skipped: 0,
        errors: 0,
        first_error: None,
    };
    Items::new(std::iter::from_fn(move || run.step()))
}

enum Stage {
    Start,
    Scan,
    Files,
    Complete,
    Failed,
    Done,
}

struct Run<R: Resources> {
    resources: Arc<R>,
    globals: R::Globals,
    remote: ResourcePath,
    local: PathBuf,
    /// The local directory, opened once the scan begins.
    root: Option<Root>,
    ctx: Context,
    stage: Stage,
    /// Each remote file and its path relative to `local`.
    files: Vec<(ResourcePath, PathBuf)>,
    next: usize,
    downloaded: u64,
    skipped: u64,
    errors: u64,
    first_error: Option<Error>,
}

impl<R: Resources> Run<R> {
    fn step(&mut self) -> Option<Result<SyncEvent, Error>> {
        loop {
            match self.stage {
                Stage::Start => {
                    // The source is checked (walked) before the first event: a missing path
                    // fails with stdout still empty (PAS 2.1.1), not after `start`.
                    if let Err(error) = self.scan() {
                        self.stage = Stage::Done;
                        return Some(Err(error));
                    }
                    self.stage = Stage::Scan;
                    return Some(Ok(SyncEvent::Start {
                        remote: self.remote.as_str().to_owned(),
                        local: self.local.display().to_string(),
                    }));
                }
                Stage::Scan => {
                    self.stage = Stage::Files;
                    return Some(Ok(SyncEvent::Scanning {
                        total: self.files.len() as u64,
                    }));
                }
                Stage::Files => {
                    if self.ctx.stop_requested() {
                        self.stage = Stage::Done;
                        return None;
                    }
                    let Some((path, relative)) = self.files.get(self.next).cloned() else {
                        self.stage = Stage::Complete;
                        continue;
                    };
                    self.next += 1;
                    match self.pull_one(&path, &relative) {
                        Ok(true) => {
                            self.downloaded += 1;
                            let progress = self.next as f64 / self.files.len() as f64;
                            return Some(Ok(SyncEvent::Downloading {
                                file: relative.display().to_string(),
                                progress,
                            }));
                        }
                        Ok(false) => self.skipped += 1,
                        Err(error) => {
                            self.errors += 1;
                            self.first_error.get_or_insert(error);
                        }
                    }
                }
                Stage::Complete => {
                    self.stage = Stage::Failed;
                    return Some(Ok(SyncEvent::Complete {
                        downloaded: self.downloaded,
                        skipped: self.skipped,
                        errors: self.errors,
                    }));
                }
                Stage::Failed => {
                    self.stage = Stage::Done;
                    let first = self.first_error.take()?;
                    let message = format!(
                        "{} of {} files did not sync; the first: {}",
                        self.errors,
                        self.files.len(),
                        first.message()
                    );
                    let mut error = Error::new(first.code().to_owned(), message);
                    if let Some(hint) = first.suggestion() {
                        error = error.with_suggestion(hint.to_owned());
                    }
                    return Some(Err(error));
                }
                Stage::Done => return None,
            }
        }
    }

    /// Every file under `remote`, each with its local path. A remote that is itself a file
    /// (its resource offers `cat` and not `ls`) is the one file.
    fn scan(&mut self) -> Result<(), Error> {
        self.root = Some(Root::open(&self.local)?);
        let registry = self.ctx.registry();
        let lists = match self.remote.resource(registry) {
            Some(resource) => resource.verbs.contains(&Verb::Ls),
            None => true,
        };
        // Resolved paths hold only plain segments (no `.`, `..`, backslash or NUL: see
        // `path::normalise`), so each local path stays under `local`.
        if !lists {
            let name = PathBuf::from(self.remote.name());
            self.files.push((self.remote.clone(), name));
            return Ok(());
        }
        let mut queue = vec![self.remote.clone()];
        let mut seen: HashSet<String> = HashSet::new();
        while let Some(dir) = queue.pop() {
            if !seen.insert(dir.as_str().to_owned()) {
                continue;
            }
            // A tree that lists itself again below itself (a link to an ancestor) would be
            // walked for ever: it is an error naming where, never a silent stop at a count.
            if let Some(why) = looping(&self.remote, &dir, seen.len()) {
                return Err(Error::new(
                    SYMLINK_LOOP,
                    format!("{dir} {why}: the tree links back into itself"),
                )
                .with_suggestion(
                    "sync a directory below the loop, or remove the link that leads back up",
                )
                .with_details(serde_json::json!({
                    "path": dir.as_str(),
                    "completed_count": self.files.len(),
                    "directories": seen.len(),
                })));
            }
            let entries = dispatch::children(&*self.resources, &self.globals, &dir, &self.ctx)?;
            let mut dirs = Vec::new();
            for entry in entries {
                let entry = entry?;
                let child = ResourcePath::resolve(registry, &entry.path)?;
                let Some(relative) = under(&self.remote, &child) else {
                    // A child outside the tree being pulled would write outside `local`.
                    return Err(Error::internal(format!(
                        "ls {} listed {}, which is not below it",
                        dir, entry.path
                    )));
                };
                match entry.kind {
                    Kind::Dir => dirs.push(child),
                    Kind::File => self.files.push((child, relative.into())),
                }
            }
            // Depth first, in listing order.
            queue.extend(dirs.into_iter().rev());
        }
        Ok(())
    }

    /// Reads one file and writes it when it changed: `true` when written.
    fn pull_one(&self, path: &ResourcePath, relative: &Path) -> Result<bool, Error> {
        let content = self.resources.cat(&self.globals, path, &self.ctx)?;
        let mut bytes = serde_json::to_vec_pretty(&content)
            .map_err(|err| Error::internal(format!("cat {path}: {err}")))?;
        bytes.push(b'\n');
        let root = self
            .root
            .as_ref()
            .ok_or_else(|| Error::internal("sync wrote before it scanned"))?;
        if root
            .read(relative)
            .ok()
            .flatten()
            .is_some_and(|old| old == bytes)
        {
            return Ok(false);
        }
        root.write(relative, &bytes)?;
        Ok(true)
    }
}

/// Why the walk at `dir` is a loop, if it is: deeper than [`MAX_DEPTH`] below `root`, the
/// same name three times in a row at its end (`.../self/self/self`), or more than
/// [`MAX_DIRECTORIES`] directories in all.
fn looping(root: &ResourcePath, dir: &ResourcePath, directories: usize) -> Option<String> {
    let depth = dir
        .segments()
        .count()
        .saturating_sub(root.segments().count());
    if depth > MAX_DEPTH {
        return Some(format!("is {depth} levels deep (more than {MAX_DEPTH})"));
    }
    let tail: Vec<&str> = dir.segments().skip(root.segments().count()).collect();
    if let [.., a, b, c] = tail.as_slice()
        && a == b
        && b == c
    {
        return Some(format!("repeats `{c}` three times"));
    }
    (directories > MAX_DIRECTORIES).then(|| format!("is past {MAX_DIRECTORIES} directories"))
}

/// `child`'s path relative to `root`, when it lies below it.
fn under(root: &ResourcePath, child: &ResourcePath) -> Option<String> {
    if root.is_root() {
        return Some(child.as_str().trim_start_matches('/').to_owned());
    }
    let rest = child
        .as_str()
        .strip_prefix(root.as_str())?
        .strip_prefix('/')?;
    (!rest.is_empty()).then(|| rest.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(raw: &str) -> ResourcePath {
        let registry: pas_spec::Registry = serde_json::from_value(serde_json::json!({
            "specVersion": 1, "name": "t", "version": "1.0.0", "summary": "t", "commands": []
        }))
        .unwrap();
        ResourcePath::resolve(&registry, raw).unwrap()
    }

    #[test]
    fn a_walk_that_repeats_itself_or_goes_too_deep_or_wide_is_a_loop() {
        let root = path("/c/books");
        assert!(looping(&root, &path("/c/books/a/b/a"), 3).is_none());
        let repeated = looping(&root, &path("/c/books/self/self/self"), 4).unwrap();
        assert!(repeated.contains("repeats `self`"), "{repeated}");
        let deep = format!("/c/books{}", "/a/b".repeat(40));
        assert!(
            looping(&root, &path(&deep), 81)
                .unwrap()
                .contains("levels deep")
        );
        let wide = looping(&root, &path("/c/books/x"), MAX_DIRECTORIES + 1).unwrap();
        assert!(wide.contains("directories"), "{wide}");
    }
}
