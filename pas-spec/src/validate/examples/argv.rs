//! Parsing an example's argv the way the built CLI (clap) will: command words first, then the
//! command's flags and positionals, with the global and built-in flags accepted everywhere.
//!
//! This is a model of the generated parser, not clap itself: pas-spec does not depend on clap,
//! and a model can explain each mismatch in the spec's own words.

use std::collections::HashMap;

use crate::{Command, ParamKind, ParamType, Parameter};

use super::super::casing::{did_you_mean, suggestion, with_article};
use super::super::context::Context;
use super::super::placeholder::is_placeholder;

/// A command an argv can select: one of the spec's, or a verb generated from the resources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Command(usize),
    Verb(usize),
}

/// What an argv selects.
#[derive(Debug, PartialEq, Eq)]
pub enum Selection {
    /// A command, whose arguments were checked.
    Target(Target),
    /// A command the CLI adds by itself (`help`, `tools`, ...), whose arguments are not checked.
    BuiltIn(String),
    /// No command, in a `--help` or `--version` call.
    Nothing,
    /// No command, and a problem says why.
    Failed,
}

/// One mismatch between the example and the spec.
#[derive(Debug)]
pub struct Problem {
    pub code: &'static str,
    pub message: String,
    pub hint: String,
}

/// The outcome of parsing one argv.
pub struct Parsed<'s> {
    pub selection: Selection,
    /// Every value given to a parameter (for the secret check), in argv order.
    pub values: Vec<(&'s Parameter, String)>,
    pub problems: Vec<Problem>,
}

/// The command tree of the built CLI.
pub struct Cli<'a> {
    context: &'a Context<'a>,
    /// The commands generated from resources (`ls`, `cat`, ...).
    verbs: Vec<Command>,
    /// Every full route (path, or path with an alias as the last word) and what it selects.
    routes: HashMap<Vec<String>, Target>,
    /// Every strict prefix of a route, with the words that may follow it.
    groups: HashMap<Vec<String>, Vec<String>>,
    /// A single-command tool's command, selected without any word.
    root: Option<Target>,
}

/// A flag as the parser sees it.
#[derive(Clone, Copy)]
struct Flag<'s> {
    long: &'s str,
    takes_value: bool,
    /// `None` for the built-in flags.
    parameter: Option<&'s Parameter>,
}

/// The flags valid at one point of the argv.
#[derive(Default)]
struct Flags<'s> {
    long: HashMap<&'s str, Flag<'s>>,
    short: HashMap<char, Flag<'s>>,
}

impl<'s> Flags<'s> {
    fn add(&mut self, flag: Flag<'s>, short: Option<char>) {
        self.long.insert(flag.long, flag);
        if let Some(short) = short {
            self.short.insert(short, flag);
        }
    }
}

