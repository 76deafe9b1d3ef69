//! `todo health`: the store is reachable, and its schema is one this build reads.

use pas::{Args, Check};

use crate::handlers::db_path;
use crate::store::{self, SCHEMA_VERSION};

pub fn store_reachable(args: &Args) -> Check {
    let Ok(path) = db_path(args) else {
        return Check::blocked("no store path", "todo --db PATH health");
    };
    match store::version_of(&path) {
        Ok(_) => Check::ok(format!("{} opens", path.display())),
        Err(error) => Check::blocked(
            error.message().to_owned(),
            format!(
                "mv {p} {p}.bad  # or: todo --db OTHER_PATH health",
                p = path.display()
            ),
        ),
    }
}

pub fn schema_current(args: &Args) -> Check {
    let Ok(path) = db_path(args) else {
        return Check::blocked("no store path", "todo --db PATH health");
    };
    match store::version_of(&path) {
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
        Err(_) => Check::blocked(
            "the schema cannot be read: the store does not open",
            format!("mv {p} {p}.bad", p = path.display()),
        ),
    }
}
