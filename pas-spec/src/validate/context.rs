//! What several rule families need to know about the spec as a whole, computed once.
//!
//! Keeping these indexes here (and in hash maps) is what keeps the validator linear: no rule scans
//! all commands for each command.

use std::collections::HashMap;

use crate::{Command, Profile, Registry, Verb};

use super::report::{self, Pointer};

/// The registry and the indexes built from it.
pub(crate) struct Context<'a> {
    pub registry: &'a Registry,
    /// Each command's argv path, in command order (see [`Command::argv_path`]).
    pub paths: Vec<Vec<String>>,
    /// The first command with each dotted name.
    pub by_name: HashMap<&'a str, usize>,
    /// The verbs some resource offers: the built CLI gets one generated command for each.
    pub verbs: Vec<Verb>,
}

impl<'a> Context<'a> {
    pub fn new(registry: &'a Registry) -> Context<'a> {
        let mut by_name = HashMap::with_capacity(registry.commands.len());
        for (index, command) in registry.commands.iter().enumerate() {
            by_name.entry(command.name.as_str()).or_insert(index);
        }
        let verbs = Verb::ALL
            .into_iter()
            .filter(|verb| registry.resources.iter().any(|r| r.verbs.contains(verb)))
            .collect();
        Context {
            registry,
            paths: registry.commands.iter().map(Command::argv_path).collect(),
            by_name,
            verbs,
        }
    }

    pub fn profile(&self) -> Profile {
        self.registry.profile
    }

    /// Where a command's argv path is written: `path` when explicit, else the dotted name it
    /// comes from.
    pub fn path_pointer(&self, index: usize) -> Pointer {
        let field = if self.registry.commands[index].path.is_some() {
            "path"
        } else {
            "name"
        };
        report::command(index).at(field)
    }

    /// Why a command word is taken by the built CLI itself, if it is.
    pub fn reserved_word(&self, word: &str) -> Option<&'static str> {
        // `mcp` is not reserved: a tool's own `mcp` command wins over the built-in server.
        let builtin = crate::surface::of(self.profile())
            .builtin_words()
            .any(|b| b.word == word && b.word != crate::surface::MCP_WORD);
        match (word, self.profile()) {
            ("help", _) => Some("the built-in `help` command"),
            ("docs" | "completions" | "man", _) => {
                Some("a built-in documentation command (`.llm`, completions, man page)")
            }
            (crate::surface::CAPABILITIES_WORD | crate::surface::SESSIONS_WORD, Profile::Robot) => {
                Some("a built-in command of the robot profile")
            }
            _ if builtin => {
                Some("a built-in command of the profile (see `surface::BUILTIN_WORDS`)")
            }
            _ if self.verbs.iter().any(|verb| verb.as_str() == word) => {
                Some("a verb command generated from `resources`")
            }
            _ => None,
        }
    }

    /// The exit-code constants every tool of this profile has without declaring them, with their
    /// codes; a command's `errors` may name them.
    pub fn implicit_exit_codes(&self) -> &'static [(&'static str, u16)] {
        match self.profile() {
            Profile::Pas | Profile::Compose => &[("GENERAL_ERROR", 1), ("INVALID_ARGUMENT", 2)],
            Profile::Robot => &[],
        }
    }

    /// The flags the built CLI adds to a command (or, with `None`, to every command): clap's
    /// `--help`, and what the profile's surface table says (`surface::Surface::flags`, the list
    /// `--format`, the confirm flag, robot's session flags), the table every face reads too.
    pub fn builtin_flags(&self, command: Option<&Command>) -> Vec<BuiltinFlag> {
        let surface = crate::surface::of(self.profile());
        // `--agent` and `--format` stay accepted in every profile's examples (compose's runtime
        // answers them with a hint to drop them, which an example may show).
        let mut flags = vec![
            BuiltinFlag::switch("help", Some('h')),
            BuiltinFlag::switch("agent", None),
            BuiltinFlag::valued("format"),
        ];
        for flag in surface.flags {
            if flags.iter().any(|f| f.long == flag.long) {
                continue;
            }
            let short = (flag.long == "version").then_some('V');
            flags.push(match flag.value {
                None => BuiltinFlag::switch(flag.long, short),
                Some(_) => BuiltinFlag::valued(flag.long),
            });
        }
        // `--timeout` where the runtime gives it (a tool may own the name).
        if crate::surface::runtime_timeout_flag(self.registry)
            && !flags.iter().any(|f| f.long == crate::surface::TIMEOUT.long)
        {
            flags.push(BuiltinFlag::valued(crate::surface::TIMEOUT.long));
        }
        // The command's own: the rows the faces list for it (`--dry-run`, the confirm flag,
        // robot's `--session`/`--resume`, `--wait`, `--idempotency-key`), and `--input-file`.
        if let Some(command) = command {
            for flag in crate::faces::command_switches(self.registry, command) {
                flags.push(match flag.value {
                    None => BuiltinFlag::switch(flag.long, None),
                    Some(_) => BuiltinFlag::valued(flag.long),
                });
            }
            if crate::faces::has_input_file(command) {
                flags.push(BuiltinFlag::valued(crate::faces::INPUT_FILE_FLAG));
            }
        }
        flags
    }
}

/// A flag the built CLI adds by itself.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BuiltinFlag {
    pub long: &'static str,
    pub short: Option<char>,
    pub takes_value: bool,
}

impl BuiltinFlag {
    fn switch(long: &'static str, short: Option<char>) -> BuiltinFlag {
        BuiltinFlag {
            long,
            short,
            takes_value: false,
        }
    }

    fn valued(long: &'static str) -> BuiltinFlag {
        BuiltinFlag {
            long,
            short: None,
            takes_value: true,
        }
    }
}
