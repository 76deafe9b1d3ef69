//! The task store: one SQLite file, its schema version in `PRAGMA user_version`.
//!
//! Every write is one `BEGIN IMMEDIATE` transaction and every connection waits up to
//! [`BUSY_TIMEOUT`] for the write lock, so many processes writing at once queue instead of
//! failing or losing a task. A store that cannot be opened or read, or that a newer build wrote
//! (its version is above [`SCHEMA_VERSION`]), is a blocked prerequisite: a blocking error code,
//! exit 2, and a fix in the hint.
//!
//! Errors say what happened: a path that cannot be a store (empty, a directory, a device such
//! as `/dev/null`) is refused before SQLite opens anything (so no throwaway database answers
//! and no `-journal` appears beside a device); a damaged file is [`STORE_CORRUPT`], a store that
//! cannot be written [`STORE_READ_ONLY`], a lock held past the wait [`STORE_LOCKED`]. No hint
//! proposes moving a file: the store may be anything the user pointed at.

use std::path::{Path, PathBuf};
use std::time::Duration;

use pas::Error;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use crate::task::{Deleted, Done, Fields, Summary, Task};

/// The schema this build reads and writes.
pub const SCHEMA_VERSION: i64 = 1;
/// How long a writer waits for another's lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

pub const TASK_NOT_FOUND: &str = "TASK_NOT_FOUND";
pub const INVALID_CURSOR: &str = "INVALID_CURSOR";
pub const STORE_UNAVAILABLE: &str = "STORE_UNAVAILABLE";
pub const SCHEMA_TOO_NEW: &str = "SCHEMA_TOO_NEW";
pub const STORE_PATH_INVALID: &str = "STORE_PATH_INVALID";
pub const STORE_CORRUPT: &str = "STORE_CORRUPT";
pub const STORE_READ_ONLY: &str = "STORE_READ_ONLY";
pub const STORE_LOCKED: &str = "STORE_LOCKED";

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%SZ','now')";
const COLUMNS: &str = "id, title, notes, status, priority, due, tags, created, updated, done_at";

/// An open, current store.
pub struct Store {
    conn: Connection,
}

/// Which tasks `list` returns.
pub struct Filter {
    pub status: String,
    pub tag: Option<String>,
    pub limit: u32,
    pub after: i64,
}

/// One page of `list`.
pub struct Page {
    pub items: Vec<Summary>,
    pub total: u64,
    pub next: Option<i64>,
}

pub fn unavailable(path: &Path, why: impl std::fmt::Display) -> Error {
    Error::new(
        STORE_UNAVAILABLE,
        format!("the task store {} cannot be used: {why}", path.display()),
    )
    .with_suggestion(
        "check that the store's file and directory exist and can be read, or give another store with --db PATH (or TODO_DB); `todo health` checks it",
    )
}

/// Refuses a path that cannot hold a task store, before SQLite opens (and creates) anything:
/// an empty path (SQLite would answer from a throwaway database), a directory, a device such
/// as `/dev/null` (SQLite would create `/dev/null-journal`), a pipe or a socket.
pub fn check_path(path: &Path) -> Result<(), Error> {
    let refuse = |why: String, fix: &str| {
        Error::new(STORE_PATH_INVALID, why)
            .with_suggestion(fix.to_owned())
            .with_details(serde_json::json!({ "path": path.display().to_string() }))
    };
    if path.as_os_str().is_empty() {
        return Err(refuse(
            "the task store path is empty".to_owned(),
            "give a file path with --db PATH, or unset TODO_DB to use the default (`todo config show` prints it)",
        ));
    }
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(refuse(
            format!(
                "the task store path {} is {}, not a store file",
                path.display(),
                describe(&meta)
            ),
            "give the path of a file (it is created when missing) with --db PATH or TODO_DB; nothing at the given path was changed",
        )),
        _ => Ok(()),
    }
}

