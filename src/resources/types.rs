//! What the level 3 and 4 verbs return, typed so that a handler cannot miss a field PAS
//! requires (sections 5.2, 6.1, 6.2, 6.4): the runtime serialises them as they are.

use std::path::PathBuf;

use serde::Serialize;

use super::path::ResourcePath;

/// Whether a path holds content (`file`) or children (`dir`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A resource with content, read with `cat`.
    File,
    /// A resource with children, listed with `ls`.
    Dir,
}

/// One line of `ls`: a child's full path and kind, and what else is known cheaply.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// The child's full path, ready for `cat`, `stat` or `ls`.
    pub path: String,
    /// `file` or `dir`.
    #[serde(rename = "type")]
    pub kind: Kind,
    /// The child's identifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// A name for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Size in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Last modification, ISO 8601.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
}

impl Entry {
    fn new(path: impl Into<String>, kind: Kind) -> Entry {
        Entry {
            path: path.into(),
            kind,
            id: None,
            name: None,
            size: None,
            modified: None,
        }
    }

    /// A child with content.
    pub fn file(path: impl Into<String>) -> Entry {
        Entry::new(path, Kind::File)
    }

    /// A child with children.
    pub fn dir(path: impl Into<String>) -> Entry {
        Entry::new(path, Kind::Dir)
    }

    /// With its identifier.
    pub fn with_id(mut self, id: impl Into<String>) -> Entry {
        self.id = Some(id.into());
        self
    }

    /// With a name for people.
    pub fn with_name(mut self, name: impl Into<String>) -> Entry {
        self.name = Some(name.into());
        self
    }

    /// With its size in bytes.
    pub fn with_size(mut self, size: u64) -> Entry {
        self.size = Some(size);
        self
    }

    /// With its modification time (ISO 8601).
    pub fn with_modified(mut self, modified: impl Into<String>) -> Entry {
        self.modified = Some(modified.into());
        self
    }

    /// The line people see: the path, with a trailing slash for a directory.
    pub(crate) fn text(&self) -> String {
        match self.kind {
            Kind::Dir => format!("{}/", self.path.trim_end_matches('/')),
            Kind::File => self.path.clone(),
        }
    }
}

/// What `stat` prints: PAS requires the path, the kind and, for a file, its size; the
/// constructors make a file without a size impossible.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stat {
    /// The resource's full path.
    pub path: String,
    /// `file` or `dir`.
    #[serde(rename = "type")]
    pub kind: Kind,
    /// Size in bytes (always there for a file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Last modification, ISO 8601.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
    /// Access level, e.g. `read-only`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permissions: Option<String>,
    /// Content version tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// Content checksum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checksum: Option<String>,
}

impl Stat {
    /// A file and its size in bytes.
    pub fn file(path: impl Into<String>, size: u64) -> Stat {
        Stat {
            path: path.into(),
            kind: Kind::File,
            size: Some(size),
            modified: None,
            permissions: None,
            etag: None,
            checksum: None,
        }
    }

    /// A directory.
    pub fn dir(path: impl Into<String>) -> Stat {
        Stat {
            kind: Kind::Dir,
            size: None,
            ..Stat::file(path, 0)
        }
    }

    /// With its modification time (ISO 8601).
    pub fn with_modified(mut self, modified: impl Into<String>) -> Stat {
        self.modified = Some(modified.into());
        self
    }

    /// With its access level.
    pub fn with_permissions(mut self, permissions: impl Into<String>) -> Stat {
        self.permissions = Some(permissions.into());
        self
    }

    /// With a content version tag.
    pub fn with_etag(mut self, etag: impl Into<String>) -> Stat {
        self.etag = Some(etag.into());
        self
    }

    /// With a content checksum.
    pub fn with_checksum(mut self, checksum: impl Into<String>) -> Stat {
        self.checksum = Some(checksum.into());
        self
    }
}

/// Where `cp` reads from: a local file, or another resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CopySource {
    /// A file on this machine (any source that is not a resource path).
    Local(PathBuf),
    /// A resource: a source starting with `/` that a resource template matches.
    Resource(ResourcePath),
}

/// What `cp` prints once the destination is written (a failure is an error, not a status).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Copied {
    status: &'static str,
    /// The destination's path.
    pub path: String,
    /// Bytes written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
}

impl Copied {
    /// The destination was written.
    pub fn new(path: impl Into<String>) -> Copied {
        Copied {
            status: "success",
            path: path.into(),
            bytes: None,
        }
    }

    /// With the number of bytes written.
    pub fn with_bytes(mut self, bytes: u64) -> Copied {
        self.bytes = Some(bytes);
        self
    }
}

/// What `rm` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Removed {
    status: &'static str,
    /// The path removed.
    pub path: String,
    /// Whether something was there to delete (`false`: it was already gone).
    pub deleted: bool,
}

impl Removed {
    /// The resource was deleted.
    pub fn deleted(path: impl Into<String>) -> Removed {
        Removed {
            status: "success",
            path: path.into(),
            deleted: true,
        }
    }

    /// Nothing was there: the state asked for already holds.
    pub fn absent(path: impl Into<String>) -> Removed {
        Removed {
            deleted: false,
            ..Removed::deleted(path)
        }
    }
}

/// One event of `sync`, as PAS 6.2 names them.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum SyncEvent {
    /// The sync begins.
    Start {
        /// The resource path pulled from.
        remote: String,
        /// The local directory written into.
        local: String,
    },
    /// The remote files were counted.
    Scanning {
        /// How many files the remote tree holds.
        total: u64,
    },
    /// A file is being written.
    Downloading {
        /// The file, relative to the local directory.
        file: String,
        /// Fraction of the files done, 0 to 1.
        progress: f64,
    },
    /// The summary.
    Complete {
        /// Files written.
        downloaded: u64,
        /// Files already up to date.
        skipped: u64,
        /// Files that failed.
        errors: u64,
    },
}

/// What `feedback` was given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Feedback {
    /// The resource the report is about.
    pub path: String,
    /// `info`, `warn` or `error`.
    pub level: String,
    /// What went wrong.
    pub message: String,
    /// A contact address for follow-up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Additional debug information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// What `feedback` prints once the report is recorded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeedbackReceipt {
    status: &'static str,
    /// The tracking reference.
    pub issue_id: String,
    /// Where it was recorded (a URL).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tracked_at: Option<String>,
}

impl FeedbackReceipt {
    /// The report was recorded under this reference.
    pub fn sent(issue_id: impl Into<String>) -> FeedbackReceipt {
        FeedbackReceipt {
            status: "sent",
            issue_id: issue_id.into(),
            tracked_at: None,
        }
    }

    /// With where it was recorded.
    pub fn with_tracked_at(mut self, url: impl Into<String>) -> FeedbackReceipt {
        self.tracked_at = Some(url.into());
        self
    }
}
