//! The structured errors of a confined store: an escape names the path and the root; any other
//! failure says which operation on which path failed and what the system said.

use std::io;
use std::path::Path;

use serde_json::json;

use crate::error::Error;

/// A path (through a symbolic link, or a `..` in a link's target) leads outside the store's
/// root. The store refused it; nothing outside was read, written or removed.
pub use pas_spec::runtime_codes::PATH_ESCAPES_ROOT;
/// The store's own path is empty, or names something that is not a directory (a file, a
/// device such as `/dev/null`).
pub use pas_spec::runtime_codes::STORE_PATH_INVALID;

/// A file of the store is not a regular file (a pipe, a device, a directory where a file is
/// meant) or is larger than [`super::READ_LIMIT`]: it was not read.
pub use pas_spec::runtime_codes::STORE_FILE_INVALID;

/// Whether `err` is cap-std's refusal of a path that leads out of the root: a
/// `PermissionDenied` the library made itself (the kernel's `EXDEV` from `RESOLVE_BENEATH` is
/// mapped to it), as opposed to an access error the system reported, which carries an OS code.
pub(crate) fn is_escape(err: &io::Error) -> bool {
    err.kind() == io::ErrorKind::PermissionDenied && err.raw_os_error().is_none()
}

/// Refuses a root that cannot be a store: empty, or not a directory.
pub(crate) fn check_root_path(path: &Path) -> Result<(), Error> {
    if path.as_os_str().is_empty() {
        return Err(Error::new(STORE_PATH_INVALID, "the store path is empty")
            .with_suggestion("give the store a directory path, or unset the variable that names it to use the default"));
    }
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_dir() => Err(Error::new(
            STORE_PATH_INVALID,
            format!(
                "the store path {} is not a directory (it is {})",
                path.display(),
                describe(&meta)
            ),
        )
        .with_suggestion("give the store a directory of its own; the path in use was left as it is")
        .with_details(json!({ "path": path.display().to_string() }))),
        _ => Ok(()),
    }
}

/// What a non-directory is, in a few words.
pub(crate) fn describe(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_fifo() {
            return "a pipe";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_file() {
        "a file"
    } else if meta.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// The root itself could not be created or opened.
pub(crate) fn root_io(path: &Path, err: &io::Error) -> Error {
    Error::general(format!("cannot open the store {}: {err}", path.display()))
        .with_suggestion(
            "check that the store's directory can be created and read, or give another one",
        )
        .with_details(json!({ "path": path.display().to_string() }))
}

/// A path with no file name (the root itself, or empty) where a file is meant.
pub(crate) fn not_a_file_name(root: &Path, relative: &Path) -> Error {
    Error::invalid_argument(format!(
        "{:?} names no file inside the store {}",
        relative.display().to_string(),
        root.display()
    ))
    .with_suggestion("name a file beneath the store's root")
}

/// `what` (read, write, list...) of `relative` failed.
pub(crate) fn operation(root: &Path, what: &str, relative: &Path, err: &io::Error) -> Error {
    let details = json!({
        "path": relative.display().to_string(),
        "root": root.display().to_string(),
    });
    if is_escape(err) {
        return Error::new(
            PATH_ESCAPES_ROOT,
            format!(
                "{} leads outside the store {} (a symbolic link, or `..` in a link's target); nothing was done",
                relative.display(),
                root.display()
            ),
        )
        .with_suggestion(format!(
            "remove or fix the link in {}: a store follows only links that stay inside it",
            root.display()
        ))
        .with_details(details);
    }
    Error::general(format!(
        "cannot {what} {} in the store {}: {err}",
        relative.display(),
        root.display()
    ))
    .with_suggestion(match err.kind() {
        io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem => {
            "the store is not writable here: check its permissions, or give another store"
        }
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
            "the disk is full: free space, or give a store on another disk"
        }
        _ => "check the store's directory and that nothing else changes it",
    })
    .with_details(details)
}

/// A file the store would not read: not a regular file, or past the limit of its kind.
pub(crate) fn file_invalid(
    root: &Path,
    relative: &Path,
    kind: crate::stdio::state_file::Kind,
    refusal: &crate::stdio::state_file::Refusal,
) -> Error {
    let path = root.join(relative);
    let mut details = refusal.details(kind, &path);
    details["root"] = json!(root.display().to_string());
    let hint = match refusal {
        crate::stdio::state_file::Refusal::TooLarge(_) => format!(
            "a {} is read whole only up to {} bytes: move {} out of the store",
            kind.name,
            kind.limit,
            path.display()
        ),
        _ => format!(
            "only regular files are read from the store: remove or replace {}",
            path.display()
        ),
    };
    Error::new(STORE_FILE_INVALID, refusal.describe(kind, &path))
        .with_suggestion(hint)
        .with_details(details)
}