/// What a non-file is, in a few words.
fn describe(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    if kind.is_dir() {
        "a directory"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_fifo() {
        "a pipe"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// A SQLite failure as what it means for the store: damaged, read-only, locked, unavailable,
/// or (anything else) a general failure.
pub fn store_error(path: Option<&Path>, err: rusqlite::Error) -> Error {
    use rusqlite::ErrorCode;
    let store = match path {
        Some(path) => format!("the task store {}", path.display()),
        None => "the task store".to_owned(),
    };
    let code = match &err {
        rusqlite::Error::SqliteFailure(failure, _) => Some(failure.code),
        _ => None,
    };
    match code {
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => Error::new(
            STORE_CORRUPT,
            format!("{store} is damaged or is not a task store: {err}"),
        )
        .with_suggestion(
            "restore the file from a backup, or give another store with --db PATH (or TODO_DB); `todo health` runs SQLite's quick_check on it",
        ),
        Some(ErrorCode::ReadOnly) => Error::new(
            STORE_READ_ONLY,
            format!("{store} cannot be written: {err}"),
        )
        .with_suggestion(
            "make the store's file and directory writable (or the disk read-write), or give another store with --db PATH; reading commands still work",
        ),
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Error::new(
            STORE_LOCKED,
            format!(
                "{store} stayed locked by another process for {} s: {err}",
                BUSY_TIMEOUT.as_secs()
            ),
        )
        .with_suggestion("retry once the other process using the store has finished"),
        Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => match path {
            Some(path) => unavailable(path, err),
            None => Error::new(STORE_UNAVAILABLE, format!("{store} cannot be used: {err}"))
                .with_suggestion("`todo health` checks the store"),
        },
        Some(ErrorCode::DiskFull) => Error::general(format!("{store} failed: {err}"))
            .with_suggestion("the disk is full: free space, then run the command again"),
        _ => Error::general(format!("{store} failed: {err}"))
            .with_suggestion("`todo health` checks the store; if it passes, report this error"),
    }
}

pub fn too_new(path: &Path, version: i64) -> Error {
    Error::new(
        SCHEMA_TOO_NEW,
        format!(
            "the task store {} has schema version {version}; this todo reads version {SCHEMA_VERSION}",
            path.display()
        ),
    )
    .with_suggestion("upgrade todo (`cargo install todo`), or give another store with --db PATH")
    .with_details(serde_json::json!({ "found": version, "supported": SCHEMA_VERSION }))
}

/// The store as `health` looks at it, without creating or changing it: `None` when no file
/// is there yet (the first command creates it).
pub fn inspect(path: &Path) -> Result<Option<Connection>, Error> {
    use rusqlite::OpenFlags;
    check_path(path)?;
    if !path.exists() {
        return Ok(None);
    }
    // Read-write without create, so the write probe can tell a read-only store; SQLite falls
    // back to read-only by itself when the file is.
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(|e| store_error(Some(path), e))?;
    // health answers quickly: a store locked right now is reported, not waited for.
    conn.busy_timeout(Duration::from_millis(500))
        .map_err(|e| store_error(Some(path), e))?;
    Ok(Some(conn))
}

/// The schema version of an open store.
pub fn version_in(conn: &Connection, path: &Path) -> Result<i64, Error> {
    read_version(conn, path)
}

/// SQLite's `quick_check`: `Ok(())`, or the problems it found (at most a few).
pub fn quick_check(conn: &Connection, path: &Path) -> Result<Result<(), Vec<String>>, Error> {
    let mut statement = conn
        .prepare("PRAGMA quick_check(5)")
        .map_err(|e| store_error(Some(path), e))?;
    let rows = statement
        .query_map([], |row| row.get::<_, String>(0))
        .map_err(|e| store_error(Some(path), e))?;
    let mut found = Vec::new();
    for row in rows {
        found.push(row.map_err(|e| store_error(Some(path), e))?);
    }
    Ok(if found == ["ok"] { Ok(()) } else { Err(found) })
}

/// Whether the store takes a write: a rolled-back transaction that rewrites the schema version
/// with the value it has (the file is left byte for byte as it was).
pub fn probe_write(conn: &mut Connection, path: &Path) -> Result<(), Error> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| store_error(Some(path), e))?;
    let version: i64 = tx
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(|e| store_error(Some(path), e))?;
    tx.pragma_update(None, "user_version", version)
        .map_err(|e| store_error(Some(path), e))?;
    tx.rollback().map_err(|e| store_error(Some(path), e))
}

pub fn connect(path: &Path) -> Result<Connection, Error> {
    check_path(path)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| unavailable(path, e))?;
    }
    let conn = Connection::open(path).map_err(|e| store_error(Some(path), e))?;
    conn.busy_timeout(BUSY_TIMEOUT)
        .map_err(|e| store_error(Some(path), e))?;
    Ok(conn)
}

