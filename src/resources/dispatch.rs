//! From a parsed verb call to the handler's method: the path resolved and checked against the
//! resources, the arguments typed, the result rendered as the shape PAS fixes.

use std::path::PathBuf;
use std::sync::Arc;

use clap::FromArgMatches;
use pas_spec::{Registry, Verb};
use serde_json::Value;

use super::Resources;
use super::path::ResourcePath;
use super::tree::{self, Above};
use super::types::{CopySource, Entry, Feedback, Stat};
use crate::codes;
use crate::error::Error;
use crate::handler::args::Args;
use crate::handler::context::Context;
use crate::reply::Reply;
use crate::reply::items::Items;

/// A tool's resource handlers, with their types erased.
pub(crate) type VerbHandler = dyn Fn(Verb, &Args, &Context) -> Result<Reply, Error> + Send + Sync;

/// The handler the app calls for every verb.
pub(crate) fn handler<R: Resources + Send + Sync>(resources: Arc<R>) -> Box<VerbHandler> {
    Box::new(move |verb, args, ctx| call(&resources, verb, args, ctx))
}

/// The verb a command name is, when the registry's resources offer it.
pub(crate) fn verb_named(registry: &Registry, name: &str) -> Option<Verb> {
    let verb = Verb::ALL.into_iter().find(|v| v.as_str() == name)?;
    registry
        .resources
        .iter()
        .any(|r| r.verbs.contains(&verb))
        .then_some(verb)
}

fn call<R: Resources>(
    resources: &Arc<R>,
    verb: Verb,
    args: &Args,
    ctx: &Context,
) -> Result<Reply, Error> {
    let registry = ctx.registry();
    let globals = R::Globals::from_arg_matches(args.matches()).map_err(|err| {
        Error::internal(format!(
            "the global flags do not fit the tool's type: {err}"
        ))
    })?;
    let text = |name: &str| args.require::<String>(name);
    match verb {
        Verb::Ls => {
            let path = ResourcePath::resolve(registry, &text("path")?)?;
            let items = children(&**resources, &globals, &path, ctx)?;
            Ok(items.with_text(Entry::text).into_list())
        }
        Verb::Cat | Verb::Stat | Verb::Rm => {
            let paths = args.many::<String>("path")?;
            let one = |raw: &str| one_path(&**resources, &globals, verb, raw, args, ctx);
            match paths.as_slice() {
                [raw] => Ok(Reply::object(&one(raw)?)),
                _ => Ok(super::many::results(&paths, one)),
            }
        }
        Verb::Cp => {
            let dest = offered(registry, &text("dest")?, verb)?;
            let source = text("source")?;
            let source = match ResourcePath::resolve(registry, &source) {
                Ok(path) if source.starts_with('/') && path.template().is_some() => {
                    CopySource::Resource(path)
                }
                _ => {
                    // Devices and files past the input limit never reach the handler's read.
                    crate::guards::input::check_local_source(std::path::Path::new(&source))?;
                    CopySource::Local(PathBuf::from(source))
                }
            };
            let copied = resources.cp(&globals, &source, &dest, ctx)?;
            Ok(Reply::object(&copied))
        }
        Verb::Sync => {
            let remote = offered(registry, &text("remote")?, verb)?;
            let local = PathBuf::from(text("local")?);
            let events = Arc::clone(resources).sync(&globals, &remote, &local, ctx)?;
            Ok(events.into_events())
        }
        Verb::Feedback => {
            let path = offered(registry, &text("path")?, verb)?;
            let feedback = Feedback {
                path: path.as_str().to_owned(),
                level: text("level")?,
                message: text("message")?,
                email: args.get::<String>("email")?,
                context: args.get::<String>("context")?,
            };
            let receipt = resources.feedback(&globals, &feedback, ctx)?;
            Ok(Reply::object(&receipt))
        }
    }
}

