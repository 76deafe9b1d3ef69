//! Typed access to the parsed arguments of the selected command.
//!
//! Names are the parameter's name in kebab-case or snake_case (`dry-run` and `dry_run` both
//! work): clap ids follow clap derive's snake_case. Asking for the wrong type is a bug in the
//! handler and comes back as `INTERNAL_ERROR`, never as a panic.

use std::any::Any;

use clap::ArgMatches;
use clap::parser::MatchesError;

use crate::codes;
use crate::error::Error;

/// The parsed arguments of the command being run.
#[derive(Debug, Clone)]
pub struct Args {
    matches: ArgMatches,
    /// The whole call's matches, when the selected command is a subcommand.
    root: Option<ArgMatches>,
}

impl Args {
    /// Wraps clap's matches for the selected (innermost) command.
    pub fn new(matches: ArgMatches) -> Self {
        Args {
            matches,
            root: None,
        }
    }

    /// Keeps the whole call's matches too, for handlers that rebuild a clap-derived value.
    pub(crate) fn with_root(mut self, root: &ArgMatches) -> Self {
        self.root = Some(root.clone());
        self
    }

    /// The matches of the whole call (from the tool's root), which clap's
    /// `FromArgMatches::from_arg_matches` of the root type reads.
    pub fn root_matches(&self) -> &ArgMatches {
        self.root.as_ref().unwrap_or(&self.matches)
    }

    /// One value, if given or defaulted. `T` is `String`, `i64`, `f64` or `bool` for a
    /// registry-built parser, or the field's type for a derive-built one.
    pub fn get<T: Any + Clone + Send + Sync + 'static>(
        &self,
        name: &str,
    ) -> Result<Option<T>, Error> {
        let id = id(name);
        self.matches
            .try_get_one::<T>(&id)
            .map(|v| v.cloned())
            .map_err(|e| wrong_access(&id, e))
    }

    /// One value that must be there (clap already enforces `required`; this also covers a
    /// handler that needs a value the registry left optional).
    pub fn require<T: Any + Clone + Send + Sync + 'static>(&self, name: &str) -> Result<T, Error> {
        self.get(name)?.ok_or_else(|| {
            Error::new(codes::MISSING_ARGUMENT, format!("{name} is required"))
                .with_suggestion(format!("give --{}", name.replace('_', "-")))
        })
    }

    /// Every value of a repeatable flag or a variadic positional (empty when none).
    pub fn many<T: Any + Clone + Send + Sync + 'static>(
        &self,
        name: &str,
    ) -> Result<Vec<T>, Error> {
        let id = id(name);
        match self.matches.try_get_many::<T>(&id) {
            Ok(Some(values)) => Ok(values.cloned().collect()),
            Ok(None) => Ok(Vec::new()),
            Err(e) => Err(wrong_access(&id, e)),
        }
    }

    /// A boolean switch: true when given.
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get::<bool>(name), Ok(Some(true)))
    }

    /// clap's matches, for what this accessor does not cover.
    pub fn matches(&self) -> &ArgMatches {
        &self.matches
    }
}

fn id(name: &str) -> String {
    name.replace('-', "_")
}

fn wrong_access(id: &str, err: MatchesError) -> Error {
    Error::internal(format!("the handler read argument {id} wrongly: {err}"))
}

/// The handler's arguments. A single-command tool's leaf is the root itself, whose one copy
/// serves both (cloning clap's matches is a visible share of start-up).
pub(crate) fn args_of(matches: &clap::ArgMatches, leaf: &clap::ArgMatches) -> Args {
    if std::ptr::eq(matches, leaf) {
        Args::new(leaf.clone())
    } else {
        Args::new(leaf.clone()).with_root(matches)
    }
}