fn read_version(conn: &Connection, path: &Path) -> Result<i64, Error> {
    // The first read of the file: a file that is not a database fails here.
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(|e| store_error(Some(path), e))
}

impl Store {
    /// Opens (and creates, or migrates) the store at `path`.
    pub fn open(path: &Path) -> Result<Store, Error> {
        let mut conn = connect(path)?;
        let version = read_version(&conn, path)?;
        if version > SCHEMA_VERSION {
            return Err(too_new(path, version));
        }
        if version < SCHEMA_VERSION {
            migrate(&mut conn, path)?;
        }
        Ok(Store { conn })
    }

    pub fn create(&mut self, fields: &Fields, dry_run: bool) -> Result<Task, Error> {
        let tx = self.write()?;
        let tags = serde_json::to_string(fields.tags.as_deref().unwrap_or(&[])).unwrap_or_default();
        let priority = fields.priority.as_deref().unwrap_or("normal");
        tx.execute(
            &format!("INSERT INTO tasks (title, notes, status, priority, due, tags, created, updated) VALUES (?1, ?2, 'open', ?3, ?4, ?5, {NOW}, {NOW})"),
            params![
                fields.title,
                fields.notes.clone().flatten(),
                priority,
                fields.due.clone().flatten(),
                tags
            ],
        )
        .map_err(internal)?;
        let id = tx.last_insert_rowid();
        let mut task = get_in(&tx, id)?;
        if dry_run {
            // Rolled back when `tx` drops: the dry run shows the task exactly as it would be.
            task.dry_run = true;
        } else {
            tx.commit().map_err(internal)?;
        }
        Ok(task)
    }

    pub fn get(&self, id: i64) -> Result<Task, Error> {
        get_in(&self.conn, id)
    }

    pub fn list(&mut self, filter: &Filter) -> Result<Page, Error> {
        // One read transaction: the total and the page agree even while others write.
        let tx = self.conn.transaction().map_err(internal)?;
        let tag = filter.tag.as_deref();
        let status = filter.status.as_str();
        let condition = "(?1 = 'all' OR status = ?1) AND (?2 IS NULL OR EXISTS (SELECT 1 FROM json_each(tasks.tags) WHERE value = ?2))";
        let total: i64 = tx
            .query_row(
                &format!("SELECT COUNT(*) FROM tasks WHERE {condition}"),
                params![status, tag],
                |row| row.get(0),
            )
            .map_err(internal)?;
        let mut statement = tx
            .prepare(&format!(
                "SELECT {COLUMNS} FROM tasks WHERE {condition} AND id > ?3 ORDER BY id LIMIT ?4"
            ))
            .map_err(internal)?;
        let rows = statement
            .query_map(
                params![status, tag, filter.after, i64::from(filter.limit) + 1],
                row_to_task,
            )
            .map_err(internal)?;
        let mut items = Vec::with_capacity(filter.limit as usize);
        let mut more = false;
        for row in rows {
            let task = row.map_err(internal)?;
            if items.len() == filter.limit as usize {
                more = true;
                break;
            }
            items.push(Summary {
                id: task.id,
                title: task.title,
                status: task.status,
                priority: task.priority,
                due: task.due,
                tags: task.tags,
                created: task.created,
            });
        }
        let next = if more {
            items.last().map(|t| t.id)
        } else {
            None
        };
        Ok(Page {
            items,
            total: u64::try_from(total).unwrap_or(0),
            next,
        })
    }