impl<'a> Cli<'a> {
    pub fn new(context: &'a Context<'a>) -> Cli<'a> {
        let verbs = crate::verbs::verb_commands(context.registry);
        let mut routes = HashMap::new();
        let commands = context.registry.commands.iter().enumerate();
        for (index, command) in commands {
            let path = &context.paths[index];
            let target = Target::Command(index);
            routes.entry(path.clone()).or_insert(target);
            if let Some((_, parent)) = path.split_last() {
                for alias in &command.aliases {
                    let mut route = parent.to_vec();
                    route.push(alias.clone());
                    routes.entry(route).or_insert(target);
                }
            }
        }
        // The spec's commands win a clash with a verb; the clash itself is reported by `names`.
        for (index, verb) in verbs.iter().enumerate() {
            routes
                .entry(verb.argv_path())
                .or_insert(Target::Verb(index));
        }
        let mut groups: HashMap<Vec<String>, Vec<String>> = HashMap::new();
        for route in routes.keys() {
            for length in 0..route.len() {
                let next = groups.entry(route[..length].to_vec()).or_default();
                if !next.contains(&route[length]) {
                    next.push(route[length].clone());
                }
            }
        }
        // Sorted, so that hints read the same on every run (the routes come from a hash map).
        for next in groups.values_mut() {
            next.sort();
        }
        let root = routes.get(&Vec::new()).copied();
        Cli {
            context,
            verbs,
            routes,
            groups,
            root,
        }
    }

    pub fn command(&self, target: Target) -> &Command {
        match target {
            Target::Command(index) => &self.context.registry.commands[index],
            Target::Verb(index) => &self.verbs[index],
        }
    }

    /// The flags valid once `target` is selected (or before any command is).
    fn flags(&self, target: Option<Target>) -> Flags<'_> {
        let command = target.map(|target| self.command(target));
        let mut flags = Flags::default();
        for builtin in self.context.builtin_flags(command) {
            let flag = Flag {
                long: builtin.long,
                takes_value: builtin.takes_value,
                parameter: None,
            };
            flags.add(flag, builtin.short);
        }
        let own = command.map(|c| c.parameters.as_slice()).unwrap_or_default();
        for parameter in self.context.registry.global_flags.iter().chain(own) {
            if parameter.kind == ParamKind::Flag {
                let flag = Flag {
                    long: &parameter.name,
                    takes_value: parameter.ty != ParamType::Boolean,
                    parameter: Some(parameter),
                };
                flags.add(flag, parameter.short);
            }
        }
        flags
    }

    /// Parse the words after the tool's name. With `appends_args`, a prefix such as `xargs` adds
    /// arguments at run time, so missing positionals are not reported.
    pub fn parse(&self, args: &[String], appends_args: bool) -> Parsed<'_> {
        let mut parser = Parser {
            cli: self,
            target: self.root,
            flags: self.flags(self.root),
            route: Vec::new(),
            given: Vec::new(),
            positionals: Vec::new(),
            help: false,
            lost: false,
            problems: Vec::new(),
        };
        let selection = parser.run(args);
        let mut values = Vec::new();
        if let Selection::Target(target) = selection
            && !parser.help
            && !parser.lost
        {
            parser.check_required(target);
            values.extend(parser.assign_positionals(target, appends_args));
        }
        values.extend(parser.given.into_iter().filter_map(|(p, v)| Some((p, v?))));
        Parsed {
            selection,
            values,
            problems: parser.problems,
        }
    }
}

/// The state of one parse.
struct Parser<'s> {
    cli: &'s Cli<'s>,
    target: Option<Target>,
    flags: Flags<'s>,
    /// The command words read so far, while no command is selected.
    route: Vec<String>,
    /// The flags given, with their values.
    given: Vec<(&'s Parameter, Option<String>)>,
    positionals: Vec<String>,
    /// A `--help`/`-h` or `--version`/`-V` call: nothing is required then.
    help: bool,
    /// An unknown flag was met: whether it took the next word is unknown, so the words after it
    /// cannot be told apart (command word, positional or value) and are not judged.
    lost: bool,
    problems: Vec<Problem>,
}

impl<'s> Parser<'s> {
    fn problem(&mut self, code: &'static str, message: String, hint: impl Into<String>) {
        self.problems.push(Problem {
            code,
            message,
            hint: hint.into(),
        });
    }

    fn run(&mut self, args: &[String]) -> Selection {
        let mut words = args.iter();
        let mut only_positionals = false;
        while let Some(word) = words.next() {
            if self.lost && self.target.is_none() {
                return Selection::Failed;
            }
            if only_positionals || word == "-" || !word.starts_with('-') {
                if self.target.is_some() {
                    self.positionals.push(word.clone());
                } else if let Some(done) = self.command_word(word) {
                    return done;
                }
            } else if word == "--" {
                only_positionals = true;
            } else if let Some(long) = word.strip_prefix("--") {
                self.long_flag(long, &mut words);
            } else {
                self.short_flags(&word[1..], &mut words);
            }
        }
        match self.target {
            Some(target) => Selection::Target(target),
            None if self.help => Selection::Nothing,
            None if self.lost => Selection::Failed,
            None => {
                let next = self
                    .cli
                    .groups
                    .get(&self.route)
                    .cloned()
                    .unwrap_or_default();
                let message = if self.route.is_empty() {
                    "The example selects no command.".to_owned()
                } else {
                    format!(
                        "The example stops at the group `{}`, which is not a command.",
                        self.route.join(" ")
                    )
                };
                self.problem(
                    "E072",
                    message,
                    format!("Add the command's words; here one of: {}.", some_of(&next)),
                );
                Selection::Failed
            }
        }
    }

