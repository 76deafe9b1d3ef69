//! Which configuration file a call reads: `--config FILE`, else `$<TOOL>_CONFIG`, else
//! `$XDG_CONFIG_HOME/<tool>/config.toml` (or `~/.config/<tool>/config.toml`) when it exists.
//!
//! A file the caller named (flag or variable) must exist: a typo there would otherwise fall back
//! to the defaults without a word. The default location is optional, since most users never
//! create it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// How the call chose its file, for errors that tell the caller what to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Origin {
    Flag,
    Environment(String),
    Default,
}

/// A configuration file to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Located {
    pub path: PathBuf,
    pub origin: Origin,
}

impl Located {
    /// Whether the caller named this file, so that its absence is an error.
    pub fn named(&self) -> bool {
        self.origin != Origin::Default
    }
}

/// The variable that names a tool's configuration file (one rule, shared with the help faces).
pub(crate) fn env_var(tool: &str) -> String {
    pas_spec::faces::config_env_var(tool)
}

/// The file this call reads, if any (the process environment is read here, once per call).
pub(crate) fn locate(tool: &str, flag: Option<&Path>) -> Option<Located> {
    locate_with(tool, flag, |name| std::env::var_os(name))
}

fn locate_with(
    tool: &str,
    flag: Option<&Path>,
    env: impl Fn(&str) -> Option<OsString>,
) -> Option<Located> {
    if let Some(path) = flag {
        return Some(Located {
            path: path.to_owned(),
            origin: Origin::Flag,
        });
    }
    let var = env_var(tool);
    if let Some(path) = env(&var).filter(|v| !v.is_empty()) {
        return Some(Located {
            path: path.into(),
            origin: Origin::Environment(var),
        });
    }
    let base = crate::xdg::base_with("XDG_CONFIG_HOME", ".config", &env)?;
    let path = base.join(tool).join("config.toml");
    // Whatever is there (a FIFO or a device too) is read, and refused by the reader with an
    // error naming it, rather than skipped without a word.
    std::fs::symlink_metadata(&path).is_ok().then_some(Located {
        path,
        origin: Origin::Default,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_var_names() {
        assert_eq!(env_var("todo"), "TODO_CONFIG");
        assert_eq!(env_var("my-tool"), "MY_TOOL_CONFIG");
    }

    #[test]
    fn flag_then_variable_then_default_location() {
        let dir = std::env::temp_dir();
        let none = |_: &str| None;
        let flag = locate_with("t", Some(Path::new("a.toml")), none).unwrap();
        assert_eq!((flag.path, flag.origin), ("a.toml".into(), Origin::Flag));
        let var = |name: &str| (name == "T_CONFIG").then(|| OsString::from("b.toml"));
        let from_env = locate_with("t", None, var).unwrap();
        assert_eq!(from_env.origin, Origin::Environment("T_CONFIG".into()));
        // The default location counts only when the file is there.
        let xdg = |name: &str| (name == "XDG_CONFIG_HOME").then(|| dir.clone().into());
        assert_eq!(locate_with("pas-no-such-tool", None, xdg), None);
        assert_eq!(locate_with("t", None, none), None);
    }
}