    pub fn update(&mut self, id: i64, fields: &Fields, dry_run: bool) -> Result<Task, Error> {
        let tx = self.write()?;
        get_in(&tx, id)?;
        let mut sets = vec![format!("updated = {NOW}")];
        let mut values: Vec<Option<String>> = Vec::new();
        let mut set = |column: &str, value: Option<String>| {
            values.push(value);
            sets.push(format!("{column} = ?{}", values.len()));
        };
        if let Some(title) = &fields.title {
            set("title", Some(title.clone()));
        }
        if let Some(notes) = &fields.notes {
            set("notes", notes.clone());
        }
        if let Some(due) = &fields.due {
            set("due", due.clone());
        }
        if let Some(priority) = &fields.priority {
            set("priority", Some(priority.clone()));
        }
        if let Some(tags) = &fields.tags {
            set(
                "tags",
                Some(serde_json::to_string(tags).unwrap_or_default()),
            );
        }
        values.push(Some(id.to_string()));
        let sql = format!(
            "UPDATE tasks SET {} WHERE id = CAST(?{} AS INTEGER)",
            sets.join(", "),
            values.len()
        );
        tx.execute(&sql, rusqlite::params_from_iter(values.iter()))
            .map_err(internal)?;
        let mut task = get_in(&tx, id)?;
        if dry_run {
            task.dry_run = true;
        } else {
            tx.commit().map_err(internal)?;
        }
        Ok(task)
    }

    pub fn done(&mut self, id: i64, dry_run: bool) -> Result<Done, Error> {
        let tx = self.write()?;
        get_in(&tx, id)?;
        // Marking a done task again keeps its first doneAt: the command is idempotent.
        tx.execute(
            &format!("UPDATE tasks SET status = 'done', done_at = COALESCE(done_at, {NOW}), updated = {NOW} WHERE id = ?1 AND status <> 'done'"),
            params![id],
        )
        .map_err(internal)?;
        let task = get_in(&tx, id)?;
        if !dry_run {
            tx.commit().map_err(internal)?;
        }
        Ok(Done {
            id,
            status: "done",
            done_at: task.done_at.unwrap_or_default(),
            dry_run,
        })
    }

    pub fn delete(&mut self, id: i64, dry_run: bool) -> Result<Deleted, Error> {
        let tx = self.write()?;
        get_in(&tx, id)?;
        if !dry_run {
            tx.execute("DELETE FROM tasks WHERE id = ?1", params![id])
                .map_err(internal)?;
            tx.commit().map_err(internal)?;
        }
        Ok(Deleted {
            id,
            deleted: !dry_run,
            dry_run,
        })
    }

    /// A write transaction that holds the write lock from its start (no upgrade deadlock).
    fn write(&mut self) -> Result<rusqlite::Transaction<'_>, Error> {
        self.conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(internal)
    }
}

fn migrate(conn: &mut Connection, path: &Path) -> Result<(), Error> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| store_error(Some(path), e))?;
    // Another process may have migrated while this one waited for the lock.
    let version: i64 = tx
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(|e| store_error(Some(path), e))?;
    if version > SCHEMA_VERSION {
        return Err(too_new(path, version));
    }
    if version < 1 {
        tx.execute_batch(
            "CREATE TABLE IF NOT EXISTS tasks (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                title TEXT NOT NULL,
                notes TEXT,
                status TEXT NOT NULL DEFAULT 'open',
                priority TEXT NOT NULL DEFAULT 'normal',
                due TEXT,
                tags TEXT NOT NULL DEFAULT '[]',
                created TEXT NOT NULL,
                updated TEXT NOT NULL,
                done_at TEXT
            );
            PRAGMA user_version = 1;",
        )
        .map_err(|e| store_error(Some(path), e))?;
    }
    tx.commit().map_err(|e| store_error(Some(path), e))
}

