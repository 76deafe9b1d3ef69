//! What is checked: the program, the contract it claims to keep, the level it claims, and its
//! spec when one is known.

use std::time::Duration;

use pas_spec::{Profile, Registry};

use crate::runner::{Call, Program};

/// The contract a tool claims to keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contract {
    /// PAS: `--agent`, raw JSON, JSON errors on stderr, levels 1 to 4.
    Pas,
    /// compose: one `{ok,data,meta}` envelope per call, `tools`, `health`, `config show`.
    Compose,
    /// robot: a versioned envelope with `status` and named exit codes.
    Robot,
}

impl Contract {
    /// The spelling on the command line and in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Contract::Pas => "pas",
            Contract::Compose => "compose",
            Contract::Robot => "robot",
        }
    }

    /// Parses `pas`, `compose` or `robot`.
    pub fn parse(word: &str) -> Option<Contract> {
        match word {
            "pas" => Some(Contract::Pas),
            "compose" => Some(Contract::Compose),
            "robot" => Some(Contract::Robot),
            _ => None,
        }
    }
}

impl From<Profile> for Contract {
    fn from(profile: Profile) -> Contract {
        match profile {
            Profile::Pas => Contract::Pas,
            Profile::Compose => Contract::Compose,
            Profile::Robot => Contract::Robot,
        }
    }
}

/// Everything a conformance run needs to know about the tool.
#[derive(Debug, Clone)]
pub struct Target {
    /// How to run it.
    pub program: Program,
    /// Its spec, from `--spec` or from the tool itself (`--pas-spec`).
    pub registry: Option<Registry>,
    /// The contract checked.
    pub contract: Contract,
    /// The level claimed (1 to 4).
    pub claimed: u8,
}

/// The default bound on any one call.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

impl Target {
    /// Resolves what was not given: the spec from the tool's own `--pas-spec` (tools built with
    /// pas print it), the contract from the spec's profile, the level from the spec or from
    /// `--agent --version`'s (else `--version`'s) `(PAS Level N Compliant)`, else 1.
    pub fn resolve(
        prefix: Vec<String>,
        registry: Option<Registry>,
        level: Option<u8>,
        contract: Option<Contract>,
    ) -> Target {
        let prefix = absolute_paths(prefix);
        let program = Program {
            prefix,
            timeout: DEFAULT_TIMEOUT,
            env: Vec::new(),
        };
        let registry = registry.or_else(|| own_spec(&program));
        let contract = contract
            .or(registry.as_ref().map(|r| r.profile.into()))
            .unwrap_or(Contract::Pas);
        let claimed = level
            .or(registry.as_ref().map(|r| r.level))
            .or_else(|| version_level(&program))
            .unwrap_or(1)
            .clamp(1, 4);
        Target {
            program,
            registry,
            contract,
            claimed,
        }
    }

    /// Whether the program can be started at all (a missing or non-executable file, an empty
    /// command): a target that cannot start is an error, never a run of checks that judge
    /// nothing.
    pub fn check_start(&self) -> Result<(), String> {
        if self.program.prefix.is_empty() {
            return Err("no command to check: give it after `--`".into());
        }
        let run = self.program.run(&Call::new(&["--version"]));
        match run.not_started {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }

    /// The tool's name: the spec's, else the program's file name.
    pub fn name(&self) -> String {
        if let Some(registry) = &self.registry {
            return registry.name.clone();
        }
        let last = self.program.prefix.last().cloned().unwrap_or_default();
        last.rsplit('/').next().unwrap_or(&last).to_owned()
    }
}

/// Calls run in a scratch directory, so relative paths in the prefix must keep naming their files:
/// the program when it has a slash (a bare name is looked up on PATH), and any later word naming
/// an existing file or directory (the script in `python3 tool.py`).
fn absolute_paths(prefix: Vec<String>) -> Vec<String> {
    prefix
        .into_iter()
        .enumerate()
        .map(|(i, word)| {
            let relative = !word.starts_with(['/', '-']) && (i > 0 || word.contains('/'));
            match std::fs::canonicalize(&word) {
                Ok(absolute) if relative => absolute.to_string_lossy().into_owned(),
                _ => word,
            }
        })
        .collect()
}

/// The spec a pas-built tool prints with `--pas-spec`, when it does.
fn own_spec(program: &Program) -> Option<Registry> {
    let run = program.run(&Call::new(&["--pas-spec"]));
    if !run.exited(0) {
        return None;
    }
    serde_json::from_slice(&run.stdout).ok()
}

/// The level in `--version`'s `(PAS Level N Compliant)`, in machine mode first (`--agent
/// --version`: a person's `--version` is the tool's own text), else a person's.
fn version_level(program: &Program) -> Option<u8> {
    [&["--agent", "--version"][..], &["--version"]]
        .into_iter()
        .find_map(|args| {
            let run = program.run(&Call::new(args));
            let text = run.out();
            let at = text.find("PAS Level ")? + "PAS Level ".len();
            text[at..].chars().next()?.to_digit(10).map(|d| d as u8)
        })
}

#[cfg(test)]
mod tests {
    use super::absolute_paths;

    #[test]
    fn relative_files_in_the_prefix_become_absolute() {
        // Tests run in the crate's directory, where Cargo.toml exists.
        let words = [
            "python3",
            "Cargo.toml",
            "-x",
            "/bin/sh",
            "no-such-file",
            "src/lib.rs",
        ];
        let prefix = absolute_paths(words.iter().map(|w| (*w).to_owned()).collect());
        let here = std::env::current_dir().unwrap().canonicalize().unwrap();
        assert_eq!(prefix[0], "python3", "a bare program is looked up on PATH");
        assert_eq!(prefix[1], here.join("Cargo.toml").to_string_lossy());
        assert_eq!(prefix[2..5], ["-x", "/bin/sh", "no-such-file"]);
        assert_eq!(prefix[5], here.join("src/lib.rs").to_string_lossy());
    }
}
