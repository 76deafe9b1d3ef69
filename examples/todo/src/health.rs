//! `todo health`: the store's path can hold a store, SQLite's `quick_check` finds no damage,
//! the store takes writes, and its schema is one this build reads. `health` never creates or
//! changes the store: a store that does not exist yet is ready (the first command creates it).

use pas::{Args, Check};

use crate::handlers::db_path;
use crate::store::{self, SCHEMA_VERSION, STORE_CORRUPT, STORE_LOCKED, STORE_READ_ONLY};

/// The fix for a store that cannot be used as it is: never a command that moves a file (the
/// path may be anything the user pointed at).
const ANOTHER_STORE: &str = "todo --db OTHER_PATH health  # or restore the store from a backup";

/// The path, the store opened for inspection, or the check that says why not.
fn open(args: &Args) -> Result<(std::path::PathBuf, Option<rusqlite::Connection>), Check> {
    let Ok(path) = db_path(args) else {
        return Err(Check::blocked("no store path", "todo --db PATH health"));
    };
    match store::inspect(&path) {
        Ok(conn) => Ok((path, conn)),
        Err(error) => Err(Check::blocked(
            format!("{} ({})", error.message(), error.code()),
            error.suggestion().unwrap_or(ANOTHER_STORE).to_owned(),
        )),
    }
}

/// The store opens and SQLite's `quick_check` finds it whole.
pub fn store_reachable(args: &Args) -> Check {
    let (path, conn) = match open(args) {
        Ok(found) => found,
        Err(check) => return check,
    };
    let Some(conn) = conn else {
        return Check::ok(format!(
            "no store yet at {}: the first command creates it",
            path.display()
        ));
    };
    match store::quick_check(&conn, &path) {
        Ok(Ok(())) => Check::ok(format!(
            "{} opens and quick_check finds it whole",
            path.display()
        )),
        Ok(Err(problems)) => Check::blocked(
            format!(
                "{} is damaged ({STORE_CORRUPT}): quick_check found {}",
                path.display(),
                problems.join("; ")
            ),
            ANOTHER_STORE,
        ),
        Err(error) => Check::blocked(
            format!("{} ({})", error.message(), error.code()),
            ANOTHER_STORE,
        ),
    }
}

/// The store takes writes (a rolled-back probe); a read-only one still serves reads.
pub fn store_writable(args: &Args) -> Check {
    let (path, conn) = match open(args) {
        Ok(found) => found,
        Err(check) => return check,
    };
    let Some(mut conn) = conn else {
        return Check::ok("nothing to write yet");
    };
    match store::probe_write(&mut conn, &path) {
        Ok(()) => Check::ok(format!("{} takes writes", path.display())),
        Err(error) if error.code() == STORE_READ_ONLY => Check::degraded(
            format!(
                "{} is read-only ({STORE_READ_ONLY}): listing and reading work, changes fail",
                path.display()
            ),
            format!(
                "make {} and its directory writable, or: todo --db OTHER_PATH ...",
                path.display()
            ),
        ),
        Err(error) if error.code() == STORE_LOCKED => Check::degraded(
            format!("{} is locked by another process right now", path.display()),
            "todo health  # again, once the other process has finished",
        ),
        Err(error) => Check::blocked(
            format!("{} ({})", error.message(), error.code()),
            ANOTHER_STORE,
        ),
    }
}

pub fn schema_current(args: &Args) -> Check {
    let (path, conn) = match open(args) {
        Ok(found) => found,
        Err(check) => return check,
    };
    let version = match conn {
        None => Ok(0),
        Some(conn) => store::version_in(&conn, &path),
    };
    match version {
        Ok(0) => Check::ok("a new store: the first command creates its schema"),
        Ok(version) if version == SCHEMA_VERSION => {
            Check::ok(format!("schema version {version} is current"))
        }
        Ok(version) if version < SCHEMA_VERSION => Check::degraded(
            format!(
                "schema version {version} is older than {SCHEMA_VERSION}; the next command migrates it"
            ),
            "todo task list --limit 1",
        ),
        Ok(version) => Check::blocked(
            format!("schema version {version} is newer than this todo reads ({SCHEMA_VERSION})"),
            "cargo install todo  # a todo that reads it; or --db OTHER_PATH",
        ),
        Err(error) => Check::blocked(
            format!(
                "the schema cannot be read: {} ({})",
                error.message(),
                error.code()
            ),
            ANOTHER_STORE,
        ),
    }
}