/// `cat`, `stat` or `rm` of one path, as the JSON the call answers with.
fn one_path<R: Resources + ?Sized>(
    resources: &R,
    globals: &R::Globals,
    verb: Verb,
    raw: &str,
    args: &Args,
    ctx: &Context,
) -> Result<Value, Error> {
    let registry = ctx.registry();
    match verb {
        Verb::Cat => {
            let path = ResourcePath::resolve(registry, raw)?;
            if !offers(registry, &path, verb) {
                if tree::above(registry, path.as_str()) != Above::Nothing {
                    return Err(Error::new(
                        codes::INVALID_ARGUMENT,
                        format!("{path} is a directory, which has no content to read"),
                    )
                    .with_suggestion(format!("{} --agent ls {path}", registry.name)));
                }
                return Err(unsupported(registry, &path, verb));
            }
            let content = resources.cat(globals, &path, ctx)?;
            json(&content)
        }
        Verb::Stat => {
            let path = ResourcePath::resolve(registry, raw)?;
            if offers(registry, &path, verb) {
                let stat = resources.stat(globals, &path, ctx)?;
                return json(&stat);
            }
            match tree::above(registry, path.as_str()) {
                Above::Nothing => Err(unsupported(registry, &path, verb)),
                _ => json(&Stat::dir(path.as_str())),
            }
        }
        _ => {
            // A wildcard is refused before it is matched: `/*` matches no template.
            super::rm_guard::check(&ResourcePath::resolve(registry, raw)?, args, ctx)?;
            let path = offered(registry, raw, verb)?;
            let removed = resources.rm(globals, &path, ctx)?;
            json(&removed)
        }
    }
}

/// A handler's answer as JSON (a `Serialize` that fails is the handler's bug).
fn json<T: serde::Serialize>(value: &T) -> Result<Value, Error> {
    serde_json::to_value(value)
        .map_err(|err| Error::internal(format!("the verb's answer is not JSON: {err}")))
}

/// The children of a path: the handler's `ls` where the path's resource offers it, else the
/// literal words the templates below it name.
pub(crate) fn children<R: Resources + ?Sized>(
    resources: &R,
    globals: &R::Globals,
    path: &ResourcePath,
    ctx: &Context,
) -> Result<Items<Entry>, Error> {
    let registry = ctx.registry();
    if offers(registry, path, Verb::Ls) {
        return resources.ls(globals, path, ctx);
    }
    match tree::above(registry, path.as_str()) {
        Above::Listed(entries) => Ok(Items::ok(entries)),
        Above::Unlisted(templates) => Err(Error::new(
            codes::INVALID_ARGUMENT,
            format!(
                "{path} holds {} entries, and no resource lists them",
                templates.join(", ")
            ),
        )
        .with_suggestion(format!(
            "list a path the tool documents: `{} --agent --help` shows the resources",
            registry.name
        ))),
        Above::Nothing => Err(unsupported(registry, path, Verb::Ls)),
    }
}

/// Whether the path's resource offers the verb.
fn offers(registry: &Registry, path: &ResourcePath, verb: Verb) -> bool {
    path.resource(registry)
        .is_some_and(|resource| resource.verbs.contains(&verb))
}

/// The path, resolved, when its resource offers the verb.
fn offered(registry: &Registry, raw: &str, verb: Verb) -> Result<ResourcePath, Error> {
    let path = ResourcePath::resolve(registry, raw)?;
    if offers(registry, &path, verb) {
        Ok(path)
    } else {
        Err(unsupported(registry, &path, verb))
    }
}

/// A path no resource offering the verb matches: which paths do.
fn unsupported(registry: &Registry, path: &ResourcePath, verb: Verb) -> Error {
    let supporting: Vec<&str> = registry
        .resources
        .iter()
        .filter(|r| r.verbs.contains(&verb))
        .map(|r| r.path.as_str())
        .collect();
    let message = match path.resource(registry) {
        Some(resource) => {
            let verbs: Vec<&str> = resource.verbs.iter().map(|v| v.as_str()).collect();
            let what = if resource.path == path.as_str() {
                path.to_string()
            } else {
                format!("{path} (a {} path)", resource.path)
            };
            format!("{what} offers {}, not {}", verbs.join(", "), verb.as_str())
        }
        None => format!("no resource of {} has the path {path}", registry.name),
    };
    Error::new(codes::INVALID_ARGUMENT, message).with_suggestion(format!(
        "{} works on {}; `{} --agent ls /` shows the top",
        verb.as_str(),
        supporting.join(", "),
        registry.name
    ))
}