fn get_in(conn: &Connection, id: i64) -> Result<Task, Error> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM tasks WHERE id = ?1"),
        params![id],
        row_to_task,
    )
    .optional()
    .map_err(internal)?
    .ok_or_else(|| {
        Error::new(TASK_NOT_FOUND, format!("no task has id {id}"))
            .with_suggestion("`todo task list --status all` shows every id")
    })
}

fn row_to_task(row: &rusqlite::Row<'_>) -> rusqlite::Result<Task> {
    let tags: String = row.get(6)?;
    Ok(Task {
        id: row.get(0)?,
        title: row.get(1)?,
        notes: row.get(2)?,
        status: row.get(3)?,
        priority: row.get(4)?,
        due: row.get(5)?,
        tags: serde_json::from_str(&tags).unwrap_or_default(),
        created: row.get(7)?,
        updated: row.get(8)?,
        done_at: row.get(9)?,
        dry_run: false,
    })
}

/// A store failure after it opened: damage found by a read, a write to a read-only store, a
/// lock held past the timeout, a full disk.
fn internal(err: rusqlite::Error) -> Error {
    store_error(None, err)
}

/// Where the store lives by default: `$XDG_DATA_HOME/todo/todo.db`, else
/// `~/.local/share/todo/todo.db`, else `todo.db` in the working directory.
pub fn default_path() -> PathBuf {
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|home| PathBuf::from(home).join(".local").join("share"))
        });
    match data {
        Some(dir) => dir.join("todo").join("todo.db"),
        None => PathBuf::from("todo.db"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store file with its schema, and a second connection that does not wait for locks.
    fn two_connections(dir: &Path) -> (Connection, Connection, PathBuf) {
        let path = dir.join("tasks.db");
        drop(Store::open(&path).unwrap());
        let holder = Connection::open(&path).unwrap();
        let waiter = Connection::open(&path).unwrap();
        waiter.busy_timeout(Duration::ZERO).unwrap();
        (holder, waiter, path)
    }

    #[test]
    fn a_lock_held_by_another_connection_is_store_locked() {
        let dir = tempfile::tempdir().unwrap();
        let (holder, waiter, path) = two_connections(dir.path());
        holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
        let err = waiter
            .execute_batch("BEGIN IMMEDIATE; UPDATE tasks SET title = 'x'; COMMIT")
            .unwrap_err();
        let error = store_error(Some(&path), err);
        assert_eq!(error.code(), STORE_LOCKED, "{error:?}");
        assert!(error.suggestion().unwrap().contains("retry once"));
    }

    #[test]
    fn a_read_only_connection_is_store_read_only() {
        let dir = tempfile::tempdir().unwrap();
        let (_, _, path) = two_connections(dir.path());
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
        let reader = Connection::open_with_flags(&path, flags).unwrap();
        let err = reader
            .execute("UPDATE tasks SET title = 'x'", [])
            .unwrap_err();
        let error = store_error(None, err);
        assert_eq!(error.code(), STORE_READ_ONLY, "{error:?}");
        assert!(!error.suggestion().unwrap().contains("mv "));
    }

    #[test]
    fn empty_and_device_paths_are_refused_before_opening() {
        assert_eq!(
            check_path(Path::new("")).unwrap_err().code(),
            STORE_PATH_INVALID
        );
        let device = check_path(Path::new("/dev/null")).unwrap_err();
        assert_eq!(device.code(), STORE_PATH_INVALID);
        assert!(device.message().contains("a device"));
        assert!(check_path(Path::new("/no/such/dir/tasks.db")).is_ok());
    }
}