    /// A word before the command is selected: the next step down the command tree. Returns the
    /// selection when the parse must stop here.
    fn command_word(&mut self, word: &str) -> Option<Selection> {
        self.route.push(word.to_owned());
        if let Some(&target) = self.cli.routes.get(&self.route) {
            self.target = Some(target);
            self.flags = self.cli.flags(Some(target));
            return None;
        }
        if self.cli.groups.contains_key(&self.route) {
            return None;
        }
        // clap adds `help` to every group; the other built-in words live at the top only.
        if word == "help" || self.route.len() == 1 && self.cli.context.reserved_word(word).is_some()
        {
            return Some(Selection::BuiltIn(word.to_owned()));
        }
        let parent = &self.route[..self.route.len() - 1];
        let next = self.cli.groups.get(parent).cloned().unwrap_or_default();
        let at = if parent.is_empty() {
            String::new()
        } else {
            format!(" after `{}`", parent.join(" "))
        };
        self.problem(
            "E072",
            format!(
                "The example names the command word `{word}`{at}, which the tool does not have."
            ),
            format!(
                "Use one of: {}.{}",
                some_of(&next),
                suggestion(word, next.iter().map(String::as_str))
            ),
        );
        Some(Selection::Failed)
    }

    fn long_flag<'w>(&mut self, text: &str, words: &mut impl Iterator<Item = &'w String>) {
        let (name, inline) = match text.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (text, None),
        };
        let Some(flag) = self.flags.long.get(name).copied() else {
            let known = self.flags.long.keys().copied();
            let hint = match did_you_mean(name, known) {
                Some(close) => format!("Did you mean `--{close}`?"),
                None => format!("{}.", self.valid_flags()),
            };
            self.problem(
                "E073",
                format!(
                    "The example uses the flag `--{name}`, which {} does not have.",
                    self.scope_name()
                ),
                hint,
            );
            self.lost = true;
            return;
        };
        let shown = format!("--{name}");
        if flag.takes_value {
            let value = inline.or_else(|| words.next().cloned());
            self.given_value(flag, &shown, value);
        } else if let Some(value) = inline {
            self.problem(
                "E074",
                format!("The switch `{shown}` takes no value, but the example gives it `{value}`."),
                format!("Write `{shown}` alone to turn it on."),
            );
        } else {
            self.given_value(flag, &shown, None);
        }
    }

    /// `-v`, `-abc` (switches), `-n5` or `-n 5` (a value).
    fn short_flags<'w>(&mut self, cluster: &str, words: &mut impl Iterator<Item = &'w String>) {
        for (offset, short) in cluster.char_indices() {
            let Some(flag) = self.flags.short.get(&short).copied() else {
                self.problem(
                    "E073",
                    format!(
                        "The example uses the short flag `-{short}`, which {} does not have.",
                        self.scope_name()
                    ),
                    format!("{}.", self.valid_flags()),
                );
                self.lost = true;
                return;
            };
            let shown = format!("-{short}");
            if flag.takes_value {
                let rest = &cluster[offset + short.len_utf8()..];
                let value = if rest.is_empty() {
                    words.next().cloned()
                } else {
                    Some(rest.strip_prefix('=').unwrap_or(rest).to_owned())
                };
                self.given_value(flag, &shown, value);
                return;
            }
            if let Some(value) = cluster[offset + short.len_utf8()..].strip_prefix('=') {
                self.problem(
                    "E074",
                    format!(
                        "The switch `{shown}` takes no value, but the example gives it `{value}`."
                    ),
                    format!("Write `{shown}` alone to turn it on."),
                );
                return;
            }
            self.given_value(flag, &shown, None);
        }
    }

    /// Record a flag occurrence and check its value.
    fn given_value(&mut self, flag: Flag<'s>, shown: &str, value: Option<String>) {
        let Some(parameter) = flag.parameter else {
            if matches!(flag.long, "help" | "version") {
                self.help = true;
            }
            if flag.takes_value && value.is_none() {
                self.missing_value(shown);
            }
            return;
        };
        if flag.takes_value && value.is_none() {
            self.missing_value(shown);
            return;
        }
        if !parameter.is_many() && self.given.iter().any(|(p, _)| std::ptr::eq(*p, parameter)) {
            self.problem(
                "E074",
                format!("The example gives `{shown}` more than once, but it takes one value."),
                "Give the flag once, or make it `type: array` to accept it repeated.",
            );
        }
        if let Some(value) = &value
            && let Some(problem) = check_value(parameter, shown, value)
        {
            self.problems.push(problem);
        }
        self.given.push((parameter, value));
    }

    fn missing_value(&mut self, shown: &str) {
        self.problem(
            "E074",
            format!("The flag `{shown}` needs a value, but the example ends without one."),
            format!("Give a value after `{shown}`, e.g. `{shown} <value>`."),
        );
    }

    fn scope_name(&self) -> String {
        match self.target {
            Some(target) => format!("`{}`", self.cli.command(target).name),
            None => "the tool (before a command word)".to_owned(),
        }
    }

    /// Which flags are valid here, for a hint.
    fn valid_flags(&self) -> &'static str {
        match self.target {
            Some(_) => {
                "Use one of the command's flags, a global flag, or a built-in one such as `--agent`"
            }
            None => {
                "Before the command's words only global and built-in flags are valid; put the command's own flags after its words"
            }
        }
    }

    /// Required flags must be given, unless an environment variable can supply them.
    fn check_required(&mut self, target: Target) {
        let command = self.cli.command(target);
        let flags = self
            .cli
            .context
            .registry
            .global_flags
            .iter()
            .chain(&command.parameters);
        let missing: Vec<&Parameter> = flags
            .filter(|p| {
                p.kind == ParamKind::Flag && p.required && p.default.is_none() && p.env.is_none()
            })
            .filter(|p| !self.given.iter().any(|(given, _)| std::ptr::eq(*given, *p)))
            .collect();
        for parameter in missing {
            self.problem(
                "E075",
                format!(
                    "The example leaves out `--{}`, which `{}` requires.",
                    parameter.name, command.name
                ),
                format!("Add `--{} <value>` to the example.", parameter.name),
            );
        }
    }

    /// Hand the positional words to the positional parameters in order; a variadic takes the
    /// rest. Returns the values given, for the secret check.
    fn assign_positionals(
        &mut self,
        target: Target,
        appends_args: bool,
    ) -> Vec<(&'s Parameter, String)> {
        let command = self.cli.command(target);
        let mut words = std::mem::take(&mut self.positionals).into_iter();
        let mut values = Vec::new();
        for parameter in command
            .parameters
            .iter()
            .filter(|p| p.kind != ParamKind::Flag)
        {
            let shown = format!("<{}>", parameter.name);
            let taken: Vec<String> = match parameter.kind {
                ParamKind::Variadic => words.by_ref().collect(),
                _ => words.next().into_iter().collect(),
            };
            if taken.is_empty()
                && parameter.required
                && parameter.default.is_none()
                && !appends_args
            {
                self.problem(
                    "E075",
                    format!(
                        "The example leaves out the positional `{shown}`, which `{}` requires.",
                        command.name
                    ),
                    format!("Add a value for `{shown}` to the example."),
                );
            }
            for value in taken {
                if let Some(problem) = check_value(parameter, &shown, &value) {
                    self.problems.push(problem);
                }
                values.push((parameter, value));
            }
        }
        let extra: Vec<String> = words.collect();
        if !extra.is_empty() {
            self.problem(
                "E076",
                format!(
                    "The example gives `{}` more positional values than it takes: `{}`.",
                    command.name,
                    extra.join(" ")
                ),
                "Remove the extra words, or give them to a flag; a variadic positional takes many values.",
            );
        }
        values
    }
}

