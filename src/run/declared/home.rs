//! A declared path's leading `~/`, read as `$HOME`. Its own file because both the presence
//! check (`requirements.rs`) and the version probe (`required_versions.rs`) resolve a target
//! this way, and the probe must not reach back into the requirements it serves.

use std::path::{Path, PathBuf};

pub(crate) fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(path),
    }
}
