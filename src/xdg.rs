//! XDG base directories (config, state, data, cache): the variable when it holds an absolute path (the
//! XDG spec calls a relative one invalid), else its default under an absolute `$HOME`. One rule
//! for the runtime's config file and feedback log and for tools that keep data.

use std::ffi::OsString;
use std::path::PathBuf;

/// `$XDG_CONFIG_HOME`, else `~/.config`.
pub fn config_home() -> Option<PathBuf> {
    base_with("XDG_CONFIG_HOME", ".config", |name| std::env::var_os(name))
}

/// `$XDG_STATE_HOME`, else `~/.local/state`.
pub fn state_home() -> Option<PathBuf> {
    base_with("XDG_STATE_HOME", ".local/state", |name| {
        std::env::var_os(name)
    })
}

/// `$XDG_DATA_HOME`, else `~/.local/share`.
pub fn data_home() -> Option<PathBuf> {
    base_with("XDG_DATA_HOME", ".local/share", |name| {
        std::env::var_os(name)
    })
}

/// `$XDG_CACHE_HOME`, else `~/.cache` (output past a bound, `crate::guards::output_file`).
pub fn cache_home() -> Option<PathBuf> {
    base_with("XDG_CACHE_HOME", ".cache", |name| std::env::var_os(name))
}

/// The base directory named by `var`, else `$HOME/default`, reading variables through `env`.
pub(crate) fn base_with(
    var: &str,
    default: &str,
    env: impl Fn(&str) -> Option<OsString>,
) -> Option<PathBuf> {
    let absolute = |name: &str| env(name).map(PathBuf::from).filter(|p| p.is_absolute());
    absolute(var).or_else(|| absolute("HOME").map(|home| home.join(default)))
}

#[cfg(test)]
mod tests {
    use super::base_with;
    use std::path::PathBuf;

    #[test]
    fn the_variable_then_home_and_never_a_relative_path() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).into())
            }
        };
        let base = |pairs| base_with("XDG_STATE_HOME", ".local/state", env(pairs));
        assert_eq!(
            base(&[("XDG_STATE_HOME", "/s"), ("HOME", "/h")]),
            Some(PathBuf::from("/s"))
        );
        assert_eq!(
            base(&[("XDG_STATE_HOME", "rel"), ("HOME", "/h")]),
            Some(PathBuf::from("/h/.local/state"))
        );
        assert_eq!(base(&[("HOME", "h")]), None);
        assert_eq!(base(&[]), None);
    }
}