/// A value checked against the parameter's element type and enum. Placeholders stand for any
/// value.
fn check_value(parameter: &Parameter, shown: &str, value: &str) -> Option<Problem> {
    if is_placeholder(value) {
        return None;
    }
    let element = parameter.element_type();
    let fits = match element {
        ParamType::Integer => value.parse::<i64>().is_ok(),
        ParamType::Number => value.parse::<f64>().is_ok_and(f64::is_finite),
        ParamType::Boolean => matches!(value, "true" | "false"),
        ParamType::String | ParamType::Array => true,
    };
    if !fits {
        return Some(Problem {
            code: "E074",
            message: format!(
                "`{shown}` takes a value of type {}, but the example gives `{value}`.",
                element.as_str()
            ),
            hint: format!(
                "Give {} value, or a placeholder such as `<{}>`.",
                with_article(element.as_str()),
                parameter.name
            ),
        });
    }
    match &parameter.values {
        Some(values) if element == ParamType::String && !values.iter().any(|v| v == value) => {
            Some(Problem {
                code: "E074",
                message: format!(
                    "`{shown}` takes one of {}, but the example gives `{value}`.",
                    values.join(", ")
                ),
                hint: format!("Use one of: {}.", values.join(", ")),
            })
        }
        _ => None,
    }
}

/// A list of words for a hint, cut short when a tool has many commands.
fn some_of(words: &[String]) -> String {
    const SHOWN: usize = 8;
    if words.len() <= SHOWN {
        return words.join(", ");
    }
    format!(
        "{}, ... ({} in all)",
        words[..SHOWN].join(", "),
        words.len()
    )
}
