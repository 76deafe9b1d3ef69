//! Where the call's settings came from (CLI Agent Spec failure mode 28): the configuration file
//! the call read, absolute, for `meta.configSources` (compose) and the `pas` profile's meta line
//! (`config_sources`); `--show-config` gives each setting's own source.
//!
//! Flags beat the environment, which beats the file, which beats the default: clap holds the
//! file's values as defaults (`crate::parse::config_file`), so that order cannot be broken.

use std::path::Path;
use std::sync::OnceLock;

static READ: OnceLock<Vec<String>> = OnceLock::new();

/// Records the file the call read (once, when it was read).
pub(crate) fn set(file: Option<&Path>) {
    let sources = file
        .map(|path| match std::env::current_dir() {
            Ok(dir) => dir.join(path),
            Err(_) => path.to_path_buf(),
        })
        .map(|path| path.display().to_string())
        .into_iter()
        .collect();
    let _ = READ.set(sources);
}

/// The files the call read settings from (none: flags, environment and defaults only).
pub(crate) fn get() -> &'static [String] {
    READ.get().map_or(&[], Vec::as_slice)
}
