//! Checks and rewrites a tool declares or a caller asks for: redaction of secrets, entropy and
//! injection scans, the output bound, the deadline, input bounds, schema checks, the forgiving
//! JSON reader. A guard that changes a call's meaning runs only where declared or asked for.

pub mod deadline;
pub mod defaults;
pub(crate) mod entropy;
pub(crate) mod forgiving_json;
pub(crate) mod injection;
pub mod input;
pub(crate) mod output_file;
pub mod output_limit;
pub(crate) mod redact;
pub(crate) mod schema_check;
pub(crate) mod sensitive;
