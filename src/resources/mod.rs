//! Levels 3 and 4: a tool's data as paths, and the verbs PAS fixes for them (`ls`, `cat`,
//! `stat`, `cp`, `rm`, `sync`, `feedback`).
//!
//! The registry's `resources` say which path templates exist and which verbs each offers; the
//! runtime turns them into commands (see [`pas_spec::verbs`]) and routes every call here. Before
//! a handler runs, the runtime has normalised the path (PAS 5.3), matched it to a template (its
//! placeholders are [`ResourcePath::param`]), checked that the template offers the verb, and
//! refused without `--force` an `rm` of a wildcard (PAS 6.1) or of a container, which deletes
//! everything in it ([`pas_spec::verbs::is_container`]). It answers `ls` and `stat` itself for
//! the directories above the templates (the root `/` of a tool whose resources start at
//! `/collections`), so handlers only deal with their own data.
//!
//! A handler implements [`Resources`]: one method per verb, each returning the typed shape PAS
//! fixes ([`Entry`], [`Stat`], [`Copied`], [`Removed`], [`SyncEvent`], [`FeedbackReceipt`]).
//! `sync` and `feedback` have working defaults: `sync` walks `ls` and pulls each file with `cat`,
//! writing only what changed, through a [`crate::services::store::Root`] confined to the local directory;
//! `feedback` appends the report to a JSON Lines file in the tool's XDG state directory, under a
//! lock so that concurrent reports get distinct numbers. Handlers whose resources are local files
//! read and write them through [`crate::services::store::Root`] too.

pub(crate) mod dispatch;
mod feedback;
mod many;
pub(crate) mod path;
mod rm_guard;
mod sync;
mod tree;
mod types;

use std::path::Path;
use std::sync::Arc;

use pas_spec::Verb;

use crate::error::Error;
use crate::handler::context::Context;
use crate::reply::items::Items;

pub use path::{ResourcePath, wildcard_matches};
pub use sync::SYMLINK_LOOP;
pub use types::{
    Copied, CopySource, Entry, Feedback, FeedbackReceipt, Kind, Removed, Stat, SyncEvent,
};

/// The error constant of a verb the registry offers but the handler does not implement.
pub use pas_spec::runtime_codes::NOT_IMPLEMENTED;

/// The handlers of a tool's resources: one method per verb. Only the verbs a resource offers
/// are ever called, with a path that resource's template matched; the others keep their
/// default, a structured `NOT_IMPLEMENTED` error. The crate documentation's level 3 example
/// runs a whole tool built on it.
///
/// ```
/// struct Store;
///
/// impl pas::Resources for Store {
///     type Globals = pas::NoGlobals;
///
///     fn cat(&self, _: &pas::NoGlobals, path: &pas::ResourcePath, _: &pas::Context)
///         -> Result<serde_json::Value, pas::Error> {
///         let id = path.param("id").unwrap_or_default();
///         Ok(serde_json::json!({ "id": id }))
///     }
/// }
/// ```
pub trait Resources: 'static {
    /// The tool's global flags, parsed from the call: the generated `Globals` of a spec-first
    /// tool, a `#[derive(clap::Args)]` struct of a code-first one, or [`NoGlobals`].
    type Globals: clap::FromArgMatches + Clone + 'static;

    /// `ls PATH`: the children of a resource, streamed.
    fn ls(
        &self,
        globals: &Self::Globals,
        path: &ResourcePath,
        ctx: &Context,
    ) -> Result<Items<Entry>, Error> {
        let _ = (globals, path, ctx);
        Err(not_implemented(Verb::Ls))
    }

    /// `cat PATH`: the resource's complete content as one JSON value.
    fn cat(
        &self,
        globals: &Self::Globals,
        path: &ResourcePath,
        ctx: &Context,
    ) -> Result<serde_json::Value, Error> {
        let _ = (globals, path, ctx);
        Err(not_implemented(Verb::Cat))
    }

    /// `stat PATH`: the resource's metadata, without its content.
    fn stat(
        &self,
        globals: &Self::Globals,
        path: &ResourcePath,
        ctx: &Context,
    ) -> Result<Stat, Error> {
        let _ = (globals, path, ctx);
        Err(not_implemented(Verb::Stat))
    }

    /// `cp SOURCE DEST`: write `dest` from a local file or from another resource.
    fn cp(
        &self,
        globals: &Self::Globals,
        source: &CopySource,
        dest: &ResourcePath,
        ctx: &Context,
    ) -> Result<Copied, Error> {
        let _ = (globals, source, dest, ctx);
        Err(not_implemented(Verb::Cp))
    }

    /// `rm PATH`: delete the resource. A path with a wildcard ([`ResourcePath::is_pattern`]),
    /// or of a container (a resource with children), arrives only with `--force`; the handler
    /// decides what a wildcard matches.
    fn rm(
        &self,
        globals: &Self::Globals,
        path: &ResourcePath,
        ctx: &Context,
    ) -> Result<Removed, Error> {
        let _ = (globals, path, ctx);
        Err(not_implemented(Verb::Rm))
    }

    /// `sync REMOTE LOCAL`: pull a resource tree into a local directory, as events. The default
    /// walks `ls` from `remote`, reads each file with `cat` and writes it (as JSON) under
    /// `local` only when its bytes changed; it takes `Arc<Self>` because the events are
    /// produced one by one after the call returns.
    fn sync(
        self: Arc<Self>,
        globals: &Self::Globals,
        remote: &ResourcePath,
        local: &Path,
        ctx: &Context,
    ) -> Result<Items<SyncEvent>, Error>
    where
        Self: Sized,
    {
        Ok(sync::pull(
            self,
            globals.clone(),
            remote.clone(),
            local.to_owned(),
            ctx.clone(),
        ))
    }

    /// `feedback PATH --level L --message M`: record a report for the maintainers. The default
    /// appends it as one JSON line to `$XDG_STATE_HOME/<tool>/feedback.jsonl` (else
    /// `~/.local/state/<tool>/feedback.jsonl`); the receipt's `issue_id` is its line number,
    /// counted and appended under an exclusive lock on the file.
    fn feedback(
        &self,
        globals: &Self::Globals,
        feedback: &Feedback,
        ctx: &Context,
    ) -> Result<FeedbackReceipt, Error> {
        let _ = globals;
        feedback::record(&ctx.registry().name, feedback)
    }
}

/// The `Globals` of a tool without global flags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoGlobals;

impl clap::FromArgMatches for NoGlobals {
    fn from_arg_matches(_: &clap::ArgMatches) -> Result<Self, clap::Error> {
        Ok(NoGlobals)
    }

    fn update_from_arg_matches(&mut self, _: &clap::ArgMatches) -> Result<(), clap::Error> {
        Ok(())
    }
}

/// The error of a verb a resource offers and the handler has not written.
pub fn not_implemented(verb: Verb) -> Error {
    Error::new(
        NOT_IMPLEMENTED,
        format!("the verb {} is not implemented yet", verb.as_str()),
    )
    .with_suggestion(format!(
        "implement `Resources::{}` in the tool's handlers",
        verb.as_str()
    ))
}
