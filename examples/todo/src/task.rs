//! What the commands print: the shapes of the spec's output schemas, as structs so field order is
//! fixed (the envelope's bytes do not depend on a map's order).

use serde::Serialize;

fn is_false(value: &bool) -> bool {
    !*value
}

/// One task with every field (`task.get`, `task.create`, `task.update`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    pub id: i64,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    pub status: String,
    pub priority: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub due: Option<String>,
    pub tags: Vec<String>,
    pub created: String,
    pub updated: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub done_at: Option<String>,
    /// Set on a `--dry-run`: nothing was written.
    #[serde(skip_serializing_if = "is_false")]
    pub dry_run: bool,
}

/// One task in a list: the fields worth scanning (notes and history stay in `task.get`).
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub id: i64,
    pub title: String,
    pub status: String,
    pub priority: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub due: Option<String>,
    pub tags: Vec<String>,
    pub created: String,
}

/// `task.done`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Done {
    pub id: i64,
    pub status: &'static str,
    pub done_at: String,
    #[serde(skip_serializing_if = "is_false")]
    pub dry_run: bool,
}

/// `task.delete`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Deleted {
    pub id: i64,
    pub deleted: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub dry_run: bool,
}

/// The fields a caller gives to create or change a task (validated against the inputSchema).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fields {
    pub title: Option<String>,
    /// `Some(None)`: clear.
    pub notes: Option<Option<String>>,
    /// `Some(None)`: clear.
    pub due: Option<Option<String>>,
    pub priority: Option<String>,
    pub tags: Option<Vec<String>>,
}
