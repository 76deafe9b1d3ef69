//! The optional faces a built tool may have: pas-kit's cargo features that add a built-in word
//! or flag (`mcp`, `completions`, `man`, `validate-pas`). Faces list a built-in only where the
//! tool has it (issue 29, item 3): a word listed in agent help or `.llm` is a word that works,
//! never one that answers `FEATURE_NOT_BUILT`.
//!
//! The runtime fills [`Registry::built`](crate::Registry::built) from `cfg!(feature = ...)`;
//! `pas-gen` renders a scaffold's faces with the features its `Cargo.toml` turns on, and a
//! bare spec's faces as a tool built with every feature ([`Features::ALL`], pas-kit's `full`).

/// Which of pas-kit's optional faces a tool is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Features {
    /// `TOOL mcp`: the MCP server (feature `mcp`).
    pub mcp: bool,
    /// `TOOL completions SHELL` (feature `completions`).
    pub completions: bool,
    /// `TOOL man` (feature `man`).
    pub man: bool,
    /// `TOOL --validate-pas` (feature `validate-pas`).
    pub validate_pas: bool,
}

/// Each optional face's cargo feature, as pas-kit's `Cargo.toml` names it.
pub const FEATURE_NAMES: [&str; 4] = ["mcp", "completions", "man", "validate-pas"];

impl Features {
    /// Every optional face: pas-kit's `full` feature (what `pas-gen`'s faces of a bare spec
    /// describe).
    pub const ALL: Features = Features {
        mcp: true,
        completions: true,
        man: true,
        validate_pas: true,
    };

    /// None of them: pas-kit's default features.
    pub const NONE: Features = Features {
        mcp: false,
        completions: false,
        man: false,
        validate_pas: false,
    };

    /// Whether the tool has the cargo feature `name` (one of [`FEATURE_NAMES`]); a name that
    /// is not an optional face's is always there.
    pub fn has(&self, name: &str) -> bool {
        match name {
            "mcp" => self.mcp,
            "completions" => self.completions,
            "man" => self.man,
            "validate-pas" => self.validate_pas,
            _ => true,
        }
    }

    /// The features a list of pas-kit feature names turns on (`full` turns on every one;
    /// names that add no face, such as `load`, are ignored).
    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Features {
        let mut features = Features::NONE;
        for name in names {
            match name {
                "full" => features = Features::ALL,
                "mcp" => features.mcp = true,
                "completions" => features.completions = true,
                "man" => features.man = true,
                "validate-pas" => features.validate_pas = true,
                _ => {}
            }
        }
        features
    }

    /// The names of the features the tool has, in [`FEATURE_NAMES`] order.
    pub fn names(&self) -> Vec<&'static str> {
        FEATURE_NAMES
            .into_iter()
            .filter(|name| self.has(name))
            .collect()
    }
}

impl Default for Features {
    /// [`Features::ALL`]: a registry read from a spec describes the tool with every face, until
    /// the runtime (or `pas-gen`, for a scaffold) says what it is built with.
    fn default() -> Self {
        Features::ALL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_full_is_every_face() {
        assert_eq!(Features::from_names(["full"]), Features::ALL);
        assert_eq!(Features::from_names(["load"]), Features::NONE);
        let mcp = Features::from_names(["mcp", "load"]);
        assert!(mcp.has("mcp") && !mcp.has("man") && !mcp.has("completions"));
        assert_eq!(mcp.names(), ["mcp"]);
        assert_eq!(Features::ALL.names(), FEATURE_NAMES);
        assert_eq!(Features::from_names(Features::ALL.names()), Features::ALL);
        // A word no feature gates is always built.
        assert!(Features::NONE.has("docs"));
    }
}
